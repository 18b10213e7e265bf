"""Helpers for the Kingdomino tests: table-mode games at a known position."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engine.core.errors import IllegalAction
from engine.core.protocol import CHANCE
from engine.kingdomino.game import Game
from engine.kingdomino.legal import move_action
from engine.kingdomino.options import COLOURS, Options


def table_game(players: int = 4, **variants: bool) -> Game:
    return Game(Options(players=COLOURS[:players], **variants))


def draw(game: Game, numbers: Sequence[int]) -> None:
    for number in numbers:
        game.apply(f"draw {number}", CHANCE)


def first_picks(game: Game, picks: Sequence[tuple[str, int]]) -> None:
    """The first line's pick: each (colour drawn, domino it claims) in turn."""
    for colour, number in picks:
        game.apply(f"king {colour}", CHANCE)
        game.apply(f"claim {number}", game.options.players.index(colour))


def started_4p(second_line: Sequence[int] = (10, 20, 30, 34)) -> Game:
    """4 players: the first line 1, 2, 3, 4 claimed by pink, yellow, green, blue; the second
    line drawn."""
    game = table_game(4)
    draw(game, [4, 2, 3, 1])
    first_picks(game, [("pink", 1), ("yellow", 2), ("green", 3), ("blue", 4)])
    draw(game, second_line)
    return game


def refused(game: Game, text: str, seat: int) -> IllegalAction:
    before = game.snapshot()
    with pytest.raises(IllegalAction) as caught:
        game.apply(text, seat)
    assert game.snapshot() == before
    return caught.value


def random_game(options: Options, seed: int = 0) -> Game:
    game = Game(options)
    rng = random.Random(seed)
    while not game.is_terminal():
        moves = game.state.moves()
        game.apply(move_action(game.state, moves[rng.randrange(len(moves))]))
    return game
