"""The tower's main loop: sensing, counting, the link protocol, LEDs, heartbeat and watchdog.

Hardware comes in through a HAL object (``hal_pico``, ``hal_circuitpython`` or ``hal_fake``);
nothing here imports a hardware module. The loop has two modes:

- sensing (a cube is in the beam or just left it): only edge handling and timed sensor reads;
  no serial writes, no LED writes, no flash;
- idle: serial input and output, commands, gate switch, ambient baseline, LEDs, heartbeat.

The watchdog is fed at the end of each healthy loop pass only.
"""

from towerfw import VERSION, codec, const, pieces
from towerfw.classifier import Classifier
from towerfw.counter import UNCERTAIN

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any

IDLE = const(0)
PULSE = const(1)  # beam interrupted
TAIL = const(2)  # beam clear again; one more integration still sees the cube
STUCK = const(3)  # beam interrupted for longer than stuck_ms

OUTBOX_MAX = 96
MAX_FAULTS = 20  # consecutive failing loop passes before the watchdog is left to bite
CAL_FILE = "cal.json"
BASE_STEP = 30  # counts: two empty-chute readings this far off the baseline in a row: a lamp


class Tower:
    if TYPE_CHECKING:  # set by start.py; declared for the type checker only (no code)
        hal: Any
        cfg: Any
        palette: Any
        colours: Any
        counts: Any
        ring: Any
        seq: Any
        outbox: Any
        decoder: Any
        _rx: Any
        cal: Any
        cal_saved_hash: Any
        cal_colour: Any
        cal_pulses: Any
        classifier: Any
        base: Any
        _last_jump: Any
        white_c: Any
        min_signal: Any
        _dark: Any
        boot_id: Any
        reset_cause: Any
        uid: Any
        up_ms: Any
        _last_ms: Any
        _hb_ms: Any
        _base_ms: Any
        _diag_ms: Any
        _led_ms: Any
        diag: Any
        state: Any
        burst: Any
        sample: Any
        t_entry: Any
        t_exit: Any
        t_rise2: Any
        grande_ok: Any
        tail_end: Any
        next_sample: Any
        read_us: Any
        last_edge: Any
        sensor_ok: Any
        sensor_fault: Any
        burst_fault: Any
        glitches: Any
        gate_open: Any
        _gate_raw: Any
        _gate_since: Any
        scene: Any
        limiter: Any
        frame: Any
        led_dirty: Any
        led_ma: Any
        _baseline_ms: Any
        _led_frame_ms: Any
        _heartbeat_ms: Any
        _integration_us: Any
        _tail_us: Any
        _stuck_us: Any
        best_samples: Any
        _beam_pending: Any
        _beam2_pending: Any
        _gc_activity: Any
        stopped: Any
        faults: Any
        fault_total: Any
        _repl_key: Any

    def __init__(
        self,
        hal: "Any",
        config: "dict[str, Any]",
        palette: "dict[str, Any]",
        ledmap: "dict[str, Any]",
        cal_text: "Any" = None,
    ) -> None:
        """The tower's state (the code lives in ``start.py``: only boot runs it, and main.py
        drops that module once the tower is built, so its code leaves the Pico's heap)."""
        from towerfw import start

        start.tower(self, hal, config, palette, ledmap, cal_text)

    # ----------------------------------------------------------------- calibration / classes
    def rebuild(self) -> None:
        """Recompute centroids (and the baseline, if the dark reading changed) from the record."""
        import towerfw.calibration as calibration  # boot and the cal steps only: not kept

        cfg = self.cfg
        cents = calibration.centroids(self.cal, self.palette)
        self.cal_hash = calibration.cal_hash(self.cal)  # every change of the record rebuilds
        self.classifier = Classifier(
            cents,
            cfg["chroma_scale"],
            cfg["bright_scale"],
            cfg["reject_distance"],
            cfg["ambiguity_ratio"],
        )
        dark = self.cal["dark"] or [0, 0, 0, 0]
        if dark != self._dark:
            self._dark = dark
            self.base = [float(v) for v in dark]
        white = self.cal["white"] or self.palette.get("white") or [0, 0, 0, 1024]
        self.white_c = max(white[3] - dark[3], 1)
        self.min_signal = cfg["min_signal_ratio"] * self.white_c

    def single_pulse_us(self) -> int:
        return int(self.cal.get("pulse_us") or self.cfg["single_pulse_us"])

    # ----------------------------------------------------------------- output
    def send(self, obj: "dict[str, Any]") -> None:
        self.outbox.push(codec.encode(obj))

    def emit(self, kind: str, fields: "dict[str, Any]") -> None:
        """Record a sensed event: next sequence number, full count vector, into the ring."""
        self.tick_clock()  # the sensing passes leave the uptime alone
        self.seq += 1
        ev: dict[str, Any] = {"t": "ev", "seq": self.seq, "k": kind, "ms": self.up_ms}
        ev["n"] = self.counts.n  # encoded at once: no copy needed
        for key in fields:
            ev[key] = fields[key]
        self.record(codec.encode(ev))

    def record(self, frame: bytes) -> None:
        """Send a sensed event and keep it in the ring until the host acknowledges it. It is
        written at once when nothing waits before it (no queued frame, no beam edge): the
        ring's bookkeeping comes after, off the event's way to the host."""
        beam = self.hal.beam
        if self.outbox.count or beam.head != beam.tail:
            self.outbox.push(frame)
        else:
            self.hal.write(frame)
        self.ring.push(self.seq, frame)

    def emit_drop(self, colour: str, pulse: int, d: float) -> None:
        """``emit("drop", ...)``, from the count vector's byte template when it fits."""
        self.tick_clock()
        frame = self.counts.drop_frame(self.seq + 1, self.up_ms, colour, pulse, d)
        if frame is None:
            self.emit("drop", {"pulse_us": pulse, "c": colour, "d": round(d, 2)})
            return
        self.seq += 1
        self.record(frame)

    def hello(self) -> "dict[str, Any]":
        return {
            "t": "hello",
            "proto": codec.PROTOCOL_VERSION,
            "fw": VERSION,
            "uid": self.uid,
            "boot": self.boot_id,
            "up_ms": self.up_ms,
            "reset": self.reset_cause,
            "cal": self.cal_hash,
            "seq": self.seq,
            "unacked": len(self.ring),
            "colours": self.colours,
        }

    def flush(self, limit: int = 8) -> None:
        n = 0
        while self.outbox.count and n < limit:
            self.hal.write(self.outbox.pop())
            n += 1

    # ----------------------------------------------------------------- main loop
    def boot(self) -> None:
        hal = self.hal
        try:
            hal.sensor_start(int(self.cfg["sensor_gain"]))
        except Exception as exc:  # the sensor may be missing: report, keep the link alive
            self.sensor_ok = False
            self.report_sensor("init: " + str(exc))
        hal.wdt_start(int(self.cfg["watchdog_ms"]))
        self.outbox.push(b"\n")  # ends any partial line the host saw before this boot
        self.send(self.hello())
        self.flush()

    def run(self, boot: bool = True) -> None:
        """The main loop until stopped. ``boot`` False: back from the REPL (main.py's
        ``resume()``) with the same boot: counts, the event ring, sequence numbers and the beam
        edges its IRQ caught meanwhile are kept; a HELLO tells the host, which resyncs."""
        if boot:
            self.boot()
        else:
            self.stopped = False
            self.cmd_hello({})  # (the REPL's echo of the resume() line ended its line)
        while not self.stopped:
            try:
                self.healthy_passes()
            except Exception as exc:  # a failing pass must not kill the link
                self.loop_fault(exc)
        self.flush(self.outbox.count)

    def healthy_passes(self) -> None:
        """Passes back to back until one raises. One try block around many passes: MicroPython
        gives a frame with a try block to the heap, and an idle pass must allocate nothing."""
        hal = self.hal
        while not self.stopped:
            self.one_pass()
            self.faults = 0
            hal.wdt_feed()

    def step(self) -> None:
        """One pass of the main loop, faults handled (what run() does, one pass at a time)."""
        try:
            self.one_pass()
        except Exception as exc:  # a failing pass must not kill the link; the watchdog decides
            self.loop_fault(exc)
            return
        self.faults = 0
        self.hal.wdt_feed()

    def loop_fault(self, exc: "Any") -> None:
        """A pass raised: report it, and feed the watchdog unless it keeps failing."""
        self.faults += 1
        self.fault_total += 1
        try:
            self.send({"t": "err", "id": None, "why": "loop: " + repr(exc)[:200]})
        except Exception:  # encoding the error failed too; nothing more to do
            pass
        self.hal.sleep_ms(1)
        if self.faults < MAX_FAULTS:
            self.hal.wdt_feed()

    def one_pass(self) -> None:
        state = self.state
        if state == PULSE or state == TAIL:  # noqa: SIM109 - `in (..)` builds a tuple every pass
            self.track()
            return
        now = self.hal.ticks_us()
        self.tick_clock()
        self.handle_edges()
        state = self.state
        if state != IDLE:  # a piece came in (the next pass tracks it) or is stuck
            if state != STUCK:
                return
            self.sense(now)
        self.idle_work()
        self.hal.idle_wait()

    def track(self) -> None:
        """Sensing passes while a piece is in the beam or just left it, back to back until it is
        counted (or stuck, or a glitch): edges, the stuck check and a sensor read every
        integration; no serial, LED or flash work (no uptime tick: emit() does it). One call a
        piece with everything in locals: a pass is a few lookups, allocates nothing, and feeds
        the watchdog as a main loop pass does."""
        hal = self.hal
        ticks_us = hal.ticks_us
        ticks_diff = hal.ticks_diff
        ticks_add = hal.ticks_add
        sleep_us = hal.sleep_us
        feed = hal.wdt_feed
        read = hal.sensor_read
        edges = hal.beam
        edges2 = hal.beam2
        sample = self.sample
        add = self.burst.add
        integ = self._integration_us
        state = self.state
        while True:
            now = ticks_us()
            if edges.head != edges.tail or (edges2 is not None and edges2.head != edges2.tail):
                self.take_edges()
                state = self.state
            if state == PULSE:
                if ticks_diff(now, self.t_entry) > self._stuck_us:
                    self.stuck(now)
                    self.sense(now)
                    return
            elif state != TAIL:
                return  # counted (a piece came in during the tail) or a glitch
            next_sample = self.next_sample
            if ticks_diff(now, next_sample) >= 0:
                if state == TAIL:
                    start = ticks_us()
                    closes = ticks_add(self.t_exit, integ)
                    if ticks_diff(ticks_add(start, self.read_us), closes) > 0:
                        # a read now would be stamped after the cube's window closes (one
                        # integration after the exit), so finish() would leave it out: the
                        # event need not wait for it
                        self.finish()
                        if edges.head == edges.tail:
                            self.flush()
                        return
                else:
                    start = now
                try:
                    read(sample)
                    t = ticks_us()
                    add(t, sample)
                    self.read_us = ticks_diff(t, start)  # a sample's stamp follows its start
                except Exception:  # OSError on a bus error; reported once the cube has passed
                    self.burst_fault = "i2c"
                next_sample = ticks_add(next_sample, integ)
                if ticks_diff(next_sample, now) <= 0:
                    next_sample = ticks_add(now, integ)
                self.next_sample = next_sample
                now = ticks_us()
            wait = ticks_diff(next_sample, now)
            if state == TAIL:
                # done once no later reading can fall inside the cube's window (which ends one
                # integration after the exit: finish() reads no sample after that)
                if (
                    ticks_diff(now, self.tail_end) >= 0
                    or ticks_diff(next_sample, ticks_add(self.t_exit, integ)) > 0
                ):
                    self.finish()
                    if edges.head == edges.tail:
                        self.flush()  # the event leaves now, not one loop pass later
                    return
                wait = min(wait, ticks_diff(self.tail_end, now))
            if wait > 0:
                sleep_us(wait)
            feed()

    def tick_clock(self) -> None:
        ms = self.hal.ticks_ms()
        self.up_ms += self.hal.ticks_diff(ms, self._last_ms)
        self._last_ms = ms

    # ----------------------------------------------------------------- sensing
    def handle_edges(self) -> None:
        if self.state != PULSE and not self._beam_pending():
            return  # the idle pass's common case, kept cheap
        self.take_edges()

    def take_edges(self) -> None:
        hal = self.hal
        beam = hal.beam
        beam2 = hal.beam2
        while True:
            # both beams' edges in time order: a piece's second-beam rise belongs to its pulse
            if (
                beam2 is not None
                and beam2.head != beam2.tail
                and (
                    beam.head == beam.tail
                    or hal.ticks_diff(beam2.peek_time(), beam.peek_time()) < 0
                )
            ):
                t2, level2 = beam2.pop()
                if level2 and self.state == PULSE and self.t_rise2 < 0:
                    self.t_rise2 = t2
                continue
            edge = beam.pop()
            if edge is None:
                break
            t, level = edge
            self.last_edge = t
            if level:
                if self.state == TAIL:
                    self.finish()
                if self.state == IDLE:
                    self.t_entry = t
                    self.t_rise2 = -1
                    self.burst.clear()
                    self.burst_fault = None
                    self.state = PULSE
                    # the first read one integration in: a read at the entry sees the empty
                    # chute (its window ends before finish()'s, so it never counted)
                    self.next_sample = hal.ticks_add(t, self._integration_us)
            else:
                if self.state == PULSE:
                    self.t_exit = t
                    if hal.ticks_diff(t, self.t_entry) < self.cfg["min_pulse_us"]:
                        self.glitches += 1
                        self.state = IDLE
                    else:
                        self.state = TAIL
                        self.tail_end = hal.ticks_add(t, self._tail_us)
                elif self.state == STUCK:
                    self.t_exit = t
                    self.emit("unstuck", {})
                    pieces.lazy("rare", "finish_stuck", self)
        if self.state == PULSE:
            self.stuck(hal.ticks_us())

    def stuck(self, now: int) -> None:
        """A piece held in the beam longer than stuck_ms is reported (once) as stuck."""
        held = self.hal.ticks_diff(now, self.t_entry)
        if self.state == PULSE and held > self._stuck_us:
            self.state = STUCK
            self.emit("stuck", {"since_ms": held // 1000})

    def read_sensor(self) -> bool:
        try:
            self.hal.sensor_read(self.sample)
            return True
        except Exception:  # OSError on a bus error; reported once the cube has passed
            self.burst_fault = "i2c"
            return False

    def sense(self, now: int) -> None:
        """A stuck piece's reads: one every five integrations, between idle passes."""
        if self.hal.ticks_diff(now, self.next_sample) >= 0:
            if self.read_sensor():
                self.burst.add(self.hal.ticks_us(), self.sample)
            period = 5 * self._integration_us
            self.next_sample = self.hal.ticks_add(self.next_sample, period)
            if self.hal.ticks_diff(self.next_sample, now) <= 0:
                self.next_sample = self.hal.ticks_add(now, period)

    def colour_from(self, f: "Any", mean: "Any") -> "tuple[Any, Any, float, Any]":
        """(colour or None, nearest, distance, why-not) for a reading's features ``f``
        (``pieces.features``; its brightness from the raw ``mean``)."""
        if f is None or (mean[3] - self.base[3]) < self.min_signal:
            return None, None, 0.0, "dark"
        colour, best, d = self.classifier.classify(f)
        return colour, best, d, (None if colour is not None else "colour")

    def burst_problem(self) -> "Any":
        if self.burst_fault is not None:
            return self.burst_fault
        if self.burst.count == 0:
            return "no samples"
        peak = self.burst.max_clear()
        if peak >= self.cfg["saturated_count"]:
            return "saturated"
        if peak <= self.cfg["dead_count"]:
            return "dead"
        return None

    def finish(self) -> None:
        """The cube (or cubes) left the sensor: classify and count."""
        hal = self.hal
        self.state = IDLE
        pulse = hal.ticks_diff(self.t_exit, self.t_entry)
        integ = self._integration_us
        t_from = hal.ticks_add(self.t_entry, integ // 2)
        t_to = hal.ticks_add(self.t_exit, integ)
        problem = self.burst_problem()
        ratio = pulse / self.single_pulse_us()
        size = pieces.length(self, pulse)
        # touching cubes, measured by the second beam (no Grande may come): group.py names
        # each cube; the whole pulse's colour would be of no use
        many = size >= self.cfg["merged_min_size"] and not self.grande_ok and problem is None
        if many and self.cal_colour is None and not self.diag:
            self.sensor_fault = None
            pieces.lazy(
                "group", "piece", self, "merged", pulse, size, ratio, problem, None, None, 0
            )
            return
        mean = lit = verdict = None
        if problem is None and self.cal_colour is None:
            verdict = pieces.colour_in_steps(self, t_from, t_to)  # the common cube, in integers
        if verdict is not None:
            self.sensor_fault = None
            colour, best, d = verdict
            why = None
        else:
            mean, lit = self.burst.pick(
                self.best_samples, t_from, t_to, hal.ticks_diff, self.base[3], pieces.LIT_SHARE
            )
            if problem is not None:
                self.report_sensor(problem)
                colour, best, d, why = None, None, 0.0, problem
            else:
                self.sensor_fault = None
                colour, best, d, why = self.colour_from(pieces.features(self, mean, lit), mean)
        if self.diag:
            calsteps().send_burst(self)
        if self.cal_colour is not None:
            steps = calsteps()
            steps.calibration_cube(
                self, steps.reading(self, mean, lit), pulse, ratio, size, problem, why
            )
            return
        kind = pieces.kind(self, pulse, ratio, size, problem)
        if kind == "single" and colour is not None:  # the common case: no dict for the fields
            self.counts.add(colour)
            self.emit_drop(colour, pulse, d)
            return
        if kind == "single":
            self.counts.add(UNCERTAIN)
            self.emit("uncertain", {"pulse_us": pulse, "best": best, "d": round(d, 2), "why": why})
            return
        # touching cubes (group.py), a Grande or a length one beam cannot tell (rare.py)
        module = "group" if kind == "merged" else "rare"
        pieces.lazy(module, "piece", self, kind, pulse, size, ratio, problem, colour, best, d)

    def cmd_cal(self, msg: "dict[str, Any]") -> "Any":
        return calsteps().cmd_cal(self, msg)

    def report_sensor(self, why: str) -> None:
        if why != self.sensor_fault:
            self.sensor_fault = why
            self.emit("sensor", {"why": why})

    # ----------------------------------------------------------------- idle work
    def quiet(self) -> bool:
        """No beam activity for a while: safe for LED writes and flash."""
        if self.state != IDLE or self.hal.beam.level():
            return False
        now = self.hal.ticks_us()
        since = self.hal.ticks_diff(now, self.last_edge)
        if since > 10_000_000:
            # keep the last edge within reach: ticks_us wraps every 2**30 us (18 min)
            self.last_edge = self.hal.ticks_add(now, -10_000_000)
        return bool(since > self.cfg["quiet_us"])

    def idle_work(self) -> None:
        """Between cubes. Each check is cheap and the rare work lives in its own function: an
        idle pass allocates nothing (small frames stay on the C stack, no garbage)."""
        self.read_input()
        if self.outbox.count:
            self.flush()
        self.check_gate()
        ms = self.up_ms
        if ms - self._base_ms >= self._baseline_ms and self.state == IDLE:
            self._base_ms = ms
            self.baseline()
        if self.diag and ms - self._diag_ms >= self.cfg["diag_period_ms"]:
            self._diag_ms = ms
            self.send(calsteps().diag_frame(self))
        # a new scene is written in the pass that read it (after its answer is flushed), or the
        # first quiet one; animations keep their frame rate. Passes are >= 1 ms apart: more
        # than the WS2812 latch gap between two frames.
        if self.led_dirty or (self.scene.animating and ms - self._led_ms >= self._led_frame_ms):
            self.leds_due(ms)
        if ms - self._hb_ms >= self._heartbeat_ms:
            self._hb_ms = ms
            self.heartbeat(ms)

    def leds_due(self, ms: int) -> None:
        if self.quiet():
            self._led_ms = ms
            self.show_leds()

    def heartbeat(self, ms: int) -> None:
        # between cubes, free the garbage of cubes and commands early, before it fragments the
        # heap; a collection takes ~5 ms and an idle loop makes no garbage, so not every second
        activity = self.seq + self.decoder.good_frames + self.decoder.bad_frames
        if activity != self._gc_activity and self.quiet():
            self._gc_activity = activity
            _collect()
        self.hal.status_led((ms // 1000) & 1)
        self.send({"t": "hb", "up_ms": ms, "seq": self.seq, "unacked": len(self.ring)})

    def baseline(self) -> None:
        """Track the empty-chute reading (ambient light changes) and watch sensor health."""
        if not self.quiet():
            return
        if not self.read_sensor():
            self.burst_fault = None
            self.report_sensor("i2c")
            return
        s = self.sample
        if s[3] >= self.cfg["saturated_count"]:
            self.report_sensor("saturated")
            return
        if s[3] <= self.cfg["dead_count"] and self.base[3] > self.cfg["dead_count"] + 2:
            self.report_sensor("dead")
            return
        # a failed start stays reported: the sensor was never set up, whatever it reads now
        if self.sensor_fault is not None and not self.sensor_fault.startswith("init"):
            self.sensor_fault = None
            self.emit("sensor", {"why": "ok"})
        w = self.cfg["baseline_weight"]
        jump = s[3] - self.base[3]
        if abs(jump) > BASE_STEP and abs(jump - self._last_jump) < BASE_STEP / 2:
            w = 0.5  # a lamp switched on or off (two readings agree): follow it within a few
        self._last_jump = jump
        for k in range(4):
            self.base[k] += w * (s[k] - self.base[k])

    def show_leds(self) -> None:
        self.scene.render(self.up_ms, self.frame)
        self.led_ma = self.limiter.limit(self.frame)
        self.hal.led_write(self.frame)
        self.led_dirty = False

    def check_gate(self) -> None:
        raw = bool(self.hal.gate_open())
        if raw != self._gate_raw:
            self._gate_raw = raw
            self._gate_since = self.up_ms
            return
        if raw == self.gate_open or self.up_ms - self._gate_since < self.cfg["gate_debounce_ms"]:
            return
        self.gate_open = raw
        self.emit("gate", {"open": raw})
        if not raw:
            self.counts.reset()
            self.emit("reset", {"why": "gate"})

    # ----------------------------------------------------------------- commands
    def read_input(self) -> None:
        hal = self.hal
        b = hal.read_byte()
        if b < 0:
            return  # the idle pass's common case: nothing allocated
        rx = self._rx
        n = 0
        while b >= 0:
            if b == codec.CTRL_C:
                # a trapped Ctrl-C (mpremote taking over): stop between passes; the bytes after
                # it stay unread for the REPL, the partial line before it is dropped
                self.stopped = True
                self._rx = bytearray()
                self.decoder.reset()
                return
            rx.append(b)
            n += 1
            if n >= 256:
                break
            b = hal.read_byte()
        self.take_input()

    def take_input(self) -> None:
        for msg in self.decoder.feed(bytes(self._rx)):
            self.command(msg)
        self._rx = bytearray()

    def command(self, msg: "dict[str, Any]") -> None:
        if msg.get("t") != "cmd":
            return
        cid = msg.get("id")
        name = msg.get("c")
        try:
            handler = COMMANDS.get(name) if isinstance(name, str) else None
            if handler is None:
                self.send({"t": "err", "id": cid, "why": "unknown command " + repr(name)})
                return
            answer = handler(self, msg)
        except Exception as exc:  # a bad argument must not break the loop
            self.send({"t": "err", "id": cid, "why": repr(exc)})
            return
        if isinstance(answer, str):
            self.send({"t": "err", "id": cid, "why": answer})
        elif answer is not None:
            answer["t"] = "ok"
            answer["id"] = cid
            self.send(answer)

    def cmd_hello(self, msg: "dict[str, Any]") -> "Any":
        self.send(self.hello())
        return {}

    def cmd_ping(self, msg: "dict[str, Any]") -> "Any":
        return {"up_ms": self.up_ms}

    def cmd_ack(self, msg: "dict[str, Any]") -> "Any":
        self.ring.ack(int(msg["seq"]))
        return {"unacked": len(self.ring)}

    def cmd_snap(self, msg: "dict[str, Any]") -> "Any":
        return {
            "n": self.counts.vector(),
            "seq": self.seq,
            "gate": "open" if self.gate_open else "closed",
            "unacked": len(self.ring),
            "boot": self.boot_id,
            "up_ms": self.up_ms,
        }

    def cmd_replay(self, msg: "dict[str, Any]") -> "Any":
        frames = self.ring.after(int(msg.get("from", 0)))
        for frame in frames:
            self.outbox.push(frame)
        return {"count": len(frames), "seq": self.seq}

    def cmd_reset(self, msg: "dict[str, Any]") -> "Any":
        self.counts.reset()
        self.emit("reset", {"why": "host"})
        return {"n": self.counts.vector()}

    def cmd_scene(self, msg: "dict[str, Any]") -> "Any":
        err = self.scene.apply(msg)
        if err is not None:
            return err
        self.scene.render(self.up_ms, self.frame)
        self.led_ma = self.limiter.limit(self.frame)
        self.led_dirty = True
        return {"ma": round(self.led_ma, 1)}

    def cmd_diag(self, msg: "dict[str, Any]") -> "Any":
        self.diag = bool(msg.get("on", True))
        free = _mem_free()  # before the answer's own objects exist
        return {
            "on": self.diag,
            "bad_frames": self.decoder.bad_frames,
            "glitches": self.glitches,
            "edge_overflows": self.hal.beam.overflows,
            "beam2": self.hal.beam2 is not None,
            "faults": self.fault_total,
            "ring_dropped": self.ring.dropped,
            "base": [round(v, 1) for v in self.base],
            "sensor": self.sensor_fault or "ok",
            "sensor_id": self.sensor_id(),
            "mem_free": free,
        }

    def sensor_id(self) -> "Any":
        """The sensor's ID register byte, read now; None if the sensor does not answer."""
        try:
            return self.hal.sensor_id()
        except Exception:  # OSError on a bus error
            return None

    def cmd_grande(self, msg: "dict[str, Any]") -> "Any":
        """Whether a Grande may fall in now; otherwise a long pulse is never one."""
        self.grande_ok = bool(msg.get("on", False))
        return {"on": self.grande_ok}

    def cmd_repl(self, msg: "dict[str, Any]") -> "Any":
        """Leave the main loop for the REPL, in two steps: ``repl`` answers a one-time key,
        ``repl`` with that key (within 2 s) stops. A lone ``repl`` frame (a forged
        or replayed one) only gets a key, which whoever sent it never reads: the host's own
        request reads it from the answer."""
        armed = self._repl_key
        self._repl_key = None  # one use, right or wrong
        if "key" not in msg:
            self._repl_key = armed = (codec.hex8(self.hal.random32()), self.up_ms)
            return {"key": armed[0]}
        if armed is None or msg["key"] != armed[0] or self.up_ms - armed[1] > 2000:
            return "bad key"  # wrong, stale or used
        self.stopped = True
        return {}


def calsteps() -> "Any":
    """The calibration steps' and diagnostic streams' module, loaded at the first use: its code
    stays out of the heap while the tower only counts."""
    from towerfw import calsteps

    return calsteps


def _collect() -> None:
    import gc

    gc.collect()


def _mem_free() -> int:
    """Free heap bytes after a collection (MicroPython), or -1 where unknown (CPython)."""
    import gc

    gc.collect()
    free = getattr(gc, "mem_free", None)
    return int(free()) if free is not None else -1


COMMANDS = {
    "hello": Tower.cmd_hello,
    "ping": Tower.cmd_ping,
    "ack": Tower.cmd_ack,
    "snap": Tower.cmd_snap,
    "replay": Tower.cmd_replay,
    "reset": Tower.cmd_reset,
    "scene": Tower.cmd_scene,
    "diag": Tower.cmd_diag,
    "repl": Tower.cmd_repl,
    "cal": Tower.cmd_cal,
    "grande": Tower.cmd_grande,
}
