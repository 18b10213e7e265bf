"""An action is one transaction: the engine's apply, the store's commit and the bookkeeping
before the acknowledgement succeed together or not at all (issue 21).

On 9ecc0a4 every El Caballero game broke at its first scoring (the session read a `kind` its
scorings do not carry): the game moved on in memory, was never stored, and every later action
answered 500 or dropped the WebSocket. These tests play such a game to its end through the API
and across a restart, and make the session fail on purpose before and after the commit."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engine import registry
from engine.core import record as core_record
from host.app.server import create_app
from host.app.session import Role, Session
from tests.app.conftest import LoopbackClient, Table

EC_PLAYERS = ["red", "blue"]


def _ec_game(client: TestClient, seed: int) -> dict[str, str]:
    body = {
        "game": "elcaballero",
        "players": EC_PLAYERS,
        "mode": "dealer",
        "catalogue": "synthetic",
        "seed": seed,
    }
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 200, answer.text
    return {seat["colour"]: seat["token"] for seat in answer.json()["seats"]}


def _next_move(client: TestClient, tokens: dict[str, str]) -> tuple[str, list[str]] | None:
    """Who may act now (the table's action route or a seat's) and what it may do; None once
    the game is over."""
    table = client.get("/api/state").json()
    if table["prompt"]["key"] == "over":
        return None
    if table["legal"]:
        return "/api/action", table["legal"]
    for token in tokens.values():
        mine = client.get(f"/api/seat/{token}/state").json()
        if mine["legal"]:
            return f"/api/seat/{token}/action", mine["legal"]
    raise AssertionError(f"nobody can act: {table['prompt']}")


def _play_to_the_end(client: TestClient, tokens: dict[str, str], rng: random.Random) -> int:
    moves = 0
    while (move := _next_move(client, tokens)) is not None:
        route, legal = move
        answer = client.post(route, json={"text": rng.choice(legal)})
        assert answer.status_code == 200, answer.text
        moves += 1
        assert moves < 5000, "the game does not end"
    return moves


def _view(session: Session) -> dict[str, Any]:
    """What the table sees of the game, without what changes with every revision."""
    state = session.state_for(Role.table())
    for key in ("rev", "tower", "seats"):
        state.pop(key, None)
    return state


def test_an_el_caballero_game_plays_to_its_end_through_the_app_and_survives_a_restart(
    tmp_path: Path,
) -> None:
    db = tmp_path / "castillo.db"
    first = Table(db)
    with LoopbackClient(create_app(first.session)) as client:
        tokens = _ec_game(client, seed=11)
        moves = _play_to_the_end(client, tokens, random.Random(11))
        game_id = client.get("/api/state").json()["game_id"]
        record = client.get(f"/api/games/{game_id}/record")
        assert record.status_code == 200, record.text
        before = _view(first.session)
        active = first.session.active
        assert active is not None
        scorings, scores = active.adapter.scorings(active.game), active.game.returns()
    first.close()
    assert moves > 50 and len(scorings) >= 2  # past the first scoring, to the last

    again = Table(db)  # a restart: the game comes back from the store alone
    try:
        assert again.session.restore_last() == game_id
        assert _view(again.session) == before
        log_lines = [line for line in before["log"] if line["kind"] == "scoring"]
        assert [line["text"] for line in log_lines][-1] == f"after round {scorings[-1]['round']}"
    finally:
        again.close()

    spec, replayed = registry.replay(record.json())
    assert spec.id == "elcaballero" and replayed.is_terminal()
    assert replayed.returns() == scores
    assert core_record.to_record(spec, replayed)["actions"] == record.json()["actions"]


def _rows(table: Table, game_id: int) -> int:
    """How many entries the game's stored log holds."""
    return sum(1 for _ in table.store.log(game_id))


class _Boom(RuntimeError):
    """A failure the session does not expect."""


def _fail_once(monkeypatch: pytest.MonkeyPatch, session: Session, method: str) -> list[int]:
    """Make `session.<method>` raise the next time it runs; the list counts the failures."""
    original = getattr(session, method)
    failed: list[int] = []

    def failing(*args: Any, **kwargs: Any) -> Any:
        if not failed:
            failed.append(1)
            raise _Boom(f"{method} failed on purpose")
        return original(*args, **kwargs)

    monkeypatch.setattr(session, method, failing)
    return failed


def test_a_failure_before_the_commit_leaves_the_game_as_stored_and_playable(
    client: TestClient, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    tokens = _ec_game(client, seed=3)
    route, legal = _next_move(client, tokens) or ("", [])
    before = _view(table.session)
    rows = _rows(table, before["game_id"])
    failed = _fail_once(monkeypatch, table.session, "_after_engine")
    answer = client.post(route, json={"text": legal[0]})
    assert failed and answer.status_code == 500
    assert answer.json()["error"] == "server_error" and "failed" in answer.json()["reason"]
    assert _view(table.session) == before  # back to the saved state
    assert _rows(table, before["game_id"]) == rows  # nothing stored
    again = client.post(route, json={"text": legal[0]})  # the table plays on
    assert again.status_code == 200, again.text
    assert _rows(table, before["game_id"]) == rows + 1


def test_a_failure_on_the_websocket_is_an_error_reply_not_a_dropped_socket(
    client: TestClient, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    tokens = _ec_game(client, seed=3)
    route, legal = _next_move(client, tokens) or ("", [])
    token = route.removeprefix("/api/seat/").removesuffix("/action")  # the page that acts
    where = "/ws?role=table" if route == "/api/action" else f"/ws?seat={token}"
    _fail_once(monkeypatch, table.session, "_after_engine")
    with client.websocket_connect(where) as socket:
        assert socket.receive_json()["type"] == "hello"
        assert socket.receive_json()["type"] == "state"
        socket.send_json({"type": "action", "text": legal[0], "id": 7})
        reply = socket.receive_json()
        while reply["type"] != "error":
            assert reply["type"] in ("state", "prompt"), reply
            reply = socket.receive_json()
        assert reply["ref"] == 7 and reply["code"] == "server_error"
        socket.send_json({"type": "action", "text": legal[0], "id": 8})
        reply = socket.receive_json()
        while reply["type"] != "ack":
            assert reply["type"] in ("state", "prompt"), reply
            reply = socket.receive_json()
        assert reply["ref"] == 8


def test_a_failure_after_the_commit_never_undoes_the_action(
    client: TestClient, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    tokens = _ec_game(client, seed=3)
    route, legal = _next_move(client, tokens) or ("", [])
    game_id = client.get("/api/state").json()["game_id"]
    rows = _rows(table, game_id)
    failed = _fail_once(monkeypatch, table.session, "_update_lights")
    answer = client.post(route, json={"text": legal[0]})
    assert failed and answer.status_code == 200, answer.text
    assert _rows(table, game_id) == rows + 1
    assert client.get("/api/state").json()["rev"] == answer.json()["rev"]
