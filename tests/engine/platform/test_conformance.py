"""One conformance suite over every registered game (and the test-only Nim).

For each game, each player count and each of the spec's test options, random complete games
(uniform over the legal actions) are checked at every step:

- the game's own invariants (`spec.check_invariants`);
- who acts: every actor has legal actions, nobody else has any; over exactly when nobody acts;
- every legal action's text parses back to the same action (the notation round trip);
- a refused action (out of turn, unknown, not legal now) raises and leaves the state unchanged;
- undo policy: an undo-barrier verb can never be undone; when undo is allowed it restores the
  state before the step exactly, and nobody but the acting seat may undo;
- secrecy: where several seats choose at once, what one of them chose changes nothing in the
  views of the others or in the public view;
- records: the JSON record replays to an equal state at the end and half-way, and replaying
  the replay's record gives the same record;
- `is_legal` agrees with `legal_actions` (true for every legal action, in text too; false for
  actions legal a step before or for another seat, and for nonsense) and never raises;
- clones: a clone equals its original (snapshot, every view, who acts, what is legal); an
  action on either leaves the other untouched; given the same actions they stay equal (a
  dealer game's until the dealer's next draw: a clone deals from its own fresh seed, and two
  clones deal other cards than the real game's next draws);
- chance: in table mode (`replay_start`), at every chance step `chance_outcomes()` lists
  legal outcomes with positive probabilities summing to 1 (`[]` elsewhere), a game sampled
  from them ends, and every outcome a dealer drew is among them;
- events (engine.core.events): the events since a mark taken before each step agree with the
  step (its action first, then the dealer's draws; the new reveals and scorings; a phase change
  exactly when the phase changed; the end exactly when the game ended), asking twice gives the
  same and changes nothing, a refused action or an undone step leaves none, and the events of
  the whole game are its history, reveals, scorings and one end.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine import registry
from engine.core import record as core_record
from engine.core.actions import Action
from engine.core.errors import EngineError, UndoError
from engine.core.events import ACTION, KINDS, OVER, PHASE, REVEAL, SCORING, EventMark
from engine.core.protocol import CHANCE, GameState
from engine.core.spec import GameSpec
from tests.engine.platform import nim

GAMES_PER_CONFIG = 1  # tests/engine/test_conformance.py plays many more El Grande games
REFUSAL_EVERY = 5
UNDO_EVERY = 3  # steps whose undo is tried (a snapshot before each: the costly part)
SECRECY_CHECKS_PER_GAME = 3
CLONE_EVERY = 13  # steps at which a clone is made and checked against the original
TABLE_CLONE_EVERY = 20  # the same in table mode, where the clone then follows the original
LOCKSTEP = 8  # steps a table-mode clone follows the original, compared at each
LEGAL_CHECKED = 25  # at most this many legal actions per seat asked of is_legal per step


@pytest.fixture(scope="module", autouse=True)
def nim_registered() -> Iterator[None]:
    registry.register(nim.SPEC)
    yield
    registry.unregister(nim.SPEC)


def configs() -> list[tuple[str, int, int]]:
    """(game id, players, index of the test options) for every registered game and Nim."""
    specs = {spec.id: spec for spec in [*registry.specs(), nim.SPEC]}
    return [
        (game_id, players, index)
        for game_id, spec in sorted(specs.items())
        for players in spec.player_counts
        for index in range(len(spec.test_options(players)))
    ]


def snapshot(state: GameState) -> str:
    return json.dumps(state.snapshot(), sort_keys=True, ensure_ascii=False)


def replay(spec: GameSpec, state: GameState, upto: int | None = None) -> GameState:
    record = json.loads(json.dumps(core_record.to_record(spec, state)))
    return core_record.replay(spec, record, upto)


def views(state: GameState) -> list[Any]:
    """What everyone sees: the public view and each seat's."""
    return [state.view(None), *(state.view(s) for s in range(len(state.seat_names())))]


def assert_same(clone: GameState, state: GameState, what: str) -> None:
    """The clone and the original are equal in everything the protocol shows."""
    assert snapshot(clone) == snapshot(state), f"{what}: the snapshots differ"
    assert views(clone) == views(state), f"{what}: the views differ"
    assert clone.history == state.history, f"{what}: the histories differ"
    assert clone.current_players() == state.current_players(), f"{what}: who acts differs"
    for seat in state.current_players():
        assert clone.legal_actions(seat) == state.legal_actions(seat), f"{what}: legal differ"
    assert clone.chance_outcomes() == state.chance_outcomes(), f"{what}: chance differs"
    assert clone.returns() == state.returns()


