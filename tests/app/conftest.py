"""Fixtures for the table app: an in-process fake `TowerLink` that runs the real `Ledger` (so its
events reach the app's SQLite sink exactly as the serial link's do), a settable clock, and the
FastAPI app under Starlette's TestClient.

The fake is NOT a simulator: HIL tests run the real firmware. Its count vectors always carry a
sentinel key, so a test can prove that no tower count ever leaves the host.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from host.app.server import Access, create_app
from host.app.session import Role, Session
from host.app.store import Store
from host.app.towers import TowerRuntime
from host.tower.events import LinkState, LinkStatus, event_from_frame
from host.tower.ledger import EventSink, Ledger
from host.tower.link import Hello, LinkMessage, Listener, TowerLink

SENTINEL_KEY = "zz_sentinel"
SENTINEL_VALUE = 424242
PLAYERS = ["purple", "green", "blue", "orange"]
# the app serves loopback names only (TestClient's default "testserver" is refused: 421)
BASE_URL = "http://127.0.0.1"


class LoopbackClient(TestClient):
    """Starlette's TestClient addressed to a loopback name, its WebSockets too (they always
    go to "ws://testserver" otherwise)."""

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, base_url=kwargs.pop("base_url", BASE_URL), **kwargs)

    def websocket_connect(self, url: str, *args: Any, **kwargs: Any) -> Any:
        if url.startswith("/"):
            url = "ws://" + BASE_URL.split("://", 1)[1] + url
        return super().websocket_connect(url, *args, **kwargs)


class FakeTowerLink(TowerLink):
    """Emits tower events on demand through a real `Ledger` with the app's durable sink."""

    def __init__(self, sink: EventSink, boot: str = "b00t0001") -> None:
        self.ledger = Ledger(sink)
        self.boot = boot
        self.ledger.adopt_boot(boot, 0)
        self.counts: Counter[str] = Counter()
        self.seq = self.ledger.seq
        self.scenes: list[dict[str, Any]] = []
        self.gaps: list[tuple[float, float]] = []  # when the firmware was not counting
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()

    def interrupted(self, start: float, end: float) -> None:
        """The firmware stopped counting from `start` to `end` and counts again (wall clock)."""
        self.gaps.append((start, end))
        self._deliver(LinkStatus(LinkState.RESTARTING, self.boot))
        self._deliver(LinkStatus(LinkState.CONNECTED, self.boot))

    def health(self) -> dict[str, Any]:
        return {**super().health(), "interruptions": [list(gap) for gap in self.gaps]}

    # the events a tower sends
    def emit(self, kind: str, **fields: Any) -> None:
        with self._lock:
            if kind == "drop":
                self.counts[str(fields["c"])] += 1
            elif kind in ("uncertain", "merged"):
                self.counts["uncertain"] += int(fields.get("est", 1))
            elif kind == "grande":
                self.counts[f"grande:{fields.get('c', 'uncertain')}"] += 1
            elif kind == "reset":
                self.counts = Counter()
            self.seq += 1
            counts = {**self.counts, SENTINEL_KEY: SENTINEL_VALUE}
            frame = {"t": "ev", "seq": self.seq, "k": kind, "ms": self.seq * 10, "n": counts}
            frame.update(fields)
            before = self.ledger.totals()
            accepted = self.ledger.accept(self.boot, frame)
            assert accepted is not None
            event = event_from_frame(frame, self.boot, accepted.entry.totals, before)
        for listener in self._listeners:
            listener(event)

    def drop(self, *colours: str) -> None:
        for colour in colours:
            self.emit("drop", c=colour, d=0.1, pulse_us=11000)

    def lift_castillo(self) -> None:
        self.emit("gate", open=True)
        self.emit("reset", why="gate")
        self.emit("gate", open=False)

    # TowerLink
    def start(self) -> None:
        self._deliver(LinkStatus(LinkState.CONNECTED, self.boot))

    def close(self) -> None:
        pass

    def wait_connected(self, timeout: float) -> Hello:
        return Hello(1, "fake", "uid", self.boot, 0, "power", "", self.seq)

    @property
    def state(self) -> LinkState:
        return LinkState.CONNECTED

    @property
    def port(self) -> str:
        return "fake://"

    @property
    def last_hello(self) -> Hello | None:
        return None

    def next_event(self, timeout: float | None = None) -> LinkMessage | None:
        return None

    def add_listener(self, listener: Listener) -> None:
        self._listeners = [*self._listeners, listener]

    def remove_listener(self, listener: Listener) -> None:
        self._listeners = [known for known in self._listeners if known is not listener]

    def _deliver(self, message: LinkMessage) -> None:
        for listener in self._listeners:
            listener(message)

    def next_diag(self, timeout: float | None = None) -> None:
        return None

    def totals(self) -> dict[str, int]:
        return self.ledger.totals()

    def command(self, name: str, timeout: float = 2.0, **fields: Any) -> dict[str, Any]:
        if name == "scene":
            self.scenes.append(fields)
            return {"ma": 0}
        if name == "reset":
            self.emit("reset", why="cmd")
            return {"n": {}}
        return {}

    def enter_repl(self, timeout: float = 2.0) -> str:
        return ""


