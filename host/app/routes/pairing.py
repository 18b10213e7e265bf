"""What the app is (`/api/info`), the pairing code on the host's own screen, and pairing a
device as the table."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from host.app.api_bodies import body_spec
from host.app.routes.common import body, client_of, guarded
from host.app.routes.context import Ctx
from host.app.session import ActionError

router = APIRouter()


@router.get("/api/info")
async def info(ctx: Ctx, request: Request) -> dict[str, Any]:
    session = ctx.session
    active = session.active
    return {
        "app": "castillo",
        "version": "1",
        "lan": ctx.access.lan,
        "pairing_required": ctx.access.pairing_required(client_of(request)),
        "network": ctx.reach.public(),
        "tower": session.tower.status() if session.tower else {"mode": "none"},
        "active_game": active.id if active else None,
    }


@router.get("/api/pairing")
@guarded
async def pairing(ctx: Ctx, request: Request) -> dict[str, Any]:
    """The pairing code, for the host's own screen only (an appliance has no terminal);
    none when the app serves this machine only."""
    access = ctx.access
    if not access.lan:
        return {"code": None, "url": None}
    if not access.host_screen(client_of(request)):
        raise ActionError("forbidden", "the pairing code is shown on the host's own screen")
    base = ctx.reach.public_url
    code = access.pairing_code
    return {"code": code, "url": f"{base}/?pair={code}" if base else None}


@router.post("/api/pair", openapi_extra=body_spec("/api/pair"))
@guarded
async def pair(ctx: Ctx, request: Request) -> dict[str, Any]:
    raw = await body(request)
    code = raw.get("code", "")
    if not isinstance(code, str):
        raise ActionError("bad_message", "'code' must be text (the pairing code)")
    return {"token": ctx.access.pair(code, client_of(request))}
