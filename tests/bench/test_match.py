"""The players' benches count right: seats rotate, ties share a win, the interval is Wilson's,
and every registered game plays to its end."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench._match import play_game, run_match, wilson
from engine import registry
from engine.core.protocol import GameState


class RandomPlayer:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState, seat: int) -> Any:
        return self.rng.choice(state.legal_actions(seat))


def kingdomino_options(i: int) -> Any:
    spec = registry.get("kingdomino")
    return spec.options_from_json({"players": ["blue", "green", "pink", "yellow"], "seed": 7 + i})


def test_wilson_matches_the_textbook_figures() -> None:
    low, high = wilson(5, 20)  # 25 %: the "parity" figure
    assert (round(low, 3), round(high, 3)) == (0.112, 0.469)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_seats_rotate_and_worker_processes_give_the_same_games() -> None:
    randoms = (("random", RandomPlayer), ("random", RandomPlayer))
    match = run_match("kingdomino", kingdomino_options, *randoms, 4, 8)
    assert [g.hero_seat for g in match.games] == [0, 1, 2, 3, 0, 1, 2, 3]
    for game in match.games:
        assert 0.0 <= game.hero_share <= 1.0
        assert len(game.scores) == 4 and game.hero_seconds and game.other_seconds
    assert "/8 wins" in match.line()
    parallel = run_match("kingdomino", kingdomino_options, *randoms, 4, 8, jobs=2)
    assert [g.scores for g in parallel.games] == [g.scores for g in match.games]


def test_a_tie_shares_the_win(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = registry.get("kingdomino")
    monkeypatch.setattr("bench._match.winner_seats", lambda spec, state: [0, 2])
    options = kingdomino_options(0)
    shares = [
        play_game(spec, options, [RandomPlayer(s) for s in range(4)], hero, 0).hero_share
        for hero in (0, 1, 2)
    ]
    assert shares == [0.5, 0.0, 0.5]


def test_without_tie_breaks_the_highest_scores_win() -> None:
    spec = registry.get("elgrande")
    options = spec.test_options(3)[0]
    result = play_game(spec, options, [RandomPlayer(s) for s in range(3)], hero_seat=1, seed=3)
    best = max(result.scores)
    expected = 1 / result.scores.count(best) if result.scores[1] == best else 0.0
    assert result.hero_share == pytest.approx(expected)


@pytest.mark.parametrize("game_id", registry.ids())
def test_every_registered_game_plays_to_its_end(game_id: str) -> None:
    spec = registry.get(game_id)
    options = spec.test_options(max(min(spec.player_counts), 2))[0]
    players = [RandomPlayer(s) for s in range(len(spec.new_state(options).seat_names()))]
    result = play_game(spec, options, players, hero_seat=0, seed=1)
    assert len(result.scores) == len(players)