class Checker:
    def __init__(self, spec: GameSpec, rng: random.Random) -> None:
        self.spec = spec
        self.rng = rng
        self.secrecy_checks = 0
        self.undos = 0
        self.refusals = 0
        self.clones = 0
        self.illegal_asked = 0
        self.chance_steps = 0
        self.previous: list[tuple[int, Action]] = []  # the legal actions one step before
        self.events = 0

    def check_state(self, state: GameState) -> None:
        self.spec.check_invariants(state)
        actors = state.current_players()
        assert (not actors) == state.is_terminal()
        seats = range(len(state.seat_names()))
        now: list[tuple[int, Action]] = []
        for seat in [CHANCE, *seats]:
            legal = state.legal_actions(seat) if seat in actors else []
            if seat in actors:
                assert legal, f"seat {seat} acts but has no legal action"
                for action in legal:
                    assert state.parse(str(action)) == action, f"{action} does not parse back"
                self.check_is_legal(state, seat, legal)
                now += [(seat, action) for action in legal[:LEGAL_CHECKED]]
            else:
                assert state.legal_actions(seat) == [], f"seat {seat} does not act but has actions"
        self.check_illegal(state, now)
        self.check_chance_outcomes(state)
        self.previous = now

    def check_is_legal(self, state: GameState, seat: int, legal: list[Action]) -> None:
        sample = legal if len(legal) <= LEGAL_CHECKED else self.rng.sample(legal, LEGAL_CHECKED)
        for action in sample:
            assert state.is_legal(seat, action), f"{action} is legal for {seat}: is_legal says no"
        action = sample[0]
        assert state.is_legal(seat, str(action)), f"{action} as text is legal for {seat}"

    def check_illegal(self, state: GameState, now: list[tuple[int, Action]]) -> None:
        """is_legal is false (and raises nothing) for actions that are not legal now: those of
        a step before, another seat's, nonsense."""
        seats = [CHANCE, *range(len(state.seat_names()))]
        tries: list[tuple[int, Action | str]] = [
            (seat, action) for seat, action in self.previous[:LEGAL_CHECKED]
        ]
        for seat, action in now[:3]:
            tries += [(other, action) for other in seats if other != seat]
        verb = next(iter(self.spec.verbs))
        tries += [
            (seats[-1], Action(verb.name, *(["zz-nowhere"] * verb.arity))),
            (seats[-1], "no-such-verb here"),
            (seats[-1], ""),
            (len(seats) + 5, now[0][1] if now else "x"),
        ]
        for seat, action in tries:
            text = action if isinstance(action, str) else str(action)
            legal = state.legal_actions(seat) if seat in state.current_players() else []
            if any(str(known) == text for known in legal):
                continue  # legal now after all (one more caballero to place, a shared action)
            assert not state.is_legal(seat, action), f"{text!r} by {seat} is not legal now"
            self.illegal_asked += 1

    def check_chance_outcomes(self, state: GameState) -> None:
        outcomes = state.chance_outcomes()
        if state.current_players() != (CHANCE,):
            assert outcomes == [], "chance_outcomes lists outcomes where chance does not act"
            return
        self.chance_steps += 1
        assert outcomes, "chance acts but chance_outcomes is empty"
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9, "the probabilities do not sum to 1"
        assert len({a for a, _ in outcomes}) == len(outcomes), "an outcome is listed twice"
        legal = set(state.legal_actions(CHANCE))
        for action, p in outcomes:
            assert p > 0, f"{action} is listed with probability {p}"
            assert action in legal and state.is_legal(CHANCE, action), f"{action} is not legal"

    def check_clone(self, state: GameState, player: int, action: Action) -> GameState | None:
        """Clone before `player` plays `action`: the clone equals the original and an action on
        the clone leaves the original untouched. Returns a second clone (made before the step)
        for `check_clone_after`."""
        before = snapshot(state)
        clone = state.clone()
        assert clone is not state
        assert_same(clone, state, "a fresh clone")
        clone.apply(action, player)
        assert snapshot(state) == before, f"{action} on a clone changed the original"
        self.clones += 1
        return state.clone()

    def check_clone_after(
        self, untouched: GameState, state: GameState, player: int, action: Action, before: str
    ) -> None:
        """After the original's step: the clone made before it is unchanged, and the same
        action brings it to an equal state (unless the dealer drew since: then at least to the
        same history up to the draw)."""
        assert snapshot(untouched) == before, f"{action} on the original changed its clone"
        length = len(untouched.history)
        untouched.apply(action, player)
        if untouched.history == state.history:
            assert_same(untouched, state, f"a clone after {action}")
        else:  # the dealer drew next: the clone deals its own cards
            assert untouched.history[: length + 1] == state.history[: length + 1]
            assert any(p == CHANCE for p, _ in state.history[length + 1 :])

    def check_refusals(self, state: GameState) -> None:
        """Actions that must be refused leave the state exactly as it was."""
        before = snapshot(state)
        actors = state.current_players()
        seats = range(len(state.seat_names()))
        tries: list[tuple[Action | str, int]] = []
        others = [s for s in seats if s not in actors]
        some_legal = state.legal_actions(actors[0]) if actors else []
        if others and some_legal:
            tries.append((some_legal[0], others[0]))  # the right action by the wrong seat
        tries.append(("no-such-verb here", actors[0] if actors else 0))
        verb = next(iter(self.spec.verbs))
        nonsense = Action(verb.name, *(["zz-nowhere"] * verb.arity))
        if actors and nonsense not in state.legal_actions(actors[0]):
            tries.append((nonsense, actors[0]))
        mark = self.spec.event_mark(state)
        for action, seat in tries:
            with pytest.raises((EngineError, ValueError)):
                state.apply(action, seat)
            assert snapshot(state) == before, f"refusing {action} by {seat} changed the state"
            assert self.spec.events_since(state, mark) == [], f"refusing {action} told events"
            self.refusals += 1

    def check_events(self, state: GameState, mark: EventMark, player: int, action: Action) -> None:
        """The events since `mark` (taken just before `player` applied `action`) are what the
        step did."""
        spec = self.spec
        events = spec.events_since(state, mark)
        assert spec.events_since(state, mark) == events, "asking again told other events"
        kinds = [event.kind for event in events]
        assert kinds == sorted(kinds, key=KINDS.index), f"events out of order: {kinds}"
        acted = [(event.player, event.action) for event in events if event.kind == ACTION]
        assert acted[:1] == [(player, action)], f"{action}: the first event is not the action"
        assert acted == state.history[mark.history :], "the action events are not the history's"
        revealed = [dict(e.detail) for e in events if e.kind == REVEAL]
        assert revealed == list(spec.reveals(state))[mark.reveals :], "reveal events differ"
        scored = [dict(e.detail) for e in events if e.kind == SCORING]
        assert scored == list(spec.scorings(state))[mark.scorings :], "scoring events differ"
        phases = [dict(e.detail) for e in events if e.kind == PHASE]
        phase = spec.phase(state)
        changed = [{"from": mark.phase, "to": phase}] if phase != mark.phase else []
        assert phases == changed, f"{action}: phase events {phases}, the phase went to {phase}"
        over = [dict(e.detail) for e in events if e.kind == OVER]
        ended = [{"returns": state.returns()}] if state.is_terminal() else []
        assert over == ended, f"{action}: over events {over}, the game over: {ended}"
        assert spec.events_since(state, spec.event_mark(state)) == [], "a fresh mark told events"
        self.events += len(events)

    def check_whole_game(self, state: GameState, start: EventMark) -> None:
        """The events since the start: its history, reveals, scorings after the start's, one
        end."""
        events = self.spec.events_since(state, start)
        acted = [(event.player, event.action) for event in events if event.kind == ACTION]
        assert acted == state.history[start.history :]
        revealed = [dict(e.detail) for e in events if e.kind == REVEAL]
        assert revealed == list(self.spec.reveals(state))[start.reveals :]
        scored = [dict(e.detail) for e in events if e.kind == SCORING]
        assert scored == list(self.spec.scorings(state))[start.scorings :]
        assert [e.kind for e in events].count(OVER) == 1
        assert [e.kind for e in events].count(PHASE) == int(self.spec.phase(state) != start.phase)

    def check_undo(
        self, state: GameState, player: int, action: Action, before: str, mark: EventMark
    ) -> None:
        if action.kind in self.spec.verbs.undo_barriers:
            assert not state.can_undo(player), f"{action} is an undo barrier"
        for seat in range(len(state.seat_names())):
            if seat != player and not state.can_undo(seat):
                after = snapshot(state)
                with pytest.raises(UndoError):
                    state.undo(seat)
                assert snapshot(state) == after
                break
        if player >= 0 and state.can_undo(player):
            assert state.undo(player) == action
            assert snapshot(state) == before, f"undoing {action} did not restore the state"
            assert self.spec.events_since(state, mark) == [], f"undone {action} told events"
            state.apply(action, player)
            self.undos += 1

    def check_secrecy(self, state: GameState) -> None:
        """Several seats choose at once: one seat's choice is invisible to everyone else."""
        actors = [p for p in state.current_players() if p >= 0]
        if len(actors) < 2 or self.secrecy_checks >= SECRECY_CHECKS_PER_GAME:
            return
        chooser = actors[0]
        legal = state.legal_actions(chooser)
        if len(legal) < 2:
            return
        self.secrecy_checks += 1
        first, second = replay(self.spec, state), replay(self.spec, state)
        first.apply(legal[0], chooser)
        second.apply(legal[-1], chooser)
        for viewer in [None, *(s for s in range(len(state.seat_names())) if s != chooser)]:
            assert first.view(viewer) == second.view(viewer), (
                f"seat {viewer} can tell {legal[0]} from {legal[-1]} chosen by seat {chooser}"
            )

    def play(self, state: GameState, limit: int = 5_000) -> GameState:
        self.check_state(state)
        start = self.spec.event_mark(state)
        assert start.history == len(state.history) and not start.over
        steps = 0
        while not state.is_terminal():
            steps += 1
            assert steps < limit, "the game does not end"
            if steps % REFUSAL_EVERY == 0:
                self.check_refusals(state)
            self.check_secrecy(state)
            player = self.rng.choice(state.current_players())
            legal = state.legal_actions(player)
            action = legal[self.rng.randrange(len(legal))]
            cloning = steps % CLONE_EVERY == 0
            before = snapshot(state) if steps % UNDO_EVERY == 0 or cloning else ""
            untouched = self.check_clone(state, player, action) if cloning else None
            mark = self.spec.event_mark(state)
            state.apply(action, player)
            self.check_events(state, mark, player, action)
            self.check_state(state)
            if untouched is not None:
                self.check_clone_after(untouched, state, player, action, before)
            if before and steps % UNDO_EVERY == 0:
                self.check_undo(state, player, action, before, mark)
        self.check_refusals(state)
        self.check_whole_game(state, start)
        return state


