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

import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Protocol, cast

import serial
from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo
from towerfw.codec import FrameDecoder, encode

from host.tower.autodetect import TowerNotFound, resolve_port
from host.tower.events import LinkState, LinkStatus
from host.tower.frames import FrameHandler
from host.tower.ledger import EventSink, Ledger, MemorySink
from host.tower.link import (
    DiagSample,
    Hello,
    LinkClosed,
    LinkMessage,
    LinkTimeout,
    Listener,
    TowerLink,
)
from host.tower.link_core import LinkLost
from host.tower.link_health import LinkHealth
from host.tower.pending import PendingCommands
from host.tower.restart_window import RestartWindow

log = logging.getLogger("host.tower.link")

BAUD = 115200  # ignored by USB CDC and ptys, but pyserial wants one
READ_TIMEOUT = 0.02  # s: how long one read waits; bounds close() and timer latency
WRITE_TIMEOUT = 1.0  # s: a device that stops reading must not hang the host
HELLO_RETRY = 0.4  # s between HELLO requests while waiting for the first one
HANDSHAKE_TIMEOUT = 1.5  # s without a HELLO after opening: reopen
SILENCE_PROBE = 1.5  # s without any frame (heartbeats are 1 s apart): ask for HELLO
SILENCE_LOST = 3.0  # s without any frame: the link is lost, reopen
BACKOFF_MIN = 0.05  # s before the first reopen (a reset Pico re-enumerates within ~1 s)
BACKOFF_MAX = 0.25  # s: a reset Pico re-enumerates in ~1.5 s; notice it within 2 s
DIAG_QUEUE = 8192  # samples kept when nobody reads the diagnostics stream


