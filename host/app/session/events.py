"""What an engine change did, told once to the pieces that react to it.

After every engine change (an action with the dealer's draws after it, an undo; live or
replayed) `what_happened` says what the change did, as a list of `Event`s, and `react` hands
each one to the reactions in order: the throw checks take the game's new facts, the public log
gets a line for every action, revealed secret and scoring, and the lights get a scoring's sweep
(a game's capabilities, host/app/session/capabilities.py, react first).

The events come from the engine (engine.core.events: the game's spec tells the events since a
mark); the counters on `ActiveGame` are the mark of what the session has told so far. The
session reacts to actions, reveals and scorings; the phase and the game's end show in the views
(nothing in the session compares phases or asks `is_terminal()` to set something off; the throw
checks read the phase from the game's facts). An action's log line keeps the action's history
index (`step`), the engine's ordering of its ACTION events: the game's `public_log` filters by it.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core import events as engine
from engine.core.events import EventMark
from host.app.session.capabilities import capabilities
from host.app.session.model import ACTION, CHANGED, REVEAL, SCORING, ActiveGame, Event


def what_happened(active: ActiveGame) -> tuple[list[Event], tuple[int, int, int]]:
    """The events of the engine change just made, and the counts seen after them (the game's
    history, reveals and scorings) for `ActiveGame` once the reactions are done."""
    game, spec = active.game, active.spec
    told = EventMark(active.history, active.reveals, active.scorings)
    happened = spec.events_since(game, told)
    events = [Event(CHANGED)]
    # the ACTION events are the history entries after the mark, in order
    first = min(told.history, len(game.history))
    actions = [e for e in happened if e.kind == engine.ACTION]
    events += [Event(ACTION, e.player, e.action, first + i) for i, e in enumerate(actions)]
    events += [Event(REVEAL, detail=e.detail) for e in happened if e.kind == engine.REVEAL]
    scorings = [e for e in happened if e.kind == engine.SCORING]
    if scorings:  # one line for the latest, however many were made
        events.append(Event(SCORING, detail=scorings[-1].detail))
    now = spec.event_mark(game)
    return events, (now.history, now.reveals, now.scorings)


def public_log(active: ActiveGame, event: Event, _at: float) -> None:
    """One public log line per action (as the game redacts it, with its history index),
    reveal and scoring."""
    adapter = active.adapter
    if event.kind == ACTION and event.action is not None:
        active.note_step("action", active.name_of(event.player), event.action, event.step)
    elif event.kind == REVEAL:
        discs = {str(k): str(v) for k, v in event.detail["discs"].items()}
        active.note("reveal", "table", str(event.detail["card"]), discs=discs)
    elif event.kind == SCORING:
        scoring = event.detail
        # a scoring's line is of the round it scores (the game may be in the next already)
        when = {"round": scoring["round"]} if "round" in scoring else {}
        active.note("scoring", "table", adapter.scoring_label(scoring), **when)


def lights_sweep(active: ActiveGame, event: Event, _at: float) -> None:
    """The lights sweep over a scoring just made, and only then."""
    if event.kind == CHANGED:
        active.sweep = ()
    elif event.kind == SCORING:
        active.sweep = active.adapter.sweep(active.game, event.detail)


Reaction = Callable[[ActiveGame, Event, float], None]
REACTIONS: tuple[Reaction, ...] = (public_log, lights_sweep)


def react(active: ActiveGame, events: list[Event], at: float) -> None:
    """Every event to the game's capabilities (the tower's throw checks first), then to the
    session's own reactions, in order."""
    declared = capabilities(active)
    for event in events:
        for capability in declared:
            capability.react(active, event, at)
        for reaction in REACTIONS:
            reaction(active, event, at)


def after_engine(active: ActiveGame, at: float) -> None:
    """After every engine change, live or replayed (inside the transaction)."""
    events, seen = what_happened(active)
    react(active, events, at)
    active.history, active.reveals, active.scorings = seen
