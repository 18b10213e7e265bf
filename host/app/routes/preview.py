"""What an action would do, before it is taken: `GET /api/preview?action=...` (the table) and
`GET /api/seat/{token}/preview?action=...` (a seat), answered by the game's spec
(`GameSpec.preview`, docs/game-protocol.md "Previews"; El Caballero previews an area card's
placement). The engine works on copies of the game: nothing changes, nothing is dealt, and the
answer holds only what every seat sees (the map, the market's card, the courts)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from engine.core.errors import NotationError
from engine.core.protocol import CHANCE
from engine.core.spec import NoPreview, PreviewError
from host.app.routes.common import guarded, run
from host.app.routes.context import Ctx
from host.app.session import ActionError, Role, Session
from host.app.session.pipeline import require_game

MAX_ACTION = 200  # characters: longer than any action of any game's notation

router = APIRouter()
ActionText = Annotated[str, Query(min_length=1, max_length=MAX_ACTION)]


@router.get("/api/preview")
@guarded
async def table_preview(ctx: Ctx, request: Request, action: ActionText) -> dict[str, Any]:
    """The table's preview, for the player acting now."""
    ctx.table(request)
    return await run(preview_for, ctx.session, Role.table(), action)


@router.get("/api/seat/{token}/preview")
@guarded
async def seat_preview(ctx: Ctx, token: str, action: ActionText) -> dict[str, Any]:
    """A seat's preview of its own action."""
    return await run(preview_for, ctx.session, ctx.seat(token), action)


def preview_for(session: Session, role: Role, text: str) -> dict[str, Any]:
    """The active game's preview of `text` for the seat of `role` (the table: the player acting
    now); a refused action is an answer (`legal: false`), a text that is no action or one the
    game does not preview is a 400, a game without previews a 409."""
    with session.lock:  # the engine reads the game (and copies it) while nothing changes it
        active = require_game(session)
        game = active.game
        if role.kind == "seat" and role.colour is not None:
            seat = active.player(role.colour)
        else:
            players = [p for p in game.current_players() if p != CHANCE]
            seat = players[0] if players else 0  # nobody acts: the engine says so
        try:
            answer = active.spec.preview(game, seat, text)
        except NoPreview as exc:
            raise ActionError("no_preview", str(exc)) from None
        except NotationError as exc:
            raise ActionError("notation", str(exc)) from None
        except PreviewError as exc:
            raise ActionError("bad_message", str(exc)) from None
    return {"ok": True, **answer}