@pytest.mark.parametrize(("game_id", "players", "index"), configs())
def test_random_games_conform(game_id: str, players: int, index: int) -> None:
    spec = nim.SPEC if game_id == nim.SPEC.id else registry.get(game_id)
    options = spec.test_options(players)[index]
    for seed in range(GAMES_PER_CONFIG):
        checker = Checker(spec, random.Random(seed))
        state = checker.play(spec.new_state(options))
        record = json.loads(json.dumps(core_record.to_record(spec, state)))
        assert record["game"] == spec.id and record["game_version"] == spec.version
        again = core_record.replay(spec, record)
        assert snapshot(again) == snapshot(state)
        assert again.returns() == state.returns()
        assert core_record.to_record(spec, again) == record
        half = len(state.history) // 2
        partial = core_record.replay(spec, record, upto=half)
        # a dealer game replayed in part deals on by itself: the prefix is the record's
        assert partial.history[:half] == state.history[:half]
        _, dispatched = registry.replay(record)
        assert snapshot(dispatched) == snapshot(state)


def sample_chance(state: GameState, rng: random.Random) -> Action:
    """A chance outcome drawn by `chance_outcomes()`'s probabilities."""
    outcomes = state.chance_outcomes()
    pick = rng.random()
    for action, p in outcomes:
        pick -= p
        if pick < 0:
            return action
    return outcomes[-1][0]


