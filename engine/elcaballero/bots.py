"""Computer players for El Caballero: random, one-ply greedy, and determinized Monte Carlo.

Each answers `choose(game, seat) -> Action` for a seat acting now, thinking on private copies
(`Game.clone`, `Game.determinize`): the game it is given is never changed. A turn of El
Caballero is many engine steps (reinforce, the area card, caballero cards, ships...); the Monte
Carlo player plans the whole turn at its first step and plays the plan out step by step (the
plan is kept, keyed by the public history, so the later steps cost nothing); its time budget is
per turn. Method: docs/computer-players.md, "El Caballero".

- `RandomPlayer`: uniform over the legal actions.
- `GreedyPlayer` (the bench's opponent): takes the step that raises its projected score
  (`Game.projected_scores`: the points so far plus a scoring of the map now) the most, ties at
  random; reinforces first; places the best area card when nothing else gains; plays the power
  card with the most caballeros (the higher of two equal ones).
- `MonteCarloPlayer`: candidate turn plans (or power cards), each played on determinized copies
  (the cards still face down redrawn from the cards not yet seen, with its own seeds), the rest
  of the round and the next played by a sampled greedy policy, the position then valued by a
  margin over the best other seat; the candidate with the best mean wins.

>>> from engine.elcaballero.options import Options
>>> game = Game(Options(players=("red", "blue", "green"), mode="dealer", seed=1,
...                     catalogue="synthetic"))
>>> MonteCarloPlayer(seconds=None, seed=1, playouts=13).choose(game, 0).kind
'power'
"""

from __future__ import annotations

import hashlib
import random
import threading
import time
from collections import OrderedDict

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.protocol import CHANCE
from engine.elcaballero import checks
from engine.elcaballero.cards import LAND
from engine.elcaballero.game import DONE, REINFORCE, Game
from engine.elcaballero.notation import parse_spot
from engine.elcaballero.state import State
from engine.elcaballero.turn import REINFORCED

# Levels for the table app: 1 random, 2 greedy, 3.. Monte Carlo with a time budget a turn.
LEVEL_SECONDS: dict[int, float] = {3: 1.0, 4: 3.0, 5: 8.0}
LEVELS: tuple[int, ...] = (1, 2, 3, 4, 5)
POWER_SHARE = 0.25  # of a turn's budget, spent on the power card (the rest on the turn's plan)
COURT_WORTH = 0.5  # a caballero at the court, in points, while turns are still to come
SHIP_WORTH = 1.0  # a ship at the court
PLAN_STEPS = 14  # a plan's steps at most (a turn seldom needs more than 8)
PLANS = 8  # candidate plans a turn
ROLLOUT_AREAS = 4  # area placements a rollout's turn compares
ROLLOUT_KNIGHTS = 6  # caballero cards (new or raised) a rollout's turn compares
# Steps a plan never takes: they only lose points or give material back (a card withdrawn, a
# ship home, a castillo moved); a person may still take them.
SKIPPED = frozenset(("withdraw", "shipback", "movecastillo", "done", "reinforce", "castillo"))
GAINING = (
    "knight",
    "raise",
    "knightgrande",
    "ship",
    "reship",
    "moveship",
    "governor",
    "lakeship",
    "grande",
    "movegrande",
)


class Player:
    """A computer player: `choose(game, seat)` returns `seat`'s action in `game`."""

    def choose(self, game: Game, seat: int) -> Action:
        raise NotImplementedError


class RandomPlayer(Player):
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, seat: int) -> Action:
        actions = game.legal_actions(seat)
        return actions[self.rng.randrange(len(actions))]


def after(game: Game, seat: int, action: Action) -> Game:
    """A copy of `game` with `action` taken by `seat`."""
    copy = game.clone()
    copy.apply(action, seat)
    return copy


