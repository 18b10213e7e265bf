"""When a Grande may fall into the castillo: only New Regency's Tournament throws one in.

The tower reports a long pulse as a Grande only while the host says one may come; otherwise as
`merged` (touching cubes, uncertain), so two cubes are never silently counted as one Grande.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.elgrande.game import Game


def grandes_in_castillo(game: Game) -> int:
    """Grandes the engine has put into the castillo (a Tournament in their region)."""
    return sum(1 for where in game.state.grandes if where == game.state.CASTILLO)


def grandes_counted(totals: Mapping[str, int]) -> int:
    """Grandes the tower has counted since the castillo was last emptied."""
    return sum(n for key, n in totals.items() if key.startswith("grande:"))


def grande_possible(game: Game, totals: Mapping[str, int]) -> bool:
    """True while the engine has more Grandes in the castillo than the tower has counted."""
    return grandes_in_castillo(game) > grandes_counted(totals)
