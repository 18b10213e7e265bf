"""Bad input gets a clear 4xx (or a WebSocket `error` reply on a socket that stays open), never
a 500, a dead socket or a game that cannot be shown (docs/threat-model.md). Each case below was
a server error or worse before the checks."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engine.elgrande.bots import random_game
from engine.elgrande.game import Options
from engine.elgrande.record import to_record
from host.app.guard import BODY_CAP, IMPORT_CAP, RequestGuard, WebPolicy
from host.app.server import Access, create_app
from host.app.session import Session
from host.app.store import Store
from tests.app.conftest import PLAYERS, LoopbackClient, Table, new_game

JSON = {"Content-Type": "application/json"}
DEEP = "[" * 1000 + "]" * 1000
NON_ASCII_TOKENS = ["žluťoučký", "\u00e9" * 22, "токен"]


def _post_raw(client: TestClient, path: str, text: str) -> Any:
    return client.post(path, content=text.encode("utf-8"), headers=JSON)


def _refused(answer: Any, status: int = 400) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    body: dict[str, Any] = answer.json()
    assert body["error"] and body["reason"]
    return body


def _extra_cube_issue(client: TestClient, table: Table) -> int:
    """A blocking issue: a cube the tower saw that nobody announced."""
    new_game(client)
    table.link.drop("green")
    table.clock.advance(10)
    assert table.session.run_due()
    issues = client.get("/api/state").json()["checks"]["issues"]
    assert issues and issues[0]["kind"] == "extra"
    return int(issues[0]["id"])


# ---------------------------------------------------------------------- text that cannot encode
def test_a_note_with_a_lone_surrogate_is_refused_before_it_is_stored(
    client: TestClient, table: Table
) -> None:
    issue = _extra_cube_issue(client, table)
    body = '{"issue": ISSUE, "how": "accept_game", "note": "\\ud800"}'.replace("ISSUE", str(issue))
    _refused(_post_raw(client, "/api/resolve", body))
    assert client.get("/api/state").status_code == 200
    # the same through the session directly (the root check: the log only takes what encodes)
    with pytest.raises(Exception, match="cannot be saved"):
        table.session.resolve(issue, "accept_game", "\ud800")
    assert client.get("/api/state").json()["checks"]["issues"][0]["id"] == issue
    # a restart replays the log: still fine, the issue still open
    store = Store(table.db)
    try:
        restarted = Session(store, clock=table.clock)
        assert restarted.restore_last() is not None
        with LoopbackClient(create_app(restarted, Access())) as again:
            state = again.get("/api/state")
            assert state.status_code == 200 and state.json()["checks"]["blocked"]
    finally:
        store.close()


@pytest.mark.parametrize("route", ["/api/action", "/api/resolve", "/api/undo", "/api/confirm"])
def test_refusals_never_echo_text_that_cannot_encode(client: TestClient, route: str) -> None:
    new_game(client)
    body = '{"text": "place \\udfff", "as": "\\ud800", "issue": 1, "how": "\\ud800", "colours": []}'
    reason = _refused(_post_raw(client, route, body))["reason"]
    reason.encode("utf-8")


# ---------------------------------------------------------------------- tokens
@pytest.mark.parametrize("token", NON_ASCII_TOKENS)
def test_non_ascii_seat_tokens_are_refused(client: TestClient, token: str) -> None:
    new_game(client)
    assert client.get(f"/seat/{token}").status_code == 403
    _refused(client.get(f"/api/seat/{token}/state"), 403)
    _refused(client.post(f"/api/seat/{token}/action", json={"text": "power 1"}), 403)
    _refused(client.post(f"/api/seat/{token}/undo", json={}), 403)
    with client.websocket_connect(f"/ws?seat={token}") as ws:
        with pytest.raises(Exception) as closed:
            ws.receive_json()
        assert getattr(closed.value, "code", None) == 4403


def test_non_ascii_table_tokens_and_pairing_codes_are_refused(table: Table) -> None:
    access = Access(lan=True, pairing_code="c0ffee12")
    with LoopbackClient(create_app(table.session, access)) as lan:
        _refused(
            lan.get("/api/games", headers={"Authorization": "Bearer tokén".encode("latin-1")}), 403
        )
        _refused(lan.get("/api/games", params={"token": "токен"}), 403)
        _refused(lan.post("/api/pair", json={"code": "c0ffée12"}), 403)


# ---------------------------------------------------------------------- numbers and nesting
@pytest.mark.parametrize(
    "body",
    [
        '{"issue": Infinity, "how": "accept_game"}',
        '{"issue": NaN, "how": "accept_game"}',
        '{"issue": 1e400, "how": "accept_game"}',
        '{"issue": -1e400, "how": "accept_game"}',
        '{"issue": 1e30, "how": "accept_game"}',
        '{"issue": 123456789012345678901234567890, "how": "accept_game"}',
        '{"issue": true, "how": "accept_game"}',
        '{"issue": 1, "how": "accept_game", "pad": ' + DEEP + "}",
        DEEP,
        '{"issue": "1\\u0663", "how": "accept_game"}',
    ],
)
def test_odd_numbers_and_deep_nesting_are_refused(client: TestClient, body: str) -> None:
    new_game(client)
    before = client.get("/api/state").json()["rev"]
    _refused(_post_raw(client, "/api/resolve", body))
    assert client.get("/api/state").json()["rev"] == before


def test_undo_with_an_unknown_colour_is_refused(client: TestClient) -> None:
    new_game(client)
    for colour in ("pink", "chance", ""):
        answer = client.post("/api/undo", json={"as": colour})
        assert answer.status_code in (400, 409) and answer.json()["error"], colour
    assert client.post("/api/undo", json={"as": "pink"}).json()["error"] == "bad_message"


@pytest.mark.parametrize("game_id", [2**63, 2**64, 10**30, -1])
def test_game_ids_outside_sqlite_integers_are_refused(client: TestClient, game_id: int) -> None:
    new_game(client)
    _refused(client.post(f"/api/games/{game_id}/continue", json={}))
    _refused(client.get(f"/api/games/{game_id}/record"))
    assert client.post(f"/api/games/{2**63 - 1}/continue", json={}).status_code == 404


# ---------------------------------------------------------------------- no client names a file
def _record() -> dict[str, Any]:
    game = random_game(Options(players=tuple(PLAYERS), mode="dealer", seed=11, short_game=True))
    return to_record(game)


@pytest.mark.parametrize("paths", [["/etc/passwd"], ["pyproject.toml"], ["/dev/zero"], "/dev/ptmx"])
def test_no_route_takes_data_override_files(client: TestClient, paths: Any) -> None:
    record = _record()
    record["options"]["overrides"] = paths
    answer = client.post("/api/games/import", json=record)
    assert "server file" in _refused(answer)["reason"]
    assert client.get("/api/games").json()["games"] == []
    answer = client.post("/api/games", json={"players": PLAYERS, "overrides": paths})
    _refused(answer)
    assert client.get("/api/info").json()["active_game"] is None
    # an exported record says "overrides": [] (no file): it imports
    record["options"]["overrides"] = []
    assert client.post("/api/games/import", json=record).status_code == 200


# ---------------------------------------------------------------------- body size caps
def test_bodies_over_the_cap_are_refused_with_413(client: TestClient) -> None:
    pad = "x" * (BODY_CAP + 1)
    answer = client.post("/api/games", json={"players": PLAYERS, "pad": pad})
    assert _refused(answer, 413)["error"] == "too_large"

    def chunks() -> Any:  # no Content-Length: counted while it is read
        for _ in range(BODY_CAP // 4096 + 2):
            yield b" " * 4096

    assert client.post("/api/action", content=chunks(), headers=JSON).status_code == 413
    assert client.get("/api/info").json()["active_game"] is None
    # a game record has its own, larger cap
    record = dict(_record(), pad="x" * (BODY_CAP + 1))
    assert client.post("/api/games/import", json=record).status_code == 200
    record["pad"] = "x" * (IMPORT_CAP + 1)
    assert client.post("/api/games/import", json=record).status_code == 413


def test_the_cap_refuses_before_reading_the_body() -> None:
    reads: list[Any] = []
    sent: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover - not run
        raise AssertionError("the app ran")

    async def receive() -> dict[str, Any]:
        reads.append(1)
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "scheme": "http",
        "path": "/api/action",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"content-type", b"application/json"),
            (b"content-length", str(300 << 20).encode()),
        ],
    }
    asyncio.run(RequestGuard(app, WebPolicy())(scope, receive, send))
    assert reads == [] and sent[0]["status"] == 413


# ---------------------------------------------------------------------- the WebSocket
@pytest.mark.parametrize(
    "frame",
    [
        {"text": "not json"},
        {"bytes": b'{"type": "ping"}'},
        {"text": DEEP},
        {"text": '{"type": "resolve", "issue": Infinity, "how": "accept_game"}'},
        {"text": '{"type": "resolve", "issue": 1e400, "how": "accept_game"}'},
        {"text": '{"type": "resolve", "issue": 1, "how": "x", "note": "\\ud800"}'},
        {"text": '{"type": "action", "text": "\\ud800"}'},
        {"text": '{"type": "undo", "as": "pink"}'},
        {"text": "[1, 2]"},
        {"text": '{"type": "action", "text": "power 1", "overrides": ["/etc/passwd"]}'},
        {"text": '{"type": "resolve", "issue": 99999999999999999999999, "how": "x"}'},
    ],
)
def test_bad_websocket_messages_get_an_error_and_the_socket_stays(
    client: TestClient, frame: dict[str, Any]
) -> None:
    new_game(client)
    with client.websocket_connect("/ws?role=table") as ws:
        assert ws.receive_json()["type"] == "hello"
        if "bytes" in frame:
            ws.send_bytes(frame["bytes"])
        else:
            ws.send_text(frame["text"])
        ws.send_text(json.dumps({"type": "ping", "id": "after"}))
        got: list[dict[str, Any]] = []
        while not got or got[-1].get("type") != "pong":
            got.append(ws.receive_json())
        errors = [m for m in got if m["type"] == "error"]
        assert len(errors) == 1 and errors[0]["code"] == "bad_message", got
        assert got[-1]["ref"] == "after"
        errors[0]["reason"].encode("utf-8")
