"""Matches between computer players over the engine protocol, for the players' benches.

One hero against copies of one opponent: game `i` seats the hero at seat `i % players`, so every
seat (and its turn order) is played equally often. A win shared by a tie counts as the share
(two winners: half a win each). A state that asks chance to act (`CHANCE`) is drawn here from
its `chance_outcomes()`; a dealer game deals itself.

A player is anything with `choose(state, seat) -> action` (engine.core.spec.ComputerPlayer);
`Factory` builds one from a seed, so each game's players are fresh and reproducible, and
games can run in worker processes (`jobs`).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from engine import registry
from engine.core.protocol import CHANCE, GameState
from engine.core.spec import ComputerPlayer, GameSpec

Factory = Callable[[int], ComputerPlayer]  # a player from a seed
OptionsFor = Callable[[int], Any]  # the options of game i (its seed, its variant)

Z_95 = 1.959963984540054  # the normal quantile of a two-sided 95 % interval


def wilson(wins: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95 % by default), as fractions.

    >>> low, high = wilson(5, 20)
    >>> round(low, 3), round(high, 3)
    (0.112, 0.469)
    """
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class GameResult:
    """One finished game: the hero's seat and share of the win, every seat's score, and the
    seconds each of the hero's and the opponents' decisions took."""

    hero_seat: int
    hero_share: float
    scores: list[int]
    hero_seconds: list[float] = field(default_factory=list)
    other_seconds: list[float] = field(default_factory=list)


@dataclass
class MatchResult:
    hero: str
    opponent: str
    games: list[GameResult]

    @property
    def wins(self) -> float:
        return sum(g.hero_share for g in self.games)

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, len(self.games))

    def line(self) -> str:
        """One line for a bench report: wins of N, the rate with its 95 % interval, and the
        median seconds a decision of the hero and of the opponents."""
        n = len(self.games)
        low, high = self.interval()
        rate = self.wins / n if n else 0.0
        hero = [s for g in self.games for s in g.hero_seconds]
        other = [s for g in self.games for s in g.other_seconds]
        return (
            f"{self.hero} vs 3 x {self.opponent}: {self.wins:g}/{n} wins = {rate:.1%} "
            f"(95 % CI {low:.1%}-{high:.1%}); median s/decision {_median(hero):.3f} "
            f"(opponents {_median(other):.3f})"
        )


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def winner_seats(spec: GameSpec, state: GameState) -> list[int]:
    """A finished game's winning seats: the game's own tie-breaks, else the highest score."""
    decided = spec.winners(state)
    if decided is not None:
        names = state.seat_names()
        return [names.index(name) for name in decided[0]]
    scores = state.returns()
    best = max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]


def play_game(
    spec: GameSpec, options: Any, players: Sequence[ComputerPlayer], hero_seat: int, seed: int
) -> GameResult:
    """Play one game to its end; `players[seat]` decides for each seat."""
    state = spec.new_state(options)
    chance = random.Random(seed)
    result = GameResult(hero_seat=hero_seat, hero_share=0.0, scores=[])
    while not state.is_terminal():
        acting = state.current_players()
        if acting == (CHANCE,):
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            state.apply(chance.choices(actions, [p for _, p in outcomes])[0], CHANCE)
            continue
        for seat in acting:
            if seat not in state.current_players():
                continue  # a simultaneous step ended with an earlier seat's choice
            started = time.perf_counter()
            action = players[seat].choose(state, seat)
            spent = time.perf_counter() - started
            (result.hero_seconds if seat == hero_seat else result.other_seconds).append(spent)
            state.apply(action, seat)
    winners = winner_seats(spec, state)
    result.scores = list(state.returns())
    result.hero_share = 1.0 / len(winners) if hero_seat in winners else 0.0
    return result


def _one_game(
    game_id: str, options_for: OptionsFor, hero: Factory, opponent: Factory, players: int, i: int
) -> GameResult:
    spec = registry.get(game_id)
    hero_seat = i % players
    seats = [(hero if s == hero_seat else opponent)(1000 * i + s) for s in range(players)]
    return play_game(spec, options_for(i), seats, hero_seat, seed=i)


def run_match(
    game_id: str,
    options_for: OptionsFor,
    hero: tuple[str, Factory],
    opponent: tuple[str, Factory],
    players: int,
    games: int,
    jobs: int = 1,
    progress: Callable[[int, GameResult], None] | None = None,
) -> MatchResult:
    """`games` games of the hero against `players - 1` copies of the opponent. With `jobs` > 1
    the games run in worker processes (the factories and `options_for` must then be
    module-level functions or partials of them, so they pickle)."""
    match = MatchResult(hero=hero[0], opponent=opponent[0], games=[])
    args = (game_id, options_for, hero[1], opponent[1], players)
    if jobs <= 1:
        for i in range(games):
            match.games.append(_one_game(*args, i))
            if progress is not None:
                progress(i, match.games[-1])
        return match
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(_one_game, *args, i) for i in range(games)]
        for i, future in enumerate(futures):
            result = future.result()
            match.games.append(result)
            if progress is not None:
                progress(i, result)
    return match
