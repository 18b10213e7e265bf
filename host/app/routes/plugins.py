"""Each game's own public routes (El Grande: /api/gamedata, its printed components) and its
plugin folder (host/games/<id>/static): its i18n bundle merged, its files."""

from __future__ import annotations

from fastapi import APIRouter, FastAPI
from fastapi.staticfiles import StaticFiles

from engine import registry
from host.app.routes.common import guarded, run
from host.app.session import LANGUAGES, ActionError
from host.games import adapter_for


def game_routes() -> APIRouter:
    """Every registered game's own routes, each answering a refusal as its JSON error."""
    router = APIRouter()
    for spec in registry.specs():
        for path, handler in adapter_for(spec).routes():
            router.get(path)(guarded(handler))
    return router


router = APIRouter()


@router.get("/games/{game}/i18n/{lang}.json")
@guarded
async def game_i18n(game: str, lang: str) -> dict[str, str]:
    try:
        spec = registry.get(game)
    except KeyError:
        raise ActionError("no_game", f"there is no game {game!r}") from None
    if lang not in LANGUAGES:
        raise ActionError("bad_message", f"language must be one of {', '.join(LANGUAGES)}")
    return await run(adapter_for(spec).i18n_bundle, lang)


def mount_game_folders(app: FastAPI) -> None:
    """Each game's plugin folder under `/games/<id>` (after `game_i18n`, which it would hide)."""
    for spec in registry.specs():
        folder = adapter_for(spec).static_dir()
        if folder is not None:
            app.mount(f"/games/{spec.id}", StaticFiles(directory=folder), name=f"game-{spec.id}")
