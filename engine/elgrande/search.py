"""El Grande's computer players: determinized Monte Carlo tree search, one-ply greedy, random.

Every player decides from what its seat may know (engine.elgrande.determinize.Belief): it
never reads the real state but through `Belief`, which takes the seat's view and the public
history and draws copies consistent with them.

**The search** (`SearchPlayer`) is single-observer information-set MCTS (Cowling, Powley and
Whitehouse's SO-ISMCTS): each iteration draws a fresh determinization, walks one shared tree
of action sequences (a node's children are the actions tried there, whatever copy they were
tried in; UCB1 counts a child's *availability*, the iterations where it was legal), adds one
node, plays a short rollout and backs up a reward per seat. Each edge is credited with the
reward of the seat that took it (several seats compete: max^n style). The rollout is random
(taking the most caballeros a power card allows) to the end of the current round, then the
position is valued by the projected score: the scores so far plus what the board would score
now, for every general scoring still to come. The reward of a seat is
`0.5 + 0.5 tanh(margin / 8)`, its margin being its projected score less the best other seat's.
The move played is the most visited child of the root. Time is checked every iteration.

**The greedy player** (`GreedyPlayer`) takes, on one determinization, the action whose
immediate result has the best projected margin (ties at random): a one-ply bench opponent.
"""

from __future__ import annotations

import math
import random
import time
from typing import Final

from engine.core.actions import Action
from engine.core.protocol import GameState
from engine.core.spec import require_acting
from engine.elgrande.board import Board
from engine.elgrande.determinize import Belief
from engine.elgrande.game import Game

__all__ = [
    "LEVELS",
    "GreedyPlayer",
    "RandomPlayer",
    "SearchPlayer",
    "projected_scores",
    "rewards",
]

EXPLORATION: Final = 0.7  # UCB1's constant (rewards in [0, 1])
MARGIN_SCALE: Final = 8.0  # points of margin that make a clear lead
MAX_ROLLOUT_STEPS: Final = 400
MAX_SECONDS: Final = 600.0  # the longest time budget a move may be given
# The table app's levels: 1 random, 2 one-ply greedy, 3-5 the search with these budgets.
LEVEL_SECONDS: Final = {3: 0.25, 4: 1.0, 5: 2.0}
LEVELS: Final = (1, 2, 3, 4, 5)


def projected_scores(g: Board) -> list[float]:
    """Each colour's score so far plus what the board would score now (the regions and the
    castillo, by the majority rules with the King's and the Grandes' bonuses) for each general
    scoring still to come; no side effects. A finished game: its scores."""
    scores = [float(s) for s in g.scores]
    if g.phase == "over":
        return scores
    after = g.data.scoring_after
    to_come = sum(1 for r in g.rounds[g.round_index :] if r in after)
    if g.phase == "scoring":
        to_come += 1
    if not to_come:
        return scores
    weight = float(to_come)
    n = g.n
    places = g.places
    grandes = g.grandes
    king = g.king
    pieces = g.pieces
    for area in range(g.R + 1):
        row = pieces[area]
        ranked = sorted((c for c in range(n) if row[c] > 0), key=lambda c: -row[c])
        if not ranked:
            continue
        values = g.values_of(area)
        limit = min(places, len(values))
        place = 0
        i = 0
        size = len(ranked)
        while i < size:
            count = row[ranked[i]]
            j = i + 1
            while j < size and row[ranked[j]] == count:
                j += 1
            if j - i == 1:
                if place < limit:
                    scores[ranked[i]] += weight * values[place]
                place += 1
            else:
                awarded = place + 1
                if awarded < limit:
                    for c in ranked[i:j]:
                        scores[c] += weight * values[awarded]
                place += 2
            i = j
        top = ranked[0]
        if size == 1 or row[ranked[1]] < row[top]:
            if area == king:
                scores[top] += weight * 2
            if grandes[top] == area:
                scores[top] += weight * 2
    if g.dummy >= 0:
        scores[g.dummy] = float(g.scores[g.dummy])
    return scores


def rewards(g: Board) -> list[float]:
    """Each colour's reward in [0, 1] from its projected margin (see the module docstring)."""
    values = projected_scores(g)
    seats = g.seats
    out = [0.0] * g.n
    for p in seats:
        best_other = max(values[q] for q in seats if q != p) if len(seats) > 1 else 0.0
        out[p] = 0.5 + 0.5 * math.tanh((values[p] - best_other) / MARGIN_SCALE)
    return out


def _rollout_action(g: Game, player: int, rng: random.Random) -> Action:
    actions = g.legal_actions(player)
    state = g.state
    if state.phase == "take" and state.frame is None:
        return actions[-1]  # the most caballeros the card allows
    return actions[rng.randrange(len(actions))]


