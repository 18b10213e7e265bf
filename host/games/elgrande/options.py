"""A new game's options from a client's request (docs/table-api.md, `POST /api/games`).

Each field is checked on its own first, so a bad request is refused with a reason that names
the field; the engine then checks the combination (`Game` raises ValueError with its reason:
merged decks with 4 or 5 players, an alternative card the edition does not have, …).
Data override files are the host owner's business: a client cannot name them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.elgrande.data import EDITIONS
from engine.elgrande.game import Options

MODES = ("table", "dealer")
FLAGS = (
    "short_game",
    "open_castillo",
    "open_power_cards",
    "merge_decks_2_3",
    "new_regency",
    "power_shift",
)
FIELDS = ("players", "edition", "mode", "seed", "alternatives", "dummy", *FLAGS)
MAX_SEED = 2**31 - 1


def _names(raw: Any, name: str) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(c, str) and c for c in raw):
        raise ValueError(f"'{name}' must be a list of names")
    return tuple(raw)


def options_from_request(raw: Mapping[str, Any]) -> Options:
    """The engine's `Options` for a request body; ValueError with a specific reason."""
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        raise ValueError(
            f"unknown option(s) {', '.join(unknown)}: a new game takes {', '.join(FIELDS)}"
        )
    values: dict[str, Any] = {}
    if "players" not in raw:
        raise ValueError("'players' is missing: list 2 to 5 colours")
    values["players"] = _names(raw["players"], "players")
    edition = raw.get("edition", "2023")
    if edition not in EDITIONS:
        raise ValueError(f"'edition' must be one of {', '.join(EDITIONS)}, not {edition!r}")
    values["edition"] = edition
    mode = raw.get("mode", "table")
    if mode not in MODES:
        raise ValueError(f"'mode' must be table or dealer, not {mode!r}")
    values["mode"] = mode
    for flag in FLAGS:
        value = raw.get(flag, False)
        if not isinstance(value, bool):
            raise ValueError(f"'{flag}' must be true or false")
        values[flag] = value
    seed = raw.get("seed")  # none: the dealer draws from an unpredictable source
    bad_seed = isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED
    if seed is not None and bad_seed:
        raise ValueError(f"'seed' must be a whole number from 0 to {MAX_SEED}")
    values["seed"] = seed
    values["alternatives"] = _names(raw.get("alternatives", []), "alternatives")
    dummy = raw.get("dummy") or ""
    if not isinstance(dummy, str):
        raise ValueError("'dummy' must be a colour (or empty: the first colour nobody plays)")
    values["dummy"] = dummy
    return Options(**values)
