"""Typed events from `ev` frames, and finding the tower by USB id."""

from __future__ import annotations

import pytest
from serial.tools.list_ports_common import ListPortInfo

from host.tower import autodetect
from host.tower.events import (
    EVENT_KINDS,
    CalibrationSample,
    CountsReset,
    Drop,
    Gate,
    Grande,
    Merged,
    SensorFault,
    Stuck,
    Uncertain,
    UnknownEvent,
    Unstuck,
    event_from_frame,
)


def frame(kind: str, **extra: object) -> dict[str, object]:
    return {"t": "ev", "seq": 4, "k": kind, "ms": 1234, "n": {"red": 3, "uncertain": 1}, **extra}


@pytest.mark.parametrize(
    ("kind", "extra", "cls", "check"),
    [
        ("drop", {"c": "red", "d": 0.25, "pulse_us": 8000}, Drop, ("colour", "red")),
        ("uncertain", {"best": "blue", "d": 1.5, "pulse_us": 9000}, Uncertain, ("best", "blue")),
        ("merged", {"pulse_us": 30000, "est": 3}, Merged, ("estimate", 3)),
        ("grande", {"c": "uncertain", "pulse_us": 20000}, Grande, ("colour", "uncertain")),
        ("stuck", {"since_ms": 900}, Stuck, ("since_ms", 900)),
        ("unstuck", {}, Unstuck, ("seq", 4)),
        ("sensor", {"why": "i2c"}, SensorFault, ("why", "i2c")),
        ("gate", {"open": True}, Gate, ("is_open", True)),
        ("reset", {"why": "gate"}, CountsReset, ("why", "gate")),
        ("cal", {"colour": "red", "ok": True, "got": 3}, CalibrationSample, ("got", 3)),
        ("sparkle", {"x": 1}, UnknownEvent, ("name", "sparkle")),
    ],
)
def test_every_kind_becomes_its_dataclass(
    kind: str, extra: dict[str, object], cls: type, check: tuple[str, object]
) -> None:
    event = event_from_frame(frame(kind, **extra), "b1", {"red": 5}, {"red": 4})
    assert type(event) is cls
    assert getattr(event, check[0]) == check[1]
    assert event.device_counts == {"red": 3, "uncertain": 1}
    assert event.totals == {"red": 5}
    assert (event.boot, event.seq, event.ms) == ("b1", 4, 1234)


def test_every_protocol_kind_is_known() -> None:
    assert set(EVENT_KINDS) == {
        "drop", "uncertain", "merged", "grande", "stuck", "unstuck", "sensor", "gate", "reset",
        "cal",
    }  # fmt: skip


def test_repr_keeps_counts_and_colours_secret() -> None:
    event = event_from_frame(frame("drop", c="purple", d=0.1), "b1", {"purple": 77}, {})
    text = repr(event)
    assert "purple" not in text
    assert "77" not in text


def test_malformed_fields_do_not_raise() -> None:
    event = event_from_frame(
        {"t": "ev", "seq": "x", "k": "drop", "n": [1], "d": "far"}, "b", {}, {}
    )
    assert isinstance(event, Drop)
    assert event.seq == 0 and event.distance == 0.0 and event.device_counts == {}


def port(device: str, vid: int | None, pid: int | None, serial: str = "") -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.serial_number = vid, pid, serial
    return info


PORTS = [
    port("/dev/ttyUSB0", 0x0403, 0x6001, "FTDI"),
    port("/dev/ttyACM1", 0x2E8A, 0x0005, "E66141040B2F2A29"),
    port("/dev/ttyACM0", 0x2E8A, 0x0005, "E6614103E7452D2F"),
    port("/dev/ttyS0", None, None),
]


def test_find_towers_by_usb_id_and_serial(monkeypatch: pytest.MonkeyPatch) -> None:
    found = autodetect.find_towers(comports=lambda: PORTS)
    assert [c.device for c in found] == ["/dev/ttyACM0", "/dev/ttyACM1"]
    chosen = autodetect.find_towers("e66141040b2f2a29", comports=lambda: PORTS)
    assert [c.device for c in chosen] == ["/dev/ttyACM1"]


def test_resolve_port_prefers_explicit_then_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(autodetect.PORT_ENV, "socket://localhost:1")
    assert autodetect.resolve_port("loop://", comports=lambda: PORTS) == "loop://"
    assert autodetect.resolve_port(None, comports=lambda: PORTS) == "socket://localhost:1"


def test_resolve_port_explains_missing_and_ambiguous(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(autodetect.PORT_ENV, raising=False)
    with pytest.raises(autodetect.TowerNotFound, match="several towers"):
        autodetect.resolve_port(None, comports=lambda: PORTS)
    with pytest.raises(autodetect.TowerNotFound, match="castillo tower-sim"):
        autodetect.resolve_port(None, comports=lambda: PORTS[:1])
    only = autodetect.resolve_port(None, "E6614103E7452D2F", comports=lambda: PORTS)
    assert only == "/dev/ttyACM0"


def test_trace_clock_rebases_and_survives_the_ticks_wrap() -> None:
    from host.commands.tower import TraceClock

    clock = TraceClock()
    period = TraceClock.PERIOD
    assert clock(period - 1000) == 0
    assert clock(period - 10) == 990
    assert clock(5) == 1005  # ticks_us wrapped
    assert clock(2) == 1002  # an older sample sorts before


def test_a_group_event_carries_each_cubes_colour() -> None:
    """Issue 25: `cs` names each cube ("" for one left to the table); without it, none."""
    from host.tower.events import Merged, event_from_frame

    frame = {"t": "ev", "seq": 4, "k": "merged", "ms": 9, "n": {}, "pulse_us": 30000, "est": 3}
    named = event_from_frame({**frame, "cs": ["red", None, "blue"]}, "b", {}, {})
    assert isinstance(named, Merged) and named.colours == ("red", "", "blue")
    assert named.unsure == 1 and "red" not in repr(named)  # colours are secret
    old = event_from_frame(frame, "b", {}, {})
    assert isinstance(old, Merged) and old.colours == () and old.unsure == 3
