"""The table app with the simulated tower (the real firmware in MicroPython behind a pty): the
dropper API throws a cube through the firmware, and the throw check matches the announcement."""

from __future__ import annotations

import time

from host.app.server import Access, create_app
from host.app.session import Role, Session
from tests.app.conftest import PLAYERS, LoopbackClient


def wait_for(condition: object, timeout: float = 10.0) -> None:
    assert callable(condition)
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_cube_through_the_simulated_tower_matches_its_throw(sim_session: Session) -> None:
    session = sim_session
    with LoopbackClient(create_app(session, Access())) as client:
        created = client.post(
            "/api/games", json={"players": PLAYERS, "mode": "dealer", "seed": 4}
        ).json()
        assert client.get("/api/state").json()["sim"] is True
        active = session.active
        assert active is not None and active.id == created["id"]
        game = active.game
        while "place castillo" not in [str(a) for a in game.legal_actions()]:
            player = game.current_players()[0]
            legal = [a for a in game.legal_actions(player) if a.kind not in ("special", "skip")]
            session.act(Role("seat", game.state.colours[player]), str(legal[0]))
        colour = game.state.colours[game.current_players()[0]]
        assert client.post("/api/action", json={"text": "place castillo"}).status_code == 200
        state = client.get("/api/state").json()
        assert state["checks"]["open"][0] == {
            **state["checks"]["open"][0],
            "colour": colour,
            "waiting": 1,
        }
        answer = client.post("/api/sim/drop", json={"cubes": [colour]})
        assert answer.status_code == 200, answer.text
        wait_for(lambda: not active.checks.expected and not active.checks.seen)
        assert not active.checks.issues
        assert active.checks.effective()[colour] == 1
        tower_lines = [line for line in active.log if line["kind"] == "tower"]
        assert tower_lines and tower_lines[-1]["text"] == "drop"
        # a cube nobody announced is shown as such
        other = next(c for c in PLAYERS if c != colour)
        client.post("/api/sim/drop", json={"cubes": [other]})
        wait_for(lambda: bool(active.checks.seen))
        unannounced = client.get("/api/state").json()["checks"]["open"]
        assert unannounced[0]["colour"] == other and unannounced[0]["unannounced"] == 1
        # a bad request is the client's fault (400 naming the field), not the tower's state
        refused = client.post("/api/sim/drop", json={"cubes": []})
        assert refused.status_code == 400 and "'cubes'" in refused.json()["reason"]
