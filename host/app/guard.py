"""The table app's general defences, in front of every route (docs/threat-model.md).

One ASGI middleware checks each HTTP request and WebSocket handshake before any handler runs:
- `Host` must be a name the server really serves (DNS rebinding: 421): a loopback name, the
  machine's own names (`castillo.local`, its host name and that name under `.local`: mDNS), a
  name given on the command line, or an address the machine has now (`WebPolicy.live`: the
  interfaces are read again, so an address that appears while the app runs is served);
- a browser's `Origin` (or, for a state-changing request without one, its `Referer`) must be
  the app's own origin (403; a WebSocket is closed with 4403);
- a state-changing request to `/api/` must say `Content-Type: application/json` (415): a
  cross-origin page can send `text/plain` without a preflight, never `application/json`;
- the body may not exceed its cap (413), refused by `Content-Length` before it is read, or
  while it is read when it comes in chunks.
Requests without `Origin` and `Referer` come from programs, not from web pages: they pass.
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
APPLIANCE_NAME = "castillo.local"  # what the appliance answers to over mDNS (avahi)
_LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")
BODY_CAP = 1 << 20  # 1 MiB: every JSON request but an import
IMPORT_CAP = 8 << 20  # a game record (a long game's record is some tens of kB)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
WS_FORBIDDEN = 4403
DEFAULT_PORTS = {"http": 80, "https": 443}


def host_name(value: str) -> str:
    """The name part of a `Host` value or a host name: lower case, no port, no brackets."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    if value.count(":") == 1:
        value = value.split(":", 1)[0]
    return value.rstrip(".")


def machine_names(hostname: str | None = None) -> frozenset[str]:
    """The names this machine goes by on the network: `castillo.local`, and its host name
    (`socket.gethostname()`) bare and under `.local`. A host name that is not a DNS name
    (`_`, spaces, …) adds nothing."""
    names = {APPLIANCE_NAME}
    own = host_name(socket.gethostname() if hostname is None else hostname)
    labels = own.split(".")
    if own and all(_LABEL.fullmatch(label) for label in labels) and own not in LOOPBACK_HOSTS:
        names.add(own)
        names.add(f"{labels[0]}.local")
    return frozenset(names)


def _origin_of(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of a URL, or None when it has none (e.g. `null`)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.rstrip("."), port or DEFAULT_PORTS[parts.scheme]


@dataclass(frozen=True)
class WebPolicy:
    """What the guard accepts. `hosts`: the names the server always serves (see `castillo run
    --allow-host`); `live`: asked about any other name (the machine's addresses now:
    `LiveReach.serves`); `caps`: body caps by path, else `body_cap`."""

    hosts: frozenset[str] = frozenset(LOOPBACK_HOSTS)
    body_cap: int = BODY_CAP
    caps: dict[str, int] = field(default_factory=lambda: {"/api/games/import": IMPORT_CAP})
    live: Callable[[str], bool] | None = None

    @classmethod
    def serving(cls, names: Iterable[str], live: Callable[[str], bool] | None = None) -> WebPolicy:
        """The loopback names, the machine's names (`machine_names`), `names` (names from the
        command line) and what `live` says."""
        given = (host_name(n) for n in names if n)
        hosts = frozenset({*LOOPBACK_HOSTS, *machine_names(), *given})
        return cls(hosts=hosts, live=live)

    def serves(self, name: str) -> bool:
        """Whether a `Host` name (as `host_name` gives it) is served."""
        return name in self.hosts or (self.live is not None and bool(name) and self.live(name))

    def cap_for(self, path: str) -> int:
        return self.caps.get(path, self.body_cap)


class Refused(Exception):
    def __init__(self, status: int, code: str, reason: str) -> None:
        super().__init__(reason)
        self.status, self.code, self.reason = status, code, reason


class BodyTooLarge(Exception):
    """Raised from `receive` once a chunked body passes its cap."""


def check_request(policy: WebPolicy, scope: Scope) -> None:
    """Host, Origin/Referer and Content-Type of one request or handshake; Refused if not ours."""
    headers = Headers(scope=scope)
    host = headers.get("host", "")
    if not policy.serves(host_name(host)):
        raise Refused(421, "bad_host", "this server does not serve that host name")
    scheme = {"ws": "http", "wss": "https"}.get(scope["scheme"], scope["scheme"])
    own = _origin_of(f"{scheme}://{host}")
    method = scope.get("method", "GET")
    origin = headers.get("origin")
    if origin is None and method not in SAFE_METHODS:
        origin = headers.get("referer")
    if origin is not None and _origin_of(origin) != own:
        raise Refused(403, "forbidden", "a request from another site's page is refused")
    if scope["type"] == "http" and method not in SAFE_METHODS and scope["path"].startswith("/api/"):
        content_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if content_type != "application/json":
            reason = "send the body as Content-Type: application/json"
            raise Refused(415, "bad_content_type", reason)


class RequestGuard:
    """The ASGI middleware (see the module docstring)."""

    def __init__(self, app: ASGIApp, policy: WebPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        try:
            check_request(self.policy, scope)
        except Refused as refused:
            if scope["type"] == "websocket":
                await _close_socket(receive, send, refused.code)
            else:
                await _answer(send, refused.status, refused.code, refused.reason)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        await self._http(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        cap = self.policy.cap_for(scope["path"])
        length = Headers(scope=scope).get("content-length")
        if length is not None and (not length.isdigit() or int(length) > cap):
            status = 413 if length.isdigit() else 400
            await _answer(send, status, "too_large", f"the body may be at most {cap} bytes")
            return
        received = 0
        started = False

        async def capped_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > cap:
                    raise BodyTooLarge
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, capped_receive, watched_send)
        except* BodyTooLarge:  # grouped when it passes through a task group
            if not started:
                await _answer(send, 413, "too_large", f"the body may be at most {cap} bytes")


async def _answer(send: Send, status: int, code: str, reason: str) -> None:
    body = json.dumps({"error": code, "reason": reason}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _close_socket(receive: Receive, send: Send, reason: str) -> None:
    """Accept and close at once with 4403, as the app does for a bad token (the page can tell
    a refusal from a network fault)."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": WS_FORBIDDEN, "reason": reason})
