"""Only the app's own pages talk to the server (docs/threat-model.md): the request guard
refuses foreign Origins and Referers, non-JSON state-changing requests and unknown Host names,
before any handler runs, for every route and the WebSocket handshake."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from host.app.guard import WebPolicy, host_name
from host.app.server import Access, create_app
from tests.app.conftest import BASE_URL, LoopbackClient, Table, new_game

OWN = BASE_URL  # the TestClient's requests go to http://127.0.0.1
FOREIGN = "http://localhost:8301"  # another origin on the same machine


def _table_view(client: TestClient) -> dict[str, Any]:
    state: dict[str, Any] = client.get("/api/state").json()
    return {"rev": state["rev"], "seats": state["seats"], "game": state["game_id"]}


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": FOREIGN},
        {"Origin": "null"},  # a sandboxed frame or a no-referrer page
        {"Origin": "http://127.0.0.1:9"},  # same host, another port: another origin
        {"Referer": FOREIGN + "/attack.html"},  # no Origin: the Referer decides
    ],
)
def test_a_state_changing_request_from_another_page_is_refused(
    client: TestClient, headers: dict[str, str]
) -> None:
    new_game(client)
    before = _table_view(client)
    answer = client.post("/api/seats/purple/reissue", json={}, headers=headers)
    assert answer.status_code == 403 and answer.json()["error"] == "forbidden"
    answer = client.post("/api/action", json={"text": "power 1"}, headers=headers)
    assert answer.status_code == 403
    assert _table_view(client) == before


def test_a_foreign_page_cannot_read_either(client: TestClient) -> None:
    new_game(client)
    answer = client.get("/api/state", headers={"Origin": FOREIGN})
    assert answer.status_code == 403 and "seats" not in answer.text


def test_own_origin_and_programs_without_origin_pass(client: TestClient) -> None:
    new_game(client)
    own = client.post("/api/seats/purple/reissue", json={}, headers={"Origin": OWN})
    assert own.status_code == 200
    referer = client.post("/api/seats/green/reissue", json={}, headers={"Referer": OWN + "/"})
    assert referer.status_code == 200
    assert client.post("/api/seats/blue/reissue", json={}).status_code == 200  # a program


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_json_routes_need_the_json_content_type(
    client: TestClient, content_type: str | None
) -> None:
    # a "simple" cross-origin request (no preflight) may send text/plain, never JSON
    headers = {"Content-Type": content_type} if content_type else {}
    body = '{"players": ["purple", "green"], "mode": "dealer"}'
    answer = client.post("/api/games", content=body, headers=headers)
    assert answer.status_code == 415 and answer.json()["error"] == "bad_content_type"
    assert client.get("/api/info").json()["active_game"] is None
    ok = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert ok.status_code == 200


def test_a_websocket_from_another_origin_is_closed_before_any_message(client: TestClient) -> None:
    created = new_game(client)
    token = created["seats"][0]["token"]
    for path in ("/ws?role=table", f"/ws?seat={token}"):
        with (
            client.websocket_connect(path, headers={"Origin": FOREIGN}) as ws,
            pytest.raises(WebSocketDisconnect) as closed,
        ):
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect("/ws?role=table", headers={"Origin": OWN}) as ws:
        assert ws.receive_json()["type"] == "hello"
    # the refused seat socket did not claim the seat
    assert "token" in {s["colour"]: s for s in _table_view(client)["seats"]}["purple"]


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "192.0.2.7", "[::2]"])
def test_unknown_host_names_are_refused(table: Table, host: str) -> None:
    # DNS rebinding: a name the attacker controls, resolved to this machine
    with LoopbackClient(create_app(table.session, Access())) as client:
        new_game(client)
        answer = client.get("/api/state", headers={"Host": host})
        assert answer.status_code == 421 and answer.json()["error"] == "bad_host"
        answer = client.post("/api/seats/purple/reissue", json={}, headers={"Host": host})
        assert answer.status_code == 421
        with (
            client.websocket_connect("/ws?role=table", headers={"Host": host}) as ws,
            pytest.raises(WebSocketDisconnect) as closed,
        ):
            ws.receive_json()
        assert closed.value.code == 4403


def test_loopback_names_and_given_names_are_served(table: Table) -> None:
    policy = WebPolicy.serving(["192.168.1.20", "Castillo.Local."])
    app = create_app(table.session, Access(), policy=policy)
    with LoopbackClient(app) as client:
        for host in ("localhost:8000", "127.0.0.1", "[::1]:8000", "192.168.1.20:8000"):
            assert client.get("/api/info", headers={"Host": host}).status_code == 200, host
        assert client.get("/api/info", headers={"Host": "castillo.local"}).status_code == 200
        assert client.get("/api/info", headers={"Host": "other.local"}).status_code == 421
    assert host_name("[::1]:80") == "::1" and host_name("LOCALHOST.") == "localhost"
