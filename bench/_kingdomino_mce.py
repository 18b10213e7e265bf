"""MCE_PG_R, the strongest agent of Gedda, Lagerkvist and Butler ("Monte Carlo Methods for the
Game Kingdomino", IEEE CIG 2018), written here from the paper's description as a bench
opponent (our own code, on our engine's playout copy `engine.kingdomino.playout.Sim`).

Monte Carlo evaluation (MCE): every legal move of the turn is a candidate (a move is the
placement and the claim together, as the paper's game server took them); until the time is up,
a candidate drawn uniformly at random gets one playout; the candidate with the best mean wins.
Player-greedy playouts (PG): in a playout the agent's own seat plays the "full greedy" policy
(the placement and claim whose placement plus the claimed domino's best next placement scores
most: `LOOKAHEAD`), every other seat uniformly at random. Relative scoring (R): a playout is
worth p / (p + q), the agent's final score p against the best other score q.

Departures from the paper's code, none of them in the algorithm: the first pick of the set-up
round takes the claim with the most crowns on one square (as their greedy does) inside
playouts; their full greedy also drops kingdoms that break the Middle Kingdom frame or leave a
one-square hole before it compares scores, which we do not.
"""

from __future__ import annotations

import random
import time

from engine.kingdomino.game import Game
from engine.kingdomino.playout import LOOKAHEAD, NO_CLAIM, RANDOM, Sim
from engine.kingdomino.state import State
from engine.kingdomino.steps import CLAIM, DISCARD, PLACE


class MceBot:
    """MCE_PG_R with `budget` seconds a turn (None: only the playout cap `playouts`)."""

    def __init__(self, budget: float | None = 1.0, seed: int | None = None, playouts: int = 0):
        self.budget = budget
        self.cap = playouts
        self.rng = random.Random(seed)
        self.plan: tuple[int, int] | None = None  # (state.drawn, claim) decided with a placement
        self.last_playouts = 0
        self.playouts = 0
        self.seconds = 0.0

    def choose_move(self, game: Game) -> int:
        started = time.perf_counter()
        state = game.state
        seat = state.acting()[0]
        free = [n for slot, n in enumerate(state.line_next) if state.next_kings[slot] < 0]
        if state.step == CLAIM and state.line:
            planned, self.plan = self.plan, None
            if planned is not None and planned[0] == state.drawn and planned[1] in free:
                return planned[1]
        if state.step == PLACE:
            claims = free if free else [NO_CLAIM]
            moves = [(p, c) for p in state.moves() for c in claims]
        else:
            moves = [(DISCARD, c) for c in free]
        best = moves[0]
        if len(moves) > 1:
            best = self._evaluate(state, seat, moves, started)
        self.seconds += time.perf_counter() - started
        if state.step == PLACE:
            self.plan = (state.drawn, best[1])
            return best[0]
        return best[1]

    def _evaluate(
        self, state: State, seat: int, moves: list[tuple[int, int]], started: float
    ) -> tuple[int, int]:
        root = Sim(state, self.rng.getrandbits(32))
        policies = [RANDOM] * len(state.kingdoms)
        policies[seat] = LOOKAHEAD
        totals = [0.0] * len(moves)
        counts = [0] * len(moves)
        done = 0
        deadline = started + self.budget if self.budget else 0.0
        while (not self.cap or done < self.cap) and (
            not deadline or time.perf_counter() < deadline
        ):
            index = self.rng.randrange(len(moves))
            sim = root.copy(self.rng.getrandbits(32))
            sim.turn_move(*moves[index])
            sim.play_out(policies)
            scores = sim.totals()
            own = scores[seat]
            top = max(s for other, s in enumerate(scores) if other != seat)
            totals[index] += own / (own + top) if own + top else 0.5
            counts[index] += 1
            done += 1
            if not self.cap and not deadline:
                break
        self.last_playouts = done
        self.playouts += done
        best = max(range(len(moves)), key=lambda i: totals[i] / counts[i] if counts[i] else -1.0)
        return moves[best]
