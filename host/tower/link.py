"""`TowerLink`: what the host can do with a castillo tower, real or simulated.

Concurrency model: threads. A link owns one background I/O thread that reads frames, keeps the
ledger and sends acks. Every public method is thread-safe and may be called from any thread;
command methods block the caller until the device answers (or `LinkTimeout`). Events are
delivered in order through a thread-safe queue (`next_event`) and to listeners called on the
I/O thread. An asyncio app bridges with `host.tower.aio.async_events` (no polling).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self

from host.tower.events import Counts, LinkState, LinkStatus, TowerEvent, parse_counts

Rgb = tuple[int, int, int]
LinkMessage = TowerEvent | LinkStatus
Listener = Callable[[LinkMessage], None]

ANIMATIONS = ("solid", "pulse", "blink", "sweep")
# `sample` arms a colour: the cubes thrown next come back as `cal` events until `end`.
CALIBRATION_STEPS = ("dark", "white", "sample", "end", "save", "show", "clear")


class TowerError(Exception):
    """Base of every link error."""


class LinkTimeout(TowerError):
    """The device did not answer in time (or the link did not connect in time)."""


class CommandFailed(TowerError):
    """The device answered a command with `err`."""

    def __init__(self, command: str, why: str) -> None:
        super().__init__(f"{command}: {why}")
        self.command = command
        self.why = why


class LinkClosed(TowerError):
    """The link was closed (or lost) while a command was waiting."""


@dataclass(frozen=True)
class Hello:
    """The device's HELLO: who it is and which boot this is."""

    proto: int
    fw: str
    uid: str
    boot: str
    up_ms: int
    reset: str
    cal: str
    seq: int
    colours: tuple[str, ...] = ()

    @classmethod
    def from_frame(cls, frame: Mapping[str, Any]) -> Hello:
        def text(key: str) -> str:
            value = frame.get(key, "")
            return value if isinstance(value, str) else str(value)

        def number(key: str) -> int:
            value = frame.get(key, 0)
            return value if isinstance(value, int) and not isinstance(value, bool) else 0

        raw_colours = frame.get("colours")
        colours = raw_colours if isinstance(raw_colours, list) else []
        return cls(
            proto=number("proto"),
            fw=text("fw"),
            uid=text("uid"),
            boot=text("boot"),
            up_ms=number("up_ms"),
            reset=text("reset"),
            cal=text("cal"),
            seq=number("seq"),
            colours=tuple(c for c in colours if isinstance(c, str)),
        )


@dataclass(frozen=True)
class Snapshot:
    """The device's state: its count vector for this boot (secret: not in repr)."""

    counts: Counts = field(repr=False)
    seq: int
    gate: str
    unacked: int


@dataclass(frozen=True)
class DiagSample:
    """One raw sensor sample from the diagnostics stream (`us` is device microseconds)."""

    us: int
    r: int
    g: int
    b: int
    c: int
    beam: bool


