"""The physical castillo stays true (issue 11), through the table's API and WebSocket with the
simulated tower (the real firmware in MicroPython): each throw-check fix leaves the tower's
per-colour count and the game's castillo agreeing, and the castillo scored at a general scoring
is the one in the tower."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.elgrande.game import Game
from host.app.server import Access, create_app
from host.app.session import Role, Session
from host.app.store import Store
from host.app.towers import TowerRuntime
from host.tower.checks import ANNOUNCE_S, ARRIVE_S
from tests.app.conftest import PLAYERS, Clock, LoopbackClient

Client = LoopbackClient


class SimTable:
    """A session on the simulated tower with a settable clock (throw windows without sleeping)."""

    def __init__(self, db: Path) -> None:
        from host.tower.sim.launcher import SimTower
        from host.tower.sim_link import SimTowerLink

        self.sim = SimTower.start()
        self.clock = Clock(time.time())
        self.store = Store(db)
        self.session = Session(self.store, clock=self.clock)
        self.link = SimTowerLink(self.sim, sink=self.session.sink)
        self.session.attach_tower(TowerRuntime("sim", self.link, self.sim))
        self.link.start()
        self.link.wait_connected(10.0)

    @property
    def game(self) -> Game:
        active = self.session.active
        assert active is not None and isinstance(active.game, Game)
        return active.game

    def tower_castillo(self) -> dict[str, int]:
        """What the tower counts per colour, with the logged corrections."""
        active = self.session.active
        assert active is not None
        return {c: n for c, n in active.checks.effective().items() if n}

    def game_castillo(self) -> dict[str, int]:
        game = self.game
        return {
            game.state.colours[p]: n
            for p, n in enumerate(game.state.pieces[game.state.CASTILLO])
            if n
        }

    def close(self) -> None:
        self.session.close()
        self.sim.stop()
        self.store.close()


@pytest.fixture
def sim_table(tmp_path: Path) -> Iterator[SimTable]:
    table = SimTable(tmp_path / "castillo.db")
    try:
        yield table
    finally:
        table.close()


@pytest.fixture
def api(sim_table: SimTable) -> Iterator[Client]:
    with LoopbackClient(create_app(sim_table.session, Access())) as client:
        body = {"players": PLAYERS, "mode": "dealer", "seed": 4}
        assert client.post("/api/games", json=body).status_code == 200
        yield client


def wait_for(condition: Callable[[], bool], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def post(client: Client, path: str, **body: Any) -> dict[str, Any]:
    answer = client.post(path, json=body)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def drop(table: SimTable, client: Client, *cubes: str) -> None:
    """Throw cubes through the simulated chute and wait until the checks took each."""
    active = table.session.active
    assert active is not None
    seen = len([line for line in active.log if line["kind"] == "tower" and line["text"] == "drop"])
    post(client, "/api/sim/drop", cubes=list(cubes))
    wait_for(
        lambda: (
            len([ln for ln in active.log if ln["kind"] == "tower" and ln["text"] == "drop"])
            >= seen + len(cubes)
        )
    )


def lift_castillo(table: SimTable, client: Client) -> None:
    """The gate switch opens (the castillo lifted) and closes again: the tower's counts reset."""
    active = table.session.active
    assert active is not None
    post(client, "/api/sim/gate", open=True)
    wait_for(lambda: active.checks.gate_open is True)  # past the firmware's debounce
    post(client, "/api/sim/gate", open=False)
    wait_for(lambda: active.checks.gate_open is False)


def run_out(table: SimTable, seconds: float = ARRIVE_S + 0.5) -> None:
    """The throw windows run out (the app's ticker does this on the real clock)."""
    table.clock.advance(seconds)
    table.session.run_due()


def passive(game: Game, player: int) -> str:
    """A move that throws nothing: skip, done, take nothing, else the first legal move that does
    not go to the castillo."""
    legal = [str(a) for a in game.legal_actions(player)]
    for wanted in ("skip", "done", "take 0"):
        if wanted in legal:
            return wanted
    return next((a for a in legal if "castillo" not in a), legal[0])


def act(table: SimTable, player: int, text: str) -> None:
    game = table.game
    role = Role("seat", game.state.colours[player])
    table.session.act(role, text)


def play_until(table: SimTable, done: Callable[[Game], bool], limit: int = 2000) -> None:
    """Play passively (every acting seat from its own page) until `done`."""
    for _ in range(limit):
        game = table.game
        if done(game):
            return
        players = game.current_players()
        assert players and players[0] >= 0, f"stuck at {game.state.phase}"
        for player in players:
            act(table, player, passive(game, player))
    raise AssertionError("the game did not get there")


