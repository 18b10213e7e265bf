"""An action is one transaction, at its commit too (issue 21; the engine side is in
test_action_transaction.py): when the database refuses the write (a full disk, an I/O error),
the game in memory goes back to what the store holds, the client is told the server could not
save (503 `storage` over HTTP, an `error` reply on a WebSocket that stays open), the failure is
logged with its traceback, and the table plays on. A client whose broadcast fails after the
commit never undoes the action for the others."""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

import pytest
from fastapi.testclient import TestClient

from host.app.session import Session
from tests.app.conftest import Table
from tests.app.test_action_transaction import _ec_game, _next_move, _rows, _view


def _disk_full_once(monkeypatch: pytest.MonkeyPatch, table: Table) -> list[int]:
    """The store's next append fails as SQLite does when the disk is full."""
    original = table.store.append
    failed: list[int] = []

    def append(*args: Any, **kwargs: Any) -> int:
        if not failed:
            failed.append(1)
            raise sqlite3.OperationalError("database or disk is full")
        return original(*args, **kwargs)

    monkeypatch.setattr(table.store, "append", append)
    return failed


def _tracebacks(caplog: pytest.LogCaptureFixture, text: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.exc_info and text in r.getMessage()]


def test_a_write_the_database_refuses_leaves_the_game_as_stored_and_playable(
    client: TestClient,
    table: Table,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    tokens = _ec_game(client, seed=5)
    route, legal = _next_move(client, tokens) or ("", [])
    before = _view(table.session)
    rows = _rows(table, before["game_id"])
    failed = _disk_full_once(monkeypatch, table)
    answer = client.post(route, json={"text": legal[0]})
    assert failed and answer.status_code == 503, answer.text
    assert answer.json()["error"] == "storage" and "nothing changed" in answer.json()["reason"]
    assert _view(table.session) == before  # memory back to the store's state
    assert _rows(table, before["game_id"]) == rows
    logged = _tracebacks(caplog, "could not save")
    assert logged and "disk is full" in str(logged[0].exc_info[1] if logged[0].exc_info else "")
    again = client.post(route, json={"text": legal[0]})  # the table plays on
    assert again.status_code == 200, again.text
    assert _rows(table, before["game_id"]) == rows + 1


def test_a_failure_before_the_commit_is_logged_with_its_traceback(
    client: TestClient,
    table: Table,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    tokens = _ec_game(client, seed=5)
    route, legal = _next_move(client, tokens) or ("", [])
    original = table.session._after_engine

    def failing(*args: Any, **kwargs: Any) -> None:
        monkeypatch.setattr(table.session, "_after_engine", original)
        raise KeyError("kind")  # what every El Caballero scoring raised on 9ecc0a4

    monkeypatch.setattr(table.session, "_after_engine", failing)
    assert client.post(route, json={"text": legal[0]}).status_code == 500
    logged = _tracebacks(caplog, "back to its saved state")
    assert logged, [r.getMessage() for r in caplog.records]
    assert logged[0].levelno == logging.ERROR and logged[0].exc_info is not None
    assert logged[0].exc_info[0] is KeyError


def test_a_write_refused_on_the_websocket_is_an_error_reply_and_the_socket_stays(
    client: TestClient, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    tokens = _ec_game(client, seed=5)
    route, legal = _next_move(client, tokens) or ("", [])
    token = route.removeprefix("/api/seat/").removesuffix("/action")
    where = "/ws?role=table" if route == "/api/action" else f"/ws?seat={token}"
    _disk_full_once(monkeypatch, table)
    with client.websocket_connect(where) as socket:
        assert socket.receive_json()["type"] == "hello"
        assert socket.receive_json()["type"] == "state"
        socket.send_json({"type": "action", "text": legal[0], "id": 3})
        reply = socket.receive_json()
        while reply["type"] != "error":
            assert reply["type"] in ("state", "prompt"), reply
            reply = socket.receive_json()
        assert reply["ref"] == 3 and reply["code"] == "storage"
        socket.send_json({"type": "action", "text": legal[0], "id": 4})
        reply = socket.receive_json()
        while reply["type"] != "ack":
            assert reply["type"] in ("state", "prompt"), reply
            reply = socket.receive_json()
        assert reply["ref"] == 4


def test_a_broadcast_that_fails_after_the_commit_never_undoes_the_action(
    client: TestClient, table: Table
) -> None:
    tokens = _ec_game(client, seed=5)
    route, legal = _next_move(client, tokens) or ("", [])
    game_id = client.get("/api/state").json()["game_id"]
    rows = _rows(table, game_id)
    heard: list[list[dict[str, Any]]] = []

    def broken(_messages: list[dict[str, Any]]) -> None:
        raise ConnectionResetError("a client went away mid-broadcast")

    session: Session = table.session
    session.add_listener(broken)  # first: the one after it must still hear the change
    session.add_listener(heard.append)
    try:
        answer = client.post(route, json={"text": legal[0]})
    finally:
        session.remove_listener(broken)
        session.remove_listener(heard.append)
    assert answer.status_code == 200, answer.text
    assert _rows(table, game_id) == rows + 1
    assert heard, "the other listeners were not told"
    assert client.get("/api/state").json()["rev"] == answer.json()["rev"]
