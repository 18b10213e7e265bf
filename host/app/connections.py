"""Connection limits for `castillo run` (docs/threat-model.md, "Connections"): no client on the
network can take the table down by opening connections and sending nothing, or half a request.

uvicorn offers a keep-alive timeout, a cap on a request head's size, WebSocket pings and a
global `limit_concurrency` (a 503 for everyone, the host's own screen too: not used). What it
lacks is built here, in subclasses of its HTTP/1.1 (h11) and WebSocket protocols that
`make_server` hands to its `Config`:

- a request's head (request line and headers) must arrive within `header_timeout_s` of its
  first byte (of the connection's opening for the first request), its body within
  `body_timeout_s` after the head: a client that sends slowly is disconnected;
- open connections are capped per client (an IPv4 address, an IPv6 /64: one device's range)
  and in total; a connection over a cap is closed as soon as it is accepted, by the listening
  socket itself (`ListeningSocket`): a flood costs an accept and a close per connection, not a
  transport and a protocol. Loopback clients (the host's own screen) are counted under neither
  cap: they always get through;
- the total cap leaves `FILES_RESERVED` descriptors of the open-files limit (RLIMIT_NOFILE,
  raised to its hard limit at start) to loopback, the database, the tower and the threads;
- when accepting fails all the same (EMFILE, ENFILE, ENOBUFS, ENOMEM), asyncio logs it and
  tries again a second later, but first goes on accepting up to the listen backlog's size (2048
  failures and retries per burst: some 7,000 a second, each logged, ~280,000 lines in 25 s).
  A `ListeningSocket` ends the burst at its first failure, and the failures (and connections
  refused by a cap) are logged once per `ACCEPT_LOG_INTERVAL_S`, with their count.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
import socket
import struct
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from host.app.access import client_key, is_loopback

log = logging.getLogger("uvicorn.error")  # uvicorn's format and level

HEADER_TIMEOUT_S = 10.0  # a request's head, from its first byte (a connection's: from opening)
BODY_TIMEOUT_S = 30.0  # a request's body, from the end of its head (8 MiB at 2.2 Mbit/s)
KEEP_ALIVE_S = 5  # an idle connection between requests
HEAD_MAX_BYTES = 16 << 10  # a request's head (h11's default, stated)
PER_CLIENT = 32  # open connections per client: a browser opens 6 per host, plus WebSockets
TOTAL_MAX = 512  # open connections of all network clients together
FILES_RESERVED = 256  # descriptors the total cap leaves for loopback and everything else
FILES_WANTED = 1 << 16  # the soft open-files limit sought when the hard one is unlimited
WS_PING_INTERVAL_S = 20.0  # a WebSocket is pinged this often …
WS_PING_TIMEOUT_S = 20.0  # … and closed when the pong does not come within this
ACCEPT_LOG_INTERVAL_S = 10.0
ACCEPT_PAUSE_S = 0.5  # after a failed accept, the rest of the burst is not tried
REFUSE_BURST = 64  # connections refused by one accept call at most
RESOURCE_ERRORS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


@dataclass(frozen=True)
class Limits:
    header_timeout_s: float = HEADER_TIMEOUT_S
    body_timeout_s: float = BODY_TIMEOUT_S
    keep_alive_s: int = KEEP_ALIVE_S
    per_client: int = PER_CLIENT
    total: int = TOTAL_MAX

    @classmethod
    def for_open_files(cls, open_files: int) -> Limits:
        """The defaults, the total cap lowered to fit the open-files limit."""
        return cls(total=max(PER_CLIENT, min(TOTAL_MAX, open_files - FILES_RESERVED)))


def raise_open_files_limit() -> int:
    """RLIMIT_NOFILE's soft limit raised to the hard one (or to `FILES_WANTED` when that is
    unlimited); the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = FILES_WANTED if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (OSError, ValueError):  # e.g. above the kernel's nr_open: keep the soft one
            pass
    return soft


