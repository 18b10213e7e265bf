"""Hardware-in-the-loop fixtures: the real firmware in MicroPython behind a pty (SimTower),
reached through the real pyserial link (SimTowerLink) with a durable JSON-lines ledger."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from host.tower.events import LinkState, LinkStatus, TowerEvent
from host.tower.ledger import JsonLinesSink
from host.tower.link import LinkMessage
from host.tower.sim.launcher import SimTower
from host.tower.sim_link import SimTowerLink


@pytest.fixture
def sim() -> Iterator[SimTower]:
    tower = SimTower.start()
    yield tower
    tower.stop()


@pytest.fixture
def ledger_path(tmp_path: Path) -> Path:
    return tmp_path / "ledger.jsonl"


@pytest.fixture
def link(sim: SimTower, ledger_path: Path) -> Iterator[SimTowerLink]:
    sink = JsonLinesSink(ledger_path)
    tower_link = SimTowerLink(sim, sink=sink)
    tower_link.start()
    try:
        tower_link.wait_connected(10.0)
        drain(tower_link)
        yield tower_link
    finally:
        tower_link.close()
        sink.close()


def drain(link: SimTowerLink) -> list[LinkMessage]:
    """Everything already delivered (start-up statuses)."""
    out: list[LinkMessage] = []
    while (message := link.next_event(0)) is not None:
        out.append(message)
    return out


def collect_events(
    link: SimTowerLink,
    count: int,
    timeout: float = 10.0,
    kinds: Callable[[TowerEvent], bool] | None = None,
) -> list[TowerEvent]:
    """The next `count` events (optionally only those `kinds` accepts); fails on timeout."""
    got: list[TowerEvent] = []
    deadline = time.monotonic() + timeout
    while len(got) < count:
        left = deadline - time.monotonic()
        assert left > 0, f"only {len(got)} of {count} events: {[e.kind for e in got]}"
        message = link.next_event(min(left, 0.5))
        if isinstance(message, TowerEvent) and (kinds is None or kinds(message)):
            got.append(message)
    return got


def wait_status(link: SimTowerLink, state: LinkState, timeout: float = 5.0) -> list[LinkMessage]:
    """Messages up to and including the status `state`; fails on timeout."""
    seen: list[LinkMessage] = []
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no {state.value}: saw {seen}"
        message = link.next_event(min(left, 0.5))
        if message is None:
            continue
        seen.append(message)
        if isinstance(message, LinkStatus) and message.state is state:
            return seen