def count_tower_calls(sim: Any) -> Counter[str]:
    """Count what reaches the simulated tower (`play`: cubes thrown, `gate`: gate switches):
    a refused request must reach neither."""
    reached: Counter[str] = Counter()
    play, set_gate = sim.play, sim.set_gate

    def counted_play(rows: Any, **kwargs: Any) -> int:
        reached["play"] += 1
        return int(play(rows, **kwargs))

    def counted_gate(is_open: bool) -> None:
        reached["gate"] += 1
        set_gate(is_open)

    sim.play = counted_play
    sim.set_gate = counted_gate
    return reached


class Clock:
    """A settable clock for the session (throw windows without sleeping)."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Table:
    """A session with a fake tower, its store and clock."""

    def __init__(self, db: Path, clock: Clock | None = None) -> None:
        self.db = db
        self.clock = clock or Clock()
        self.store = Store(db)
        self.session = Session(self.store, clock=self.clock)
        self.link = FakeTowerLink(self.session.sink)
        self.session.attach_tower(TowerRuntime("real", self.link))
        self.link.start()

    def close(self) -> None:
        self.session.close()
        self.store.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path / "castillo.db")
    yield t
    t.close()


@pytest.fixture
def client(table: Table) -> Iterator[TestClient]:
    app = create_app(table.session, Access())
    with LoopbackClient(app) as test_client:
        yield test_client


def new_game(client: TestClient, **options: Any) -> dict[str, Any]:
    body = {"players": PLAYERS, "mode": "dealer", "seed": 5, "short_game": True, **options}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


@pytest.fixture
def sim_session(tmp_path: Path) -> Iterator[Session]:
    """A session on the simulated tower (the real firmware in MicroPython behind a pty)."""
    from host.tower.sim.launcher import SimTower
    from host.tower.sim_link import SimTowerLink

    sim = SimTower.start()
    store = Store(tmp_path / "castillo.db")
    session = Session(store)
    link = SimTowerLink(sim, sink=session.sink)
    session.attach_tower(TowerRuntime("sim", link, sim))
    link.start()
    link.wait_connected(10.0)
    try:
        yield session
    finally:
        session.close()
        sim.stop()
        store.close()


@pytest.fixture
def app(table: Table) -> Iterator[TestClient]:
    """The table app over `table`'s session, asked as the host's own screen."""
    with LoopbackClient(create_app(table.session, Access())) as test_client:
        yield test_client


def create_game(client: TestClient, game: str, **body: Any) -> dict[str, Any]:
    """POST /api/games for `game`; its answer (the test fails on a refusal)."""
    answer = client.post("/api/games", json={"game": game, **body})
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def wait_for_state(
    client: TestClient, done: Callable[[dict[str, Any]], bool], timeout_s: float
) -> dict[str, Any]:
    """The table's state once `done(state)` holds (computer seats think in their own thread)."""
    deadline = time.monotonic() + timeout_s
    while True:
        state: dict[str, Any] = client.get("/api/state").json()
        if done(state):
            return state
        assert time.monotonic() < deadline, f"waited {timeout_s} s: {state['prompt']}"
        time.sleep(0.02)


def assert_computer_levels(entry: dict[str, Any], default: int) -> None:
    """A catalogue entry's computer player: levels 1-5, its default, each level named (seconds a
    turn for the searching ones, the kind of the others), and hints."""
    computer = entry["computer"]
    assert computer["levels"] == [1, 2, 3, 4, 5] and computer["default"] == default
    assert computer["kinds"] == {"1": "random", "2": "greedy"}
    assert set(computer["seconds"]) == {"3", "4", "5"}
    assert entry["hint"] is True


def session_step(session: Session, rng: random.Random) -> bool:
    """One random legal move, at the table or on the seat that acts; False when none is left."""
    active = session.active
    assert active is not None
    table = session.state_for(Role.table())
    if table["legal"]:
        session.act(Role.table(), rng.choice(table["legal"]))
        return True
    for colour in active.seats:
        mine = session.state_for(Role("seat", colour))
        if mine["legal"]:
            session.act(Role("seat", colour), rng.choice(mine["legal"]))
            return True
    return False
