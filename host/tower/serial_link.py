"""The pyserial `TowerLink`: any port pyserial opens (/dev/ttyACM0, a pty path, loop://,
socket://), or the tower found by USB id when no port is given.

One I/O thread per link runs: open (exclusive) -> discard everything until a fresh HELLO ->
resync (replay from the ledger's last sequence number, then snapshot) -> connected. A lost
port, a silent device or a failed resync reopens with exponential backoff. A new boot id (in a
HELLO, or detected from a heartbeat whose uptime went backwards) is a device reset: the ledger
carries the old boot's counts over and the link resyncs.

Every frame is checked against its schema (`host.tower.schema`) before anything reads it. A
broken one costs that frame only: it is logged and counted (`health()`), an event's sequence
number is passed over in the ledger (durably, then acked) so the stream goes on, and listeners
get a `LinkStatus` with the state unchanged and the problem in `detail`. REPL text instead of
frames (the firmware stopped by a stray Ctrl-C) restarts the firmware (`host.tower.repl_watch`).

While the firmware is not counting (stopped in the REPL, soft-rebooting, or replaced by a new
boot) the state is RESTARTING (DEVICE_RESET once a new boot's HELLO came), never CONNECTED. A
cube thrown then may never have been seen: once the firmware counts again the link reports the
interval, from the last frame heard from the counting firmware to the HELLO that showed it back,
as an `interrupted` warning with those wall-clock times (`health()`: `warning_params`,
`interruptions`).

Counts are secret: this module logs them only at DEBUG level.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any, Protocol, cast

import serial
from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo
from towerfw.codec import FrameDecoder, encode

from host.tower.autodetect import TowerNotFound, resolve_port
from host.tower.events import LinkState, LinkStatus, event_from_frame
from host.tower.ledger import EventSink, Ledger, MemorySink
from host.tower.link import (
    CommandFailed,
    DiagSample,
    Hello,
    LinkClosed,
    LinkMessage,
    LinkTimeout,
    Listener,
    TowerLink,
)
from host.tower.repl_watch import RESTART_BYTES, ReplWatch, Seen
from host.tower.schema import COUNT_SEQ, frame_problem, is_counts, valid_seq

log = logging.getLogger("host.tower.link")

BAUD = 115200  # ignored by USB CDC and ptys, but pyserial wants one
READ_TIMEOUT = 0.02  # s: how long one read waits; bounds close() and timer latency
WRITE_TIMEOUT = 1.0  # s: a device that stops reading must not hang the host
HELLO_RETRY = 0.4  # s between HELLO requests while waiting for the first one
HANDSHAKE_TIMEOUT = 1.5  # s without a HELLO after opening: reopen
RESYNC_TIMEOUT = 0.5  # s for replay + snapshot to be answered before asking again
# Replays without progress before a gap is blamed on ring overflow (then adopt the snapshot);
# replays that make progress go on up to the maximum.
RESYNC_ATTEMPTS = 3
RESYNC_MAX_ATTEMPTS = 50
SILENCE_PROBE = 1.5  # s without any frame (heartbeats are 1 s apart): ask for HELLO
SILENCE_LOST = 3.0  # s without any frame: the link is lost, reopen
BACKOFF_MIN = 0.05  # s before the first reopen (a reset Pico re-enumerates within ~1 s)
BACKOFF_MAX = 0.25  # s: a reset Pico re-enumerates in ~1.5 s; notice it within 2 s
DIAG_QUEUE = 8192  # samples kept when nobody reads the diagnostics stream
WARNING_S = 600.0  # how long a skipped frame or a firmware restart stays a warning
# Handshakes in a row that got no byte at all before the link tries restarting the firmware
# blind: a Pico left in the raw REPL (a killed mpremote) prints nothing when written to.
MUTE_HANDSHAKES = 2
INTERRUPTIONS_KEPT = 16  # the latest intervals without counting, for `health()`


class Port(Protocol):
    """What the link needs from a pyserial port (every pyserial URL handler provides it)."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


class _LinkLost(Exception):
    """The current session is over; the I/O thread reopens the port."""


@dataclass
class _Pending:
    name: str
    future: Future[dict[str, Any]] | None
    on_answer: Callable[[dict[str, Any]], None] | None


