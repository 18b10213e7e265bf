"""The shell's pages: the table's (`/`) and a seat's (`/seat/{token}`, or the translated page
that says a link was replaced or is old), and the `/static` folder they load."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles

from host.app import seat_gone
from host.app.routes.context import Ctx

router = APIRouter()


@router.get("/", include_in_schema=False)
async def index(ctx: Ctx) -> Response:
    page = ctx.static_dir / "index.html"
    if page.exists():
        return FileResponse(page)
    return PlainTextResponse("Castillo table app: the UI is not installed", 503)


@router.get("/seat/{token}", include_in_schema=False)
async def seat_page(ctx: Ctx, request: Request, token: str, lang: str | None = None) -> Response:
    page = ctx.static_dir / "seat.html"
    if ctx.session.seat_for_token(token) is None:
        # a replaced or old link: what happened and how to get a new one, translated
        accept = request.headers.get("accept-language")
        chosen = seat_gone.choose_language(lang, accept, ctx.session.table_lang)
        return HTMLResponse(seat_gone.page(ctx.static_dir, chosen), 403)
    if page.exists():
        return FileResponse(page)
    return PlainTextResponse("Castillo seat page: the UI is not installed", 503)


def mount_static(app: FastAPI, static_dir: Path) -> None:
    """The shell's files under `/static` (a mount: routers cannot carry one)."""
    if static_dir.exists():
        app.mount("/static", StaticFiles(directory=static_dir), name="static")
