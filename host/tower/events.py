"""Typed objects the tower link delivers to the application.

A device event (`ev` frame) becomes one `TowerEvent` subclass; link state changes become
`LinkStatus`. Counts are secret in the game: `__repr__` of every event hides them (see
`SECRET_REPR`), so an accidental `log.info("%s", event)` does not leak them.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Counts = Mapping[str, int]


def _int(fields: Mapping[str, Any], key: str, default: int = 0) -> int:
    value = fields.get(key, default)
    return (
        int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else default
    )


def _float(fields: Mapping[str, Any], key: str) -> float:
    value = fields.get(key, 0.0)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def _str(fields: Mapping[str, Any], key: str, default: str = "") -> str:
    value = fields.get(key, default)
    return value if isinstance(value, str) else default


def parse_counts(raw: Any) -> dict[str, int]:
    """The `n` vector of a frame; anything that is not a colour -> non-negative int is dropped."""
    if not isinstance(raw, dict):
        return {}
    counts: dict[str, int] = {}
    for key, value in raw.items():
        is_count = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        if isinstance(key, str) and is_count:
            counts[key] = value
    return counts


def cube_colours(raw: Any, estimate: int) -> tuple[str, ...]:
    """A merged event's `cs`: one colour per cube ("" for a cube left to the table), or () when
    it is missing or does not name `estimate` cubes."""
    if not isinstance(raw, list) or len(raw) != estimate:
        return ()
    out = []
    for value in raw:
        if value is not None and not isinstance(value, str):
            return ()
        out.append(value or "")
    return tuple(out)


@dataclass(frozen=True)
class TowerEvent:
    """A sensed event. `device_counts` is the device's vector since its last reset (this boot);
    `totals` is the host ledger's reconciled total (old boots + this boot) after this event."""

    boot: str
    seq: int
    ms: int
    device_counts: Counts = field(repr=False)
    totals: Counts = field(repr=False)

    kind = "unknown"


@dataclass(frozen=True)
class Drop(TowerEvent):
    """One cube classified as `colour`; `distance` is its distance to the colour's centroid."""

    colour: str = field(default="", repr=False)
    distance: float = 0.0
    pulse_us: int = 0
    kind = "drop"


@dataclass(frozen=True)
class Uncertain(TowerEvent):
    """A cube whose colour is not clearly one colour, or (`why` "one_or_two", a tower with one
    beam) a pulse that may be one cube of colour `best` or two touching; counted under
    `uncertain`."""

    best: str = field(default="", repr=False)
    distance: float = 0.0
    pulse_us: int = 0
    why: str = ""
    kind = "uncertain"


@dataclass(frozen=True)
class Merged(TowerEvent):
    """A beam pulse too long for one cube: `estimate` cubes touching. `colours` (second beam)
    names each cube's colour in the order they fell, "" for one the tower could not tell;
    the named ones are counted under their colour, the rest under `uncertain`. Empty: no
    colour known (an older firmware, one beam), all `estimate` counted under `uncertain`."""

    pulse_us: int = 0
    estimate: int = 2
    colours: tuple[str, ...] = field(default=(), repr=False)
    kind = "merged"

    @property
    def unsure(self) -> int:
        """How many of its cubes the table is asked about."""
        return self.colours.count("") if self.colours else self.estimate


@dataclass(frozen=True)
class Grande(TowerEvent):
    """The Grande went through (colour may be `uncertain`)."""

    colour: str = field(default="", repr=False)
    pulse_us: int = 0
    best: str = field(default="", repr=False)
    kind = "grande"


@dataclass(frozen=True)
class Stuck(TowerEvent):
    """The beam has been blocked longer than the stuck limit."""

    since_ms: int = 0
    kind = "stuck"


@dataclass(frozen=True)
class Unstuck(TowerEvent):
    """The beam cleared after `Stuck`."""

    kind = "unstuck"


@dataclass(frozen=True)
class SensorFault(TowerEvent):
    """Saturated or dead colour sensor, or an I2C error."""

    why: str = ""
    kind = "sensor"


@dataclass(frozen=True)
class Gate(TowerEvent):
    """The castillo gate opened (`is_open`) or closed."""

    is_open: bool = False
    kind = "gate"


