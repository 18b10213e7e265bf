"""Line noise on the device -> host direction: the link's decoder path must neither crash nor
lose, double or invent an event (a frame glued to garbage is fetched again by replay)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from towerfw.codec import encode

from host.tower.events import TowerEvent
from host.tower.serial_link import SerialTowerLink
from tests.link.conftest import FakeTower, RecordingSink


@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[FakeTower, SerialTowerLink]]:
    tower = FakeTower(Path(tmp_path_factory.mktemp("fuzz")), heartbeat_s=0.2)
    link = SerialTowerLink(str(tower.path), sink=RecordingSink())
    link.start()
    link.wait_connected(3.0)
    yield tower, link
    link.close()
    tower.close()


def drain_events(link: SerialTowerLink, until_seq: int, timeout: float = 3.0) -> list[int]:
    seqs: list[int] = []
    while not seqs or seqs[-1] < until_seq:
        message = link.next_event(timeout)
        if message is None:
            break
        if isinstance(message, TowerEvent):
            seqs.append(message.seq)
    return seqs


noise = st.one_of(
    st.binary(max_size=40),
    st.sampled_from([b"AT\r\n", b"AT+CGSN\r\n", b"\x03", b"\r\n", b"*", b"{}*00000000\n"]),
    st.binary(min_size=481, max_size=600),  # longer than any frame: discarded to the newline
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(chunks=st.lists(noise, min_size=1, max_size=4))
def test_noise_between_frames_never_loses_or_doubles(
    rig: tuple[FakeTower, SerialTowerLink], chunks: list[bytes]
) -> None:
    tower, link = rig
    first = tower.seq + 1
    for chunk in chunks:
        tower.raw(chunk)
        tower.drop("red")
    last = tower.seq
    assert drain_events(link, last) == list(range(first, last + 1))
    assert link.totals() == tower.counts


def test_a_frame_truncated_at_every_offset(rig: tuple[FakeTower, SerialTowerLink]) -> None:
    tower, link = rig
    sample = encode(
        {"t": "ev", "seq": 10**6, "k": "drop", "ms": 1, "n": {"red": 10**6}, "c": "red"}
    )
    for start in range(1, len(sample), 20):  # bursts shorter than the device ring
        first = tower.seq + 1
        for cut in range(start, min(start + 20, len(sample))):
            tower.raw(sample[:cut] + (b"\n" if cut % 2 else b""))  # with and without a newline
            tower.drop("blue")
        last = tower.seq
        assert drain_events(link, last) == list(range(first, last + 1))
        assert link.totals() == tower.counts
