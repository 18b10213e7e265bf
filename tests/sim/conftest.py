"""A simulated tower (real firmware in MicroPython behind a pty) and a client for each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from host.tower.sim.client import SimClient
from host.tower.sim.launcher import SimTower


@pytest.fixture
def tower() -> Iterator[SimTower]:
    t = SimTower.start()
    yield t
    t.stop()


@pytest.fixture
def client(tower: SimTower) -> Iterator[SimClient]:
    c = SimClient(tower.port)
    c.wait_hello()
    yield c
    c.close()
