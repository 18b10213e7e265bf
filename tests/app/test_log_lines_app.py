"""The table's log lines say each step as the engine does: `key` + `params`, per viewer
(docs/table-api.md, `state.log`; engine.core.log).

Before, a line had only its notation `text`, the pages parsed it back into a verb and its
arguments, and every client got the same line: a seat's own secret disc read `disc ?` on its
own page too. Now every `action` and `undo` line carries the engine's `key` and `params`: the
public's (a secret argument null) for the table and the other seats, the seat's own for the
seat whose secret it is; through a whole game of each game and after a restart.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engine.core.protocol import CHANCE
from engine.elgrande.frames import DiscFrame
from engine.elgrande.game import Game
from host.app.session import Role, Session
from host.app.store import Store
from tests.app.app_conformance.loglines import check_log_lines

BODIES: dict[str, dict[str, Any]] = {
    "elgrande": {
        "game": "elgrande",
        "players": ["purple", "green", "blue"],
        "mode": "dealer",
        "seed": 8,
        "short_game": True,
        "power_shift": True,
    },
    "kingdomino": {"game": "kingdomino", "players": ["blue", "green"], "mode": "dealer", "seed": 3},
    "elcaballero": {
        "game": "elcaballero",
        "players": ["red", "blue"],
        "mode": "dealer",
        "seed": 2,
        "catalogue": "synthetic",
    },
}


def _session(db: Path, body: dict[str, Any]) -> Session:
    session = Session(Store(db), checks_enabled=False)
    session.new_game(body)
    return session


def _states(session: Session) -> dict[str, dict[str, Any]]:
    active = session.active
    assert active is not None
    out = {"table": session.state_for(Role.table())}
    for colour in active.seats:
        out[colour] = session.state_for(Role("seat", colour))
    return out


def _random_step(session: Session, rng: random.Random) -> None:
    """A random seat that acts now takes a random step; now and then it takes one back."""
    active = session.active
    assert active is not None
    game = active.game
    actors = [p for p in game.current_players() if p != CHANCE]
    player = rng.choice(actors)
    colour = game.seat_names()[player]
    if game.can_undo(player) and rng.random() < 0.05:
        session.undo(Role("seat", colour))
        return
    legal = [str(a) for a in game.legal_actions(player)]
    session.act(Role("seat", colour), rng.choice(legal))


@pytest.mark.parametrize("game_id", sorted(BODIES))
def test_every_line_carries_key_and_params_to_the_end_and_after_a_restart(
    tmp_path: Path, game_id: str
) -> None:
    db = tmp_path / "castillo.db"
    session = _session(db, BODIES[game_id])
    active = session.active
    assert active is not None
    spec, game_number = active.spec, active.id
    rng = random.Random(1)
    steps = 0
    try:
        while not active.game.is_terminal():
            _random_step(session, rng)
            steps += 1
            assert steps < 3000, "the game does not end"
            if steps % 25 == 0:
                check_log_lines(spec, _states(session), f"{game_id} step {steps}")
        final = _states(session)
        check_log_lines(spec, final, f"{game_id} at the end")
        lines = [ln for ln in final["table"]["log"] if ln["kind"] in ("action", "undo")]
        assert lines and all(ln["key"] and isinstance(ln["params"], dict) for ln in lines)
        assert {ln["kind"] for ln in final["table"]["log"]} >= {"action"}
    finally:
        session.close()
    again = Session(Store(db), checks_enabled=False)
    try:
        again.continue_game(game_number)
        resumed = _states(again)
        check_log_lines(spec, resumed, f"{game_id} restarted")
        for name, state in resumed.items():
            assert state["log"] == final[name]["log"], f"{name}'s log differs after a restart"
    finally:
        again.close()


def _game(session: Session) -> Game:
    active = session.active
    assert active is not None and isinstance(active.game, Game)
    return active.game


def test_a_seat_sees_its_own_disc_and_nobody_elses_before_the_reveal(tmp_path: Path) -> None:
    """El Grande's secret discs: each seat's choice is on its own page's log line (`params`
    `{"area": ...}`), null on the table's and every other seat's, `text` `disc ?` for all; and
    so after a restart in the middle of the choosing."""
    db = tmp_path / "castillo.db"
    body = {**BODIES["elgrande"], "power_shift": False}
    session = _session(db, body)
    rng = random.Random(4)
    game = _game(session)
    # play until several seats choose discs at once (a scoring's castillo or a Coup)
    while not (isinstance(game.state.frame, DiscFrame) and len(game.current_players()) > 1):
        _random_step(session, rng)
        assert not game.is_terminal(), "no secret disc choice in this game"
    choosers = [game.state.colours[p] for p in game.current_players()]
    chosen: dict[str, str] = {}
    game_id = _game_id(session)
    for colour in choosers[:-1]:  # the last one would reveal them all
        player = game.state.colour(colour)
        text = str(rng.choice(game.legal_actions(player)))
        session.act(Role("seat", colour), text)
        chosen[colour] = text.split()[1]
        assert isinstance(game.state.frame, DiscFrame)  # not revealed yet
        _check_discs(session, chosen)
    session.close()
    again = Session(Store(db), checks_enabled=False)
    try:
        again.continue_game(game_id)
        _check_discs(again, chosen)
    finally:
        again.close()


def _game_id(session: Session) -> int:
    active = session.active
    assert active is not None
    return active.id


def _check_discs(session: Session, chosen: dict[str, str]) -> None:
    states = _states(session)
    for name, state in states.items():
        discs = [ln for ln in state["log"] if ln["kind"] == "action" and ln["key"] == "disc"]
        mine = [ln for ln in discs if ln["actor"] in chosen]
        assert len(mine) >= len(chosen)
        latest = {ln["actor"]: ln for ln in mine}  # each chooser's latest disc line
        for actor, area in chosen.items():
            line = latest[actor]
            assert line["text"] == "disc ?"
            expected = area if name == actor else None
            assert line["params"] == {"area": expected}, (name, line)
    active = session.active
    assert active is not None
    check_log_lines(active.spec, states, "discs")
