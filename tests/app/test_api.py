"""The table app's HTTP routes and WebSocket (docs/table-api.md), with a fake tower."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from host.app.server import Access, create_app
from tests.app.conftest import PLAYERS, LoopbackClient, Table, new_game


class Reader:
    """Reads one WebSocket, remembering the newest state (states and acks come in any order)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] = {}
        self.rev = -1

    def next(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        if message["type"] == "state":
            self.state, self.rev = message["state"], message["rev"]
        return message

    def until(self, kind: str, limit: int = 100) -> dict[str, Any]:
        for _ in range(limit):
            message = self.next()
            if message["type"] == kind:
                return message
        raise AssertionError(f"no {kind} message")

    def state_after(self, rev: int) -> dict[str, Any]:
        while self.rev < rev:
            self.next()
        return self.state


def test_info_and_gamedata(client: TestClient) -> None:
    info = client.get("/api/info").json()
    assert info["app"] == "castillo" and info["lan"] is False
    assert info["tower"]["mode"] == "real" and info["active_game"] is None
    data = client.get("/api/gamedata", params={"edition": "2023"}).json()
    tokens = [r["token"] for r in data["regions"]]
    assert "Cataluna" in tokens and len(tokens) == 9
    assert data["cards"]["revelation"]["names"]["en"] == "Revelation"
    assert client.get("/api/gamedata", params={"edition": "1066"}).status_code == 400


def test_new_game_seats_and_listing(client: TestClient) -> None:
    created = new_game(client)
    assert [s["colour"] for s in created["seats"]] == PLAYERS
    tokens = {s["token"] for s in created["seats"]}
    assert len(tokens) == 4 and all(len(t) >= 20 for t in tokens)
    games = client.get("/api/games").json()["games"]
    assert games[0]["id"] == created["id"] and games[0]["players"] == PLAYERS
    assert games[0]["finished"] is False
    qr = client.get("/api/seats/purple/qr.svg")
    assert qr.status_code == 200 and qr.text.lstrip().startswith("<?xml")
    bad = client.post("/api/games", json={"players": ["purple", "purple", "blue", "green"]})
    assert bad.status_code == 400 and "colour" in bad.json()["reason"]


def test_websocket_pushes_state_and_acks_actions(client: TestClient) -> None:
    new_game(client)
    with client.websocket_connect("/ws?role=table") as ws:
        reader = Reader(ws)
        hello = reader.next()
        assert hello == {"type": "hello", "role": "table", "seat": None, "lang": "en"}
        state = reader.until("state")["state"]
        assert state["acting_as"] in PLAYERS and state["prompt"]["key"] == "power"
        action = state["legal"][0]
        ws.send_json({"type": "action", "text": action, "id": "a1"})
        ack = reader.until("ack")
        assert ack["ref"] == "a1"
        after = reader.state_after(ack["rev"])
        assert after["log"][-1]["text"] == action and after["log"][-1]["kind"] == "action"
        ws.send_json({"type": "action", "text": "place Nowhere", "id": "a2"})
        error = reader.until("error")
        assert error["ref"] == "a2" and error["code"] in ("notation", "illegal")
        ws.send_json({"type": "action", "text": "fly away", "id": "a3"})
        error = reader.until("error")
        assert error["code"] == "notation" and "unknown action" in error["reason"]


def test_illegal_action_reason_is_specific(client: TestClient) -> None:
    new_game(client)
    answer = client.post("/api/action", json={"text": "power 99"})
    assert answer.status_code == 409
    assert answer.json()["error"] == "illegal" and "power 99" in answer.json()["reason"]


def test_seat_acts_only_for_itself_and_keeps_secrets(client: TestClient, table: Table) -> None:
    created = new_game(client)
    game = table.session.active
    assert game is not None
    actor = game.game.state.colours[game.game.current_players()[0]]
    seats = {s["colour"]: s["token"] for s in created["seats"]}
    other = next(c for c in PLAYERS if c != actor)
    with client.websocket_connect(f"/ws?seat={seats[other]}") as ws:
        reader = Reader(ws)
        assert reader.next()["seat"] == other
        state = reader.until("state")["state"]
        assert state["seat"] == other and state["game"]["viewer"] == other
        assert state["game"]["hand"] == list(range(1, 14))
        assert state["legal"] == []
        assert all("token" not in s for s in state["seats"])
        ws.send_json({"type": "action", "text": "power 5", "id": 1})
        assert reader.until("error")["code"] == "not_your_turn"
        ws.send_json({"type": "action", "text": "power 5", "as": actor, "id": 2})
        assert reader.until("error")["code"] == "forbidden"
        ws.send_json({"type": "resolve", "issue": 1, "how": "accept_game", "id": 3})
        assert reader.until("error")["code"] == "forbidden"
    # once a seat page connected, the table no longer sees its link
    table_state = client.get("/api/state").json()
    listed = {s["colour"]: s for s in table_state["seats"]}
    assert listed[other]["claimed"] and "token" not in listed[other]
    assert "token" in listed[actor]
    assert client.get(f"/api/seats/{other}/qr.svg").status_code == 403


def test_bad_seat_token_is_refused(client: TestClient) -> None:
    new_game(client)
    with (
        client.websocket_connect("/ws?seat=not-a-token") as ws,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        ws.receive_json()
    assert closed.value.code == 4403
    assert client.get("/api/seat/not-a-token/state").status_code == 403
    assert client.get("/seat/not-a-token").status_code == 403


def test_reissue_revokes_the_old_link(client: TestClient) -> None:
    created = new_game(client)
    old = created["seats"][0]["token"]
    fresh = client.post("/api/seats/purple/reissue", json={}).json()
    assert fresh["token"] != old
    assert client.get(f"/api/seat/{old}/state").status_code == 403
    assert client.get(f"/api/seat/{fresh['token']}/state").status_code == 200


def test_lan_mode_needs_pairing(table: Table) -> None:
    access = Access(lan=True, pairing_code="c0ffee12")
    with LoopbackClient(create_app(table.session, access)) as lan:
        assert lan.get("/api/games").status_code == 403
        with lan.websocket_connect("/ws?role=table") as ws, pytest.raises(WebSocketDisconnect):
            ws.receive_json()
        for _ in range(4):
            assert lan.post("/api/pair", json={"code": "wrong"}).status_code == 403
        token = lan.post("/api/pair", json={"code": "c0ffee12"}).json()["token"]
        assert len(token) >= 30
        headers = {"Authorization": f"Bearer {token}"}
        assert lan.get("/api/games", headers=headers).status_code == 200
        with lan.websocket_connect(f"/ws?role=table&token={token}") as ws:
            assert ws.receive_json()["role"] == "table"
        for _ in range(5):
            lan.post("/api/pair", json={"code": "wrong"})
        locked = lan.post("/api/pair", json={"code": "c0ffee12"})
        assert locked.status_code == 429


def test_export_only_finished_games_and_import(client: TestClient, table: Table) -> None:
    created = new_game(client)
    answer = client.get(f"/api/games/{created['id']}/record")
    assert answer.status_code == 409 and "undisclosed" in answer.json()["reason"]
    from engine.elgrande.bots import random_game
    from engine.elgrande.game import Options
    from engine.elgrande.record import to_record

    finished = random_game(Options(players=tuple(PLAYERS), mode="dealer", seed=11, short_game=True))
    record = to_record(finished)
    imported = client.post("/api/games/import", json=record).json()["id"]
    exported = client.get(f"/api/games/{imported}/record").json()
    assert exported["actions"] == record["actions"]
    broken = dict(record, actions=[*record["actions"][:5], ["purple", "power 99"]])
    refused = client.post("/api/games/import", json=broken)
    assert refused.status_code == 400 and "#5" in refused.json()["reason"]


def test_undo_follows_the_engine_policy(client: TestClient, table: Table) -> None:
    new_game(client, mode="dealer", seed=2)
    session = table.session
    active = session.active
    assert active is not None
    game = active.game
    # play until someone is placing; an own placement step can be undone
    while not (game.state.phase == "main" and any(a.kind == "place" for a in game.legal_actions())):
        legal = [a for a in game.legal_actions() if a.kind not in ("special",)]
        client.post("/api/action", json={"text": str(legal[0])})
    before = len(game.history)
    place = next(a for a in game.legal_actions() if a.kind == "place" and a.arg != "castillo")
    assert client.post("/api/action", json={"text": str(place)}).status_code == 200
    undone = client.post("/api/undo", json={}).json()
    assert undone["ok"] and undone["undone"] == str(place)
    assert len(game.history) == before
    checkpoint = game.state.checkpoint
    while True:  # own earlier steps of this turn (card, take) undo too, then it stops
        answer = client.post("/api/undo", json={})
        if answer.status_code != 200:
            break
    assert answer.json()["error"] == "undo"
    assert len(game.history) == checkpoint  # never past the turn's start (power cards are public)


def test_drop_needs_the_simulated_tower(client: TestClient) -> None:
    answer = client.post("/api/sim/drop", json={"cubes": ["green"]})
    assert answer.status_code == 409 and answer.json()["error"] == "not_simulated"


def test_language_preferences(client: TestClient) -> None:
    created = new_game(client)
    token = created["seats"][1]["token"]
    with client.websocket_connect(f"/ws?seat={token}") as ws:
        reader = Reader(ws)
        reader.until("state")
        ws.send_json({"type": "language", "lang": "cs", "id": 1})
        ack = reader.until("ack")
        assert reader.state_after(ack["rev"])["lang"] == "cs"
        ws.send_json({"type": "language", "lang": "tlh", "id": 2})
        assert reader.until("error")["code"] == "bad_message"
    assert client.get(f"/api/seat/{token}/state").json()["lang"] == "cs"
    assert client.get("/api/state").json()["lang"] == "en"