def play_table_mode(spec: GameSpec, options: Any, rng: random.Random) -> Checker:
    """A game at the table (`replay_start`): chance sampled from `chance_outcomes()`, a clone
    every TABLE_CLONE_EVERY steps following the original step by step for LOCKSTEP steps,
    equal at each (in table mode the clone and the original take the same chance outcomes
    too): the same snapshot at each step, everything `assert_same` compares at the last."""
    checker = Checker(spec, rng)
    state = spec.replay_start(options)
    followers: list[tuple[GameState, int]] = []
    steps = 0
    checker.check_state(state)
    while not state.is_terminal():
        steps += 1
        assert steps < 5_000, "the game does not end"
        actors = state.current_players()
        if actors == (CHANCE,):
            player, action = CHANCE, sample_chance(state, rng)
        else:
            player = rng.choice(actors)
            legal = state.legal_actions(player)
            action = legal[rng.randrange(len(legal))]
        if steps % TABLE_CLONE_EVERY == 1:  # from the first step on
            followers.append((state.clone(), steps + LOCKSTEP))
            checker.clones += 1
        before = snapshot(state) if followers else ""
        state.apply(action, player)
        checker.check_state(state)
        if not followers:
            continue
        after = snapshot(state)
        for clone, until in followers:
            assert snapshot(clone) == before, f"{action} on the original changed a clone"
            clone.apply(action, player)
            if until == steps or state.is_terminal():
                assert_same(clone, state, f"a table-mode clone after {action}")
            else:
                assert snapshot(clone) == after, f"a table-mode clone after {action} differs"
        followers = [(clone, until) for clone, until in followers if until > steps]
    return checker


