"""Cells and spots in El Caballero's notation (docs/elcaballero-notation.md): a cell "x,y", a
spot "x,yD" (a cell and a side, D = N, E, S or W)."""

from __future__ import annotations

from engine.core.errors import NotationError
from engine.elcaballero.board import DIRS, cell_from_text, cell_name


def parse_cell(text: str) -> int:
    """'x,y' to a cell key (NotationError otherwise)."""
    key = cell_from_text(text)
    if key is None:
        raise NotationError(f'a cell is "x,y" (whole numbers), got {text!r}')
    return key


def parse_spot(text: str) -> tuple[int, int]:
    """'x,yD' to (cell key, side)."""
    if len(text) < 4 or text[-1].upper() not in DIRS:
        raise NotationError(f'a spot is a cell and a side, "x,yD" (D: N, E, S, W): {text!r}')
    return parse_cell(text[:-1]), DIRS.index(text[-1].upper())


def spot_name(key: int, side: int) -> str:
    return cell_name(key) + DIRS[side]
