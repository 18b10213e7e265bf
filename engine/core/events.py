"""What applied actions did, told as events: an action taken, a secret revealed, a scoring
made, the phase changed, the game over (docs/game-protocol.md "Events").

Events cost nothing until someone asks: `apply` does not make them. A caller takes a mark of
the state (`GameSpec.event_mark(state)`), applies actions, and asks for the events since that
mark (`GameSpec.events_since(state, mark)`). They are derived from the public facts every game
already has: its history, and what its spec tells of its reveals, scorings and phase (none by
default) and `is_terminal()`. A game registers its spec and gets them; a spec overrides
`reveals`, `scorings` or `phase` where the game knows more.

The events since a mark come in this order: one `ACTION` for each history entry after the
mark (the dealer's draws included, as `CHANCE`), one `REVEAL` for each secret turned face up,
one `SCORING` for each scoring made, one `PHASE` when the phase differs from the mark's, and
`OVER` when the game ended. Ask after each `apply` to know which action caused which event. An
undo shortens the history: no event tells of it, only a `PHASE` if the phase went back. A
refused action changes nothing, so it leaves no event.

>>> from engine.core.actions import Action
>>> GameEvent(ACTION, 0, Action("take", "1", "2")).kind
'action'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from engine.core.actions import Action
from engine.core.protocol import GameState

ACTION: Final = "action"  # one action applied: `player` (CHANCE for the dealer), `action`
REVEAL: Final = "reveal"  # secret choices turned face up: `detail` is the game's entry
SCORING: Final = "scoring"  # a scoring made: `detail` is the game's entry
PHASE: Final = "phase"  # the phase changed: `detail` is {"from": old, "to": new}
OVER: Final = "over"  # the game is over: `detail` is {"returns": each seat's final score}
KINDS: Final = (ACTION, REVEAL, SCORING, PHASE, OVER)


@dataclass(frozen=True)
class GameEvent:
    """One thing applied actions did (the kinds above say what each field holds). A `detail`
    is the game's own entry, shared with the state: read it, do not change it."""

    kind: str
    player: int = 0
    action: Action | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class EventMark:
    """Where a state was when the mark was taken: the lengths of its history, reveals and
    scorings, its phase and whether it was over."""

    history: int
    reveals: int = 0
    scorings: int = 0
    phase: str | None = None
    over: bool = False


class PublicFacts(Protocol):
    """What a game tells of its state beyond the protocol (engine.core.spec.GameSpec)."""

    def reveals(self, state: GameState) -> Sequence[Mapping[str, Any]]: ...

    def scorings(self, state: GameState) -> Sequence[Mapping[str, Any]]: ...

    def phase(self, state: GameState) -> str | None: ...


def mark(facts: PublicFacts, state: GameState) -> EventMark:
    """The state's mark now, for `since` later."""
    return EventMark(
        len(state.history),
        len(facts.reveals(state)),
        len(facts.scorings(state)),
        facts.phase(state),
        state.is_terminal(),
    )


def since(facts: PublicFacts, state: GameState, before: EventMark) -> list[GameEvent]:
    """The events of the changes made to `state` since `before` was taken (in the order the
    module docstring gives)."""
    history = state.history
    events = [GameEvent(ACTION, p, a) for p, a in history[min(before.history, len(history)) :]]
    reveals = facts.reveals(state)
    events += [GameEvent(REVEAL, detail=r) for r in reveals[min(before.reveals, len(reveals)) :]]
    scorings = facts.scorings(state)
    made = scorings[min(before.scorings, len(scorings)) :]
    events += [GameEvent(SCORING, detail=s) for s in made]
    phase = facts.phase(state)
    if phase != before.phase:
        events.append(GameEvent(PHASE, detail={"from": before.phase, "to": phase}))
    if state.is_terminal() and not before.over:
        events.append(GameEvent(OVER, detail={"returns": state.returns()}))
    return events
