"""`/ws`: one WebSocket per client. The table (paired, or this machine) or a seat (its link's
token) gets `hello`, then its full `state` after every change; it sends commands as JSON
objects in text frames and gets an `ack` or an `error` for each (`ping`: `pong`)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from host.api import json_input
from host.app.routes.commands import command
from host.app.routes.common import SERVER_FAILED, client_of, error_message, log, run
from host.app.routes.context import AppContext, Ctx
from host.app.routes.hub import FORBIDDEN_CLOSE, Client
from host.app.session import ActionError, Role

router = APIRouter()


def _role_of(ctx: AppContext, socket: WebSocket) -> tuple[Role | None, int | None]:
    """Who connects (None: nobody allowed) and, for a seat, the game its link belongs to."""
    session = ctx.session
    params = socket.query_params
    seat_token = params.get("seat")
    if seat_token:
        with session.lock:
            colour = session.seat_for_token(seat_token)
            game_id = session.active.id if session.active else None
        return (Role("seat", colour) if colour else None), game_id
    if params.get("role", "table") == "table" and ctx.access.table_ok(
        params.get("token"), client_of(socket)
    ):
        return Role.table(), None
    return None, None


@router.websocket("/ws")
async def websocket(ctx: Ctx, socket: WebSocket) -> None:
    session, hub = ctx.session, ctx.hub
    role, game_id = _role_of(ctx, socket)
    await socket.accept()
    if role is None:
        await socket.close(FORBIDDEN_CLOSE, "forbidden")
        return
    client = Client(socket, role, socket.query_params.get("seat") or "", game_id)
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
            await _handle(ctx, client, message)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        sender.cancel()
        hub.clients.discard(client)
        if role.colour:
            await run(session.seat_connected, role.colour, -1, game_id)


def _message_of(ctx: AppContext, received: Mapping[str, Any]) -> dict[str, Any]:
    """One client message: a JSON object in a text frame, within the body cap."""
    cap = ctx.policy.body_cap
    text = received.get("text")
    if not isinstance(text, str):
        raise ActionError("bad_message", "send JSON objects in text messages")
    if len(text) > cap:
        raise ActionError("bad_message", f"a message may be at most {cap} bytes")
    try:
        raw = json_input.parse(text)
    except json_input.BadInput as exc:
        raise ActionError("bad_message", str(exc)) from None
    if not isinstance(raw, dict):
        raise ActionError("bad_message", "send JSON objects")
    return raw


async def _handle(ctx: AppContext, client: Client, received: Mapping[str, Any]) -> None:
    try:
        raw = _message_of(ctx, received)
    except ActionError as exc:
        client.push(error_message(exc))
        return
    ref = raw.get("id")
    if raw.get("type") == "ping":
        client.push({"type": "pong", "ref": ref})
        return
    if client.role.colour and ctx.session.seat_link_problem(client.token, client.game_id):
        client.push(None)  # the sender closes the socket with the reason
        return
    try:
        answer = await command(ctx.session, client.role, raw)
    except ActionError as exc:
        client.push(error_message(exc, ref))
        return
    except Exception:  # a reply that says the server failed, never a dropped socket
        log.exception("WebSocket message %r failed", raw.get("type"))
        client.push(error_message(SERVER_FAILED, ref))
        return
    client.push({"type": "ack", "ref": ref, **answer})
