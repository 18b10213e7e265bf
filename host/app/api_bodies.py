"""The JSON bodies of the table app's POST routes, as OpenAPI request-body schemas.

The handlers read their bodies themselves (host/app/server.py checks each field with a
specific reason), so FastAPI cannot infer these: they are declared here for the spec it serves
at /openapi.json (docs/table-api.md is the prose) and drive the API fuzz (tests/app).
"""

from __future__ import annotations

from typing import Any

from engine import registry
from host.app.towers import HOW, MAX_CUBES, sim_colours
from host.tower.checks import OPTIONS as FIXES

TEXT = {"type": "string"}
WHOLE = {"type": "integer", "minimum": 0}
NAMES = {"type": "array", "items": TEXT}
# an option's kind (engine.core.options) as a JSON schema
OPTION_SCHEMA: dict[str, dict[str, Any]] = {
    "bool": {"type": "boolean"},
    "int": {"type": "integer"},
    "int?": WHOLE,
    "str": TEXT,
    "names": NAMES,
}


def _new_game() -> dict[str, Any]:
    """`game` and every registered game's options (a game's adapter checks its own)."""
    out: dict[str, Any] = {"game": {"type": "string", "enum": registry.ids()}}
    for spec in registry.specs():
        for option in spec.options_schema():
            out.setdefault(option["name"], OPTION_SCHEMA[option["kind"]])
    # computer seats: seat name → level (games with a computer player)
    out["computers"] = {"type": "object", "additionalProperties": {"type": "integer"}}
    return out


NEW_GAME = _new_game()
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
# every `how` of a throw-check issue (which ones fit depends on the issue: host/tower/checks.py)
RESOLUTIONS = tuple(dict.fromkeys(how for hows in FIXES.values() for how in hows))
DROP = {
    "cubes": {
        "type": "array",
        "items": {"type": "string", "enum": list(sim_colours())},
        "minItems": 1,
        "maxItems": MAX_CUBES,
    },
    "how": {"type": "string", "enum": list(HOW), "default": "single"},
}

# path → the body's properties (every body is a JSON object)
BODIES: dict[str, dict[str, Any]] = {
    "/api/pair": {"code": TEXT},
    "/api/games": NEW_GAME,
    "/api/games/import": RECORD,
    "/api/games/{game_id}/continue": {},
    "/api/seats/{colour}/reissue": {},
    "/api/action": ACTION,
    "/api/undo": {"as": TEXT},
    "/api/hint": {},
    "/api/confirm": {"check": WHOLE, "issue": WHOLE, "colours": NAMES},
    "/api/resolve": {
        "issue": WHOLE,
        "how": {"type": "string", "enum": list(RESOLUTIONS)},
        "note": TEXT,
    },
    "/api/sim/drop": DROP,
    "/api/sim/gate": {"open": {"type": "boolean"}},
    "/api/seat/{token}/action": ACTION,
    "/api/seat/{token}/undo": {"as": TEXT},
    "/api/seat/{token}/hint": {},
}


# path → the fields a body must have
REQUIRED: dict[str, list[str]] = {
    "/api/action": ["text"],
    "/api/seat/{token}/action": ["text"],
    "/api/confirm": ["colours"],
    "/api/resolve": ["issue", "how"],
    "/api/sim/drop": ["cubes"],
    "/api/sim/gate": ["open"],
}


def body_spec(path: str) -> dict[str, Any]:
    """`openapi_extra` for the POST route at `path`: its JSON request body."""
    schema: dict[str, Any] = {"type": "object", "properties": BODIES[path]}
    if path in REQUIRED:
        schema["required"] = REQUIRED[path]
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}