def power_by_caballeros(game: Game, seat: int) -> Action:
    """The power card bringing the most caballeros (of two alike, the higher: it acts first)."""
    table = game.state.rules.power_caballeros
    best = Action("")
    best_key = (-1, -1)
    for action in game.legal_actions(seat):
        value = int(action.arg)
        key = (table[value - 1], value)
        if key > best_key:
            best, best_key = action, key
    return best


class GreedyPlayer(Player):
    """One-ply greedy (see the module docstring)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, seat: int) -> Action:
        if game.state.phase == "power":
            return power_by_caballeros(game, seat)
        actions = game.legal_actions(seat)
        if REINFORCE in actions:
            return REINFORCE
        base = game.projected_scores()[seat]
        best: list[Action] = []
        best_gain = 0
        best_area: list[Action] = []
        best_area_gain = -(10**9)
        for action in actions:
            if action.kind in SKIPPED:
                continue
            gain = after(game, seat, action).projected_scores()[seat] - base
            if action.kind == "area":
                if gain > best_area_gain:
                    best_area, best_area_gain = [action], gain
                elif gain == best_area_gain:
                    best_area.append(action)
            if gain > best_gain:
                best, best_gain = [action], gain
            elif gain == best_gain and gain > 0:
                best.append(action)
        if best:
            return best[self.rng.randrange(len(best))]
        if DONE in actions:
            return DONE
        if best_area:
            return best_area[self.rng.randrange(len(best_area))]
        return actions[self.rng.randrange(len(actions))]


# ---------------------------------------------------------------- the Monte Carlo player
def scorings_left(state: State) -> int:
    """The scorings still to come (this round's included until it is scored)."""
    if state.phase == "over":
        return 0
    return sum(1 for r in state.size.scorings if r >= state.round)


def worths(game: Game) -> list[float]:
    """Each seat's worth: its points, the map as it stands scored at every scoring to come,
    and what it holds at the court while turns remain."""
    state = game.state
    left = scorings_left(state)
    if left == 0:
        return [float(s) for s in state.scores]
    points = game.projected_scores()  # the points so far + the map scored once
    out = []
    for p in range(state.n):
        now = points[p] - state.scores[p]
        out.append(
            state.scores[p]
            + left * now
            + COURT_WORTH * state.court[p]
            + SHIP_WORTH * state.court_ships[p]
        )
    return out


def margin(game: Game, seat: int) -> float:
    """The seat's worth minus the best other seat's."""
    values = worths(game)
    return values[seat] - max(v for p, v in enumerate(values) if p != seat)


def step_chance(game: Game, rng: random.Random) -> None:
    """A chance step of a copy that does not deal (a table game without a catalogue)."""
    outcomes = game.chance_outcomes()
    pick = rng.random()
    for action, probability in outcomes:
        pick -= probability
        if pick <= 0:
            game.apply(action)
            return
    game.apply(outcomes[-1][0])


def best_by_gain(game: Game, seat: int, actions: list[Action]) -> tuple[Action | None, int]:
    """The action raising `seat`'s projected score the most, and by how much (first of ties)."""
    base = game.projected_scores()[seat]
    best: Action | None = None
    best_gain = -(10**9)
    for action in actions:
        gain = after(game, seat, action).projected_scores()[seat] - base
        if gain > best_gain:
            best, best_gain = action, gain
    return best, best_gain


def sample(actions: list[Action], count: int, rng: random.Random) -> list[Action]:
    return actions if len(actions) <= count else rng.sample(actions, count)


def rollout_turn(game: Game, seat: int, rng: random.Random) -> None:
    """One turn by the rollout policy: a sampled greedy (reinforce; the best of a few area
    placements; up to two caballero cards and a ship or other gain when the best of a few
    raises the projected score)."""
    if not game.state.turn[REINFORCED]:
        game.apply(REINFORCE, seat)
    for _ in range(2):
        areas = game.area_actions(seat)
        if not areas:
            break
        choice, _ = best_by_gain(game, seat, sample(areas, ROLLOUT_AREAS, rng))
        assert choice is not None
        game.apply(choice, seat)
    for _ in range(2):
        gaining = [a for a in game.legal_actions(seat) if a.kind in GAINING]
        if not gaining:
            break
        gaining = worth_weighing(game.state, seat, gaining)
        choice, gain = best_by_gain(game, seat, sample(gaining, ROLLOUT_KNIGHTS, rng))
        if choice is None or gain <= 0:
            break
        game.apply(choice, seat)
    while game.current_players() == (seat,) and game.state.phase == "turn":
        try:
            game.apply(DONE, seat)
        except IllegalAction:  # (a rare map) whatever the rules still require first
            actions = game.legal_actions(seat)
            game.apply(actions[rng.randrange(len(actions))], seat)


def rollout(game: Game, turns: int, rng: random.Random) -> None:
    """Play on until `turns` more turns have ended (or the game ends): power cards at random,
    turns by `rollout_turn`, chance from the copy's own dealer or from `chance_outcomes`."""
    while turns > 0 and not game.is_terminal():
        actors = game.current_players()
        if actors == (CHANCE,):
            step_chance(game, rng)
            continue
        seat = actors[0]
        if game.state.phase == "power":
            actions = game.legal_actions(seat)
            game.apply(actions[rng.randrange(len(actions))], seat)
        else:
            rollout_turn(game, seat, rng)
            turns -= 1


def worth_weighing(state: State, seat: int, actions: list[Action]) -> list[Action]:
    """`actions` without the caballero cards that cannot be better than a cheaper one: on one
    land, of the numbers that give the seat the same standing in that region, only the
    smallest is kept (the least that leads or passes each other seat's total, and the least
    there is). The rest (and every other kind of action) is kept as it comes."""
    out: list[Action] = []
    groups: dict[tuple[str, str], list[Action]] = {}
    for action in actions:
        if action.kind == "knight" or action.kind == "raise":
            groups.setdefault((action.kind, action.arg), []).append(action)
        else:
            out.append(action)
    if not groups:
        return out
    board = state.board
    totals = checks.totals(state)
    for (kind, spot), group in groups.items():
        key, side = parse_spot(spot)
        facing, root = board.facing(key, side)
        row = totals.get(root) if facing == LAND else None
        if facing != LAND or not board.land_sides(key):
            out.extend(group)  # next to sea only: the number faces no land yet
            continue
        now = checks.number(state, board.caballeros[key], side) if kind == "raise" else 0
        mine = row[seat] if row is not None else 0
        wanted = {t + 1 for p, t in enumerate(row) if p != seat} if row is not None else set()
        smallest = min(int(a.arg2) for a in group)
        for action in group:
            number = int(action.arg2)
            if number == smallest or mine + number - now in wanted:
                out.append(action)
    return out


def history_key(game: Game, seat: int) -> str:
    """The public history (and the seat): what a kept plan is valid for."""
    digest = hashlib.blake2b(digest_size=16)
    options = game.options.to_json()
    options.pop("seed", None)  # the dealer's seed is not public
    digest.update(repr(sorted(options.items())).encode())
    digest.update(str(seat).encode())
    for player, action in game.history:
        digest.update(f"{player} {action}\n".encode())
    return digest.hexdigest()


class _Plans:
    """Turn plans kept between the steps of a turn: public history key → the steps left."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.lock = threading.Lock()
        self.plans: OrderedDict[str, list[Action]] = OrderedDict()

    def take(self, key: str) -> Action | None:
        with self.lock:
            steps = self.plans.pop(key, None)
        return steps[0] if steps else None

    def keep(self, game: Game, seat: int, steps: list[Action]) -> None:
        """Key each later step of the plan by the history it will follow."""
        copy = game.clone()
        with self.lock:
            for index, step in enumerate(steps):
                if index:
                    self.plans[history_key(copy, seat)] = steps[index:]
                    self.plans.move_to_end(history_key(copy, seat))
                if step == DONE or not copy.is_legal(seat, step):
                    break
                copy.apply(step, seat)
            while len(self.plans) > self.size:
                self.plans.popitem(last=False)


PLANS_KEPT = _Plans()


class MonteCarloPlayer(Player):
    """Determinized flat Monte Carlo over turn plans (see the module docstring).

    `seconds`: the time budget a turn (a quarter for the power card, the rest for the turn's
    plan); `playouts`: a cap on the rollouts of one decision (with a seed and `seconds=None`,
    reproducible); `horizon`: the turns a rollout plays on after a plan, in rounds of turns
    (1: each other seat once; a power card's rollouts play the round's turns, `horizon`
    times)."""

    def __init__(
        self,
        seconds: float | None = 1.0,
        seed: int | None = None,
        playouts: int = 0,
        horizon: int = 1,
        plans: int = PLANS,
    ) -> None:
        if seconds is None and playouts <= 0:
            raise ValueError("a Monte Carlo player needs a time budget or a playout cap")
        self.seconds = seconds
        self.cap = playouts
        self.horizon = horizon
        self.plan_count = plans
        self.rng = random.Random(seed)
        self.last_playouts = 0  # rollouts of the last decision searched
        self.playouts = 0  # rollouts in all
        self.thinking = 0.0  # seconds spent searching in all

    def choose(self, game: Game, seat: int) -> Action:
        started = time.perf_counter()
        if game.state.phase == "power":
            actions = game.legal_actions(seat)
            budget = None if self.seconds is None else self.seconds * POWER_SHARE
            turns = game.state.n * self.horizon
            scores = self._evaluate(game, seat, [[a] for a in actions], budget, turns)
            choice = actions[max(range(len(actions)), key=lambda i: scores[i])]
        else:
            key = history_key(game, seat)
            kept = PLANS_KEPT.take(key)
            if kept is not None and game.is_legal(seat, kept):
                return kept
            choice = self._plan_turn(game, seat, started)
        self.thinking += time.perf_counter() - started
        return choice

    def _plan_turn(self, game: Game, seat: int, started: float) -> Action:
        plans = candidate_plans(game, seat, self.plan_count, self.rng)
        if len(plans) == 1:
            self.last_playouts = 0
            best = plans[0]
        else:
            budget = None
            if self.seconds is not None:
                budget = max(
                    0.0, self.seconds * (1 - POWER_SHARE) - (time.perf_counter() - started)
                )
            turns = (game.state.n - 1) * self.horizon
            scores = self._evaluate(game, seat, plans, budget, turns)
            best = plans[max(range(len(plans)), key=lambda i: scores[i])]
        PLANS_KEPT.keep(game, seat, best)
        return best[0]

    def _evaluate(
        self,
        game: Game,
        seat: int,
        plans: list[list[Action]],
        budget: float | None,
        turns: int,
    ) -> list[float]:
        """Each plan's mean margin over rollouts (`-1e9` for a plan dropped on the way). Passes
        over the plans with common seeds (a pass draws the same cards and rollout choices for
        every plan); successive halving: after 2, 4, 8, ... passes the worse half is dropped
        (two stay), so the rollouts go where the choice is close. The clock is read after
        every rollout."""
        totals = [0.0] * len(plans)
        counts = [0] * len(plans)
        deadline = None if budget is None else time.perf_counter() + budget
        alive = list(range(len(plans)))
        done = 0
        passes = 0
        cut_at = 2
        spent = False
        while not spent:
            seed = self.rng.getrandbits(62)
            for index in alive:
                copy = game.determinize(seat, seed)
                rng = random.Random(seed)
                for step in plans[index]:
                    if copy.current_players() != (seat,):
                        break
                    copy.apply(step, seat)
                rollout(copy, turns, rng)
                totals[index] += margin(copy, seat)
                counts[index] += 1
                done += 1
                if (self.cap and done >= self.cap) or (
                    deadline is not None and time.perf_counter() >= deadline
                ):
                    spent = True
                    break
            passes += 1
            if not spent and passes >= cut_at and len(alive) > 2:
                alive.sort(key=lambda i: -totals[i] / counts[i])
                alive = sorted(alive[: max(2, len(alive) // 2)])
                cut_at *= 2
        self.last_playouts = done
        self.playouts += done
        return [
            totals[i] / counts[i] if counts[i] and i in alive else -1e9 for i in range(len(plans))
        ]


def candidate_plans(game: Game, seat: int, count: int, rng: random.Random) -> list[list[Action]]:
    """Up to `count` different plans for the rest of `seat`'s turn, each ending with `done`:
    the plan that follows the best step by `margin` each time, and plans forced to begin with
    the next best first steps (the area card or caballero card that matters) and then follow
    the best steps."""
    first = ranked_steps(game, seat)
    plans: list[list[Action]] = []
    seen: set[tuple[Action, ...]] = set()
    starts: list[Action | None] = [None] + [a for _, a in first[: count - 1]]
    for start in starts:
        plan = greedy_plan(game, seat, start)
        if tuple(plan) not in seen:
            seen.add(tuple(plan))
            plans.append(plan)
    return plans


def ranked_steps(game: Game, seat: int) -> list[tuple[float, Action]]:
    """The steps worth weighing now, best first by `margin` after them (after reinforcing when
    that is still to do)."""
    copy = game.clone()
    if REINFORCE in copy.legal_actions(seat):
        copy.apply(REINFORCE, seat)
    out: list[tuple[float, Action]] = []
    for action in worth_weighing(copy.state, seat, copy.legal_actions(seat)):
        if action.kind in SKIPPED:
            continue
        out.append((margin(after(copy, seat, action), seat), action))
    out.sort(key=lambda pair: -pair[0])
    return out


def greedy_plan(game: Game, seat: int, start: Action | None) -> list[Action]:
    """The rest of the turn: reinforce, `start` (when given), then the step that raises the
    margin most while one does, the best area card while one is due, and `done`."""
    copy = game.clone()
    steps: list[Action] = []
    if REINFORCE in copy.legal_actions(seat):
        copy.apply(REINFORCE, seat)
        steps.append(REINFORCE)
    if start is not None:
        copy.apply(start, seat)
        steps.append(start)
    while len(steps) < PLAN_STEPS and copy.current_players() == (seat,):
        actions = copy.legal_actions(seat)
        now = margin(copy, seat)
        best: Action | None = None
        best_value = now
        best_area: Action | None = None
        best_area_value = -1e18
        for action in worth_weighing(copy.state, seat, actions):
            if action.kind in SKIPPED:
                continue
            value = margin(after(copy, seat, action), seat)
            if action.kind == "area" and value > best_area_value:
                best_area, best_area_value = action, value
            if value > best_value + 1e-9:
                best, best_value = action, value
        if best is None:
            if DONE in actions:
                steps.append(DONE)
                return steps
            best = best_area if best_area is not None else actions[0]
        copy.apply(best, seat)
        steps.append(best)
    if (
        copy.current_players() == (seat,)
        and copy.state.phase == "turn"
        and copy.is_legal(seat, DONE)
    ):
        steps.append(DONE)
    return steps


def player_for_level(level: int, seed: int | None = None) -> Player:
    """Level 1 random, 2 greedy, 3-5 Monte Carlo with 1, 3 and 8 seconds a turn."""
    if level == 1:
        return RandomPlayer(seed)
    if level == 2:
        return GreedyPlayer(seed)
    if level in LEVEL_SECONDS:
        return MonteCarloPlayer(LEVEL_SECONDS[level], seed)
    raise ValueError(f"levels are {LEVELS[0]} to {LEVELS[-1]}")
