"""The table app's HTTP and WebSocket API (FastAPI): docs/table-api.md is the contract.

One WebSocket per client. On connect it gets `hello` and its full `state`; after every change
of the session it gets a fresh `state` (its own view: a seat never sees another seat's hand or
disc, nobody sees the castillo's contents). Requests run in worker threads: the session writes
to disk (fsync) before anything is acknowledged.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path
from typing import Annotated, Any, TypeVar

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles

from engine import registry
from host.app import json_input, seat_gone
from host.app.access import Access as Access  # re-exported: tests and the bench build apps
from host.app.api_bodies import RESOLUTIONS, body_spec
from host.app.guard import RequestGuard, WebPolicy
from host.app.network import LiveReach, Reach
from host.app.own_network import OwnNetwork
from host.app.session import LANGUAGES, ActionError, Role, Session
from host.app.towers import BadDrop, check_drop
from host.games import adapter_for

log = logging.getLogger("host.app.server")
T = TypeVar("T")

STATIC_DIR = Path(__file__).resolve().parent / "static"
FORBIDDEN_CLOSE = 4403
DEADLINE_POLL_S = 0.5  # the throw-window timer wakes at least this often
PARSE_IN_THREAD = 64 << 10  # bodies larger than this are parsed off the event loop
# A game id in a path: SQLite's INTEGER range (a larger one would raise in the driver).
GameId = Annotated[int, PathParam(ge=0, le=2**63 - 1)]


STATUS = {
    "forbidden": 403,
    "no_game": 404,
    "no_seat": 404,
    "no_wifi": 404,
    "locked": 429,
    "bad_message": 400,
    "bad_options": 400,
    "bad_record": 400,
    "notation": 400,
    "not_simulated": 409,
    "no_hint": 409,
    "bad_position": 400,
    "server_error": 500,  # the server failed on a request; the game is back to its saved state
    "storage": 503,  # the database refused the write; nothing changed
}
SERVER_FAILED = ActionError("server_error", "the server failed on this request; nothing changed")


def _error(exc: ActionError) -> JSONResponse:
    answer = {**exc.to_json(), "reason": json_input.safe_text(exc.reason)}
    return JSONResponse(answer, STATUS.get(exc.code, 409))


def _error_message(exc: ActionError, ref: Any = None) -> dict[str, Any]:
    answer = {**exc.to_json(), "reason": json_input.safe_text(exc.reason)}
    code = answer.pop("error")
    return {"type": "error", "ref": ref, "code": code, **answer}


def _client_of(connection: Request | WebSocket) -> str:
    return connection.client.host if connection.client else ""


def _token_of(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.query_params.get("token")


class Client:
    """One WebSocket: messages go out in order from one sender task."""

    def __init__(
        self, socket: WebSocket, role: Role, token: str = "", game_id: int | None = None
    ) -> None:
        self.socket = socket
        self.role = role
        self.token = token  # a seat's token: checked again before every message (reissue)
        self.game_id = game_id  # a seat's link belongs to this game only
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.sent_rev = -1

    def push(self, message: dict[str, Any] | None) -> None:
        """A message, or None for "send the current state"."""
        self.queue.put_nowait(message)


class Hub:
    """The connected clients; session changes (from any thread) fan out on the event loop."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.clients: set[Client] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.last_prompt: dict[str, Any] | None = None

    def on_change(self, messages: list[dict[str, Any]]) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop is shutting down
            loop.call_soon_threadsafe(self._fanout, messages)

    def _fanout(self, messages: list[dict[str, Any]]) -> None:
        try:
            prompt = self._prompt_message()
        except Exception:  # each client's own state still goes out (and reports the failure)
            log.exception("the table's prompt could not be built")
            prompt = None
        for client in list(self.clients):
            for message in messages:
                if message.get("type") in ("scoring", "tower", "network"):
                    client.push(message)
            if prompt is not None:
                client.push(prompt)
            client.push(None)

    def _prompt_message(self) -> dict[str, Any] | None:
        state = self.session.state_for(Role.table())
        prompt = {"prompt": state["prompt"], "highlights": state["highlights"]}
        if prompt == self.last_prompt:
            return None
        self.last_prompt = prompt
        return {"type": "prompt", **prompt}

    async def run_client(self, client: Client) -> None:
        """Send the client's queue until it disconnects. A seat whose link was reissued, or
        whose game is no longer the active one, gets nothing more: its socket is closed with
        4403 and the reason (`replaced`, `game_changed`) the page shows."""
        session = self.session
        while True:
            message = await client.queue.get()
            if message is None and not client.queue.empty() and None in client.queue._queue:  # type: ignore[attr-defined]
                continue  # a newer state is queued behind: send that one
            try:
                with session.lock:  # the check and the view together: no reissue in between
                    revoked = None
                    if client.role.colour:
                        revoked = session.seat_link_problem(client.token, client.game_id)
                    wanted = message is None and not revoked
                    state = session.state_for(client.role) if wanted else None
            except Exception:  # a view that fails is a server error, not a silent socket
                log.exception("the state for a %s could not be built", client.role.kind)
                await client.socket.send_json(_error_message(SERVER_FAILED))
                continue
            if revoked:
                await client.socket.close(FORBIDDEN_CLOSE, revoked)
                return
            if state is not None:
                if state["rev"] == client.sent_rev:
                    continue
                client.sent_rev = state["rev"]
                message = {"type": "state", "rev": state["rev"], "state": state}
            await client.socket.send_json(message)


