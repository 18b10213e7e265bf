"""The table app's HTTP and WebSocket API (FastAPI): docs/table-api.md is the contract.

One WebSocket per client. On connect it gets `hello` and its full `state`; after every change
of the session it gets a fresh `state` (its own view: a seat never sees another seat's hand or
disc, nobody sees the castillo's contents). Requests run in worker threads: the session writes
to disk (fsync) before anything is acknowledged.

`create_app` builds the app's shared `AppContext`, its middleware and error handlers, and
includes the routers of `host.app.routes` (one module per concern).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import Response

from host.app.access import Access as Access  # re-exported: tests and the bench build apps
from host.app.guard import RequestGuard, WebPolicy
from host.app.network import LiveReach, Reach
from host.app.own_network import OwnNetwork
from host.app.routes import (
    actions,
    games,
    pages,
    pairing,
    plugins,
    preview,
    seats,
    sim,
    verbs,
    websocket,
    wifi,
)
from host.app.routes.common import install_error_handlers
from host.app.routes.context import AppContext
from host.app.routes.games import available_games as available_games  # re-exported
from host.app.routes.hub import Hub, deadline_loop
from host.app.session import Session

STATIC_DIR = Path(__file__).resolve().parent / "static"
NO_CACHE_PREFIXES = ("/static/", "/seat/", "/games/")


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
    ctx = AppContext(
        session=session,
        access=access or Access(),
        policy=policy or WebPolicy(),
        reach=reach or Reach(),
        own=own,
        static_dir=static_dir,
        hub=Hub(session),
    )
    app = FastAPI(
        title="Castillo table",
        lifespan=_lifespan(ctx, on_listening),
        docs_url=None,
        redoc_url=None,
    )
    app.state.context = ctx
    app.state.session = session
    app.state.hub = ctx.hub
    app.state.access = ctx.access
    app.middleware("http")(_no_cache)
    # outermost: nothing runs for a request from a foreign page or host, or an oversized body
    app.add_middleware(RequestGuard, policy=ctx.policy)
    install_error_handlers(app)

    app.include_router(pages.router)
    pages.mount_static(app, static_dir)
    app.include_router(pairing.router)
    app.include_router(wifi.router)
    app.include_router(plugins.game_routes())
    app.include_router(plugins.router)
    plugins.mount_game_folders(app)  # after the i18n route, which their mounts would hide
    app.include_router(verbs.router)
    app.include_router(games.router)
    app.include_router(seats.router)
    app.include_router(actions.router)
    app.include_router(preview.router)
    app.include_router(sim.router)
    app.include_router(websocket.router)
    return app


def _lifespan(
    ctx: AppContext, on_listening: Callable[[], None] | None
) -> Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]:
    """While the app runs: session changes (and a `LiveReach`'s network changes) fan out to
    the clients, and run-out throw windows become issues."""
    session, hub, reach = ctx.session, ctx.hub, ctx.reach

    def network_changed(now: Reach) -> None:
        hub.on_change([{"type": "network", "network": now.public()}])

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        session.add_listener(hub.on_change)
        if isinstance(reach, LiveReach):
            reach.listeners.append(network_changed)
        timer = asyncio.create_task(deadline_loop(session))
        if on_listening is not None:
            on_listening()
        try:
            yield
        finally:
            timer.cancel()
            session.remove_listener(hub.on_change)
            if isinstance(reach, LiveReach):
                reach.listeners.remove(network_changed)

    return lifespan


async def _no_cache(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    """Pages, the shell's files and the games' plugin files are revalidated on every load."""
    response = await call_next(request)
    path = request.url.path
    if path.startswith(NO_CACHE_PREFIXES) or path == "/":
        response.headers["Cache-Control"] = "no-cache"
    return response
