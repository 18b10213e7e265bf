"""The strongest Kingdomino computer player: a whole turn decided at once by playouts.

A king's turn is a placement and a claim, and the two are decided together: each candidate is
a pair (where the domino goes, which domino of the next line is claimed), scored by playouts
that start with both played (the placement alone says nothing about the claim; a claim weighed
after a random placement is noise). Candidates are first ranked by a look-ahead greedy value
(the placement's gain now plus the claimed domino's best gain after it); the best of them for
each claim are kept (`WIDTH` in all), and the playouts are spent by successive halving: every
round gives each surviving candidate the same share of the round's playouts, then keeps the
better half by mean value, so the close decisions get the playouts and the hopeless pairs stop
early. The value of a playout is the seat's final margin (its score minus the best other
score). In a playout the seat itself plays greedily (the placement scoring most now, the claim
whose best placement scores most) and the other seats at random: the "player greedy" playouts
that Gedda, Lagerkvist and Butler (IEEE CIG 2018) found strongest.

The budget is the whole turn's: the time is checked after every playout, the placement step
returns the pair's placement and keeps its claim, and the claim step that follows answers at
once from that plan. The player decides from what its seat may know: its playouts run on a
`Sim` copy that draws the dominoes still hidden at random from those not seen yet (never the
real game's dealer), so a game dealt from a seed or entered at a table looks the same to it.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Final

from engine.core.actions import Action
from engine.kingdomino.game import Game
from engine.kingdomino.legal import move_action
from engine.kingdomino.playout import GREEDY, NO_CLAIM, RANDOM, Sim
from engine.kingdomino.rounds import play
from engine.kingdomino.state import State
from engine.kingdomino.steps import CLAIM, DISCARD, PLACE

# Planned claims by the state of the claim step they answer (see `_plan_key`): a table makes a
# new player for each step, so the plan outlives the player; a few recent ones are kept.
# A lock: the table's computer seats and hints think in threads beside the server.
_PLANS: Final[dict[tuple[int, ...], int]] = {}
_PLANS_KEPT: Final = 64
_PLANS_LOCK: Final = threading.Lock()
WIDTH: Final = 32  # candidates kept for the playouts (the best pairs of each claim)
MIN_ROUND_PLAYOUTS: Final = 2  # per candidate in the first round of the halving


class SearchBot:
    """See the module docstring. `budget`: seconds a turn (None: no time limit); `playouts`:
    a cap on the playouts of a decision (with a seed and no budget: reproducible); `policy`:
    the seat's own playout policy, `others` the other seats' (engine.kingdomino.playout)."""

    def __init__(
        self,
        budget: float | None = 1.0,
        seed: int | None = None,
        playouts: int = 0,
        policy: int = GREEDY,
        width: int = WIDTH,
        others: int = RANDOM,
    ) -> None:
        self.budget = budget
        self.cap = playouts
        self.rng = random.Random(seed)
        self.policy = policy
        self.others = others
        self.width = width
        self.last_playouts = 0
        self.last_candidates = 0

    # ------------------------------------------------------------------ the platform's side
    def choose(self, game: Game) -> Action:
        return move_action(game.state, self.choose_move(game))

    def choose_move(self, game: Game) -> int:
        """The acting seat's move in the fast integer form of `game.state.moves()`."""
        started = time.perf_counter()
        state = game.state
        moves = state.moves()
        if state.step == CLAIM:
            key = _plan_key(state)
            with _PLANS_LOCK:
                planned = _PLANS.pop(key, NO_CLAIM)
            if planned in moves:
                self.last_playouts = 0
                return planned
        deadline = started + self.budget if self.budget else 0.0
        pairs = self.candidates(state, self._width(state, deadline))
        self.last_candidates = len(pairs)
        if len(pairs) == 1:
            self.last_playouts = 0
            best = pairs[0]
        else:
            best = self.halving(state, pairs, deadline)
        placement, claim = best
        if state.step == PLACE:
            if claim != NO_CLAIM:
                key = _claim_key(state, placement)
                with _PLANS_LOCK:
                    while len(_PLANS) >= _PLANS_KEPT:
                        del _PLANS[next(iter(_PLANS))]
                    _PLANS[key] = claim
            return placement
        return claim

    # ------------------------------------------------------------------ candidates
    def _width(self, state: State, deadline: float) -> int:
        """How many candidates the playouts can tell apart: about an eighth of the playouts
        the decision will get (the cap, or the time left over one timed playout), at most
        `width`, at least 2."""
        if self.cap:
            expected = self.cap
        elif deadline:
            started = time.perf_counter()
            sim = Sim(state, self.rng.getrandbits(32))
            policies = [self.others] * len(state.kingdoms)
            policies[state.acting()[0]] = self.policy
            sim.play_out(policies)
            spent = max(time.perf_counter() - started, 1e-6)
            expected = int((deadline - time.perf_counter()) / spent)
        else:
            return self.width
        return max(2, min(self.width, expected // 8))

    def candidates(self, state: State, width: int = WIDTH) -> list[tuple[int, int]]:
        """The (placement, claim) pairs worth playouts, best look-ahead value first: all of
        them when few, else the best of each claim (`width` in all). A claim step's
        candidates are (DISCARD, claim); the last round's are (placement, NO_CLAIM)."""
        seat = state.acting()[0]
        kingdom = state.kingdoms[seat]
        data = state.data
        free = [n for slot, n in enumerate(state.line_next) if state.next_kings[slot] < 0]
        if state.step != PLACE:
            return [(DISCARD, number) for number in free]
        placements = state.moves()
        claims = free if free else [NO_CLAIM]
        if len(placements) * len(claims) <= width:
            return [(p, c) for c in claims for p in placements]
        number = state.current_domino()
        ta, ca = data.terrain_a[number], data.crowns_a[number]
        tb, cb = data.terrain_b[number], data.crowns_b[number]
        scratch = Sim(state, self.rng.getrandbits(32))
        ranked: list[list[tuple[int, int, int]]] = [[] for _ in claims]
        for placement in placements:
            now = kingdom.gain(placement, ta, ca, tb, cb) if placement != DISCARD else 0
            trial = kingdom
            if placement != DISCARD and free:
                trial = kingdom.copy()
                trial.place(placement, ta, ca, tb, cb)
            for index, claim in enumerate(claims):
                later = scratch.best_placement(trial, claim)[0] if claim != NO_CLAIM else 0
                ranked[index].append((now + later, self.rng.random() < 0.5, placement))
        share = max(1, width // len(claims))
        out: list[tuple[int, int]] = []
        for index, claim in enumerate(claims):
            ranked[index].sort(reverse=True)
            out.extend((placement, claim) for _, _, placement in ranked[index][:share])
        return out

    # ------------------------------------------------------------------ successive halving
    def halving(
        self, state: State, pairs: list[tuple[int, int]], deadline: float
    ) -> tuple[int, int]:
        seat = state.acting()[0]
        root = Sim(state, self.rng.getrandbits(32))
        policies = [self.others] * len(state.kingdoms)
        policies[seat] = self.policy
        alive = list(range(len(pairs)))
        totals = [0.0] * len(pairs)
        counts = [0] * len(pairs)
        rounds = max(1, (len(pairs) - 1).bit_length())
        done = 0
        per_playout = 0.0
        for round_number in range(rounds):
            rounds_left = rounds - round_number
            if self.cap:
                share = (self.cap - done) // rounds_left
            elif deadline:
                left = deadline - time.perf_counter()
                share = int(left / rounds_left / per_playout) if per_playout else 0
            else:
                share = MIN_ROUND_PLAYOUTS * len(alive)
            each = max(MIN_ROUND_PLAYOUTS if round_number == 0 else 1, share // len(alive))
            if deadline and not self.cap and rounds_left == 1:
                each = 1 << 30  # the last round plays on until the deadline
            base = self.rng.getrandbits(32)
            timed_out = False
            round_started, round_done = time.perf_counter(), 0
            for sample in range(each):
                for index in alive:
                    sim = root.copy(base + sample * 7919)
                    placement, claim = pairs[index]
                    sim.turn_move(placement, claim)
                    sim.play_out(policies)
                    totals[index] += sim.margin(seat)
                    counts[index] += 1
                    done += 1
                    round_done += 1
                    if deadline and time.perf_counter() >= deadline:
                        timed_out = True
                        break
                    if self.cap and done >= self.cap:
                        timed_out = True
                        break
                if timed_out:
                    break
            per_playout = (time.perf_counter() - round_started) / max(1, round_done)
            if timed_out or len(alive) == 1:
                break
            alive.sort(key=lambda i: totals[i] / counts[i], reverse=True)
            alive = alive[: max(1, (len(alive) + 1) // 2)]
        self.last_playouts = done
        best = max(alive, key=lambda i: totals[i] / counts[i] if counts[i] else -1e9)
        return pairs[best]


def _plan_key(state: State) -> tuple[int, ...]:
    """What identifies the claim step that follows a planned placement: the game, the round,
    the king, the line to claim from, and the seat's kingdom so far."""
    seat = state.acting()[0]
    return (
        state.game_number,
        state.drawn,
        state.turn,
        seat,
        state.kingdoms[seat].dominoes + state.discarded[seat],
        state.kingdoms[seat].points,
        *state.line_next,
        *state.next_kings,
    )


def _claim_key(state: State, placement: int) -> tuple[int, ...]:
    """The plan key the game will have once `placement` is played (on a copy)."""
    after = state.copy(random.Random(0))
    play(after, placement)
    return _plan_key(after)
