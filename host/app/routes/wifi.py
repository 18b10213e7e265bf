"""The machine's own Wi-Fi for the table's card: its name, password and QR code while it runs
one (the table only: the password is a secret)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from host.app.routes.common import guarded, qr_response
from host.app.routes.context import Ctx
from host.app.session import ActionError

router = APIRouter()


@router.get("/api/wifi")
@guarded
async def wifi(ctx: Ctx, request: Request) -> dict[str, Any]:
    """The machine's own Wi-Fi for the table's card: its name, password and QR payload
    while it runs one (the table only: the password is a secret)."""
    ctx.table(request)
    return ctx.own.card() if ctx.own is not None else {"own_network": False}


@router.get("/api/wifi/qr.svg")
@guarded
async def wifi_qr(ctx: Ctx, request: Request) -> Response:
    ctx.table(request)
    card = ctx.own.card() if ctx.own is not None else {}
    if not card.get("qr"):
        raise ActionError("no_wifi", "the table does not run its own Wi-Fi now")
    return qr_response(str(card["qr"]))
