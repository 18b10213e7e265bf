"""What every route module shares: error answers, the caller's address and token, the JSON
body, the `guarded` wrapper that turns an `ActionError` into its JSON answer, QR codes."""

from __future__ import annotations

import asyncio
import functools
import io
import logging
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar

from fastapi import FastAPI, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response

from host.api import json_input
from host.app.session import ActionError

log = logging.getLogger("host.app.server")
T = TypeVar("T")

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


def error_response(exc: ActionError) -> JSONResponse:
    """An HTTP answer for a refused request: its code, its (safe) reason, its status."""
    answer = {**exc.to_json(), "reason": json_input.safe_text(exc.reason)}
    return JSONResponse(answer, STATUS.get(exc.code, 409))


def error_message(exc: ActionError, ref: Any = None) -> dict[str, Any]:
    """The same refusal as a WebSocket `error` message."""
    answer = {**exc.to_json(), "reason": json_input.safe_text(exc.reason)}
    code = answer.pop("error")
    return {"type": "error", "ref": ref, "code": code, **answer}


def install_error_handlers(app: FastAPI) -> None:
    """Whatever a handler did not expect, and a path or query parameter that does not parse:
    answered in JSON, never a traceback."""

    @app.exception_handler(Exception)
    async def server_failed(request: Request, exc: Exception) -> JSONResponse:
        """Whatever a handler did not expect: logged with its traceback, answered in JSON."""
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return error_response(SERVER_FAILED)

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(request: Request, exc: RequestValidationError) -> JSONResponse:
        where = ", ".join(".".join(str(p) for p in e.get("loc", ())) for e in exc.errors())
        reason = json_input.safe_text(f"bad parameter: {where or 'request'}")
        return JSONResponse({"error": "bad_message", "reason": reason}, 400)


def client_of(connection: Request | WebSocket) -> str:
    return connection.client.host if connection.client else ""


def token_of(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.query_params.get("token")


async def run(func: Callable[..., T], *args: Any) -> T:
    """A blocking call (the session writes to disk) in a worker thread."""
    return await asyncio.to_thread(func, *args)


async def body(request: Request) -> dict[str, Any]:
    """The request's JSON object (a large one parsed off the event loop)."""
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
    """`handler`, with an `ActionError` it raises answered as its JSON error."""

    @functools.wraps(handler)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return await handler(*args, **kwargs)
        except ActionError as exc:
            return error_response(exc)

    return wrapper


def qr_response(text: str) -> Response:
    """A QR code of `text` as SVG (seat links, the Wi-Fi card); never cached."""
    import segno

    out = io.BytesIO()
    segno.make(text, error="m", micro=False).save(out, kind="svg", scale=6, border=2)
    return Response(
        out.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"}
    )