@dataclass(frozen=True)
class CountsReset(TowerEvent):
    """The device zeroed its counts (command or gate emptied the castillo).
    `totals_before` is the ledger total just before the reset."""

    why: str = ""
    totals_before: Counts = field(default_factory=dict, repr=False)
    kind = "reset"


@dataclass(frozen=True)
class CalibrationSample(TowerEvent):
    """A cube thrown while calibrating `colour` (not counted). `ok` False: rejected, see `why`;
    `got` is how many samples that colour has now."""

    colour: str = ""
    ok: bool = False
    got: int = 0
    pulse_us: int = 0
    why: str = ""
    kind = "cal"


@dataclass(frozen=True)
class UnknownEvent(TowerEvent):
    """An event kind this host does not know (newer firmware); kept, counted, acked."""

    name: str = ""
    fields: Mapping[str, Any] = field(default_factory=dict, repr=False)
    kind = "unknown"


class LinkState(enum.Enum):
    DISCONNECTED = "disconnected"
    CONNECTING = "connecting"
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"
    DEVICE_RESET = "device_reset"
    # the firmware is not counting: stopped in the REPL (being restarted) or rebooting
    RESTARTING = "restarting"
    CLOSED = "closed"


@dataclass(frozen=True)
class LinkStatus:
    """A link state change. DEVICE_RESET is reported once per new boot id (the ledger carried
    the old boot's counts over); CONNECTED follows it once resync is done. RESTARTING: the
    firmware stopped counting (REPL, reboot); once it counts again the link reports the
    interval as an `interrupted` warning (`health()["interruptions"]`)."""

    state: LinkState
    boot: str = ""
    detail: str = ""


EVENT_KINDS: dict[str, type[TowerEvent]] = {
    cls.kind: cls
    for cls in (
        Drop,
        Uncertain,
        Merged,
        Grande,
        Stuck,
        Unstuck,
        SensorFault,
        Gate,
        CountsReset,
        CalibrationSample,
    )
}


def event_from_frame(
    frame: Mapping[str, Any],
    boot: str,
    totals: Counts,
    totals_before: Counts,
) -> TowerEvent:
    """Build the typed event for an `ev` frame already accepted by the ledger."""
    base: dict[str, Any] = {
        "boot": boot,
        "seq": _int(frame, "seq"),
        "ms": _int(frame, "ms"),
        "device_counts": parse_counts(frame.get("n")),
        "totals": dict(totals),
    }
    kind = _str(frame, "k")
    if kind == "drop":
        return Drop(
            **base,
            colour=_str(frame, "c"),
            distance=_float(frame, "d"),
            pulse_us=_int(frame, "pulse_us"),
        )
    if kind == "uncertain":
        return Uncertain(
            **base, best=_str(frame, "best"), distance=_float(frame, "d"),
            pulse_us=_int(frame, "pulse_us"), why=_str(frame, "why"),
        )  # fmt: skip
    if kind == "merged":
        est = _int(frame, "est", 2)
        return Merged(
            **base, pulse_us=_int(frame, "pulse_us"), estimate=est,
            colours=cube_colours(frame.get("cs"), est),
        )  # fmt: skip
    if kind == "grande":
        return Grande(
            **base, colour=_str(frame, "c"), pulse_us=_int(frame, "pulse_us"),
            best=_str(frame, "best"),
        )  # fmt: skip
    if kind == "cal":
        return CalibrationSample(
            **base, colour=_str(frame, "colour"), ok=frame.get("ok") is True,
            got=_int(frame, "got"), pulse_us=_int(frame, "pulse_us"), why=_str(frame, "why"),
        )  # fmt: skip
    if kind == "stuck":
        return Stuck(**base, since_ms=_int(frame, "since_ms"))
    if kind == "unstuck":
        return Unstuck(**base)
    if kind == "sensor":
        return SensorFault(**base, why=_str(frame, "why"))
    if kind == "gate":
        return Gate(**base, is_open=bool(frame.get("open", False)))
    if kind == "reset":
        return CountsReset(**base, why=_str(frame, "why"), totals_before=dict(totals_before))
    extra = {k: v for k, v in frame.items() if k not in ("t", "k", "seq", "ms", "n")}
    return UnknownEvent(**base, name=kind, fields=extra)
