"""Computer players: legal, reproducible with a seed, and stronger in the expected order."""

from __future__ import annotations

import random

import pytest

from engine.kingdomino.bots import (
    Bot,
    GreedyBot,
    MonteCarloBot,
    RandomBot,
    best_placement,
    bot_for_level,
)
from engine.kingdomino.game import PLACE, Game
from engine.kingdomino.options import Options
from engine.kingdomino.rounds import play
from engine.kingdomino.search import SearchBot
from tests.engine.kingdomino.helpers import started_4p

TWO = ("pink", "blue")


def duel(first: Bot, second: Bot, seed: int) -> list[int]:
    game = Game(Options(players=TWO, mode="dealer", seed=seed))
    bots = (first, second)
    while not game.is_terminal():
        seat = game.current_players()[0]
        action = bots[seat].choose(game)
        assert action in game.legal_actions(seat)
        game.apply(action, seat)
    return game.returns()


def test_every_bot_plays_legal_moves_to_the_end() -> None:
    for bot in (RandomBot(1), GreedyBot(1), MonteCarloBot(None, seed=1, playouts=8)):
        assert len(duel(bot, RandomBot(2), seed=3)) == 2


def test_greedy_places_for_the_best_immediate_score() -> None:
    rng = random.Random(0)
    game = Game(Options(players=TWO, mode="dealer", seed=6))
    checked = 0
    while not game.is_terminal():
        seat = game.current_players()[0]
        if game.state.step == PLACE and game.state.moves()[0] >= 0:
            kingdom, number = game.state.kingdoms[seat], game.state.current_domino()
            best, _ = best_placement(kingdom, game.state, number, rng)
            move = GreedyBot(1).choose_move(game)
            trial = kingdom.copy()
            data = game.state.data
            trial.place(
                move,
                data.terrain_a[number],
                data.crowns_a[number],
                data.terrain_b[number],
                data.crowns_b[number],
            )
            assert trial.score() == best
            assert all(trial.score() >= other for other in _scores(game, seat, number))
            checked += 1
        moves = game.state.moves()
        play(game.state, moves[rng.randrange(len(moves))])
    assert checked >= 10


def _scores(game: Game, seat: int, number: int) -> list[int]:
    data, kingdom = game.state.data, game.state.kingdoms[seat]
    out = []
    for move in game.state.moves():
        trial = kingdom.copy()
        trial.place(
            move,
            data.terrain_a[number],
            data.crowns_a[number],
            data.terrain_b[number],
            data.crowns_b[number],
        )
        out.append(trial.score())
    return out


def test_greedy_beats_random_most_of_the_time() -> None:
    wins = sum(1 for seed in range(20) if _won(duel(GreedyBot(seed), RandomBot(seed), seed)))
    assert wins >= 15


def _won(totals: list[int]) -> bool:
    return totals[0] > totals[1]


def test_flat_monte_carlo_is_reproducible_with_a_seed_and_a_playout_cap() -> None:
    game = started_4p()
    first = MonteCarloBot(None, seed=5, playouts=60).choose(game)
    again = MonteCarloBot(None, seed=5, playouts=60).choose(game)
    assert first == again and first in game.legal_actions(0)


def test_flat_monte_carlo_plays_from_a_table_game_without_knowing_the_removed_dominoes() -> None:
    game = started_4p()  # table mode: the playouts draw from the numbers not seen
    bot = MonteCarloBot(None, seed=2, playouts=30)
    game.apply(bot.choose(game), 0)
    assert bot.last_playouts >= 30
    assert game.history[-1][1].kind == "place"


def test_flat_monte_carlo_beats_random() -> None:
    results = [
        duel(MonteCarloBot(None, seed=s, playouts=80), RandomBot(s), 100 + s) for s in range(3)
    ]
    assert all(_won(totals) for totals in results)


def test_flat_monte_carlo_keeps_to_its_time_budget() -> None:
    game = started_4p()
    bot = MonteCarloBot(0.05, seed=1)
    bot.choose(game)
    assert bot.last_playouts >= len(game.state.moves())  # at least one playout per candidate


def test_levels() -> None:
    assert isinstance(bot_for_level(1), RandomBot) and isinstance(bot_for_level(2), GreedyBot)
    strongest = bot_for_level(5)
    assert isinstance(strongest, SearchBot) and strongest.budget == 2.0
    with pytest.raises(ValueError):
        bot_for_level(6)
