"""The session reacts to the events the engine tells (engine.core.events, issue 22): each
engine change asks the game's spec for the events since the session's mark once, and what
the engine tells is what the reactions get, with nothing found by the session itself."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.core.events import ACTION, SCORING, EventMark, GameEvent
from engine.core.protocol import GameState
from host.app.session import Role, Session
from host.app.session import events as session_events
from host.app.session.model import ActiveGame, Event
from host.app.store import Store


def _session(tmp_path: Path) -> Session:
    session = Session(Store(tmp_path / "castillo.db"), checks_enabled=False)
    session.new_game({"game": "kingdomino", "seed": 3})  # no scoring of its own in play
    return session


def _table_move(session: Session, rng: random.Random) -> None:
    legal = session.state_for(Role.table())["legal"]
    assert legal
    session.act(Role.table(), rng.choice(legal))


def test_each_change_asks_the_engine_for_its_events_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _session(tmp_path)
    active = session.active
    assert active is not None
    spec = active.spec
    told: list[list[GameEvent]] = []
    heard: list[Event] = []
    original = spec.events_since

    def events_since(state: GameState, before: EventMark) -> list[GameEvent]:
        events = original(state, before)
        told.append(events)
        return events

    def record(_active: ActiveGame, event: Event, _at: float) -> None:
        heard.append(event)

    monkeypatch.setattr(spec, "events_since", events_since)
    monkeypatch.setattr(session_events, "REACTIONS", (*session_events.REACTIONS, record))
    rng = random.Random(2)
    for _ in range(12):
        told.clear()
        heard.clear()
        _table_move(session, rng)
        assert len(told) == 1  # one engine change, one question
        engine_actions = [(e.player, e.action) for e in told[0] if e.kind == ACTION]
        assert engine_actions, "an applied action tells at least its action"
        assert [(e.player, e.action) for e in heard if e.kind == ACTION] == engine_actions
    session.close()


def test_a_scoring_the_engine_tells_makes_the_log_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Kingdomino tells no scoring in play: one the engine tells is logged all the same, so the
    session's scoring line comes from the engine's event, not from counting scorings itself."""
    session = _session(tmp_path)
    active = session.active
    assert active is not None
    original = active.spec.events_since
    scoring = {"round": 1, "kind": "told"}

    def events_since(state: GameState, before: EventMark) -> list[GameEvent]:
        return [*original(state, before), GameEvent(SCORING, detail=scoring)]

    monkeypatch.setattr(active.spec, "events_since", events_since)
    heard: list[Event] = []
    monkeypatch.setattr(
        session_events,
        "REACTIONS",
        (*session_events.REACTIONS, lambda _a, event, _t: heard.append(event)),
    )
    _table_move(session, random.Random(4))
    assert [dict(e.detail) for e in heard if e.kind == SCORING] == [scoring]
    assert [line for line in active.log if line["kind"] == "scoring"]
    session.close()
