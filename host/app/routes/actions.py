"""Commands over HTTP: the table's action, undo, hint, confirm and resolve, and a seat's
action, undo and hint (`/api/seat/{token}/...`). Each posts a JSON body that `command` checks
(the same code the WebSocket runs) and answers `{"ok": true, ...}` or the refusal."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request

from host.app.api_bodies import body_spec
from host.app.routes.commands import command
from host.app.routes.common import body, error_response
from host.app.routes.context import app_context
from host.app.session import ActionError, Role

TABLE_KINDS = ("action", "undo", "hint", "confirm", "resolve")
SEAT_KINDS = ("action", "undo", "hint")


def http_command(kind: str, seat_route: bool = False) -> Callable[..., Awaitable[Any]]:
    """The handler of one command's route: the table's, or a seat's (its token in the path)."""

    async def handler(request: Request) -> Any:
        ctx = app_context(request)
        try:
            token = request.path_params.get("token")
            if seat_route:
                role = ctx.seat(str(token))
            else:
                ctx.table(request)
                role = Role.table()
            raw = await body(request)
            raw["type"] = kind
            if kind == "confirm" and "issue" in raw and "check" not in raw:
                raw["check"] = raw["issue"]
            return {"ok": True, **(await command(ctx.session, role, raw))}
        except ActionError as exc:
            return error_response(exc)

    return handler


def command_router(commands: list[tuple[str, str, bool]]) -> APIRouter:
    """A router of POST routes: (path, command kind, whether it is a seat's route)."""
    router = APIRouter()
    for path, kind, seat_route in commands:
        router.add_api_route(
            path,
            http_command(kind, seat_route),
            methods=["POST"],
            openapi_extra=body_spec(path),
        )
    return router


router = command_router(
    [(f"/api/{kind}", kind, False) for kind in TABLE_KINDS]
    + [(f"/api/seat/{{token}}/{kind}", kind, True) for kind in SEAT_KINDS]
)
