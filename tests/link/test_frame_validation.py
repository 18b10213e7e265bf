"""One odd frame costs one frame, not the link (issue 9).

Every CRC-valid device frame is checked against its schema (`host.tower.schema`) before it
touches the ledger. A broken event's sequence number is passed over durably and acked, so the
stream moves on: later cubes are counted, nothing is replayed or stored twice, the session is
not restarted, and the link counts and reports the frame.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from towerfw.codec import crc32 as codec_crc32
from towerfw.codec import hex8

from host.tower.events import LinkState, LinkStatus
from host.tower.schema import frame_problem
from host.tower.serial_link import SerialTowerLink
from tests.link.conftest import FakeTower, RecordingSink, wait_for

COUNTS = {"red": 3, "uncertain": 1}


def ev(kind: str, **fields: Any) -> dict[str, Any]:
    return {"t": "ev", "seq": 4, "k": kind, "ms": 1234, "n": dict(COUNTS), **fields}


# what the firmware sends (firmware/towerfw/app.py), each kind once
GOOD = [
    ev("drop", c="red", d=0.25, pulse_us=8000),
    ev("uncertain", best=None, d=0, pulse_us=9000, why="stuck"),
    ev("uncertain", best="blue", d=3.5, pulse_us=9000, why="colour"),
    ev("merged", pulse_us=30000, est=3, best=None),
    ev("merged", pulse_us=30000, est=2, best="red", size=2.07),  # measured by the second beam
    ev("merged", pulse_us=30000, est=3, best="red", size=2.9, cs=["red", None, "orange"]),
    ev("uncertain", best="purple", d=0.4, pulse_us=15000, why="one_or_two"),  # one beam
    ev("grande", c="uncertain", best="red", d=1.0, pulse_us=20000),
    ev("grande", c="red", best="red", d=1.0, pulse_us=20000, size=1.8),
    ev("stuck", since_ms=900),
    ev("unstuck"),
    ev("sensor", why="i2c"),
    ev("gate", open=True),
    ev("reset", why="gate"),
    ev("cal", colour="red", ok=True, got=3, raw=[10.5, 3.0, 2.0, 20.0], pulse_us=9000),
    ev("cal", colour="red", ok=False, pulse_us=30000, why="size"),
    ev("sparkle", x="anything"),  # a kind from a newer firmware: common fields only
    {"t": "hb", "up_ms": 1000, "seq": 3, "unacked": 0},
    {"t": "ok", "id": 7, "up_ms": 5},
    {"t": "err", "id": None, "why": "loop: ValueError('x')"},
    {"t": "diag", "us": 123456, "r": 1, "g": 2, "b": 3, "c": 4, "beam": 1},
    {"t": "future", "anything": [1, 2]},  # a frame type this host does not know
]

BAD = [
    (ev("merged", pulse_us=30000, est="x"), "`est`"),
    (ev("merged", pulse_us=30000, est=2, cs=["red"]), "`cs`"),  # not one per cube
    (ev("merged", pulse_us=30000, est=2, cs=["red", 3]), "`cs`"),
    (ev("merged", pulse_us=30000, est=2, cs="red,red"), "`cs`"),
    (ev("merged", pulse_us=30000, est=float("inf")), "`est`"),
    (ev("merged", pulse_us=30000, est=2, size=float("nan")), "`size`"),
    (ev("drop", c="red", d=0.2, pulse_us=8000, ms=float("inf")), "`ms`"),
    (ev("stuck", since_ms=float("inf")), "`since_ms`"),
    (ev("drop", c="red", d=float("nan"), pulse_us=8000), "`d`"),
    (ev("drop", c="red", d=0.2, pulse_us=True), "`pulse_us`"),
    (ev("drop", d=0.2, pulse_us=8000), "`c` is missing"),
    (ev("sensor", why="\ud800"), "`why`"),
    (ev("gate", open="yes"), "`open`"),
    (ev("drop", c="red", d=0.2, pulse_us=8000, n={"red": -1}), "`n`"),
    (ev("drop", c="red", d=0.2, pulse_us=8000, n={"red": 2.0}), "`n`"),
    (ev("drop", c="red", d=0.2, pulse_us=8000, seq=0), "`seq`"),
    (ev("drop", c="red", d=0.2, pulse_us=8000, k=["drop"]), "`k`"),
    ({"t": "hb", "up_ms": float("inf"), "seq": 3, "unacked": 0}, "`up_ms`"),
    (
        {
            "t": "hello",
            "proto": 1,
            "fw": "x",
            "uid": "ab",
            "boot": "not hex!",
            "up_ms": 0,
            "reset": "power",
            "cal": "00",
            "seq": 0,
        },
        "`boot`",
    ),
    ({"t": 7}, "`t`"),
]


@pytest.mark.parametrize("frame", GOOD)
def test_what_the_firmware_sends_passes(frame: dict[str, Any]) -> None:
    assert frame_problem(frame) is None


@pytest.mark.parametrize(("frame", "field"), BAD)
def test_a_broken_field_is_named_without_its_value(frame: dict[str, Any], field: str) -> None:
    problem = frame_problem(frame)
    assert problem is not None and field in problem
    assert "inf" not in problem and "yes" not in problem  # the value is never echoed


# --- over the link --------------------------------------------------------------------------


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[tuple[FakeTower, SerialTowerLink, RecordingSink]]:
    tower = FakeTower(tmp_path, heartbeat_s=0.2)
    sink = RecordingSink()
    link = SerialTowerLink(str(tower.path), sink=sink)
    statuses: list[LinkStatus] = []
    link.add_listener(lambda m: statuses.append(m) if isinstance(m, LinkStatus) else None)
    link.statuses = statuses  # type: ignore[attr-defined]
    link.start()
    link.wait_connected(3.0)
    yield tower, link, sink
    link.close()
    tower.close()


def send_raw_event(tower: FakeTower, body: str) -> int:
    """An `ev` frame whose JSON text is exactly `body` with the next sequence number (kept in
    the device ring like any event, so a replay sends it again)."""
    with tower._lock:
        tower.seq += 1
        text = body.replace("SEQ", str(tower.seq))
        tower.ring.append(json.loads(text))
        raw = text.encode()
        tower.raw(raw + b"*" + crc(raw) + b"\n")
        return tower.seq


def entries(sink: RecordingSink) -> list[tuple[str, int]]:
    with sink.lock:
        return [(e.kind, e.seq) for e in sink.entries if e.kind in ("event", "skipped")]


BROKEN_EVENTS = {
    "est is text": '{"t":"ev","seq":SEQ,"k":"merged","ms":5,"n":{"uncertain":2},'
    '"pulse_us":30000,"est":"x"}',
    "ms is 1e999": '{"t":"ev","seq":SEQ,"k":"drop","ms":1e999,"n":{"red":1},'
    '"c":"red","d":0.1,"pulse_us":9000}',
    "since_ms is 1e999": '{"t":"ev","seq":SEQ,"k":"stuck","ms":5,"n":{},"since_ms":1e999}',
    "est is 1e999": '{"t":"ev","seq":SEQ,"k":"merged","ms":5,"n":{},"pulse_us":3,"est":1e999}',
}


@pytest.mark.parametrize("body", BROKEN_EVENTS.values(), ids=BROKEN_EVENTS.keys())
def test_a_broken_event_costs_one_frame(
    rig: tuple[FakeTower, SerialTowerLink, RecordingSink], body: str
) -> None:
    tower, link, sink = rig
    first = tower.drop("red")
    broken = send_raw_event(tower, body)
    later = [tower.drop("blue"), tower.drop("green")]
    assert wait_for(lambda: tower.acks and tower.acks[-1] == later[-1], 3.0)
    time.sleep(0.6)  # heartbeats and any replay would come in this time
    assert entries(sink) == [
        ("event", first),
        ("skipped", broken),
        ("event", later[0]),
        ("event", later[1]),
    ]
    assert link.totals()["blue"] == 1 and link.totals()["green"] == 1
    assert not tower.ring  # everything acked: the device forgot the broken frame too
    health = link.health()
    assert health["invalid_frames"] == 1
    assert health["warning_kind"] == "invalid_frame" and f"seq {broken}" in health["warning"]
    statuses: list[LinkStatus] = link.statuses  # type: ignore[attr-defined]
    assert not [s for s in statuses if s.state is LinkState.RECONNECTING]  # no new session
    assert any("breaks the protocol" in s.detail for s in statuses)
    replays = [c for c in tower.commands if c.get("c") == "replay"]
    assert len(replays) == 1  # the one of the first connection


def test_a_broken_event_sent_again_is_not_counted_again(
    rig: tuple[FakeTower, SerialTowerLink, RecordingSink],
) -> None:
    tower, link, sink = rig
    broken = send_raw_event(tower, BROKEN_EVENTS["est is text"])
    assert wait_for(lambda: ("skipped", broken) in entries(sink), 3.0)
    again = BROKEN_EVENTS["est is text"].replace("SEQ", str(broken)).encode()
    tower.raw(again + b"*" + crc(again) + b"\n")  # as a replay after a lost ack would
    later = tower.drop("red")
    assert wait_for(lambda: ("event", later) in entries(sink), 3.0)
    assert entries(sink) == [("skipped", broken), ("event", later)]
    assert link.health()["invalid_frames"] == 1


def test_a_broken_heartbeat_is_skipped_and_counted(
    rig: tuple[FakeTower, SerialTowerLink, RecordingSink],
) -> None:
    tower, link, _ = rig
    body = b'{"t":"hb","up_ms":1e999,"seq":0,"unacked":0}'
    tower.raw(body + b"*" + crc(body) + b"\n")
    assert wait_for(lambda: link.health()["invalid_frames"] == 1, 2.0)
    assert link.ping() >= 0  # the link goes on
    assert link.state is LinkState.CONNECTED


def crc(body: bytes) -> bytes:
    return hex8(codec_crc32(body)).encode()
