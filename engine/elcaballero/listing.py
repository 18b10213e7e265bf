"""Action objects made once and reused: the legal-action listing offers the same actions over
and over (every caballero number at every free cell, each step), and building an Action and its
notation text each time was most of a random game's cost.

>>> from engine.elcaballero.board import key_of
>>> action("knight", key_of(0, -1), 2, 3)
Action(kind='knight', arg='0,-1S', arg2='3')
>>> action("knight", key_of(0, -1), 2, 3) is action("knight", key_of(0, -1), 2, 3)
True
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.elcaballero.board import DIRS, cell_name

NO_NUMBER = -1
LIMIT = 200_000  # entries kept at most (a long-running host plays many maps): then start over

_CACHE: dict[tuple[str, int, int, int], Action] = {}
_PAIRS: dict[tuple[str, int, int, int, int], Action] = {}
_AREAS: dict[tuple[int, int, int], Action] = {}


def action(kind: str, key: int, side: int, number: int = NO_NUMBER) -> Action:
    """`kind` at a cell (side -1) or a spot, with a number or none (NO_NUMBER)."""
    found = _CACHE.get((kind, key, side, number))
    if found is None:
        where = cell_name(key) if side < 0 else cell_name(key) + DIRS[side]
        found = Action(kind, where, "" if number == NO_NUMBER else str(number))
        if len(_CACHE) >= LIMIT:
            _CACHE.clear()
        _CACHE[(kind, key, side, number)] = found
    return found


def pair(kind: str, key: int, side: int, to_key: int, to_side: int) -> Action:
    """A move from one cell (side -1) or spot to another."""
    found = _PAIRS.get((kind, key, side, to_key, to_side))
    if found is None:
        first = cell_name(key) if side < 0 else cell_name(key) + DIRS[side]
        second = cell_name(to_key) if to_side < 0 else cell_name(to_key) + DIRS[to_side]
        found = Action(kind, first, second)
        if len(_PAIRS) >= LIMIT:
            _PAIRS.clear()
        _PAIRS[(kind, key, side, to_key, to_side)] = found
    return found


def area(slot: int, key: int, north: int) -> Action:
    """Market card `slot` (from 1) laid at a cell, its described north on side `north`."""
    found = _AREAS.get((slot, key, north))
    if found is None:
        found = Action("area", str(slot), cell_name(key) + DIRS[north])
        if len(_AREAS) >= LIMIT:
            _AREAS.clear()
        _AREAS[(slot, key, north)] = found
    return found