class TowerLink(ABC):
    """A connection to one tower. Use as a context manager, or call `start()` / `close()`."""

    # --- lifecycle -------------------------------------------------------------------------
    @abstractmethod
    def start(self) -> None:
        """Start the I/O thread; it connects (and reconnects) by itself."""

    @abstractmethod
    def close(self) -> None:
        """Stop the I/O thread and release the port. Idempotent."""

    @abstractmethod
    def wait_connected(self, timeout: float) -> Hello:
        """Block until the link is connected and resynced; the latest HELLO. `LinkTimeout`."""

    @property
    @abstractmethod
    def state(self) -> LinkState:
        """The current link state."""

    @property
    @abstractmethod
    def port(self) -> str:
        """The port (path or pyserial URL) in use or last tried; '' before the first try."""

    @property
    @abstractmethod
    def last_hello(self) -> Hello | None:
        """The latest HELLO seen, if any."""

    # --- events ----------------------------------------------------------------------------
    @abstractmethod
    def next_event(self, timeout: float | None = None) -> LinkMessage | None:
        """The next event or status change, in order; None when `timeout` passes."""

    @abstractmethod
    def add_listener(self, listener: Listener) -> None:
        """Call `listener` on the I/O thread for every event and status change (after the event
        is durable and acked). It must return quickly and not call blocking link commands."""

    @abstractmethod
    def remove_listener(self, listener: Listener) -> None:
        """Stop calling `listener` (no error if it was not added)."""

    @abstractmethod
    def next_diag(self, timeout: float | None = None) -> DiagSample | None:
        """The next diagnostics sample (only while diagnostics is on); None on timeout."""

    @abstractmethod
    def totals(self) -> dict[str, int]:
        """The ledger's reconciled counts (all boots since the last counts reset). Secret."""

    # --- commands (blocking, thread-safe) -------------------------------------------------
    @abstractmethod
    def command(self, name: str, timeout: float = 2.0, **fields: Any) -> dict[str, Any]:
        """Send any protocol command and return its `ok` answer; `CommandFailed` on `err`."""

    def hello(self, timeout: float = 2.0) -> Hello:
        """Ask the device to re-announce itself."""
        self.command("hello", timeout)
        hello = self.last_hello
        if hello is None:
            raise LinkTimeout("no HELLO received")
        return hello

    def ping(self, timeout: float = 2.0) -> int:
        """Liveness check; the device's uptime in ms."""
        return int(self.command("ping", timeout).get("up_ms", 0))

    def snapshot(self, timeout: float = 2.0) -> Snapshot:
        """The device's current counts (this boot), last sequence number and gate state."""
        answer = self.command("snap", timeout)
        return Snapshot(
            counts=parse_counts(answer.get("n")),
            seq=int(answer.get("seq", 0)),
            gate=str(answer.get("gate", "")),
            unacked=int(answer.get("unacked", 0)),
        )

    def reset_counts(self, timeout: float = 2.0) -> dict[str, int]:
        """Zero the device counts (the ledger follows through the resulting `reset` event)."""
        return parse_counts(self.command("reset", timeout).get("n"))

    def scene(
        self,
        segments: Mapping[str, Rgb],
        animations: Mapping[str, str] | None = None,
        clear: bool = True,
        timeout: float = 2.0,
    ) -> int:
        """Light LED segments (names from hardware/ledmap.json); the estimated current in mA."""
        segs = {name: [int(v) for v in rgb] for name, rgb in segments.items()}
        fields: dict[str, Any] = {"segs": segs, "clear": clear}
        if animations:
            fields["anim"] = dict(animations)
        return int(self.command("scene", timeout, **fields).get("ma", 0))

    def calibrate(
        self, step: str, colour: str | None = None, timeout: float = 5.0
    ) -> dict[str, Any]:
        """One calibration step (`CALIBRATION_STEPS`); `colour` for `sample`."""
        fields: dict[str, Any] = {"step": step}
        if colour is not None:
            fields["colour"] = colour
        return self.command("cal", timeout, **fields)

    def set_grande_possible(self, possible: bool) -> None:
        """Tell the tower whether a Grande may fall into the castillo now (only New Regency's
        Tournament throws one in). Otherwise the tower reports a long pulse as `merged`
        (uncertain), never as a Grande. This base version sends the command and waits;
        `SerialTowerLink` returns at once and re-sends the setting after every reconnect."""
        self.command("grande", on=possible)

    def diagnostics(self, on: bool, timeout: float = 2.0) -> None:
        """Switch the raw sensor stream on or off."""
        self.command("diag", timeout, on=on)

    def health(self) -> dict[str, Any]:
        """Link diagnostics: `bad_frames` (lines dropped by the codec: CRC, length, not JSON),
        `invalid_frames` (CRC-valid frames that broke their schema, skipped),
        `firmware_restarts` (firmware found stopped in the REPL and restarted) and `warning`
        (the latest of those problems while it is recent, else empty) with its `warning_kind`
        (`invalid_frame`, `firmware_restart`)."""
        return {
            "bad_frames": 0,
            "invalid_frames": 0,
            "firmware_restarts": 0,
            "warning": "",
            "warning_kind": "",
        }

    @abstractmethod
    def enter_repl(self, timeout: float = 2.0) -> str:
        """Stop the firmware's main loop (drop to the MicroPython REPL), close the link and
        return the port so a REPL tool (mpremote) can take it over."""

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def segment_names(ledmap: Mapping[str, Any]) -> Sequence[str]:
    """The LED segment names of a loaded hardware/ledmap.json."""
    return [str(segment["name"]) for segment in ledmap.get("segments", [])]


def calibrate_when_quiet(
    link: TowerLink, step: str, colour: str | None = None, wait_s: float = 3.0
) -> dict[str, Any]:
    """`link.calibrate`, retried while the firmware refuses because the chute is busy (it reads
    baselines and writes flash only once no cube has passed for a moment)."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            return link.calibrate(step, colour)
        except CommandFailed as exc:
            if "busy" not in exc.why or time.monotonic() > deadline:
                raise
            time.sleep(0.1)