class Port(Protocol):
    """What the link needs from a pyserial port (every pyserial URL handler provides it)."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


class SerialTowerLink(TowerLink):
    """A tower over pyserial. `sink` receives every ledger change durably before the device gets
    an ack; with `sink=None` the link is an observer: it keeps an in-memory ledger and never acks,
    so it cannot make the device forget an event nobody stored.

    The link itself runs the port: open, reopen with backoff, read, hand the bytes to the
    `RestartWindow` (REPL text, reboots) and the decoded frames to the `FrameHandler` (schema,
    resync, ledger, answers), and watch the handshake and silence timers."""

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
        self.ledger = Ledger(sink if sink is not None else MemorySink())
        self._port = ""
        self._ser: Port | None = None
        self._write_lock = threading.Lock()
        self._pending = PendingCommands()
        self._state = LinkState.DISCONNECTED
        self._state_cond = threading.Condition()
        self._events: queue.Queue[LinkMessage] = queue.Queue()
        self._diag: queue.Queue[DiagSample] = queue.Queue(maxsize=DIAG_QUEUE)
        self._listeners: list[Listener] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.last_error = ""
        self._health = LinkHealth()
        self._window = RestartWindow(self, self._health)
        self._frames = FrameHandler(
            self,
            acks=sink is not None,
            health=self._health,
            window=self._window,
            pending=self._pending,
            diag=self._diag,
        )

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
        self._pending.fail_all(LinkClosed("link closed"))

    def wait_connected(self, timeout: float) -> Hello:
        deadline = time.monotonic() + timeout
        with self._state_cond:
            while self._state is not LinkState.CONNECTED:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self._state is LinkState.CLOSED:
                    detail = f" ({self.last_error})" if self.last_error else ""
                    raise LinkTimeout(f"tower not connected on {self._port or '?'}{detail}")
                self._state_cond.wait(remaining)
            hello = self._frames.last_hello
            assert hello is not None
            return hello

    @property
    def state(self) -> LinkState:
        return self._state

    @property
    def port(self) -> str:
        return self._port

    @property
    def last_hello(self) -> Hello | None:
        return self._frames.last_hello

    # --- health (kept by `LinkHealth`) ----------------------------------------------------
    @property
    def bad_frames(self) -> int:
        """Lines the codec dropped (CRC, length, not JSON)."""
        return self._health.bad_frames

    @property
    def invalid_frames(self) -> int:
        """CRC-valid frames that broke their schema (skipped)."""
        return self._health.invalid_frames

    @property
    def firmware_restarts(self) -> int:
        """Times the firmware was found in the REPL and restarted."""
        return self._health.firmware_restarts

    @property
    def interruptions(self) -> deque[tuple[float, float]]:
        """The latest intervals the firmware was not counting (wall clock)."""
        return self._health.interruptions

    def health(self) -> dict[str, Any]:
        return self._health.as_dict()

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
        ident = self._pending.register(name, future, None)
        try:
            self._write({"t": "cmd", "c": name, "id": ident, **fields})
        except (serial.SerialException, OSError) as exc:
            self._pending.unregister(ident)
            raise LinkClosed(f"{name}: {exc}") from exc
        try:
            return future.result(timeout=max(0.0, deadline - time.monotonic()))
        except FutureTimeout:
            self._pending.unregister(ident)
            raise LinkTimeout(f"{name}: no answer within {timeout} s") from None

    def set_grande_possible(self, possible: bool) -> None:
        """Never blocks: the setting is written now if the link is up, and again after every
        resync (a device reset forgets it)."""
        self._frames.grande_possible = possible
        if self._state is not LinkState.CONNECTED:
            return
        try:
            self._write({"t": "cmd", "c": "grande", "id": self._pending.next_id(), "on": possible})
        except (serial.SerialException, OSError) as exc:
            log.info("grande setting not sent now (%s); sent after the reconnect", exc)

    def enter_repl(self, timeout: float = 2.0) -> str:
        self._window.repl_wanted = True
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

    # --- plumbing shared by caller threads, the I/O thread and the pieces (`LinkCore`) -----
    @property
    def _session_boot(self) -> str:
        return self._frames.boot

    def _write(self, message: dict[str, Any]) -> None:
        frame = encode(message)
        with self._write_lock:
            ser = self._ser
            if ser is None:
                raise serial.SerialException("port not open")
            ser.write(frame)
        log.debug("-> %s", frame.rstrip())

    def _send(
        self, name: str, on_answer: Callable[[dict[str, Any]], None] | None, **fields: Any
    ) -> None:
        """Send a command from the I/O thread without waiting for it."""
        pending = self._pending
        ident = pending.register(name, None, on_answer) if on_answer else pending.next_id()
        self._write({"t": "cmd", "c": name, "id": ident, **fields})

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

    def _warn(self, kind: str, problem: str, params: dict[str, Any] | None = None) -> None:
        """Something went wrong and was dealt with: log it, keep it for `health()`, tell the
        listeners (a status whose state is unchanged)."""
        log.warning("tower link: %s", problem)
        self._health.record(kind, problem, params)
        self._deliver(LinkStatus(self._state, self._frames.boot, problem))

    # --- the I/O thread: the port and its reconnect loop -----------------------------------
    def _open(self) -> Port:
        serial_number = self._serial_number or self._frames.uid or None
        self._port = resolve_port(self._requested_port, serial_number, self._comports)
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
            except (LinkLost, serial.SerialException, OSError) as exc:
                self.last_error = str(exc)
                log.info("tower link lost: %s", exc)
            except Exception as exc:  # e.g. the sink failed: nothing was acked, start over
                self.last_error = repr(exc)
                log.exception("tower link session failed; reopening")
            finally:
                with self._write_lock:
                    self._ser = None
                ser.close()
                self._pending.fail_all(LinkClosed("link lost"))
            if was_connected:
                backoff = BACKOFF_MIN
            elif not self._stop.is_set():
                self._stop.wait(backoff)
                backoff = min(backoff * 2, BACKOFF_MAX)
        with self._write_lock:
            self._ser = None

    def _session(self, ser: Port) -> bool:
        """Run one open port until it is lost or the link closes; True if it got connected."""
        frames, window = self._frames, self._window
        decoder = FrameDecoder()
        ser.reset_input_buffer()
        frames.begin()
        opened = time.monotonic()
        hello_asked = 0.0
        last_rx = opened
        connected = False
        heard = False  # any byte at all from the device in this session
        while not self._stop.is_set():
            now = time.monotonic()
            if not frames.boot and now - hello_asked >= HELLO_RETRY:
                self._send("hello", None)
                hello_asked = now
            data = ser.read(max(1, ser.in_waiting))
            now = time.monotonic()
            if data:
                # REPL text first: a HELLO in the same read ends the restart's hold-off
                window.feed(ser, data, now)
                for frame in decoder.feed(data):
                    last_rx = now
                    frames.handle(frame, now)
                    if frames.boot:
                        window.heard()
                self._health.bad_frames = decoder.bad_frames
                heard = True
            connected = connected or self._state is LinkState.CONNECTED
            if not frames.boot:
                if now - opened > HANDSHAKE_TIMEOUT:
                    window.after_mute_handshake(ser, heard)
                    raise LinkLost(f"no HELLO within {HANDSHAKE_TIMEOUT} s")
                continue
            frames.resync_overdue(now)  # an answer was lost in transit: ask again
            silent = now - last_rx
            if silent > SILENCE_LOST:
                raise LinkLost(f"device silent for {silent:.1f} s")
            if silent > SILENCE_PROBE and not frames.probe_sent:
                frames.probe_sent = True
                self._send("hello", None)
        return connected