@pytest.mark.parametrize(("game_id", "players", "index"), configs())
def test_table_mode_clones_and_chance_outcomes(game_id: str, players: int, index: int) -> None:
    spec = nim.SPEC if game_id == nim.SPEC.id else registry.get(game_id)
    options = spec.test_options(players)[index]
    checker = play_table_mode(spec, options, random.Random(index))
    assert checker.clones > 0 and checker.illegal_asked > 0
    if game_id != nim.SPEC.id:
        assert checker.chance_steps > 0, "a game with chance never reached a chance step"
    # every outcome the dealer draws is one chance_outcomes() lists, with a probability
    dealt = spec.new_state(options)
    while not dealt.is_terminal():
        player = dealt.current_players()[0]
        legal = dealt.legal_actions(player)
        dealt.apply(legal[checker.rng.randrange(len(legal))], player)
    table = spec.replay_start(options)
    for player, action in dealt.history:
        if player == CHANCE:
            odds = dict(table.chance_outcomes())
            assert odds.get(action, 0) > 0, f"the dealer drew {action}, not an outcome listed"
        table.apply(action, player)


def chance_after(state: GameState, script: list[tuple[int, Action]], draws: int) -> list[Action]:
    """Play `script` on `state` (an action that is not legal there: the first legal one of
    whoever acts) until the dealer has drawn `draws` outcomes; those outcomes."""
    start = len(state.history)
    moves = iter(script)
    while not state.is_terminal():
        drawn = [a for p, a in state.history[start:] if p == CHANCE]
        if len(drawn) >= draws:
            return drawn[:draws]
        player, action = next(moves, (-2, Action("none")))
        if not state.is_legal(player, action):
            player = state.current_players()[0]
            action = state.legal_actions(player)[0]
        state.apply(action, player)
    return [a for p, a in state.history[start:] if p == CHANCE]


@pytest.mark.parametrize("game_id", ["elgrande", "kingdomino", "elcaballero"])
def test_a_dealer_clone_deals_its_own_cards(game_id: str) -> None:
    """A computer searching a clone must not see the real game's future cards: two clones of a
    dealer game, given the real game's next actions, deal other cards than it does."""
    spec = registry.get(game_id)
    players = spec.player_counts[-1]
    options = spec.test_options(players)[0]
    rng = random.Random(3)
    for _ in range(3):  # three positions of one game, each in the middle of play
        state = spec.new_state(options)
        for _ in range(rng.randrange(20, 60)):
            player = state.current_players()[0]
            legal = state.legal_actions(player)
            state.apply(legal[rng.randrange(len(legal))], player)
        clones = [state.clone(), state.clone()]
        start = len(state.history)
        real = chance_after(state, [], 8)
        assert len(real) == 8, "the game ended before the dealer drew 8 outcomes"
        script = [(p, a) for p, a in state.history[start:] if p != CHANCE]
        dealt = [chance_after(clone, script, 8) for clone in clones]
        assert dealt[0] != real and dealt[1] != real, "a clone dealt the real game's cards"
        assert dealt[0] != dealt[1], "two clones dealt the same cards"


def test_every_registered_game_is_in_the_suite() -> None:
    assert "elgrande" in registry.ids()
    assert {game_id for game_id, _, _ in configs()} == {*registry.ids()}


def test_undo_and_secrecy_are_exercised_on_el_grande() -> None:
    """The checks above must not pass vacuously: El Grande has undoable steps and discs."""
    spec = registry.get("elgrande")
    checker = Checker(spec, random.Random(5))
    checker.play(spec.new_state(spec.test_options(4)[0]))
    assert checker.undos > 0 and checker.secrecy_checks > 0 and checker.refusals > 0


def test_nim_through_the_registry_and_the_record_reader(tmp_path: Any) -> None:
    state = nim.SPEC.new_state(nim.NimOptions())
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    record = core_record.to_record(nim.SPEC, state)
    spec, replayed = registry.replay(json.loads(json.dumps(record)))
    assert spec is nim.SPEC
    assert replayed.returns() == state.returns()
    assert sorted(state.returns()) == [0, 1]
