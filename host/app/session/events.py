"""What an engine change did, told once to the pieces that react to it.

After every engine change (an action with the dealer's draws after it, an undo; live or
replayed) `what_happened` says what the change did, as a list of `Event`s, and `react` hands
each one to the reactions in order: the throw checks take the game's new facts, the public log
gets a line for every action, revealed secret and scoring, and the lights get a scoring's sweep.

The engine does not report events yet: `what_happened` is the one place that finds them, by
comparing the game's history, reveals and scorings with what was seen before (the counters on
`ActiveGame`). When `apply` returns the events an action caused, only this function changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.actions import Action
from host.app.session.model import ActiveGame

CHANGED = "changed"  # the game changed (always the first event)
ACTION = "action"  # one engine action applied (a player's, or the dealer's after it)
REVEAL = "reveal"  # secret choices turned face up (El Grande's discs)
SCORING = "scoring"  # a scoring was made


@dataclass(frozen=True)
class Event:
    kind: str
    player: int = 0  # ACTION: who acted (CHANCE for the dealer)
    action: Action | None = None  # ACTION: what
    detail: Mapping[str, Any] = field(default_factory=dict)  # REVEAL, SCORING: the game's entry


def what_happened(active: ActiveGame) -> tuple[list[Event], tuple[int, int, int]]:
    """The events of the engine change just made, and the counts seen after them (the game's
    history, reveals and scorings) for `ActiveGame` once the reactions are done."""
    game, adapter = active.game, active.adapter
    events = [Event(CHANGED)]
    events += [Event(ACTION, player, action) for player, action in game.history[active.history :]]
    reveals = adapter.reveals(game)
    events += [Event(REVEAL, detail=r) for r in reveals[min(active.reveals, len(reveals)) :]]
    scorings = adapter.scorings(game)
    if len(scorings) > active.scorings:  # one line for the latest, however many were made
        events.append(Event(SCORING, detail=scorings[-1]))
    return events, (len(game.history), len(reveals), len(scorings))


def sync_checks(active: ActiveGame, event: Event, at: float) -> None:
    """The tower's throw checks (a game with the tower) take the game's facts after a change."""
    if event.kind == CHANGED and active.adapter.tower:
        active.checks.sync_game(active.adapter.tower_facts(active.game), at)


def public_log(active: ActiveGame, event: Event, _at: float) -> None:
    """One public log line per action (as the game redacts it), reveal and scoring."""
    adapter, game = active.adapter, active.game
    if event.kind == ACTION and event.action is not None:
        active.note("action", active.name_of(event.player), adapter.public_text(event.action, game))
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
REACTIONS: tuple[Reaction, ...] = (sync_checks, public_log, lights_sweep)


def react(active: ActiveGame, events: list[Event], at: float) -> None:
    """Every event to every reaction, in order."""
    for event in events:
        for reaction in REACTIONS:
            reaction(active, event, at)


def after_engine(active: ActiveGame, at: float) -> None:
    """After every engine change, live or replayed (inside the transaction)."""
    events, seen = what_happened(active)
    react(active, events, at)
    active.history, active.reveals, active.scorings = seen
