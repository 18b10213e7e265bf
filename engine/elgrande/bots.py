"""Simple players for self-play and tests: they only ever choose legal actions."""

from __future__ import annotations

import random

from engine.elgrande.actions import Action
from engine.elgrande.data import GameData
from engine.elgrande.game import Game, Options


def random_step(game: Game, draw: random.Random) -> None:
    """Every acting player (several at once for secret discs) picks a uniformly random action."""
    for player in game.current_players():
        if player not in game.current_players():
            continue  # a simultaneous step finished with an earlier pick
        actions: list[Action] = game.legal_actions(player)
        game.apply(actions[int(draw.random() * len(actions))], player)


def random_game(options: Options, data: GameData | None = None) -> Game:
    """A complete dealer-mode game of random legal actions, reproducible when seeded."""
    game = Game(options, data)
    draw = random.Random(options.seed)
    while not game.is_terminal():
        random_step(game, draw)
    return game
