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
  the replay's record gives the same record.
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
from engine.core.protocol import CHANCE, GameState
from engine.core.spec import GameSpec
from tests.engine.platform import nim

GAMES_PER_CONFIG = 1  # tests/engine/test_conformance.py plays many more El Grande games
REFUSAL_EVERY = 5
UNDO_EVERY = 3  # steps whose undo is tried (a snapshot before each: the costly part)
SECRECY_CHECKS_PER_GAME = 3


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


class Checker:
    def __init__(self, spec: GameSpec, rng: random.Random) -> None:
        self.spec = spec
        self.rng = rng
        self.secrecy_checks = 0
        self.undos = 0
        self.refusals = 0

    def check_state(self, state: GameState) -> None:
        self.spec.check_invariants(state)
        actors = state.current_players()
        assert (not actors) == state.is_terminal()
        seats = range(len(state.seat_names()))
        for seat in [CHANCE, *seats]:
            legal = state.legal_actions(seat) if seat in actors else []
            if seat in actors:
                assert legal, f"seat {seat} acts but has no legal action"
                for action in legal:
                    assert state.parse(str(action)) == action, f"{action} does not parse back"
            else:
                assert state.legal_actions(seat) == [], f"seat {seat} does not act but has actions"

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
        for action, seat in tries:
            with pytest.raises((EngineError, ValueError)):
                state.apply(action, seat)
            assert snapshot(state) == before, f"refusing {action} by {seat} changed the state"
            self.refusals += 1

    def check_undo(self, state: GameState, player: int, action: Action, before: str) -> None:
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
            before = snapshot(state) if steps % UNDO_EVERY == 0 else ""
            state.apply(action, player)
            self.check_state(state)
            if before:
                self.check_undo(state, player, action, before)
        self.check_refusals(state)
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
