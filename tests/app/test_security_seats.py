"""A revoked or stale seat link sees nothing (docs/threat-model.md): reissuing a seat's link or
changing the active game closes that seat's open sockets with 4403 and the reason the page
shows, before any further message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.app.conftest import PLAYERS, Table, new_game


def _messages_until_closed(
    ws: Any, leak: Callable[[dict[str, Any]], bool], limit: int = 50
) -> tuple[list[dict[str, Any]], Any]:
    """Everything the socket still gets, and the close (its code and reason); fails at once on
    a message the revoked link must not see (`leak`)."""
    got: list[dict[str, Any]] = []
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(limit):
            got.append(ws.receive_json())
            assert not leak(got[-1]), f"a revoked link got {got[-1]['type']}"
    return got, closed.value


def _state_after(rev: int) -> Callable[[dict[str, Any]], bool]:
    return lambda message: message["type"] == "state" and message["rev"] > rev


def _first_state(ws: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "state":
            return message


def test_reissue_closes_the_old_seat_socket_and_it_sees_nothing_more(
    client: TestClient, table: Table
) -> None:
    created = new_game(client)
    old = created["seats"][0]["token"]
    with client.websocket_connect(f"/ws?seat={old}") as ws:
        assert _first_state(ws)["state"]["game"]["hand"]  # it saw its hand while valid
        rev_before = client.get("/api/state").json()["rev"]
        fresh = client.post("/api/seats/purple/reissue", json={}).json()["token"]
        client.post("/api/action", json={"text": table_legal(client)})  # more changes
        _, closed = _messages_until_closed(ws, _state_after(rev_before))
        assert closed.code == 4403 and closed.reason == "replaced"
    assert client.get(f"/api/seat/{old}/state").status_code == 403
    with client.websocket_connect(f"/ws?seat={fresh}") as ws:
        assert _first_state(ws)["state"]["seat"] == "purple"


def test_a_message_on_a_revoked_socket_closes_it(client: TestClient, table: Table) -> None:
    created = new_game(client)
    old = created["seats"][1]["token"]
    with client.websocket_connect(f"/ws?seat={old}") as ws:
        rev_before = _first_state(ws)["rev"]
        entry = table.session.reissue("green")  # from the host, while the page is open
        assert entry.token != old
        ws.send_json({"type": "language", "lang": "cs", "id": 1})
        leak = _state_after(rev_before)
        _, closed = _messages_until_closed(ws, lambda m: leak(m) or m["type"] == "ack")
        assert closed.code == 4403 and closed.reason == "replaced"
    assert table.session.active is not None
    assert table.session.active.seats["green"].lang == "en"


def test_a_new_game_closes_the_seat_sockets_of_the_old_one(client: TestClient) -> None:
    first = new_game(client)
    token = first["seats"][0]["token"]
    with client.websocket_connect(f"/ws?seat={token}") as ws:
        assert _first_state(ws)["state"]["game_id"] == first["id"]
        second = new_game(client, seed=6)
        _, closed = _messages_until_closed(
            ws, lambda m: m["type"] == "state" and m["state"]["game_id"] != first["id"]
        )
        assert closed.code == 4403 and closed.reason == "game_changed"
    # the token belongs to game 1: refused while game 2 is active
    assert client.get(f"/api/seat/{token}/state").status_code == 403
    # the closed socket of game 1 does not count as game 2's purple seat leaving
    with client.websocket_connect(f"/ws?seat={second['seats'][0]['token']}") as ws:
        _first_state(ws)
        seats = {s["colour"]: s for s in client.get("/api/state").json()["seats"]}
        assert seats["purple"]["connected"] is True


def test_continuing_another_game_closes_seat_sockets_too(client: TestClient) -> None:
    first = new_game(client)
    second = new_game(client, seed=7)
    token = second["seats"][2]["token"]
    with client.websocket_connect(f"/ws?seat={token}") as ws:
        _first_state(ws)
        assert client.post(f"/api/games/{first['id']}/continue", json={}).status_code == 200
        _, closed = _messages_until_closed(
            ws, lambda m: m["type"] == "state" and m["state"]["game_id"] != second["id"]
        )
        assert closed.code == 4403 and closed.reason == "game_changed"
    assert [s["colour"] for s in first["seats"]] == PLAYERS


def table_legal(client: TestClient) -> str:
    legal: list[str] = client.get("/api/state").json()["legal"]
    return legal[0]