class Tally:
    """Repeated events counted and logged once per interval: the first at once, then one line
    with the count of the others when the interval ends (none if there were none)."""

    def __init__(
        self, say: Callable[[str, int], None], interval_s: float = ACCEPT_LOG_INTERVAL_S
    ) -> None:
        self.say = say  # (what, how many times) -> log it
        self.interval_s = interval_s
        self.pending: dict[str, int] = {}  # what -> times since its last line

    def count(self, what: str) -> None:
        if what in self.pending:
            self.pending[what] += 1
            return
        self.say(what, 1)
        self.pending[what] = 0
        asyncio.get_running_loop().call_later(self.interval_s, self._flush, what)

    def _flush(self, what: str) -> None:
        times = self.pending.pop(what, 0)
        if times:
            self.say(what, times)
            self.pending[what] = 0
            asyncio.get_running_loop().call_later(self.interval_s, self._flush, what)


def _say(what: str, times: int) -> None:
    if times == 1:
        log.warning("%s", what)
    else:
        log.warning("%s (%d times in the last %.0f s)", what, times, ACCEPT_LOG_INTERVAL_S)


class Gate:
    """The open connections of network clients, per client and in total. A connection is
    counted when it is accepted (`admit_socket`, by a `ListeningSocket`: one over a cap is
    closed there, before asyncio makes anything of it), held by its transport from then on
    (`admit`), and released when it closes."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.by_client: dict[str, int] = {}
        self.total = 0
        self.accepted: dict[int, str] = {}  # file descriptor -> its client's key, until `admit`
        self.held: dict[int, str] = {}  # id(transport) -> its client's key
        self.refusals = Tally(_say)

    def admit_socket(self, conn: socket.socket, peer: Any) -> bool:
        """Whether a just-accepted connection may stay open (counted if so)."""
        address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        stale = self.accepted.pop(conn.fileno(), None)
        if stale is not None:  # asyncio dropped the one before with this descriptor
            self._uncount(stale)
        if not address or is_loopback(address):
            return True
        key = client_key(address)
        if not self._count(key):
            return False
        self.accepted[conn.fileno()] = key
        return True

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Whether a connection asyncio made a transport for may stay open (counted if it was
        not already, when it was accepted)."""
        sock = transport.get_extra_info("socket")
        key = self.accepted.pop(sock.fileno(), None) if sock is not None else None
        if key is None:
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
            if not address or is_loopback(address):
                return True
            key = client_key(address)
            if not self._count(key):
                return False
        self.held[id(transport)] = key
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        key = self.held.pop(id(transport), None)
        if key is not None:
            self._uncount(key)

    def _count(self, key: str) -> bool:
        if self.by_client.get(key, 0) >= self.limits.per_client:
            self.refusals.count(f"refused a connection: its client has {self.limits.per_client}")
            return False
        if self.total >= self.limits.total:
            self.refusals.count(f"refused a connection: {self.limits.total} are open")
            return False
        self.by_client[key] = self.by_client.get(key, 0) + 1
        self.total += 1
        return True

    def _uncount(self, key: str) -> None:
        self.total -= 1
        left = self.by_client[key] - 1
        if left:
            self.by_client[key] = left
        else:
            del self.by_client[key]


class ListeningSocket(socket.socket):
    """A listening socket that closes a connection over a cap as soon as it is accepted (with
    a reset: nothing lingers), and, after one failure for want of resources, says "no
    connection waiting" for `ACCEPT_PAUSE_S`: asyncio's accept loop stops there and retries a
    second later instead of failing (and logging) up to the backlog's size every time. At most
    `REFUSE_BURST` refusals per call: the loop serves its other work in between."""

    gate: Gate | None = None  # set by `make_server`
    paused_until = 0.0

    def accept(self) -> tuple[socket.socket, Any]:
        if time.monotonic() < self.paused_until:
            raise BlockingIOError(errno.EAGAIN, "accepting is paused")
        for _ in range(REFUSE_BURST):
            try:
                conn, peer = super().accept()
            except OSError as exc:
                if exc.errno in RESOURCE_ERRORS:
                    self.paused_until = time.monotonic() + ACCEPT_PAUSE_S
                raise
            if self.gate is None or self.gate.admit_socket(conn, peer):
                return conn, peer
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            conn.close()
        raise BlockingIOError(errno.EAGAIN, "more are waiting: after the loop's other work")


class GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol behind the gate, with head and body deadlines."""

    gate: Gate  # set by `_protocols`

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.admitted = False
        self.upgraded = False
        self.deadline: asyncio.TimerHandle | None = None
        self.waiting_for = ""  # "head", "body" or "" (no deadline)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if not self.gate.admit(transport):
            transport.abort()
            return
        self.admitted = True
        super().connection_made(transport)
        self._expect("head")

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.admitted:
            return
        self._expect("")
        self.gate.release(self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE and not self.waiting_for:
            self._expect("head")  # the first byte of the next request on a kept-alive connection
        super().data_received(data)
        if self.upgraded:
            return  # a WebSocket now
        state = self.conn.their_state
        if state is h11.SEND_BODY:
            if self.waiting_for != "body":
                self._expect("body")
        elif state is not h11.IDLE:
            self._expect("")

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._expect("")  # the WebSocket's pings take over
        self.upgraded = True
        super().handle_websocket_upgrade(event)

    def _expect(self, what: str) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        self.waiting_for = what
        if what:
            limits = self.gate.limits
            wait = limits.header_timeout_s if what == "head" else limits.body_timeout_s
            self.deadline = self.loop.call_later(wait, self._too_slow)

    def _too_slow(self) -> None:
        self.deadline = None
        self.waiting_for = ""
        if not self.transport.is_closing():
            self.transport.close()


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (made by `GuardedH11` on an upgrade): its connection leaves
    the gate when it closes."""

    gate: Gate

    def connection_lost(self, exc: Exception | None) -> None:
        self.gate.release(self.transport)
        super().connection_lost(exc)


def _protocols(gate: Gate) -> tuple[type[GuardedH11], type[GuardedWebSocket]]:
    """The two protocol classes of one server (uvicorn makes them without arguments of ours)."""

    class Http(GuardedH11):
        pass

    class WebSocket(GuardedWebSocket):
        pass

    Http.gate = WebSocket.gate = gate
    return Http, WebSocket


class TableServer(uvicorn.Server):
    """uvicorn's server whose loop logs accept failures once per interval, with their count."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        loop = asyncio.get_running_loop()
        tally = Tally(_say)

        def on_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
            exc = context.get("exception")
            accepting = str(context.get("message", "")).startswith("socket.accept()")
            if accepting and isinstance(exc, OSError) and exc.errno in RESOURCE_ERRORS:
                tally.count(f"cannot accept a connection: {exc.strerror}")
                return
            loop.default_exception_handler(context)

        loop.set_exception_handler(on_error)
        await super().startup(sockets)


def make_server(
    app: Any, limits: Limits, sockets: Sequence[socket.socket] = (), **config: Any
) -> TableServer:
    """The server for `app` with these limits (run it with `sockets`: `ListeningSocket`s
    refuse a connection over a cap at once); `config`: uvicorn's other settings."""
    gate = Gate(limits)
    for sock in sockets:
        if isinstance(sock, ListeningSocket):
            sock.gate = gate
    http, ws = _protocols(gate)
    settings = uvicorn.Config(
        app,
        http=http,
        ws=ws,
        timeout_keep_alive=limits.keep_alive_s,
        h11_max_incomplete_event_size=HEAD_MAX_BYTES,
        ws_ping_interval=WS_PING_INTERVAL_S,
        ws_ping_timeout=WS_PING_TIMEOUT_S,
        **config,
    )
    return TableServer(settings)
