"""A game's verb table for its pages (public): `GET /api/games/{game}/verbs`.

The pages sort and word actions from it (chance verbs, groups, each argument's kind, tags) and
type the parameters of prompts and refusals by the kinds it gives, instead of listing verbs or
parameter names of their own. It depends only on the game and its data, so it carries an ETag
and a request that names it (`If-None-Match`) is answered 304 without a body.
"""

from __future__ import annotations

import hashlib
import json

from fastapi import APIRouter, Request, Response

from engine import registry
from host.app.routes.common import guarded, run
from host.app.session import ActionError
from host.games import adapter_for

router = APIRouter()
CACHE = "no-cache"  # stored by the browser, revalidated by its ETag on each use
SHOWN = 40  # at most this much of an unknown game's name is echoed in the refusal


@router.get("/api/games/{game}/verbs")
@guarded
async def verbs(game: str, request: Request) -> Response:
    """`{"game", "verbs", "param_kinds", "areas"}`: `host.games.GameAdapter.vocabulary`."""
    try:
        spec = registry.get(game)
    except KeyError:
        raise ActionError("no_game", f"there is no game {game[:SHOWN]!r}") from None
    vocabulary = await run(adapter_for(spec).vocabulary)
    body = json.dumps(vocabulary, ensure_ascii=False, separators=(",", ":")).encode()
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    headers = {"ETag": etag, "Cache-Control": CACHE}
    named = _tags(request.headers.get("if-none-match", ""))
    if etag in named or "*" in named:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


def _tags(header: str) -> set[str]:
    """The entity tags an `If-None-Match` header names (a weak one as its strong form)."""
    return {tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()}
