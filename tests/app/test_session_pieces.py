"""The session in pieces (issue 22): the events an engine change causes are found in one place
and told to every reaction once; the tower and the lights are capabilities a game declares; the
WebSocket hub asks for the table's prompt alone, and gets the one in the table's state."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from host.app.session import Role, Session
from host.app.session import events as session_events
from host.app.session.capabilities import BOARD_LIGHTS, THROW_CHECKS, capabilities
from host.app.session.model import ACTION, CHANGED, SCORING, ActiveGame, Event
from host.app.store import Store
from tests.app.conftest import session_step

GAMES = {
    "elgrande": {
        "game": "elgrande",
        "players": ["purple", "green", "blue"],
        "mode": "dealer",
        "seed": 3,
        "short_game": True,
    },
    "kingdomino": {"game": "kingdomino", "seed": 3},
    "elcaballero": {
        "game": "elcaballero",
        "players": ["red", "blue"],
        "mode": "dealer",
        "catalogue": "synthetic",
        "seed": 3,
    },
}


def _session(tmp_path: Path, game: str) -> Session:
    session = Session(Store(tmp_path / "castillo.db"), checks_enabled=False)
    session.new_game(GAMES[game])
    return session


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_engine_change_is_told_once_as_its_events(
    tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    told: list[Event] = []

    def record(_active: ActiveGame, event: Event, _at: float) -> None:
        told.append(event)

    monkeypatch.setattr(session_events, "REACTIONS", (*session_events.REACTIONS, record))
    session = _session(tmp_path, game)
    rng = random.Random(5)
    active = session.active
    assert active is not None
    moves = 0
    while moves < 80:
        history, logged = len(active.game.history), active.logged
        told.clear()
        if not session_step(session, rng):
            break
        moves += 1
        assert session.active is active  # nothing failed: no reload
        kinds = [event.kind for event in told]
        assert kinds[0] == CHANGED and kinds.count(CHANGED) == 1
        # every engine action since the last step, the dealer's draws included, once, in order
        actions = [(event.player, str(event.action)) for event in told if event.kind == ACTION]
        assert actions == [(p, str(a)) for p, a in active.game.history[history:]]
        # one public log line for each action, reveal and scoring event, and no other
        assert active.logged - logged == sum(kind != CHANGED for kind in kinds)
    assert moves >= 10, moves
    session.close()


def test_the_scoring_events_make_the_scoring_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scorings: list[Event] = []

    def record(_active: ActiveGame, event: Event, _at: float) -> None:
        if event.kind == SCORING:
            scorings.append(event)

    monkeypatch.setattr(session_events, "REACTIONS", (*session_events.REACTIONS, record))
    session = _session(tmp_path, "elcaballero")
    rng = random.Random(3)
    while session_step(session, rng):
        pass
    active = session.active
    assert active is not None and active.game.is_terminal()
    lines = [line for line in active.log if line["kind"] == "scoring"]
    assert scorings and len(lines) == len(scorings)
    assert [dict(event.detail) for event in scorings] == active.adapter.scorings(active.game)
    session.close()


def test_only_a_game_with_the_tower_has_its_capabilities(tmp_path: Path) -> None:
    for game, declared in (
        ("elgrande", (THROW_CHECKS, BOARD_LIGHTS)),
        ("kingdomino", ()),
        ("elcaballero", ()),
    ):
        (tmp_path / game).mkdir()
        session = _session(tmp_path / game, game)
        active = session.active
        assert active is not None
        assert capabilities(active) == declared, game
        checks: dict[str, Any] = session.state_for(Role.table())["checks"]
        assert checks["enabled"] is False and not checks["open"] and not checks["issues"]
        session.close()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_table_prompt_alone_is_the_one_in_the_table_state(tmp_path: Path, game: str) -> None:
    session = _session(tmp_path, game)
    rng = random.Random(11)
    prompts = set()
    for _ in range(60):
        state = session.state_for(Role.table())
        assert session.table_prompt() == {
            "prompt": state["prompt"],
            "highlights": state["highlights"],
        }
        prompts.add(json.dumps(state["prompt"], sort_keys=True))
        if not session_step(session, rng):
            break
    assert len(prompts) >= 2  # the walk saw the prompt change
    session.close()
    empty = Session(Store(tmp_path / "none.db"))
    state = empty.state_for(Role.table())
    assert empty.table_prompt() == {"prompt": state["prompt"], "highlights": state["highlights"]}
    empty.close()


def test_the_table_socket_is_told_each_new_prompt(client: TestClient) -> None:
    """The hub sends a `prompt` message when the table's prompt changes, and it is the one the
    table's next `state` carries."""
    answer = client.post("/api/games", json=GAMES["elgrande"])
    assert answer.status_code == 200, answer.text
    told = 0
    with client.websocket_connect("/ws?role=table") as socket:
        assert socket.receive_json()["type"] == "hello"
        state = socket.receive_json()["state"]
        for text in state["legal"][:1]:
            assert client.post("/api/action", json={"text": text}).status_code == 200
            message = socket.receive_json()
            while message["type"] != "state":
                if message["type"] == "prompt":
                    told += 1
                    prompt = {"prompt": message["prompt"], "highlights": message["highlights"]}
                message = socket.receive_json()
            assert prompt == {k: message["state"][k] for k in ("prompt", "highlights")}
    assert told == 1
