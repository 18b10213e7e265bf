"""Games at a known position for the El Caballero tests (table mode: the cards are entered)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.elcaballero.board import CaballeroCard, key_of
from engine.elcaballero.game import Game
from engine.elcaballero.options import Options

LAND = "LNESW"
SEA = "SNESW"


def table_game(
    players: Sequence[str] = ("red", "blue", "green"),
    start: str = LAND,
    market: Sequence[str] = (LAND, LAND, LAND, SEA, SEA),
    **options: object,
) -> Game:
    """A table-mode game after setup: the start card at 0,0 and the market entered."""
    game = Game(Options(players=tuple(players), **options))  # type: ignore[arg-type]
    game.apply(f"start {start}")
    for card in market:
        game.apply(f"reveal {card}")
    return game


def powers(game: Game, *values: int) -> None:
    """Each seat in playing order plays the next value."""
    for value in values:
        game.apply(f"power {value}")


def put_caballero(
    game: Game, owner: int, x: int, y: int, side: int = 0, rotation: int = 0
) -> CaballeroCard:
    """A caballero card laid straight onto the map (a position for a test)."""
    card = CaballeroCard(owner, side, rotation, key_of(x, y))
    game.state.board.place_caballero(card)
    game.state.stack[owner] -= 1
    return card
