"""`AppContext`: what the routes share (the session, who may use the table, how devices reach
the app, the machine's own Wi-Fi, the WebSocket hub), held on `app.state.context` and handed to
a route by the `Ctx` dependency."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from host.app.access import Access
from host.app.guard import WebPolicy
from host.app.network import LiveReach, Reach
from host.app.own_network import OwnNetwork
from host.app.routes.common import client_of, token_of
from host.app.routes.hub import Hub
from host.app.session import ActionError, Role, Session


@dataclass
class AppContext:
    """One app's shared dependencies. `reach`: the base URL seat codes carry; `own`: the
    machine's own Wi-Fi (None: it runs none); `static_dir`: the shell's pages and files."""

    session: Session
    access: Access
    policy: WebPolicy
    reach: Reach | LiveReach
    own: OwnNetwork | None
    static_dir: Path
    hub: Hub

    def table(self, request: Request) -> None:
        """Refuse the request unless it comes from the paired table (or this machine)."""
        if not self.access.table_ok(token_of(request), client_of(request)):
            raise ActionError("forbidden", "this needs the table: pair this device first")

    def seat(self, token: str) -> Role:
        """The seat a link's token names; refused when it is unknown or revoked."""
        colour = self.session.seat_for_token(token)
        if colour is None:
            raise ActionError("forbidden", "unknown or revoked seat link")
        return Role("seat", colour)

    def seat_base(self, request: Request) -> str:
        """What seat links start with: the address devices use, else the request's own."""
        return self.reach.public_url or str(request.base_url).rstrip("/")

    def seats_json(self, request: Request) -> list[dict[str, Any]]:
        """The active game's seat links (empty with no game on the table)."""
        active = self.session.active
        if active is None:
            return []
        base = self.seat_base(request)
        return [
            {"colour": s.colour, "token": s.token, "url": f"{base}/seat/{s.token}"}
            for s in active.seats.values()
        ]


def app_context(connection: HTTPConnection) -> AppContext:
    """The dependency: the context of the app serving this request or WebSocket."""
    context: AppContext = connection.app.state.context
    return context


Ctx = Annotated[AppContext, Depends(app_context)]
