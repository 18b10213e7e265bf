"""A Grande in the castillo only after a Tournament: the checks accept it, the tower is told."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from host.games.elgrande.grande import grande_possible, grandes_counted
from host.games.elgrande.tower_words import TOWER_WORDS
from host.tower.checks import Checks, GameFacts
from tests.app.conftest import Table, new_game

COLOURS = ("purple", "green", "blue", "orange")


def facts(grandes: int) -> GameFacts:
    return GameFacts(
        colours=COLOURS,
        phase="main",
        round_index=1,
        throws={},
        contents={},
        scorings=0,
        last_scoring="",
        specials=grandes,
        words=TOWER_WORDS,
    )


@pytest.mark.parametrize("grandes, issues", [(0, ["grande"]), (1, [])])
def test_a_grande_is_an_issue_unless_a_tournament_put_it_there(
    grandes: int, issues: list[str]
) -> None:
    checks = Checks(COLOURS)
    checks.sync_game(facts(0), 0.0)
    checks.sync_game(facts(grandes), 1.0)
    checks.tower("grande", {"c": "blue"}, {"grande:blue": 1}, 2.0)
    assert [issue.kind for issue in checks.issues] == issues
    checks.tower("grande", {"c": "green"}, {"grande:blue": 1, "grande:green": 1}, 3.0)
    assert [issue.kind for issue in checks.issues] == [*issues, "grande"]  # one too many


def test_the_tower_is_told_while_a_grande_may_fall_in(
    table: Table, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    told: list[bool] = []
    monkeypatch.setattr(table.link, "set_grande_possible", told.append)
    new_game(client)
    session = table.session
    assert session.active is not None
    game = session.active.game
    session._changed()
    assert told == []  # the tower was told "no Grande" when it attached
    game.state.grandes[2] = game.state.CASTILLO  # what a Tournament in blue's Grande's region does
    session._changed()
    assert told == [True]
    table.link.emit("grande", c="blue", pulse_us=19000)  # the tower counted it
    assert grandes_counted(table.link.totals()) == 1
    assert not grande_possible(game, table.link.totals())
    assert told == [True, False]
