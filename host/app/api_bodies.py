"""The JSON bodies of the table app's POST routes, as OpenAPI request-body schemas.

The handlers read their bodies themselves (host/app/server.py checks each field with a
specific reason), so FastAPI cannot infer these: they are declared here for the spec it serves
at /openapi.json (docs/table-api.md is the prose) and drive the API fuzz (tests/app).
"""

from __future__ import annotations

from typing import Any

from host.app.game_options import FLAGS

TEXT = {"type": "string"}
WHOLE = {"type": "integer", "minimum": 0}
NAMES = {"type": "array", "items": TEXT}

NEW_GAME = {
    "players": NAMES,
    "edition": {"type": "string", "enum": ["2023", "1995"]},
    "mode": {"type": "string", "enum": ["table", "dealer"]},
    "seed": WHOLE,
    "alternatives": NAMES,
    "dummy": TEXT,
    **{flag: {"type": "boolean"} for flag in FLAGS},
}
RECORD = {
    "format": TEXT,
    "version": WHOLE,
    "game": TEXT,
    "edition": TEXT,
    "players": NAMES,
    "options": {"type": "object"},
    "actions": {"type": "array", "items": {"type": "array", "items": TEXT}},
}
ACTION = {"text": TEXT, "as": TEXT}

# path → the body's properties (every body is a JSON object)
BODIES: dict[str, dict[str, Any]] = {
    "/api/pair": {"code": TEXT},
    "/api/games": NEW_GAME,
    "/api/games/import": RECORD,
    "/api/games/{game_id}/continue": {},
    "/api/seats/{colour}/reissue": {},
    "/api/action": ACTION,
    "/api/undo": {"as": TEXT},
    "/api/confirm": {"check": WHOLE, "issue": WHOLE, "colours": NAMES},
    "/api/resolve": {"issue": WHOLE, "how": TEXT, "note": TEXT},
    "/api/sim/drop": {"cubes": NAMES, "how": TEXT},
    "/api/sim/gate": {"open": {"type": "boolean"}},
    "/api/seat/{token}/action": ACTION,
    "/api/seat/{token}/undo": {"as": TEXT},
}


def body_spec(path: str) -> dict[str, Any]:
    """`openapi_extra` for the POST route at `path`: its JSON request body."""
    schema = {"type": "object", "properties": BODIES[path]}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}
