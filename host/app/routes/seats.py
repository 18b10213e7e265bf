"""The table's and a seat's state, the seat links (with the address devices use), a seat's QR
code while it is unclaimed, and reissuing a seat's link."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from host.app.api_bodies import body_spec
from host.app.routes.common import guarded, qr_response, run
from host.app.routes.context import Ctx
from host.app.session import ActionError, Role

router = APIRouter()


@router.get("/api/state")
@guarded
async def table_state(ctx: Ctx, request: Request) -> dict[str, Any]:
    ctx.table(request)
    return await run(ctx.session.state_for, Role.table())


@router.get("/api/seat/{token}/state")
@guarded
async def seat_state(ctx: Ctx, token: str) -> dict[str, Any]:
    return await run(ctx.session.state_for, ctx.seat(token))


@router.get("/api/seats")
@guarded
async def seats(ctx: Ctx, request: Request) -> dict[str, Any]:
    ctx.table(request)
    state = await run(ctx.session.state_for, Role.table())
    base = ctx.seat_base(request)
    # the state's entries are shared (computed once per revision): edit copies
    seats = [dict(entry) for entry in state["seats"]]
    for entry in seats:
        if "url" in entry:
            entry["url"] = base + entry["url"]
    return {"seats": seats}


@router.get("/api/seats/{colour}/qr.svg")
@guarded
async def seat_qr(ctx: Ctx, colour: str, request: Request) -> Response:
    ctx.table(request)
    active = ctx.session.active
    if active is None or colour not in active.seats:
        raise ActionError("no_seat", f"{colour} is not a seat of the active game")
    entry = active.seats[colour]
    if entry.claimed:
        raise ActionError("forbidden", "this seat is claimed; reissue it for a new link")
    return qr_response(f"{ctx.seat_base(request)}/seat/{entry.token}")


@router.post("/api/seats/{colour}/reissue", openapi_extra=body_spec("/api/seats/{colour}/reissue"))
@guarded
async def reissue(ctx: Ctx, colour: str, request: Request) -> dict[str, Any]:
    ctx.table(request)
    entry = await run(ctx.session.reissue, colour)
    base = ctx.seat_base(request)
    return {"colour": colour, "token": entry.token, "url": f"{base}/seat/{entry.token}"}