def rollout(g: Game, rng: random.Random, rounds: int = 1) -> None:
    """Random play (see `_rollout_action`) until `rounds` rounds have ended or the game."""
    state = g.state  # (no undo here: the game keeps this state)
    stop = state.round_index + rounds
    steps = 0
    while state.phase != "over" and state.round_index < stop and steps < MAX_ROLLOUT_STEPS:
        player = g.current_players()[0]
        g.apply(_rollout_action(g, player, rng), player)
        steps += 1


class _Node:
    __slots__ = ("actor", "avail", "children", "value", "visits")

    def __init__(self, actor: int) -> None:
        self.actor = actor
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.value = 0.0
        self.avail = 0


class SearchPlayer:
    """SO-ISMCTS (the module docstring) with a time budget in seconds a move, or a fixed
    number of iterations (`iterations`: reproducible with a seed). `last_iterations` and
    `last_rollout_steps` tell what the last decision did."""

    def __init__(
        self,
        seconds: float | None = 1.0,
        seed: int | None = None,
        iterations: int = 0,
        rollout_rounds: int = 1,
    ) -> None:
        if not seconds and not iterations:
            raise ValueError("a search needs a time budget or a number of iterations")
        self.seconds = seconds
        self.iterations = iterations
        self.rollout_rounds = rollout_rounds
        self.rng = random.Random(seed)
        self.last_iterations = 0
        self.last_rollout_steps = 0

    def choose(self, state: GameState, seat: int) -> Action:
        started = time.perf_counter()
        assert isinstance(state, Game)
        require_acting(state, seat)
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        belief = Belief(state, seat)
        return self.search(belief, started)

    def search(self, belief: Belief, started: float | None = None) -> Action:
        """The most visited root action after the search (on `belief`'s copies only)."""
        rng = self.rng
        seat = belief.seat
        root = _Node(seat)
        deadline = (started or time.perf_counter()) + self.seconds if self.seconds else 0.0
        cap = self.iterations
        done = 0
        steps = 0
        root_legal: list[Action] = belief.template.legal_actions(seat)
        while True:
            g = belief.sample(rng)
            node = root
            path: list[_Node] = []
            player = seat
            while g.state.phase != "over":
                if node is not root:
                    actors = g.current_players()
                    player = actors[0]
                actions = g.legal_actions(player)
                if len(actions) == 1 and node is not root:
                    g.apply(actions[0], player)
                    continue
                children = node.children
                untried = [a for a in actions if a not in children]
                for a in actions:
                    child = children.get(a)
                    if child is not None:
                        child.avail += 1
                if untried:
                    action = untried[rng.randrange(len(untried))]
                    child = children[action] = _Node(player)
                    child.avail = 1
                    g.apply(action, player)
                    path.append(child)
                    break
                best = None
                best_value = -1.0
                for a in actions:
                    child = children[a]
                    value = child.value / child.visits + EXPLORATION * math.sqrt(
                        math.log(child.avail) / child.visits
                    )
                    if value > best_value:
                        best, best_value = child, value
                        chosen = a
                assert best is not None
                g.apply(chosen, player)
                path.append(best)
                node = best
            before = len(g.history)
            rollout(g, rng, self.rollout_rounds)
            steps += len(g.history) - before
            reward = rewards(g.state)
            for child in path:
                child.visits += 1
                child.value += reward[child.actor]
            done += 1
            if cap and done >= cap:
                break
            if deadline and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        self.last_rollout_steps = steps
        visited = [
            (root.children[a].visits, i) for i, a in enumerate(root_legal) if a in root.children
        ]
        if not visited:
            return root_legal[rng.randrange(len(root_legal))]
        return root_legal[max(visited)[1]]


class GreedyPlayer:
    """One ply on one determinization: the action with the best projected margin after it."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState, seat: int) -> Action:
        assert isinstance(state, Game)
        require_acting(state, seat)
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        g = Belief(state, seat).sample(self.rng)
        best: list[Action] = []
        best_value = -math.inf
        for action in legal:
            trial = g.clone()
            trial.apply(action, seat)
            values = projected_scores(trial.state)
            others = [values[q] for q in trial.state.seats if q != seat]
            value = values[seat] - (max(others) if others else 0.0)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif value > best_value - 1e-9:
                best.append(action)
        return best[self.rng.randrange(len(best))]


class RandomPlayer:
    """A uniformly random legal action."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState, seat: int) -> Action:
        require_acting(state, seat)
        legal = state.legal_actions(seat)
        return legal[self.rng.randrange(len(legal))]


def player_for_level(
    level: int, seed: int | None = None
) -> RandomPlayer | GreedyPlayer | SearchPlayer:
    """Level 1 random, 2 one-ply greedy, 3-5 the search with 0.25, 1 and 2 seconds a move."""
    if level == 1:
        return RandomPlayer(seed)
    if level == 2:
        return GreedyPlayer(seed)
    if level in LEVEL_SECONDS:
        return SearchPlayer(LEVEL_SECONDS[level], seed)
    raise ValueError(f"levels are {LEVELS[0]} to {LEVELS[-1]}")