def to_castillo_placement(table: SimTable) -> str:
    """The next player takes all they may and the card with the most caballeros, and stands
    ready to place into the castillo; returns their colour."""
    play_until(table, lambda g: g.state.phase == "take")
    game = table.game
    player = game.current_players()[0]
    takes = [a for a in game.legal_actions(player) if a.kind == "take"]
    act(table, player, str(max(takes, key=lambda a: int(a.arg))))
    cards = [a for a in game.legal_actions(player) if a.kind == "card"]
    act(table, player, str(max(cards, key=lambda a: game.state.data.cards[a.arg].place)))
    assert "place castillo" in [str(a) for a in game.legal_actions(player)]
    return game.state.colours[player]


def other_than(colour: str) -> str:
    return next(c for c in PLAYERS if c != colour)


def next_state(socket: Any) -> dict[str, Any]:
    """The next full state pushed on a WebSocket (other messages skipped)."""
    while True:
        message = socket.receive_json()
        if message.get("type") == "state":
            state: dict[str, Any] = message["state"]
            return state


def open_issue(client: Client) -> dict[str, Any]:
    checks = client.get("/api/state").json()["checks"]
    (issue,) = checks["issues"]
    result: dict[str, Any] = issue
    return result


def log_texts(client: Client) -> list[str]:
    return [line["text"] for line in client.get("/api/state").json()["log"]]


def wrong_colour_thrown(table: SimTable, client: Client) -> tuple[str, str, dict[str, Any]]:
    colour = to_castillo_placement(table)
    stray = other_than(colour)
    post(client, "/api/action", text="place castillo")
    drop(table, client, stray)
    run_out(table)
    issue = open_issue(client)
    assert issue["kind"] == "wrong_colour"
    assert (issue["colours"], issue["thrown"]) == ({colour: 1}, {stray: 1})
    assert issue["options"] == ["misread", "tower_wins", "take_out"]
    return colour, stray, issue


def test_wrong_colour_thrown_the_tower_wins(sim_table: SimTable, api: Client) -> None:
    colour, stray, issue = wrong_colour_thrown(sim_table, api)
    post(api, "/api/resolve", issue=issue["id"], how="tower_wins")
    assert sim_table.game_castillo() == {stray: 1} == sim_table.tower_castillo()
    state = api.get("/api/state").json()
    assert not state["checks"]["issues"] and "disagree" not in state["checks"]["warnings"]
    texts = log_texts(api)
    assert f"castillo-fix {stray}+1 wrong-colour" in texts
    assert f"castillo-fix {colour}-1 wrong-colour" in texts


def test_wrong_colour_thrown_the_sensor_misread(sim_table: SimTable, api: Client) -> None:
    colour, _stray, issue = wrong_colour_thrown(sim_table, api)
    post(api, "/api/resolve", issue=issue["id"], how="misread")
    assert sim_table.game_castillo() == {colour: 1} == sim_table.tower_castillo()
    assert not any(text.startswith("castillo-fix") for text in log_texts(api))


def test_wrong_colour_thrown_the_stray_cube_is_taken_out(sim_table: SimTable, api: Client) -> None:
    colour, stray, issue = wrong_colour_thrown(sim_table, api)
    post(api, "/api/resolve", issue=issue["id"], how="take_out")
    take_out = open_issue(api)
    assert take_out["kind"] == "take_out" and take_out["colours"] == {stray: 1}
    assert take_out["rethrow"] == {colour: 1}
    # the table lifts the castillo (the tower's gate switch), takes the stray cube out and
    # throws back what the game's castillo holds: the announced cube
    lift_castillo(sim_table, api)
    active = sim_table.session.active
    assert active is not None
    wait_for(lambda: not active.checks.issues)
    drop(sim_table, api, colour)
    wait_for(lambda: not active.checks.expected)
    assert sim_table.game_castillo() == {colour: 1} == sim_table.tower_castillo()


def too_many_thrown(table: SimTable, client: Client) -> tuple[str, dict[str, Any]]:
    colour = to_castillo_placement(table)
    post(client, "/api/action", text="place castillo")
    drop(table, client, colour, colour)
    run_out(table)
    issue = open_issue(client)
    assert (issue["kind"], issue["colours"]) == ("extra", {colour: 1})
    assert issue["options"] == ["announce", "tower_wins", "take_out", "accept_game"]
    return colour, issue


