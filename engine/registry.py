"""The games the kit plays: a game id -> its spec (engine.core.spec.GameSpec).

>>> get("elgrande").title
'El Grande'
>>> get("el-grande") is get("elgrande")  # the id records of format 1 used
True
"""

from __future__ import annotations

from typing import Any

from engine.core import record as core_record
from engine.core.errors import RecordError
from engine.core.protocol import GameState
from engine.core.spec import GameSpec
from engine.elcaballero.spec import SPEC as EL_CABALLERO
from engine.elgrande.spec import SPEC as EL_GRANDE
from engine.kingdomino.spec import SPEC as KINGDOMINO

DEFAULT = EL_GRANDE.id
_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add a game (a test may register its own); its id and aliases must be new."""
    for name in [spec.id, *spec.aliases]:
        known = _GAMES.get(name)
        if known is not None and known is not spec:
            raise ValueError(f"game id {name!r} is taken by {known.title}")
    for name in [spec.id, *spec.aliases]:
        _GAMES[name] = spec
    return spec


def unregister(spec: GameSpec) -> None:
    for name in [spec.id, *spec.aliases]:
        if _GAMES.get(name) is spec:
            del _GAMES[name]


def get(game_id: str) -> GameSpec:
    spec = _GAMES.get(game_id)
    if spec is None:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(ids())}")
    return spec


def ids() -> list[str]:
    """The registered games (their ids, not the aliases)."""
    return sorted({spec.id for spec in _GAMES.values()})


def specs() -> list[GameSpec]:
    return [get(game_id) for game_id in ids()]


def spec_of_record(record: Any) -> tuple[GameSpec, dict[str, Any]]:
    """The game a record is of, and the record in the current format."""
    record = core_record.check_format(record)
    game_id = record.get("game", DEFAULT)
    if not isinstance(game_id, str) or game_id not in _GAMES:
        raise RecordError(f"a record of an unknown game {game_id!r}; known: {', '.join(ids())}")
    spec = _GAMES[game_id]
    return spec, spec.upgrade_record(record)


def replay(record: Any, upto: int | None = None, data: Any = None) -> tuple[GameSpec, GameState]:
    """Replay a record of any registered game (dispatched by its "game")."""
    spec, current = spec_of_record(record)
    return spec, core_record.replay(spec, current, upto, data)


register(EL_GRANDE)
register(EL_CABALLERO)
register(KINGDOMINO)
