"""The numbers of the table's log lines tell nothing of the lines left out
(docs/castillo-secrecy.md, docs/table-api.md `state.log`).

With the castillo closed the log a client gets leaves out the castillo steps of earlier turns.
Before, the lines kept kept their number as logged (`n`): a lone gap in a player's turn told that
the player threw a caballero into the castillo, and the gaps added up to its contents. Now a line's
`n` is its number among the lines shown over the whole game: 1, 2, 3, … without a gap, also once
lines left out have left the 200-line window, and the same after the app restarts (the session
rebuilds the log by replaying the game). No client line carries the session's bookkeeping (`step`,
`castillo_step`).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from engine.elgrande.game import Game
from engine.elgrande.views import hidden_steps
from host.app.session import LOG_LINES, Role, Session
from host.app.session.model import OWN
from host.app.store import Store
from host.games.elgrande.secrecy import public_log_lines
from tests.app.test_castillo_log_from_engine import (
    _active,
    _game,
    _random_step,
    _session,
    check_log_against_engine,
)

PRIVATE = ("step", "castillo_step", OWN)  # the session's bookkeeping, never shown
FIVE = ["purple", "green", "blue", "orange", "red"]  # the longest game: the most lines


def _client_log(session: Session) -> list[dict[str, Any]]:
    state = session.state_for(Role.table())
    log = state["log"]
    # one log for every client, numbered alike; a seat's own secret arguments in its own only
    seat = session.state_for(Role("seat", "green"))["log"]
    assert [_but_params(line) for line in seat] == [_but_params(line) for line in log]
    for own, public in zip(seat, log, strict=True):
        if own.get("params") != public.get("params"):
            assert own["actor"] in ("green", "chance"), own
            assert all(public["params"][k] in (v, None) for k, v in own["params"].items())
    return list(log)


def _but_params(line: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in line.items() if k != "params"}


def _resumed_log(db: Path, game_id: int) -> tuple[list[dict[str, Any]], int]:
    """The table's log as the app restarted on the same database shows it, and the lines left
    out that have left its window."""
    again = Session(Store(db), checks_enabled=False)
    try:
        again.continue_game(game_id)
        active = again.active
        assert active is not None and active.id == game_id
        return list(again.state_for(Role.table())["log"]), active.left_out
    finally:
        again.close()


def test_a_clients_log_numbers_its_lines_without_a_gap(tmp_path: Path) -> None:
    """Random play with many castillo throws, past the 200-line window: after every step the
    lines a client gets are numbered consecutively, 1..k while the game has no more than 200
    lines; each line is numbered as among every line shown over the whole game (worked out
    from the test's own copy of every line); a line's number changes at most once, when its turn
    ends; and the app restarted on the same database shows the same log."""
    session = _session(tmp_path, power_shift=True, players=FIVE)
    active = _active(session)
    db, game_id = tmp_path / "castillo.db", active.id
    rng = random.Random(5)
    every: dict[int, dict[str, Any]] = {}  # the session's lines, every one ever written
    public: dict[int, int] = {}  # a line's number as clients were last shown it, by its `n`
    renumbered: set[int] = set()
    restarts = 0
    checkpoints = {40, 150}
    counted = 0  # `left_out` at the last restart
    for step in range(600):
        game = _game(session)
        if game.is_terminal():
            break
        turn = game.state.turn
        _random_step(session, rng)
        log = _client_log(session)
        numbers = [line["n"] for line in log]
        # no gap: a lone missing number would point at a throw into the castillo
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers))), (step, numbers)
        if active.logged <= LOG_LINES:
            assert numbers[0] == 1, (step, numbers[:3])
        assert not [line for line in log if any(key in line for key in PRIVATE)]
        # the numbering as the whole game's lines make it, against the window's
        every.update({line["n"]: line for line in active.log})
        assert sorted(every) == list(range(1, active.logged + 1))  # the test saw every line
        game = _game(session)
        shown = public_log_lines(game, [every[n] for n in sorted(every)])
        expected = [
            {**{k: v for k, v in line.items() if k not in PRIVATE}, "n": i}
            for i, line in enumerate(shown, start=1)
        ]
        assert log == expected[-len(log) :], step
        # stable: renumbered only by the end of its turn, and once
        raw = [line["n"] for line in shown[-len(log) :]]
        for mine, line in zip(raw, log, strict=True):
            before = public.get(mine)
            if before is not None and before != line["n"]:
                assert game.state.turn is not turn, (step, mine, before, line["n"])
                assert mine not in renumbered, (step, mine)
                renumbered.add(mine)
            public[mine] = line["n"]
        check_log_against_engine(session)
        if step in checkpoints or active.left_out != counted:
            # and each time one more line left out has left the window
            counted = active.left_out
            restarts += 1
            assert _resumed_log(db, game_id) == (log, active.left_out), step
    game = _game(session)
    assert isinstance(game, Game)
    throws = [a for _, a in game.history if str(a) in ("place castillo", "to castillo")]
    assert len(throws) >= 10, len(throws)
    assert active.logged > LOG_LINES + 50  # well past the window
    assert active.left_out > 0  # lines left out that left the window are counted
    assert len(hidden_steps(game.state)) > active.left_out  # and some are still in it
    assert renumbered  # a turn's throws were left out as it ended
    assert restarts >= 10, restarts
    log = _client_log(session)
    assert _resumed_log(db, game_id) == (log, active.left_out)
    # the last line's number: every line shown over the game, none left out
    assert log[-1]["n"] == active.logged - active.left_out - (len(active.log) - len(log))


def test_the_open_castillo_numbers_every_line_as_logged(tmp_path: Path) -> None:
    """With the castillo open nothing is left out: the numbers are those logged, and no line
    carries the session's bookkeeping either."""
    session = _session(tmp_path, open_castillo=True)
    active = _active(session)
    rng = random.Random(3)
    for _ in range(60):
        _random_step(session, rng)
    log = _client_log(session)
    assert [line["n"] for line in log] == [line["n"] for line in active.log]
    assert [line["n"] for line in log] == list(range(1, active.logged + 1))
    assert not [line for line in log if any(key in line for key in PRIVATE)]
    assert any("step" in line for line in active.log)  # the session keeps them