class SerialTowerLink(TowerLink):
    """A tower over pyserial. `sink` receives every ledger change durably before the device gets
    an ack; with `sink=None` the link is an observer: it keeps an in-memory ledger and never acks,
    so it cannot make the device forget an event nobody stored."""

    def __init__(
        self,
        port: str | None = None,
        *,
        sink: EventSink | None = None,
        serial_number: str | None = None,
        comports: Callable[[], Sequence[ListPortInfo]] = list_ports.comports,
    ) -> None:
        self._requested_port = port
        self._serial_number = serial_number
        self._comports = comports
        self._acks = sink is not None
        self.ledger = Ledger(sink if sink is not None else MemorySink())
        self._port = ""
        self._ser: Port | None = None
        self._write_lock = threading.Lock()
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._pending_lock = threading.Lock()
        self._state = LinkState.DISCONNECTED
        self._state_cond = threading.Condition()
        self._events: queue.Queue[LinkMessage] = queue.Queue()
        self._diag: queue.Queue[DiagSample] = queue.Queue(maxsize=DIAG_QUEUE)
        self._listeners: list[Listener] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_hello: Hello | None = None
        # session state, touched by the I/O thread only
        self._session_boot = ""
        self._resync_deadline: float | None = None
        self._resync_attempt = 0
        self._resync_from = 0
        self._last_up_ms = -1
        self._probe_sent = False
        self._grande_possible = False  # re-sent after every resync: a reset device forgets it
        self.bad_frames = 0
        self.last_error = ""
        self.invalid_frames = 0  # CRC-valid frames that broke their schema (skipped)
        self.firmware_restarts = 0  # times the firmware was found in the REPL and restarted
        self._problem = ""  # the latest skipped frame or restart, for warnings
        self._problem_kind = ""
        self._problem_at = -WARNING_S
        self._problem_params: dict[str, Any] = {}
        # counting interruptions: wall-clock time of the last frame from a counting firmware,
        # the start of the open interruption (None: counting), the finished ones
        self._heard_wall: float | None = None
        self._gap_from: float | None = None
        self._gap_to = 0.0
        self._gap_boot = ""  # the boot that stopped counting (the same one back: resumed)
        self.interruptions: deque[tuple[float, float]] = deque(maxlen=INTERRUPTIONS_KEPT)
        self._repl_watch = ReplWatch()
        self._repl_wanted = False  # enter_repl: leave the REPL alone
        self._mute_handshakes = 0  # sessions in a row without a single byte from the device

    # --- lifecycle -------------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="tower-link", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5.0)
        self._set_state(LinkState.CLOSED)
        self._fail_pending(LinkClosed("link closed"))

    def wait_connected(self, timeout: float) -> Hello:
        deadline = time.monotonic() + timeout
        with self._state_cond:
            while self._state is not LinkState.CONNECTED:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self._state is LinkState.CLOSED:
                    detail = f" ({self.last_error})" if self.last_error else ""
                    raise LinkTimeout(f"tower not connected on {self._port or '?'}{detail}")
                self._state_cond.wait(remaining)
            assert self._last_hello is not None
            return self._last_hello

    @property
    def state(self) -> LinkState:
        return self._state

    @property
    def port(self) -> str:
        return self._port

    @property
    def last_hello(self) -> Hello | None:
        return self._last_hello

    # --- events ----------------------------------------------------------------------------
    def next_event(self, timeout: float | None = None) -> LinkMessage | None:
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    def add_listener(self, listener: Listener) -> None:
        self._listeners = [*self._listeners, listener]

    def remove_listener(self, listener: Listener) -> None:
        self._listeners = [known for known in self._listeners if known is not listener]

    def next_diag(self, timeout: float | None = None) -> DiagSample | None:
        try:
            return self._diag.get(timeout=timeout)
        except queue.Empty:
            return None

    def totals(self) -> dict[str, int]:
        return self.ledger.totals()

    # --- commands --------------------------------------------------------------------------
    def command(self, name: str, timeout: float = 2.0, **fields: Any) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        self.wait_connected(timeout)
        future: Future[dict[str, Any]] = Future()
        ident = self._register(name, future, None)
        try:
            self._write({"t": "cmd", "c": name, "id": ident, **fields})
        except (serial.SerialException, OSError) as exc:
            self._unregister(ident)
            raise LinkClosed(f"{name}: {exc}") from exc
        try:
            return future.result(timeout=max(0.0, deadline - time.monotonic()))
        except FutureTimeout:
            self._unregister(ident)
            raise LinkTimeout(f"{name}: no answer within {timeout} s") from None

    def health(self) -> dict[str, Any]:
        recent = time.monotonic() - self._problem_at < WARNING_S
        return {
            "bad_frames": self.bad_frames,
            "invalid_frames": self.invalid_frames,
            "firmware_restarts": self.firmware_restarts,
            "warning": self._problem if recent else "",
            "warning_kind": self._problem_kind if recent else "",
            "warning_params": dict(self._problem_params) if recent else {},
            "interruptions": [list(gap) for gap in self.interruptions],
        }

    def set_grande_possible(self, possible: bool) -> None:
        """Never blocks: the setting is written now if the link is up, and again after every
        resync (a device reset forgets it)."""
        self._grande_possible = possible
        if self._state is not LinkState.CONNECTED:
            return
        try:
            self._write({"t": "cmd", "c": "grande", "id": next(self._ids), "on": possible})
        except (serial.SerialException, OSError) as exc:
            log.info("grande setting not sent now (%s); sent after the reconnect", exc)

    def enter_repl(self, timeout: float = 2.0) -> str:
        self._repl_wanted = True
        try:
            # two steps: the firmware answers a one-time key, and stops only when it gets it
            # back (a forged `repl` frame alone never stops it)
            key = self.command("repl", timeout).get("key")
            if isinstance(key, str):
                self.command("repl", timeout, key=key)
        except LinkTimeout:
            log.info("no answer to `repl`; the firmware may already have stopped")
        port = self._port
        self.close()
        return port

    # --- plumbing shared by caller threads and the I/O thread ------------------------------
    def _register(
        self,
        name: str,
        future: Future[dict[str, Any]] | None,
        on_answer: Callable[[dict[str, Any]], None] | None,
    ) -> int:
        ident = next(self._ids)
        with self._pending_lock:
            self._pending[ident] = _Pending(name, future, on_answer)
        return ident

    def _unregister(self, ident: int) -> None:
        with self._pending_lock:
            self._pending.pop(ident, None)

    def _fail_pending(self, error: Exception) -> None:
        with self._pending_lock:
            pending, self._pending = self._pending, {}
        for item in pending.values():
            if item.future is not None and not item.future.done():
                item.future.set_exception(error)

    def _write(self, message: dict[str, Any]) -> None:
        frame = encode(message)
        with self._write_lock:
            ser = self._ser
            if ser is None:
                raise serial.SerialException("port not open")
            ser.write(frame)
        log.debug("-> %s", frame.rstrip())

    def _set_state(self, state: LinkState, boot: str = "", detail: str = "") -> None:
        with self._state_cond:
            changed = state is not self._state
            self._state = state
            self._state_cond.notify_all()
        if changed:
            log.info("tower link %s%s", state.value, f" ({detail})" if detail else "")
            self._deliver(LinkStatus(state, boot, detail))

    def _deliver(self, message: LinkMessage) -> None:
        self._events.put(message)
        for listener in self._listeners:  # replaced, never mutated: safe to iterate
            try:
                listener(message)
            except Exception:  # a faulty listener must not kill the link
                log.exception("tower link listener failed")

    # --- the I/O thread --------------------------------------------------------------------
    def _open(self) -> Port:
        self._port = resolve_port(self._requested_port, self._serial_number, self._comports)
        ser = serial.serial_for_url(
            self._port,
            baudrate=BAUD,
            timeout=READ_TIMEOUT,
            write_timeout=WRITE_TIMEOUT,
            exclusive=True,
            do_not_open=True,
        )
        ser.open()
        return cast(Port, ser)

    def _run(self) -> None:
        backoff = BACKOFF_MIN
        first = True
        while not self._stop.is_set():
            self._set_state(LinkState.CONNECTING if first else LinkState.RECONNECTING)
            first = False
            try:
                ser = self._open()
            except (serial.SerialException, OSError, ValueError, TowerNotFound) as exc:
                self.last_error = str(exc)
                log.debug("open failed: %s", exc)
                self._stop.wait(backoff)
                backoff = min(backoff * 2, BACKOFF_MAX)
                continue
            with self._write_lock:
                self._ser = ser
            was_connected = False
            try:
                was_connected = self._session(ser)
            except (_LinkLost, serial.SerialException, OSError) as exc:
                self.last_error = str(exc)
                log.info("tower link lost: %s", exc)
            except Exception as exc:  # e.g. the sink failed: nothing was acked, start over
                self.last_error = repr(exc)
                log.exception("tower link session failed; reopening")
            finally:
                with self._write_lock:
                    self._ser = None
                ser.close()
                self._fail_pending(LinkClosed("link lost"))
            if was_connected:
                backoff = BACKOFF_MIN
            elif not self._stop.is_set():
                self._stop.wait(backoff)
                backoff = min(backoff * 2, BACKOFF_MAX)
        with self._write_lock:
            self._ser = None

    def _send(
        self, name: str, on_answer: Callable[[dict[str, Any]], None] | None, **fields: Any
    ) -> None:
        """Send a command from the I/O thread without waiting for it."""
        ident = self._register(name, None, on_answer) if on_answer else next(self._ids)
        self._write({"t": "cmd", "c": name, "id": ident, **fields})

    def _session(self, ser: Port) -> bool:
        """Run one open port until it is lost or the link closes; True if it got connected."""
        decoder = FrameDecoder()
        ser.reset_input_buffer()
        self._session_boot = ""
        self._resync_deadline = None
        self._resync_attempt = 0
        self._resync_from = 0
        self._last_up_ms = -1
        self._probe_sent = False
        opened = time.monotonic()
        hello_asked = 0.0
        last_rx = opened
        connected = False
        heard = False  # any byte at all from the device in this session
        while not self._stop.is_set():
            now = time.monotonic()
            if not self._session_boot and now - hello_asked >= HELLO_RETRY:
                self._send("hello", None)
                hello_asked = now
            data = ser.read(max(1, ser.in_waiting))
            now = time.monotonic()
            if data:
                # REPL text first: a HELLO in the same read ends the restart's hold-off
                seen = self._repl_watch.feed(data, now)
                if seen is Seen.REPL and not self._repl_wanted:
                    self._restart_firmware(ser, "the tower's firmware had stopped (REPL)")
                elif seen is Seen.REBOOT and not self._repl_wanted:
                    self._not_counting("the tower's firmware is rebooting")
                for frame in decoder.feed(data):
                    last_rx = now
                    self._handle(frame, now)
                    if self._gap_from is None and self._session_boot:
                        self._heard_wall = time.time()
                self.bad_frames = decoder.bad_frames
                heard = True
            connected = connected or self._state is LinkState.CONNECTED
            if not self._session_boot:
                if now - opened > HANDSHAKE_TIMEOUT:
                    self._after_mute_handshake(ser, heard)
                    raise _LinkLost(f"no HELLO within {HANDSHAKE_TIMEOUT} s")
                continue
            if self._resync_deadline is not None and now > self._resync_deadline:
                if self._resync_attempt >= RESYNC_ATTEMPTS:
                    raise _LinkLost("resync not answered")
                self._resync(now)  # an answer was lost in transit: ask again
            silent = now - last_rx
            if silent > SILENCE_LOST:
                raise _LinkLost(f"device silent for {silent:.1f} s")
            if silent > SILENCE_PROBE and not self._probe_sent:
                self._probe_sent = True
                self._send("hello", None)
        return connected

    def _restart_firmware(self, ser: Port, why: str) -> None:
        """The firmware stopped in the REPL: soft-reset it (its HELLO then resyncs the link)."""
        self.firmware_restarts += 1
        self._not_counting(why)
        self._warn("firmware_restart", f"{why}: restarted it")
        with self._write_lock:
            ser.write(RESTART_BYTES)

    def _not_counting(self, why: str) -> None:
        """The firmware stopped counting: RESTARTING until it is back and resynced; the
        interruption starts at the last frame heard from it."""
        self._open_gap()
        if self._state is not LinkState.DEVICE_RESET:
            self._set_state(LinkState.RESTARTING, self._session_boot, why)

    def _open_gap(self) -> None:
        if self._gap_from is None:
            self._gap_from = self._heard_wall if self._heard_wall is not None else time.time()
            self._gap_boot = self.ledger.boot

    def _counting_again(self) -> None:
        """Resynced after an interruption: report its interval (a warning with both times)."""
        start = self._gap_from
        if start is None:
            return
        self._gap_from = None
        end = max(self._gap_to, start)
        self._heard_wall = time.time()
        if self._gap_boot and self._gap_boot == self.ledger.boot:
            # the same boot resumed (main.py's `resume()`): its counts, ring and the beam edges
            # caught meanwhile were kept, and the resync fetched every event: nothing was missed
            log.info("tower firmware resumed, same boot: counting went on")
            return
        self.interruptions.append((start, end))
        self._warn(
            "interrupted",
            f"the tower was not counting from {_clock(start)} to {_clock(end)}: a cube thrown "
            "then may be missing from the count; check the castillo",
            {"from": round(start, 3), "to": round(end, 3)},
        )

    def _after_mute_handshake(self, ser: Port, heard: bool) -> None:
        """A handshake timed out: after `MUTE_HANDSHAKES` in a row without a byte, restart."""
        if heard or self._repl_wanted:
            self._mute_handshakes = 0
            return
        self._mute_handshakes += 1
        if self._mute_handshakes >= MUTE_HANDSHAKES:
            self._mute_handshakes = 0
            self._restart_firmware(ser, "the tower did not answer at all (raw REPL?)")

    def _warn(self, kind: str, problem: str, params: dict[str, Any] | None = None) -> None:
        """Something went wrong and was dealt with: log it, keep it for `health()`, tell the
        listeners (a status whose state is unchanged)."""
        log.warning("tower link: %s", problem)
        self._problem, self._problem_kind = problem, kind
        self._problem_params = dict(params or {})
        self._problem_at = time.monotonic()
        self._deliver(LinkStatus(self._state, self._session_boot, problem))

    def _skip_invalid(self, problem: str) -> None:
        self.invalid_frames += 1
        self._warn("invalid_frame", f"skipped a frame that breaks the protocol ({problem})")

    def _handle(self, frame: dict[str, Any], now: float) -> None:
        kind = frame.get("t")
        if not self._session_boot and kind != "hello":
            return  # everything before a fresh HELLO is stale
        self._probe_sent = False
        problem = frame_problem(frame)
        if kind == "ev":
            self._on_event(frame, problem)
        elif problem is not None:
            self._skip_invalid(problem)
        elif kind == "hello":
            self._on_hello(Hello.from_frame(frame), now)
        elif kind == "hb":
            self._on_heartbeat(frame)
        elif kind == "diag":
            self._on_diag(frame)
        elif kind in ("ok", "err"):
            self._on_answer(frame)
        else:
            log.debug("ignored frame %s", frame)

    def _on_hello(self, hello: Hello, now: float) -> None:
        self._last_hello = hello
        self._last_up_ms = hello.up_ms
        self._repl_watch.running()
        if hello.boot != self.ledger.boot and self._heard_wall is not None:
            # a new boot replaced the one this link heard counting: not counting in between
            # (the state becomes DEVICE_RESET below)
            self._open_gap()
        if self._gap_from is not None:
            self._gap_to = time.time()  # counting again from this HELLO on
        elif hello.boot == self._session_boot and hello.seq >= self.ledger.seq:
            return
        log.info(
            "tower hello: fw %s uid %s boot %s (%s)", hello.fw, hello.uid, hello.boot, hello.reset
        )
        if not self._serial_number and hello.uid:
            self._serial_number = hello.uid  # find this board again if it re-enumerates
        self._session_boot = hello.boot
        if self.ledger.adopt_boot(hello.boot, hello.seq):
            self._set_state(
                LinkState.DEVICE_RESET, hello.boot, f"new boot, reset cause {hello.reset}"
            )
        elif self._state is LinkState.CONNECTED:
            self._set_state(LinkState.RECONNECTING, hello.boot, "resync")
        self._resync(now)

    def _resync(self, now: float) -> None:
        """Replay every event after the ledger's last one, then adopt the snapshot if events
        were lost from the device ring. One resync at a time."""
        self._resync_deadline = now + RESYNC_TIMEOUT
        self._resync_attempt += 1
        self._resync_from = self.ledger.seq
        self._send("replay", self._on_replay_answer, **{"from": self.ledger.seq})
        self._send("snap", self._on_snap_answer)

    def _on_replay_answer(self, frame: dict[str, Any]) -> None:
        if frame.get("t") != "ok":
            raise _LinkLost(f"replay refused: {frame.get('why')}")

    def _on_snap_answer(self, frame: dict[str, Any]) -> None:
        if frame.get("t") != "ok":
            raise _LinkLost(f"snapshot refused: {frame.get('why')}")
        seq = frame.get("seq")
        counts = frame.get("n")
        if not COUNT_SEQ.check(seq) or not is_counts(counts):
            self._skip_invalid("snap answer: `seq` or `n` is malformed")
            return  # the resync deadline asks again
        assert isinstance(seq, int) and isinstance(counts, dict)
        progress = self.ledger.seq > self._resync_from
        if seq > self.ledger.seq and (
            self._resync_attempt < RESYNC_ATTEMPTS
            or (progress and self._resync_attempt < RESYNC_MAX_ATTEMPTS)
        ):
            # events are still missing (lost again in transit?): replay once more
            self._resync(time.monotonic())
            return
        if self.ledger.adopt_snapshot(self._session_boot, seq, counts):
            # the device ring overflowed: those events are gone, their counts are not
            log.info("tower counts adopted from snapshot (events missed) at seq %d", seq)
        self._resync_deadline = None
        self._resync_attempt = 0
        self._resync_from = 0
        self._send("grande", None, on=self._grande_possible)
        self._counting_again()
        self._set_state(LinkState.CONNECTED, self._session_boot)

    def _on_event(self, frame: dict[str, Any], problem: str | None) -> None:
        seq = frame.get("seq")
        if not valid_seq(seq):
            self._skip_invalid(problem or "ev frame: `seq` is not usable")
            return  # no sequence number to pass over: the device's next events carry on
        assert isinstance(seq, int)
        if seq > self.ledger.seq + 1:
            # a frame was lost (line noise): fetch it again rather than skip it
            if self._resync_deadline is None:
                log.info("tower event gap before seq %d: resync", seq)
                self._resync(time.monotonic())
            return
        if problem is not None:
            # its sequence number is used up durably, then acked: never asked for again;
            # the counts are not touched (the next event's full vector carries them)
            if self.ledger.skip(self._session_boot, seq, problem) is not None:
                self._skip_invalid(f"{problem}, seq {seq}")
            if self._acks and self.ledger.seq > 0:
                self._send("ack", None, seq=self.ledger.seq)
            return
        accepted = self.ledger.accept(self._session_boot, frame)  # durable when it returns
        if accepted is None:
            log.debug("duplicate event %s", frame.get("seq"))
        if self._acks and self.ledger.seq > 0:
            self._send("ack", None, seq=self.ledger.seq)
        if accepted is None:
            return
        event = event_from_frame(
            frame, self._session_boot, accepted.entry.totals, accepted.totals_before
        )
        log.info("tower event %s seq %d", event.kind, event.seq)
        log.debug("tower event %s totals %s", frame, accepted.entry.totals)
        self._deliver(event)

    def _on_heartbeat(self, frame: dict[str, Any]) -> None:
        up_ms, seq, unacked = frame.get("up_ms"), frame.get("seq"), frame.get("unacked")
        went_back = isinstance(up_ms, int) and up_ms < self._last_up_ms
        lost_seq = isinstance(seq, int) and seq < self.ledger.seq
        if isinstance(up_ms, int):
            self._last_up_ms = up_ms
        if went_back or lost_seq:
            log.info("tower heartbeat says the device restarted: asking for HELLO")
            self._send("hello", None)
            return
        if isinstance(seq, int) and seq > self.ledger.seq and self._resync_deadline is None:
            log.info("tower heartbeat shows unseen events: resync")
            self._resync(time.monotonic())
            return
        if (
            self._acks
            and self._state is LinkState.CONNECTED
            and isinstance(unacked, int)
            and unacked > 0
            and isinstance(seq, int)
            and seq <= self.ledger.seq
        ):
            self._send("ack", None, seq=seq)  # an ack got lost: the ledger holds these events

    def _on_diag(self, frame: dict[str, Any]) -> None:
        def number(key: str) -> int:
            value = frame.get(key, 0)
            return value if isinstance(value, int) else 0

        sample = DiagSample(
            us=number("us"),
            r=number("r"),
            g=number("g"),
            b=number("b"),
            c=number("c"),
            beam=bool(frame.get("beam", False)),
        )
        while True:
            try:
                self._diag.put_nowait(sample)
                return
            except queue.Full:
                with contextlib.suppress(queue.Empty):
                    self._diag.get_nowait()  # keep the newest samples

    def _on_answer(self, frame: dict[str, Any]) -> None:
        ident = frame.get("id")
        if not isinstance(ident, int):
            if frame.get("t") == "err":  # the firmware reports a failing main loop pass
                log.warning("tower firmware error: %s", frame.get("why"))
            return
        with self._pending_lock:
            pending = self._pending.pop(ident, None)
        if pending is None:
            return  # fire-and-forget (ack) or timed out
        if pending.on_answer is not None:
            pending.on_answer(frame)
        elif pending.future is not None and not pending.future.done():
            if frame.get("t") == "ok":
                pending.future.set_result(frame)
            else:
                pending.future.set_exception(CommandFailed(pending.name, str(frame.get("why"))))


def _clock(wall: float) -> str:
    """A wall-clock time as the table reads it (local time, to the second)."""
    return time.strftime("%H:%M:%S", time.localtime(wall))