def test_too_many_cubes_the_player_announces_the_cube_over_the_websocket(
    sim_table: SimTable, api: Client
) -> None:
    colour, issue = too_many_thrown(sim_table, api)
    token = api.get("/api/seats").json()
    seat_url = next(s["url"] for s in token["seats"] if s["colour"] == colour)
    with api.websocket_connect(f"/ws?seat={seat_url.rsplit('/', 1)[1]}") as seat:
        assert next_state(seat)["checks"]["blocked"]
        post(api, "/api/resolve", issue=issue["id"], how="announce")
        state = next_state(seat)
        assert not state["checks"]["blocked"]
        assert "place castillo" in state["legal"]  # no greyed-out dead end
        seat.send_json({"type": "action", "text": "place castillo", "id": 1})
        wait_for(lambda: sim_table.game_castillo() == {colour: 2})
    active = sim_table.session.active
    assert active is not None
    assert not active.checks.seen and not active.checks.issues
    run_out(sim_table, ANNOUNCE_S + 1)
    assert not active.checks.issues
    assert sim_table.game_castillo() == {colour: 2} == sim_table.tower_castillo()


def test_too_many_cubes_the_tower_wins(sim_table: SimTable, api: Client) -> None:
    colour, issue = too_many_thrown(sim_table, api)
    post(api, "/api/resolve", issue=issue["id"], how="tower_wins")
    assert f"castillo-fix {colour}+1 too-many" in log_texts(api)
    assert sim_table.game_castillo() == {colour: 2} == sim_table.tower_castillo()


def test_undo_after_a_throw_asks_for_the_cube_to_come_out(sim_table: SimTable, api: Client) -> None:
    colour = to_castillo_placement(sim_table)
    post(api, "/api/action", text="place castillo")
    drop(sim_table, api, colour)
    active = sim_table.session.active
    assert active is not None
    wait_for(lambda: not active.checks.expected)
    post(api, "/api/undo")
    issue = open_issue(api)  # at once: the cube is already in the tower
    assert (issue["kind"], issue["colours"]) == ("undone", {colour: 1})
    assert issue["options"] == ["take_out", "tower_wins", "announce"]
    post(api, "/api/resolve", issue=issue["id"], how="take_out")
    lift_castillo(sim_table, api)
    wait_for(lambda: not active.checks.issues)
    assert sim_table.game_castillo() == {} == sim_table.tower_castillo()


def test_undo_after_a_throw_the_cube_stays_in(sim_table: SimTable, api: Client) -> None:
    colour = to_castillo_placement(sim_table)
    post(api, "/api/action", text="place castillo")
    drop(sim_table, api, colour)
    post(api, "/api/undo")
    issue = open_issue(api)
    post(api, "/api/resolve", issue=issue["id"], how="tower_wins")
    assert f"castillo-fix {colour}+1 undo" in log_texts(api)
    assert sim_table.game_castillo() == {colour: 1} == sim_table.tower_castillo()


def test_a_refused_correction_changes_nothing(sim_table: SimTable, api: Client) -> None:
    _colour, stray, issue = wrong_colour_thrown(sim_table, api)
    game = sim_table.game
    game.state.province[game.state.colour(stray)] = game.state.court[game.state.colour(stray)] = (
        0  # none to spare
    )
    answer = api.post("/api/resolve", json={"issue": issue["id"], "how": "tower_wins"})
    assert answer.status_code == 409, answer.text
    assert answer.json()["key"] == "elgrande.refuse.fix_supply_short"
    assert open_issue(api)["id"] == issue["id"]
    assert not any(text.startswith("castillo-fix") for text in log_texts(api))


def test_at_the_general_scoring_the_castillo_scored_is_the_towers(
    sim_table: SimTable, api: Client
) -> None:
    # a wrong colour and a too-many throw, each settled by the tower's count
    _colour, _stray, issue = wrong_colour_thrown(sim_table, api)
    post(api, "/api/resolve", issue=issue["id"], how="tower_wins")
    play_until(sim_table, lambda g: g.state.turn is None or g.state.phase == "take")
    _colour, issue = too_many_thrown(sim_table, api)
    post(api, "/api/resolve", issue=issue["id"], how="tower_wins")
    active = sim_table.session.active
    assert active is not None
    play_until(sim_table, lambda g: g.state.phase == "scoring")
    wait_for(lambda: not active.checks.waiting_for_scoring_check())
    assert not active.checks.issues, active.checks.issues
    tower = sim_table.tower_castillo()
    play_until(sim_table, lambda g: any(s["kind"] == "general" for s in g.state.scorings))
    general = next(s for s in sim_table.game.state.scorings if s["kind"] == "general")
    castillo = next(a for a in general["areas"] if a["area"] == "castillo")
    assert {c: n for c, n in castillo["counts"].items() if n} == tower
    assert sum(tower.values()) == 3  # the stray cube, and the announced one with its extra
