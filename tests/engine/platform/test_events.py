"""The events an applied action caused (engine.core.events), on the test-only Nim: what a game
gets by registering alone (actions and the end), and a spec that tells more (a phase, reveals,
scorings). The conformance suite checks the events of every game at every step."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from engine.core.actions import Action
from engine.core.errors import EngineError
from engine.core.events import ACTION, OVER, PHASE, REVEAL, SCORING, EventMark, GameEvent
from engine.core.protocol import GameState
from tests.engine.platform import nim


def _take(heap: int, count: int) -> Action:
    return Action("take", str(heap), str(count))


def test_a_registered_game_tells_its_actions_and_its_end() -> None:
    spec = nim.SPEC
    state = spec.new_state(nim.NimOptions(heaps=1, size=3, most=3))  # one heap of 3 stones
    start = spec.event_mark(state)
    assert start == EventMark(0, 0, 0, None, False)
    state.apply(_take(0, 1), 0)
    assert spec.events_since(state, start) == [GameEvent(ACTION, 0, _take(0, 1))]
    middle = spec.event_mark(state)
    state.apply(_take(0, 2), 1)
    assert spec.events_since(state, middle) == [
        GameEvent(ACTION, 1, _take(0, 2)),
        GameEvent(OVER, detail={"returns": state.returns()}),
    ]
    assert state.returns() == [0, 1]  # the right seat took the last stone
    # from the start: both actions, one end; asked again, the same
    kinds = [event.kind for event in spec.events_since(state, start)]
    assert kinds == [ACTION, ACTION, OVER] == [e.kind for e in spec.events_since(state, start)]
    assert spec.events_since(state, spec.event_mark(state)) == []


def test_a_refused_action_tells_nothing() -> None:
    spec = nim.SPEC
    state = spec.new_state(nim.NimOptions())
    mark = spec.event_mark(state)
    for action, seat in ((_take(0, 1), 1), (_take(9, 1), 0), (_take(0, 9), 0)):
        with pytest.raises(EngineError):
            state.apply(action, seat)
        assert spec.events_since(state, mark) == []


class _TellingNim(nim.NimSpec):
    """Nim whose spec tells more: a phase (the heaps left), a reveal and a scoring per heap
    emptied."""

    def phase(self, state: GameState) -> str | None:
        assert isinstance(state, nim.Nim)
        return f"{sum(1 for stones in state.heaps if stones)} heaps"

    def scorings(self, state: GameState) -> Sequence[Mapping[str, Any]]:
        assert isinstance(state, nim.Nim)
        return [{"heap": heap} for heap, stones in enumerate(state.heaps) if not stones]

    def reveals(self, state: GameState) -> Sequence[Mapping[str, Any]]:
        return [{"card": "heap", "discs": dict(s)} for s in self.scorings(state)]


def test_a_spec_that_knows_more_tells_reveals_scorings_and_the_phase() -> None:
    spec = _TellingNim()
    state = spec.new_state(nim.NimOptions(heaps=2, size=1, most=3))  # heaps of 1 and 2
    mark = spec.event_mark(state)
    assert mark == EventMark(0, 0, 0, "2 heaps", False)
    state.apply(_take(0, 1), 0)
    assert spec.events_since(state, mark) == [
        GameEvent(ACTION, 0, _take(0, 1)),
        GameEvent(REVEAL, detail={"card": "heap", "discs": {"heap": 0}}),
        GameEvent(SCORING, detail={"heap": 0}),
        GameEvent(PHASE, detail={"from": "2 heaps", "to": "1 heaps"}),
    ]
    mark = spec.event_mark(state)
    state.apply(_take(1, 1), 1)  # the heap is not empty yet: an action and nothing else
    assert spec.events_since(state, mark) == [GameEvent(ACTION, 1, _take(1, 1))]
