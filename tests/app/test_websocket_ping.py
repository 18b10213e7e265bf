"""A WebSocket whose client has gone quiet is closed (host/app/connections.py, issue 21): the
server `castillo run` makes pings every WebSocket and closes one whose pong does not come in
time, so a phone that left the Wi-Fi mid-game (or a client that never answers) does not hold a
connection, and its seat's place under the per-client cap, for ever. A client that answers the
pings (every browser does) keeps its socket.

The table app itself is served (the table's WebSocket, from loopback), by `make_server` with
the ping interval and timeout shortened for the test. The quiet client is a raw socket that
completes the handshake and then only reads."""

from __future__ import annotations

import base64
import os
import socket
import struct
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from host.app import connections
from host.app.connections import Limits, make_server
from host.app.server import Access, create_app
from tests.app.conftest import Table

PING_S = 0.4  # the test's ping interval and pong timeout
OPCODE_TEXT, OPCODE_CLOSE, OPCODE_PING = 0x1, 0x8, 0x9


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, int]]:
    monkeypatch.setattr(connections, "WS_PING_INTERVAL_S", PING_S)
    monkeypatch.setattr(connections, "WS_PING_TIMEOUT_S", PING_S)
    table = Table(tmp_path / "castillo.db")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    app = create_app(table.session, Access())
    server = make_server(app, Limits(), log_config=None, lifespan="off")
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)
    try:
        yield listener.getsockname()
    finally:
        server.should_exit = True
        thread.join(10)
        table.close()


def _recv_exactly(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise EOFError(f"closed after {len(data)} of {size} bytes")
        data += chunk
    return data


def _frame(conn: socket.socket) -> tuple[int, bytes]:
    """One frame from the server (never masked): its opcode and payload."""
    first, second = _recv_exactly(conn, 2)
    size = second & 0x7F
    if size == 126:
        (size,) = struct.unpack("!H", _recv_exactly(conn, 2))
    elif size == 127:
        (size,) = struct.unpack("!Q", _recv_exactly(conn, 8))
    return first & 0x0F, _recv_exactly(conn, size)


def _quiet_client(address: tuple[str, int]) -> socket.socket:
    """The table's WebSocket, opened by hand: a client that will never answer a ping."""
    conn = socket.create_connection(address, timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    host = f"{address[0]}:{address[1]}"
    head = (
        f"GET /ws?role=table HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    conn.sendall(head.encode())
    answer = b""
    while not answer.endswith(b"\r\n\r\n"):
        answer += _recv_exactly(conn, 1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return conn


def test_a_websocket_that_never_answers_a_ping_is_closed(served: tuple[str, int]) -> None:
    conn = _quiet_client(served)
    with conn:
        opened = time.monotonic()
        seen: list[int] = []
        closed_at = None
        while (left := 10 * PING_S - (time.monotonic() - opened)) > 0:
            conn.settimeout(left)
            try:
                opcode, _ = _frame(conn)
            except TimeoutError:
                break
            except (EOFError, ConnectionError):
                closed_at = time.monotonic() - opened
                break
            seen.append(opcode)
            if opcode == OPCODE_CLOSE:
                closed_at = time.monotonic() - opened
                break
    assert OPCODE_TEXT in seen  # the app's hello and state came first
    assert OPCODE_PING in seen, seen
    # the first ping after PING_S, no pong within PING_S: closed (some slack for a loaded box)
    assert closed_at is not None, f"still open after {10 * PING_S} s: {seen}"
    assert 2 * PING_S * 0.8 < closed_at < 2 * PING_S + 2.0, closed_at


def test_a_websocket_that_answers_the_pings_stays_open(served: tuple[str, int]) -> None:
    url = f"ws://{served[0]}:{served[1]}/ws?role=table"
    with connect(url, open_timeout=5) as socket_:  # answers pings as a browser does
        assert '"hello"' in str(socket_.recv(timeout=5))
        waited_until = time.monotonic() + 5 * PING_S
        while time.monotonic() < waited_until:
            try:
                socket_.recv(timeout=waited_until - time.monotonic())
            except TimeoutError:
                break
            except ConnectionClosed as exc:  # the failure this test detects
                raise AssertionError(f"a client that answers pings was closed: {exc}") from None
        assert socket_.state.name == "OPEN"
        assert '"pong"' in _pong(socket_)


def _pong(socket_: ClientConnection) -> str:
    """The app still answers on the socket: its `ping` message gets a `pong`."""
    socket_.send('{"type": "ping"}')
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        message = str(socket_.recv(timeout=5))
        if '"pong"' in message:
            return message
    return ""
