"""Computer players for Kingdomino: random, greedy, flat Monte Carlo, and the levels.

The table's levels: 1 random, 2 greedy, 3-5 the turn search of engine.kingdomino.search with
0.25, 1 and 2 seconds a turn (a turn: the placement and the claim together).

Each answers `choose(game) -> Action` for the seat acting now, from `game.state` (in table
mode too: a playout draws the unknown lines from the numbers not seen yet). Flat Monte Carlo
(the method Gedda, Lagerkvist and Butler found stronger than MCTS for Kingdomino, IEEE CIG
2018) plays random games from each candidate move, round-robin over the candidates until the
time budget (or a playout limit) is spent, and takes the move with the best mean final margin
(own score minus the best other score).

>>> from engine.kingdomino.options import Options
>>> game = Game(Options(players=("pink", "blue"), mode="dealer", seed=1))
>>> str(MonteCarloBot(seed=1, playouts=40).choose(game)).startswith("claim")
True
"""

from __future__ import annotations

import random
import time

from engine.core.actions import Action
from engine.kingdomino import scoring
from engine.kingdomino.game import Game
from engine.kingdomino.kingdom import Kingdom
from engine.kingdomino.legal import move_action
from engine.kingdomino.rounds import play
from engine.kingdomino.search import SearchBot
from engine.kingdomino.state import State
from engine.kingdomino.steps import CLAIM, DISCARD, PLACE

DEFAULT_BUDGET = 2.0  # seconds per move of the flat Monte Carlo player
# Levels for the table app: 1 random, 2 greedy, 3-5 the turn search, named by their seconds a
# turn (LEVEL_SECONDS; the lobby shows them).
LEVEL_SECONDS = {3: 0.25, 4: 1.0, 5: 2.0}
LEVEL_BUDGETS = LEVEL_SECONDS  # the older name
LEVELS = (1, 2, 3, 4, 5)


class Bot:
    """A computer player: `choose(game)` returns the acting seat's action."""

    def choose(self, game: Game) -> Action:
        return move_action(game.state, self.choose_move(game))

    def choose_move(self, game: Game) -> int:
        raise NotImplementedError


class RandomBot(Bot):
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose_move(self, game: Game) -> int:
        moves = game.state.moves()
        return moves[self.rng.randrange(len(moves))]


def _gain(kingdom: Kingdom, state: State, number: int, move: int) -> int:
    """The kingdom's score after placing domino `number` by `move`."""
    data = state.data
    trial = kingdom.copy()
    trial.place(
        move,
        data.terrain_a[number],
        data.crowns_a[number],
        data.terrain_b[number],
        data.crowns_b[number],
    )
    return trial.score()


def best_placement(
    kingdom: Kingdom, state: State, number: int, rng: random.Random
) -> tuple[int, int]:
    """(score after, placement) of the best immediate placement of a domino; (score, DISCARD)
    when it fits nowhere. Ties are broken at random."""
    data = state.data
    moves = kingdom.placements(
        data.terrain_a[number],
        data.crowns_a[number],
        data.terrain_b[number],
        data.crowns_b[number],
    )
    if not moves:
        return kingdom.score(), DISCARD
    best, chosen, ties = -1, DISCARD, 0
    for move in moves:
        value = _gain(kingdom, state, number, move)
        if value > best:
            best, chosen, ties = value, move, 1
        elif value == best:
            ties += 1
            if rng.randrange(ties) == 0:
                chosen = move
    return best, chosen


class GreedyBot(Bot):
    """Maximises its immediate score: the placement scoring most now; the claim of the domino
    whose best placement would score most now."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose_move(self, game: Game) -> int:
        state = game.state
        kingdom = state.kingdoms[state.acting()[0]]
        if state.step == PLACE:
            return best_placement(kingdom, state, state.current_domino(), self.rng)[1]
        best, chosen, ties = -1, 0, 0
        for number in state.moves():
            value = best_placement(kingdom, state, number, self.rng)[0]
            if value > best:
                best, chosen, ties = value, number, 1
            elif value == best:
                ties += 1
                if self.rng.randrange(ties) == 0:
                    chosen = number
        return chosen


def margin(state: State, seat: int) -> int:
    """Own score minus the best other score."""
    scores = scoring.totals(state)
    return scores[seat] - max(t for s, t in enumerate(scores) if s != seat)


def playout(state: State, rng: random.Random) -> None:
    """Random moves to the end of the game (the copy draws its own chance outcomes)."""
    while state.step == PLACE or state.step == CLAIM:
        moves = state.moves()
        play(state, moves[rng.randrange(len(moves))])


class MonteCarloBot(Bot):
    """Flat Monte Carlo (see the module docstring). `budget`: seconds per move; `playouts`: a
    cap on playouts per move (reproducible runs: with a seed and no time limit)."""

    def __init__(
        self, budget: float | None = DEFAULT_BUDGET, seed: int | None = None, playouts: int = 0
    ) -> None:
        self.budget = budget
        self.cap = playouts
        self.rng = random.Random(seed)
        self.last_playouts = 0

    def choose_move(self, game: Game) -> int:
        state = game.state
        moves = state.moves()
        if len(moves) == 1:
            self.last_playouts = 0
            return moves[0]
        seat = state.acting()[0]
        totals = [0] * len(moves)
        counts = [0] * len(moves)
        deadline = time.perf_counter() + self.budget if self.budget else 0.0
        done = 0
        while True:
            for index, move in enumerate(moves):
                trial = state.copy(self.rng)
                play(trial, move)
                playout(trial, self.rng)
                totals[index] += margin(trial, seat)
                counts[index] += 1
                done += 1
            if self.cap and done >= self.cap:
                break
            if deadline and time.perf_counter() >= deadline:
                break
            if not self.cap and not deadline:
                break
        self.last_playouts = done
        best = max(range(len(moves)), key=lambda i: totals[i] / counts[i])
        return moves[best]


def bot_for_level(level: int, seed: int | None = None) -> Bot | SearchBot:
    """Level 1 random, 2 greedy, 3-5 the turn search with 0.25, 1 and 2 seconds a turn."""
    if level == 1:
        return RandomBot(seed)
    if level == 2:
        return GreedyBot(seed)
    if level in LEVEL_SECONDS:
        return SearchBot(LEVEL_SECONDS[level], seed)
    raise ValueError(f"levels are {LEVELS[0]} to {LEVELS[-1]}")
