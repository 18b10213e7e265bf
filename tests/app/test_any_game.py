"""Any registered game through the table app: the test-only Nim (tests/engine/platform/nim.py)
is registered in the engine registry only (no file of host/ names it) and played to its end
over the HTTP API and the WebSocket, saved, and resumed after a restart of the app."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engine import registry
from host.app.server import Access, create_app
from host.games import GAMES_DIR, GameAdapter, adapter_for
from host.tower.lights import LightsState
from tests.app.conftest import LoopbackClient, Table
from tests.app.test_api import Reader
from tests.engine.platform.nim import SPEC as NIM


@pytest.fixture
def nim() -> Iterator[None]:
    registry.register(NIM)
    yield
    registry.unregister(NIM)


def _client(table: Table) -> TestClient:
    return LoopbackClient(create_app(table.session, Access()))


def test_nim_has_no_host_file_and_gets_the_generic_adapter(nim: None) -> None:
    assert not (GAMES_DIR / "nim").exists()
    assert type(adapter_for(NIM)) is GameAdapter
    assert adapter_for(registry.get("elgrande")).tower  # El Grande's own adapter


def test_the_lobby_lists_every_registered_game_with_its_options(nim: None, tmp_path: Path) -> None:
    table = Table(tmp_path / "castillo.db")
    try:
        with _client(table) as client:
            listed = client.get("/api/games").json()["available"]
            public = client.get("/api/catalogue").json()["games"]
    finally:
        table.close()
    assert listed == public
    games = {game["id"]: game for game in listed}
    assert games["nim"]["player_counts"] == [2]
    assert games["nim"]["tower"] is False and games["nim"]["lights"] is False
    heaps = {o["name"]: o for o in games["nim"]["options"]}["heaps"]
    assert heaps == {"name": "heaps", "kind": "int", "default": 3, "section": "main"}
    options = {o["name"]: o for o in games["elgrande"]["options"]}
    assert options["players"]["kind"] == "names" and options["short_game"]["default"] is False
    assert games["elgrande"]["tower"] is True and games["elgrande"]["player_counts"] == [2, 3, 4, 5]


def test_bad_options_are_refused_field_by_field(nim: None, client: TestClient) -> None:
    answer = client.post("/api/games", json={"game": "nim", "heaps": "three", "most": 0})
    assert answer.status_code == 400
    body = answer.json()
    assert body["error"] == "bad_options"
    assert body["errors"] == {"heaps": "must be a whole number"}
    answer = client.post("/api/games", json={"game": "nim", "most": 0})
    assert answer.status_code == 400 and answer.json()["errors"] == {"most": "must be at least 1"}
    answer = client.post("/api/games", json={"game": "chess"})
    assert answer.status_code == 400 and "game" in answer.json()["errors"]


def _seat_moves(client: TestClient, tokens: dict[str, str], moves: int) -> dict[str, Any]:
    """Up to `moves` actions, each from the acting seat's own page over HTTP: the first legal
    one its state offers. The last state."""
    state: dict[str, Any] = {}
    for _ in range(moves):
        state = client.get("/api/state").json()
        if state["prompt"]["key"] == "over":
            break
        actor = state["prompt"]["actors"][0]
        mine = client.get(f"/api/seat/{tokens[actor]}/state").json()
        assert mine["acting_as"] == actor and mine["legal"]
        answer = client.post(f"/api/seat/{tokens[actor]}/action", json={"text": mine["legal"][0]})
        assert answer.status_code == 200, answer.text
    return client.get("/api/state").json()


def test_nim_plays_to_its_end_over_http_and_websocket_saved_and_resumed(
    nim: None, tmp_path: Path
) -> None:
    db = tmp_path / "castillo.db"
    table = Table(db)
    try:
        with _client(table) as client:
            created = client.post("/api/games", json={"game": "nim", "heaps": 2, "size": 3})
            assert created.status_code == 200, created.text
            game_id = created.json()["id"]
            tokens = {s["colour"]: s["token"] for s in created.json()["seats"]}
            assert set(tokens) == {"left", "right"}
            with client.websocket_connect(f"/ws?seat={tokens['left']}") as ws:
                reader = Reader(ws)
                assert reader.next()["seat"] == "left"
                state = reader.until("state")["state"]
                assert state["game_type"] == "nim" and state["game"]["heaps"] == [3, 4]
                assert state["prompt"] == {
                    "key": "generic.turn",
                    "actors": ["left"],
                    "params": {},
                    "text": "left: your move",
                }
                assert state["checks"]["enabled"] is False  # no tower: no throw checks
                ws.send_json({"type": "action", "text": "take 1 9", "id": "bad"})
                refused = reader.until("error")
                assert refused["ref"] == "bad" and refused["code"] == "illegal"
                assert {"reason", "key", "params"} <= set(refused)
                ws.send_json({"type": "action", "text": "take 1 3", "id": "ok"})
                ack = reader.until("ack")
                after = reader.state_after(ack["rev"])
                assert after["game"]["heaps"] == [3, 1]
                assert after["log"][-1] == {
                    "n": 1, "kind": "action", "actor": "left", "text": "take 1 3",
                    "key": "take", "params": {"heap": "1", "number": "3"},
                }  # fmt: skip
            _seat_moves(client, tokens, 1)
        assert table.session.lights_state() == LightsState()  # no lights either
        assert "warning" not in table.session.tower_status()
    finally:
        table.close()

    table = Table(db)  # the app restarts: the game comes back as it was saved
    try:
        assert table.session.restore_last() == game_id
        with _client(table) as client:
            state = client.get("/api/state").json()
            assert state["game_type"] == "nim" and len(state["game"]["log"]) == 2
            final = _seat_moves(client, tokens, 20)
            assert final["prompt"]["key"] == "over" and final["game"]["heaps"] == [0, 0]
            saved = client.get("/api/games").json()["games"][0]
            assert saved["id"] == game_id and saved["game"] == "nim" and saved["finished"]
            record = client.get(f"/api/games/{game_id}/record").json()
    finally:
        table.close()
    assert record["game"] == "nim"
    _spec, replayed = registry.replay(record)
    assert replayed.is_terminal()
    last_mover = final["game"]["log"][-1][0]  # took the last stone: wins (not misère)
    assert replayed.returns() == [int(last_mover == "left"), int(last_mover == "right")]


def test_every_registered_game_gets_an_adapter() -> None:
    """A game with a plugin folder but no adapter module (host/games/<id>/static only: a
    namespace package) gets the generic adapter, not an error."""
    for spec in registry.specs():
        adapter = adapter_for(spec)
        assert adapter.spec is spec and adapter.describe()["id"] == spec.id
        assert isinstance(adapter, GameAdapter)