async def _deadline_loop(session: Session) -> None:
    """Throw windows that run out become issues: wake at the next deadline."""
    while True:
        deadline = session.next_deadline()
        wait = DEADLINE_POLL_S
        if deadline is not None:
            wait = min(wait, max(0.0, deadline - session.clock()) + 0.01)
        await asyncio.sleep(wait)
        if deadline is not None and deadline <= session.clock():
            await asyncio.to_thread(session.run_due)


def available_games() -> list[dict[str, Any]]:
    """Every registered game as the lobby offers it (id, title, player counts, options)."""
    return [adapter_for(spec).describe() for spec in registry.specs()]


def create_app(
    session: Session,
    access: Access | None = None,
    static_dir: Path = STATIC_DIR,
    on_listening: Callable[[], None] | None = None,
    policy: WebPolicy | None = None,
    reach: Reach | LiveReach | None = None,
    own: OwnNetwork | None = None,
) -> FastAPI:
    """The app for one session. `on_listening` runs once the loop is up (start-up line);
    `policy`: the host names and body caps the guard enforces (default: loopback only);
    `reach`: how devices reach the app (the base URL seat codes carry; a `LiveReach` follows
    the machine's addresses, and each change goes to the clients as a `network` message);
    `own`: the machine's own Wi-Fi (its name and password go to the table only)."""
    access = access or Access()
    policy = policy or WebPolicy()
    reach = reach or Reach()
    hub = Hub(session)

    def network_changed(now: Reach) -> None:
        hub.on_change([{"type": "network", "network": now.public()}])

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        session.add_listener(hub.on_change)
        if isinstance(reach, LiveReach):
            reach.listeners.append(network_changed)
        timer = asyncio.create_task(_deadline_loop(session))
        if on_listening is not None:
            on_listening()
        try:
            yield
        finally:
            timer.cancel()
            session.remove_listener(hub.on_change)
            if isinstance(reach, LiveReach):
                reach.listeners.remove(network_changed)

    app = FastAPI(title="Castillo table", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.session = session
    app.state.hub = hub
    app.state.access = access

    @app.middleware("http")
    async def no_cache(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        if (
            request.url.path.startswith(("/static/", "/seat/", "/games/"))
            or request.url.path == "/"
        ):
            response.headers["Cache-Control"] = "no-cache"
        return response

    # outermost: nothing runs for a request from a foreign page or host, or an oversized body
    app.add_middleware(RequestGuard, policy=policy)

    @app.exception_handler(Exception)
    async def server_failed(request: Request, exc: Exception) -> JSONResponse:
        """Whatever a handler did not expect: logged with its traceback, answered in JSON."""
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return _error(SERVER_FAILED)

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(request: Request, exc: RequestValidationError) -> JSONResponse:
        where = ", ".join(".".join(str(p) for p in e.get("loc", ())) for e in exc.errors())
        reason = json_input.safe_text(f"bad parameter: {where or 'request'}")
        return JSONResponse({"error": "bad_message", "reason": reason}, 400)

    def table(request: Request) -> None:
        if not access.table_ok(_token_of(request), _client_of(request)):
            raise ActionError("forbidden", "this needs the table: pair this device first")

    def seat(token: str) -> Role:
        colour = session.seat_for_token(token)
        if colour is None:
            raise ActionError("forbidden", "unknown or revoked seat link")
        return Role("seat", colour)

    async def run(func: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(func, *args)

    async def body(request: Request) -> dict[str, Any]:
        data = await request.body()
        try:
            if len(data) > PARSE_IN_THREAD:
                raw = await run(json_input.parse, data)
            else:
                raw = json_input.parse(data)
        except json_input.BadInput as exc:
            raise ActionError("bad_message", str(exc)) from None
        if not isinstance(raw, dict):
            raise ActionError("bad_message", "the body must be a JSON object")
        return raw

    def guarded(
        handler: Callable[..., Awaitable[Any]],
    ) -> Callable[..., Awaitable[Any]]:
        @functools.wraps(handler)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return await handler(*args, **kwargs)
            except ActionError as exc:
                return _error(exc)

        return wrapper

    # ------------------------------------------------------------------ pages
    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        page = static_dir / "index.html"
        if page.exists():
            return FileResponse(page)
        return PlainTextResponse("Castillo table app: the UI is not installed", 503)

    @app.get("/seat/{token}", include_in_schema=False)
    async def seat_page(request: Request, token: str, lang: str | None = None) -> Response:
        page = static_dir / "seat.html"
        if session.seat_for_token(token) is None:
            # a replaced or old link: what happened and how to get a new one, translated
            accept = request.headers.get("accept-language")
            chosen = seat_gone.choose_language(lang, accept, session.table_lang)
            return HTMLResponse(seat_gone.page(static_dir, chosen), 403)
        if page.exists():
            return FileResponse(page)
        return PlainTextResponse("Castillo seat page: the UI is not installed", 503)

    if static_dir.exists():
        app.mount("/static", StaticFiles(directory=static_dir), name="static")

    # ------------------------------------------------------------------ info, pairing
    @app.get("/api/info")
    async def info(request: Request) -> dict[str, Any]:
        active = session.active
        return {
            "app": "castillo",
            "version": "1",
            "lan": access.lan,
            "pairing_required": access.pairing_required(_client_of(request)),
            "network": reach.public(),
            "tower": session.tower.status() if session.tower else {"mode": "none"},
            "active_game": active.id if active else None,
        }

    @app.get("/api/pairing")
    @guarded
    async def pairing(request: Request) -> dict[str, Any]:
        """The pairing code, for the host's own screen only (an appliance has no terminal);
        none when the app serves this machine only."""
        if not access.lan:
            return {"code": None, "url": None}
        if not access.host_screen(_client_of(request)):
            raise ActionError("forbidden", "the pairing code is shown on the host's own screen")
        base = reach.public_url
        code = access.pairing_code
        return {"code": code, "url": f"{base}/?pair={code}" if base else None}

    @app.get("/api/wifi")
    @guarded
    async def wifi(request: Request) -> dict[str, Any]:
        """The machine's own Wi-Fi for the table's card: its name, password and QR payload
        while it runs one (the table only: the password is a secret)."""
        table(request)
        return own.card() if own is not None else {"own_network": False}

    @app.get("/api/wifi/qr.svg")
    @guarded
    async def wifi_qr(request: Request) -> Response:
        table(request)
        card = own.card() if own is not None else {}
        if not card.get("qr"):
            raise ActionError("no_wifi", "the table does not run its own Wi-Fi now")
        return _qr_response(str(card["qr"]))

    @app.post("/api/pair", openapi_extra=body_spec("/api/pair"))
    @guarded
    async def pair(request: Request) -> dict[str, Any]:
        raw = await body(request)
        code = raw.get("code", "")
        if not isinstance(code, str):
            raise ActionError("bad_message", "'code' must be text (the pairing code)")
        return {"token": access.pair(code, _client_of(request))}

    # each game's own public routes (El Grande: /api/gamedata, its printed components)
    for spec in registry.specs():
        for path, handler in adapter_for(spec).routes():
            app.get(path)(guarded(handler))

    # each game's plugin folder (host/games/<id>/static): its i18n bundle merged, its files
    @app.get("/games/{game}/i18n/{lang}.json")
    @guarded
    async def game_i18n(game: str, lang: str) -> dict[str, str]:
        try:
            spec = registry.get(game)
        except KeyError:
            raise ActionError("no_game", f"there is no game {game!r}") from None
        if lang not in LANGUAGES:
            raise ActionError("bad_message", f"language must be one of {', '.join(LANGUAGES)}")
        return await run(adapter_for(spec).i18n_bundle, lang)

    for spec in registry.specs():
        folder = adapter_for(spec).static_dir()
        if folder is not None:
            app.mount(f"/games/{spec.id}", StaticFiles(directory=folder), name=f"game-{spec.id}")

    @app.get("/api/catalogue")
    async def catalogue() -> dict[str, Any]:
        """The games this host plays: their player counts and options (public); `default`: the
        game the lobby offers first."""
        return {"games": available_games(), "default": registry.DEFAULT}

    # ------------------------------------------------------------------ games
    def seat_base(request: Request) -> str:
        """What seat links start with: the address devices use, else the request's own."""
        return reach.public_url or str(request.base_url).rstrip("/")

    def seats_json(request: Request) -> list[dict[str, Any]]:
        active = session.active
        if active is None:
            return []
        base = seat_base(request)
        return [
            {"colour": s.colour, "token": s.token, "url": f"{base}/seat/{s.token}"}
            for s in active.seats.values()
        ]

    @app.get("/api/games")
    @guarded
    async def games(request: Request) -> dict[str, Any]:
        table(request)
        saved = await run(session.list_games)
        active = session.active
        return {
            "games": saved,
            "available": available_games(),
            "active": active.id if active else None,
        }

    @app.post("/api/games", openapi_extra=body_spec("/api/games"))
    @guarded
    async def new_game(request: Request) -> dict[str, Any]:
        table(request)
        raw = await body(request)
        game_id = await run(session.new_game, raw)
        return {"id": game_id, "seats": seats_json(request)}

    @app.post("/api/games/import", openapi_extra=body_spec("/api/games/import"))
    @guarded
    async def import_game(request: Request) -> dict[str, Any]:
        table(request)
        raw = await body(request)
        return {"id": await run(session.import_record, raw)}

    continue_path = "/api/games/{game_id}/continue"

    @app.post(continue_path, openapi_extra=body_spec(continue_path))
    @guarded
    async def continue_game(game_id: GameId, request: Request) -> dict[str, Any]:
        table(request)
        await run(session.continue_game, game_id)
        return {"id": game_id, "seats": seats_json(request)}

    @app.get("/api/games/{game_id}/record")
    @guarded
    async def export(game_id: GameId, request: Request) -> Any:
        table(request)
        record = await run(session.export_record, game_id)
        return JSONResponse(
            record,
            headers={"Content-Disposition": f'attachment; filename="castillo-{game_id}.json"'},
        )

    # ------------------------------------------------------------------ state, seats
    @app.get("/api/state")
    @guarded
    async def table_state(request: Request) -> dict[str, Any]:
        table(request)
        return await run(session.state_for, Role.table())

    @app.get("/api/seat/{token}/state")
    @guarded
    async def seat_state(token: str) -> dict[str, Any]:
        return await run(session.state_for, seat(token))

    @app.get("/api/seats")
    @guarded
    async def seats(request: Request) -> dict[str, Any]:
        table(request)
        state = await run(session.state_for, Role.table())
        base = seat_base(request)
        for entry in state["seats"]:
            if "url" in entry:
                entry["url"] = base + entry["url"]
        return {"seats": state["seats"]}

    @app.get("/api/seats/{colour}/qr.svg")
    @guarded
    async def seat_qr(colour: str, request: Request) -> Response:
        table(request)
        active = session.active
        if active is None or colour not in active.seats:
            raise ActionError("no_seat", f"{colour} is not a seat of the active game")
        entry = active.seats[colour]
        if entry.claimed:
            raise ActionError("forbidden", "this seat is claimed; reissue it for a new link")
        return _qr_response(f"{seat_base(request)}/seat/{entry.token}")

    @app.post("/api/seats/{colour}/reissue", openapi_extra=body_spec("/api/seats/{colour}/reissue"))
    @guarded
    async def reissue(colour: str, request: Request) -> dict[str, Any]:
        table(request)
        entry = await run(session.reissue, colour)
        base = seat_base(request)
        return {"colour": colour, "token": entry.token, "url": f"{base}/seat/{entry.token}"}

    # ------------------------------------------------------------------ commands
    async def command(role: Role, raw: dict[str, Any]) -> dict[str, Any]:
        """One client command (HTTP or WebSocket); the answer fields of its ack."""
        kind = raw.get("type")
        as_colour = raw.get("as")
        if as_colour is not None and not isinstance(as_colour, str):
            raise ActionError("bad_message", "'as' must be a colour")
        if kind == "action":
            text = raw.get("text")
            if not isinstance(text, str) or not text.strip():
                raise ActionError("bad_message", "an action needs its 'text' in notation")
            return {"rev": await run(session.act, role, text, as_colour)}
        if kind == "undo":
            undone, rev = await run(session.undo, role, as_colour)
            return {"rev": rev, "undone": undone}
        if kind == "hint":
            return {"hint": await run(session.hint, role)}
        if kind == "language":
            lang = raw.get("lang")
            if not isinstance(lang, str) or lang not in LANGUAGES:
                raise ActionError("bad_message", f"'lang' must be one of {', '.join(LANGUAGES)}")
            await run(session.set_language, role, lang)
            return {"rev": session.rev}
        if role.kind != "table":
            raise ActionError("forbidden", f"'{kind}' is for the table")
        if kind == "confirm":
            colours = raw.get("colours")
            if not isinstance(colours, list) or not all(isinstance(c, str) for c in colours):
                raise ActionError("bad_message", "'colours' must be a list of colours")
            return {"rev": await run(session.confirm, _int(raw.get("check"), "check"), colours)}
        if kind == "resolve":
            issue, how = _int(raw.get("issue"), "issue"), raw.get("how")
            if not isinstance(how, str) or how not in RESOLUTIONS:
                raise ActionError("bad_message", f"'how' must be one of {', '.join(RESOLUTIONS)}")
            note = raw.get("note", "")
            if not isinstance(note, str):
                raise ActionError("bad_message", "'note' must be text")
            return {"rev": await run(session.resolve, issue, how, note)}
        if kind == "drop":  # checked here: a bad request is 400 with or without a tower
            try:
                cubes, how = check_drop(raw.get("cubes"), raw.get("how", "single"))
            except BadDrop as exc:
                raise ActionError("bad_message", str(exc)) from None
            await run(session.drop, cubes, how)
            return {}
        if kind == "gate":
            is_open = raw.get("open")
            if not isinstance(is_open, bool):
                raise ActionError("bad_message", "'open' must be true or false")
            await run(session.set_gate, is_open)
            return {}
        raise ActionError("bad_message", f"unknown message type {kind!r}")

    def http_command(kind: str, seat_route: bool = False) -> Callable[..., Awaitable[Any]]:
        async def handler(request: Request) -> Any:
            try:
                token = request.path_params.get("token")
                if seat_route:
                    role = seat(str(token))
                else:
                    table(request)
                    role = Role.table()
                raw = await body(request)
                raw["type"] = kind
                if kind == "confirm" and "issue" in raw and "check" not in raw:
                    raw["check"] = raw["issue"]
                return {"ok": True, **(await command(role, raw))}
            except ActionError as exc:
                return _error(exc)

        return handler

    table_kinds = ("action", "undo", "hint", "confirm", "resolve")
    commands = [(f"/api/{kind}", kind, False) for kind in table_kinds]
    commands += [("/api/sim/drop", "drop", False), ("/api/sim/gate", "gate", False)]
    commands += [(f"/api/seat/{{token}}/{kind}", kind, True) for kind in ("action", "undo", "hint")]
    for path, kind, seat_route in commands:
        app.add_api_route(
            path,
            http_command(kind, seat_route),
            methods=["POST"],
            openapi_extra=body_spec(path),
        )

    # ------------------------------------------------------------------ the WebSocket
    @app.websocket("/ws")
    async def websocket(socket: WebSocket) -> None:
        params = socket.query_params
        role: Role | None = None
        seat_token = params.get("seat")
        game_id = None
        if seat_token:
            with session.lock:
                colour = session.seat_for_token(seat_token)
                game_id = session.active.id if session.active else None
            role = Role("seat", colour) if colour else None
        elif params.get("role", "table") == "table" and access.table_ok(
            params.get("token"), _client_of(socket)
        ):
            role = Role.table()
        await socket.accept()
        if role is None:
            await socket.close(FORBIDDEN_CLOSE, "forbidden")
            return
        client = Client(socket, role, seat_token or "", game_id)
        lang = session.table_lang
        if role.colour and session.active and role.colour in session.active.seats:
            lang = session.active.seats[role.colour].lang
        # `hello` first, before the hub may queue the change this connection makes
        client.push({"type": "hello", "role": role.kind, "seat": role.colour, "lang": lang})
        hub.clients.add(client)
        if role.colour:
            await run(session.seat_connected, role.colour, 1, game_id)
        client.push(None)
        sender = asyncio.create_task(hub.run_client(client))
        try:
            while True:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                await _handle(client, message)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            sender.cancel()
            hub.clients.discard(client)
            if role.colour:
                await run(session.seat_connected, role.colour, -1, game_id)

    def _message_of(received: Mapping[str, Any]) -> dict[str, Any]:
        """One client message: a JSON object in a text frame, within the body cap."""
        text = received.get("text")
        if not isinstance(text, str):
            raise ActionError("bad_message", "send JSON objects in text messages")
        if len(text) > policy.body_cap:
            raise ActionError("bad_message", f"a message may be at most {policy.body_cap} bytes")
        try:
            raw = json_input.parse(text)
        except json_input.BadInput as exc:
            raise ActionError("bad_message", str(exc)) from None
        if not isinstance(raw, dict):
            raise ActionError("bad_message", "send JSON objects")
        return raw

    async def _handle(client: Client, received: Mapping[str, Any]) -> None:
        try:
            raw = _message_of(received)
        except ActionError as exc:
            client.push(_error_message(exc))
            return
        ref = raw.get("id")
        if raw.get("type") == "ping":
            client.push({"type": "pong", "ref": ref})
            return
        if client.role.colour and session.seat_link_problem(client.token, client.game_id):
            client.push(None)  # the sender closes the socket with the reason
            return
        try:
            answer = await command(client.role, raw)
        except ActionError as exc:
            client.push(_error_message(exc, ref))
            return
        except Exception:  # a reply that says the server failed, never a dropped socket
            log.exception("WebSocket message %r failed", raw.get("type"))
            client.push(_error_message(SERVER_FAILED, ref))
            return
        client.push({"type": "ack", "ref": ref, **answer})

    return app


def _qr_response(text: str) -> Response:
    """A QR code of `text` as SVG (seat links, the Wi-Fi card); never cached."""
    import segno

    out = io.BytesIO()
    segno.make(text, error="m", micro=False).save(out, kind="svg", scale=6, border=2)
    return Response(
        out.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"}
    )


def _int(value: Any, field: str) -> int:
    """An issue or check id: a whole number (a digit string is accepted too)."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**63:
        raise ActionError("bad_message", f"'{field}' must be a whole number (an id)")
    return value
