"""The games: the catalogue (public), and for the table the saved games, a new one, continuing
one, importing a record and exporting one."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from engine import registry
from host.app.api_bodies import body_spec
from host.app.routes.common import GameId, body, guarded, run
from host.app.routes.context import Ctx
from host.games import adapter_for

router = APIRouter()
CONTINUE_PATH = "/api/games/{game_id}/continue"


def available_games() -> list[dict[str, Any]]:
    """Every registered game as the lobby offers it (id, title, player counts, options)."""
    return [adapter_for(spec).describe() for spec in registry.specs()]


@router.get("/api/catalogue")
async def catalogue() -> dict[str, Any]:
    """The games this host plays: their player counts and options (public); `default`: the
    game the lobby offers first."""
    return {"games": available_games(), "default": registry.DEFAULT}


@router.get("/api/games")
@guarded
async def games(ctx: Ctx, request: Request) -> dict[str, Any]:
    ctx.table(request)
    saved = await run(ctx.session.list_games)
    active = ctx.session.active
    return {
        "games": saved,
        "available": available_games(),
        "active": active.id if active else None,
    }


@router.post("/api/games", openapi_extra=body_spec("/api/games"))
@guarded
async def new_game(ctx: Ctx, request: Request) -> dict[str, Any]:
    ctx.table(request)
    raw = await body(request)
    game_id = await run(ctx.session.new_game, raw)
    return {"id": game_id, "seats": ctx.seats_json(request)}


@router.post("/api/games/import", openapi_extra=body_spec("/api/games/import"))
@guarded
async def import_game(ctx: Ctx, request: Request) -> dict[str, Any]:
    ctx.table(request)
    raw = await body(request)
    return {"id": await run(ctx.session.import_record, raw)}


@router.post(CONTINUE_PATH, openapi_extra=body_spec(CONTINUE_PATH))
@guarded
async def continue_game(ctx: Ctx, game_id: GameId, request: Request) -> dict[str, Any]:
    ctx.table(request)
    await run(ctx.session.continue_game, game_id)
    return {"id": game_id, "seats": ctx.seats_json(request)}


@router.get("/api/games/{game_id}/record")
@guarded
async def export(ctx: Ctx, game_id: GameId, request: Request) -> Any:
    ctx.table(request)
    record = await run(ctx.session.export_record, game_id)
    return JSONResponse(
        record,
        headers={"Content-Disposition": f'attachment; filename="castillo-{game_id}.json"'},
    )
