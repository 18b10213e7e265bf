"""The throw checks as a pure state machine: announcements against tower drops."""

from __future__ import annotations

from typing import Any

import pytest

from host.games.elgrande.tower_words import TOWER_WORDS
from host.tower.checks import ARRIVE_S, EARLY_S, RECOUNT_S, CheckError, Checks, GameFacts

COLOURS = ("purple", "green", "blue", "orange")


class Game:
    """Just the facts the checks read, moved by hand."""

    def __init__(self) -> None:
        self.throws: dict[str, int] = {}
        self.castillo: dict[str, int] = {}
        self.phase = "main"
        self.round_index = 1
        self.scorings: list[str] = []

    def facts(self) -> GameFacts:
        return GameFacts(
            colours=COLOURS,
            phase=self.phase,
            round_index=self.round_index,
            throws=dict(self.throws),
            contents=dict(self.castillo),
            scorings=len(self.scorings),
            last_scoring=self.scorings[-1] if self.scorings else "",
            recount_cards=frozenset({"revelation"}),
            words=TOWER_WORDS,  # El Grande's, as its adapter supplies them
        )

    def throw(self, colour: str, n: int = 1) -> None:
        self.throws[colour] = self.throws.get(colour, 0) + n
        self.castillo[colour] = self.castillo.get(colour, 0) + n


class Tower:
    def __init__(self) -> None:
        self.totals: dict[str, int] = {}

    def drop(self, checks: Checks, colour: str, at: float) -> None:
        self.totals[colour] = self.totals.get(colour, 0) + 1
        checks.tower("drop", {"c": colour}, self.totals, at)

    def event(self, checks: Checks, kind: str, at: float, **fields: Any) -> None:
        if kind == "reset":
            self.totals = {}
        elif kind in ("uncertain", "merged"):
            self.totals["uncertain"] = self.totals.get("uncertain", 0) + int(fields.get("est", 1))
        checks.tower(kind, fields, self.totals, at)


@pytest.fixture
def setup() -> tuple[Checks, Game, Tower]:
    checks = Checks(COLOURS)
    game = Game()
    checks.sync_game(game.facts(), 0.0)
    return checks, game, Tower()


def test_announced_then_seen_matches(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    game.throw("green", 2)
    checks.sync_game(game.facts(), 10.0)
    assert checks.public()["open"] == [
        {"colour": "green", "waiting": 2, "unannounced": 0, "until": 10.0 + ARRIVE_S}
    ]
    tower.drop(checks, "green", 10.3)
    tower.drop(checks, "green", 10.5)
    assert checks.public()["open"] == []
    assert not checks.tick(100.0)
    assert not checks.blocked


def test_thrown_before_the_tap_matches(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    tower.drop(checks, "blue", 5.0)
    assert checks.public()["open"][0]["unannounced"] == 1
    game.throw("blue")
    checks.sync_game(game.facts(), 5.0 + EARLY_S - 0.1)
    assert checks.public()["open"] == []
    assert not checks.tick(60.0)


def test_missing_cube_blocks_until_resolved(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    game.throw("purple", 2)
    checks.sync_game(game.facts(), 0.0)
    tower.drop(checks, "purple", 0.4)
    assert not checks.tick(ARRIVE_S - 0.01)
    assert checks.tick(ARRIVE_S)
    assert checks.blocked
    (issue,) = checks.public()["issues"]
    assert issue["kind"] == "missing" and issue["colours"] == {"purple": 1}
    assert "rethrow" in issue["options"]
    checks.resolve(issue["id"], "rethrow", 6.0)
    assert not checks.blocked
    tower.drop(checks, "purple", 7.0)  # thrown again
    assert checks.public()["open"] == [] and not checks.tick(100.0)


def test_missing_cube_accepted_is_a_correction(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, _tower = setup
    game.throw("orange")
    checks.sync_game(game.facts(), 0.0)
    checks.tick(ARRIVE_S)
    issue = checks.issues[0]
    with pytest.raises(CheckError):
        checks.resolve(issue.id, "done", 6.0)  # not an option of a missing cube
    checks.resolve(issue.id, "accept_game", 6.0)
    assert not checks.blocked
    assert checks.effective()["orange"] == 1  # the tower side corrected to the game


def test_late_cube_after_the_issue_clears_it(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    game.throw("green")
    checks.sync_game(game.facts(), 0.0)
    checks.tick(ARRIVE_S)
    assert checks.blocked
    tower.drop(checks, "green", 8.0)
    assert not checks.blocked


def test_unannounced_cube_becomes_an_extra_issue(setup: tuple[Checks, Game, Tower]) -> None:
    checks, _game, tower = setup
    tower.drop(checks, "blue", 1.0)
    assert checks.tick(1.0 + EARLY_S)
    (issue,) = checks.issues
    assert issue.kind == "extra" and issue.colours == {"blue": 1}
    checks.resolve(issue.id, "accept_game", 7.0)
    assert checks.effective()["blue"] == 0


def test_wrong_colour_is_one_issue(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    game.throw("green")
    checks.sync_game(game.facts(), 0.0)
    tower.drop(checks, "blue", 0.3)
    checks.tick(10.0)
    (issue,) = checks.issues
    assert (issue.kind, issue.colours, issue.thrown) == ("wrong_colour", {"green": 1}, {"blue": 1})
    assert issue.options == ["misread", "tower_wins", "take_out"]


def test_undo_of_an_announcement_unmatches_its_cube(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    game.throw("purple")
    checks.sync_game(game.facts(), 0.0)
    tower.drop(checks, "purple", 0.3)
    game.throws["purple"] -= 1  # the player undid "place castillo"
    game.castillo["purple"] -= 1
    checks.sync_game(game.facts(), 1.0)
    # at once, not after a window: the cube is in the tower and must come out (or stay)
    (issue,) = checks.issues
    assert (issue.kind, issue.colours) == ("undone", {"purple": 1})
    assert issue.options == ["take_out", "tower_wins", "announce"]


def test_uncertain_cube_is_confirmed_by_the_table(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    game.throw("orange")
    checks.sync_game(game.facts(), 0.0)
    tower.event(checks, "uncertain", 0.3, best="orange")
    assert checks.blocked
    issue = checks.issues[0]
    assert issue.kind == "confirm" and issue.best == "orange"
    with pytest.raises(CheckError):
        checks.confirm(issue.id, ["yellow"], 1.0)
    checks.confirm(issue.id, ["orange"], 1.0)
    assert not checks.blocked and checks.public()["open"] == []
    assert checks.effective()["orange"] == 1


def test_merged_cubes_name_each_colour(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    game.throw("green", 2)
    checks.sync_game(game.facts(), 0.0)
    tower.event(checks, "merged", 0.3, est=2)
    assert checks.issues[0].cubes == 2
    checks.confirm(checks.issues[0].id, ["green", "green"], 1.0)
    assert checks.public()["open"] == [] and checks.effective()["green"] == 2


def test_general_scoring_compares_counts_then_asks_to_empty(
    setup: tuple[Checks, Game, Tower],
) -> None:
    checks, game, tower = setup
    game.throw("green", 2)
    checks.sync_game(game.facts(), 0.0)
    tower.drop(checks, "green", 0.2)
    tower.drop(checks, "green", 0.4)
    game.phase = "scoring"
    checks.sync_game(game.facts(), 1.0)
    assert not checks.waiting_for_scoring_check()  # counts agreed
    game.castillo = {}
    game.scorings.append("general")
    game.phase = "power"
    checks.sync_game(game.facts(), 2.0)
    assert checks.issues[0].kind == "empty"
    tower.event(checks, "reset", 3.0, why="gate")
    assert not checks.blocked


def test_count_discrepancy_at_scoring_reports_totals_only(
    setup: tuple[Checks, Game, Tower],
) -> None:
    checks, game, tower = setup
    game.throw("blue", 1)
    checks.sync_game(game.facts(), 0.0)
    tower.drop(checks, "blue", 0.2)
    tower.totals["blue"] = 3  # the tower counted more than anyone saw (e.g. lost events)
    checks.tower("snapshot", {}, tower.totals, 0.5)
    checks.tick(10.0)
    for issue in list(checks.issues):
        checks.resolve(issue.id, "accept_game", 11.0)
    tower.totals["blue"] = 4  # and once more, silently
    checks.tower("gate", {"open": False}, tower.totals, 11.5)
    game.phase = "scoring"
    checks.sync_game(game.facts(), 12.0)
    (issue,) = checks.issues
    assert issue.kind == "count"
    assert issue.text == ("The tower counts 2 caballeros in the castillo, the game 1")
    checks.resolve(issue.id, "accept_game", 13.0)
    assert not checks.waiting_for_scoring_check()
    assert checks.effective()["blue"] == 1


def test_revelation_recount(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    game.throw("purple", 1)
    game.throw("orange", 1)
    checks.sync_game(game.facts(), 0.0)
    tower.drop(checks, "purple", 0.1)
    tower.drop(checks, "orange", 0.2)
    game.scorings.append("revelation")
    checks.sync_game(game.facts(), 1.0)
    assert checks.issues[0].kind == "recount"
    tower.event(checks, "reset", 5.0, why="gate")
    assert not checks.blocked
    assert {o["colour"]: o["waiting"] for o in checks.public()["open"]} == {
        "purple": 1,
        "orange": 1,
    }
    tower.drop(checks, "orange", 20.0)
    assert checks.tick(5.0 + RECOUNT_S)
    assert checks.issues[0].kind == "missing" and checks.issues[0].colours == {"purple": 1}


def test_emptied_castillo_mid_game(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    game.throw("green")
    checks.sync_game(game.facts(), 0.0)
    tower.drop(checks, "green", 0.1)
    tower.event(checks, "reset", 2.0, why="gate")
    assert checks.issues[0].kind == "emptied"
    checks.resolve(checks.issues[0].id, "rethrow", 3.0)
    tower.drop(checks, "green", 4.0)
    assert not checks.blocked and checks.public()["open"] == []


def test_public_view_never_holds_counts(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    for _ in range(5):
        tower.drop(checks, "purple", 0.1)
    game.throw("purple", 5)
    checks.sync_game(game.facts(), 0.2)
    text = repr(checks.public())
    assert "totals" not in text and "adjust" not in text
    assert checks.public()["open"] == []


def test_disabled_checks_never_block(setup: tuple[Checks, Game, Tower]) -> None:
    checks = Checks(COLOURS, enabled=False)
    game = Game()
    checks.sync_game(game.facts(), 0.0)
    game.throw("green", 3)
    checks.sync_game(game.facts(), 1.0)
    assert not checks.tick(1000.0) and not checks.blocked


def test_a_touching_pair_with_its_colours_asks_nothing(setup: tuple[Checks, Game, Tower]) -> None:
    """Issue 25: the second beam names each cube of a group: no question for the table."""
    checks, game, tower = setup
    game.throw("green")
    game.throw("orange")
    checks.sync_game(game.facts(), 0.0)
    tower.totals.update(green=1, orange=1)
    checks.tower("merged", {"est": 2, "cs": ["orange", "green"]}, tower.totals, 0.3)
    assert not checks.blocked and checks.public()["open"] == []
    assert checks.effective()["green"] == 1 and checks.effective()["orange"] == 1


def test_only_the_unclear_cube_of_a_group_is_asked(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    game.throw("purple", 2)
    game.throw("blue")
    checks.sync_game(game.facts(), 0.0)
    tower.totals.update(purple=2, uncertain=1)
    checks.tower("merged", {"est": 3, "cs": ["purple", None, "purple"]}, tower.totals, 0.3)
    (issue,) = checks.issues
    assert issue.kind == "confirm" and issue.cubes == 1
    assert "colour of 1 of them" in issue.text
    checks.confirm(issue.id, ["blue"], 1.0)
    assert not checks.blocked and checks.public()["open"] == []
    assert checks.effective() == {"purple": 2, "green": 0, "blue": 1, "orange": 0}


def test_a_group_whose_colours_do_not_fit_asks_for_all(setup: tuple[Checks, Game, Tower]) -> None:
    """`cs` naming another number of cubes than `est` (a stored row, an odd frame) is ignored."""
    checks, _game, tower = setup
    tower.event(checks, "merged", 0.3, est=2, cs=["green"])
    assert checks.issues[0].cubes == 2


@pytest.mark.parametrize("answer", ["one", "two"])
def test_one_beam_one_or_two_is_a_question_the_table_answers(
    setup: tuple[Checks, Game, Tower], answer: str
) -> None:
    """Issue 25: one beam cannot tell one slow cube from two fast ones touching: asked."""
    checks, game, tower = setup
    game.throw("purple", 1 if answer == "one" else 2)
    checks.sync_game(game.facts(), 0.0)
    tower.event(checks, "uncertain", 0.3, best="purple", why="one_or_two", d=0.4)
    (issue,) = checks.issues
    public = issue.public()
    assert public["one_or_two"] is True and public["cubes"] == 2 and public["best"] == "purple"
    assert public["options"] == ["one_cube", "not_a_cube"]
    assert "1 or 2 purple" in issue.text
    if answer == "one":
        checks.resolve(issue.id, "one_cube", 1.0)
    else:
        checks.confirm(issue.id, ["purple", "purple"], 1.0)
    assert not checks.blocked and checks.public()["open"] == []
    assert checks.effective()["purple"] == (1 if answer == "one" else 2)


def test_one_cube_is_no_answer_to_another_confirm(setup: tuple[Checks, Game, Tower]) -> None:
    checks, _, tower = setup
    tower.event(checks, "uncertain", 0.3, best="purple", why="colour", d=3.0)
    with pytest.raises(CheckError):
        checks.resolve(checks.issues[0].id, "one_cube", 1.0)


def test_a_scoring_with_named_group_colours_needs_no_question(
    setup: tuple[Checks, Game, Tower],
) -> None:
    """The castillo check at a scoring: the group's cubes count under their colours."""
    checks, game, tower = setup
    game.throw("green", 2)
    checks.sync_game(game.facts(), 0.0)
    tower.totals.update(green=2)
    checks.tower("merged", {"est": 2, "cs": ["green", "green"]}, tower.totals, 0.3)
    game.phase = "scoring"
    checks.sync_game(game.facts(), 1.0)
    assert not checks.waiting_for_scoring_check() and not checks.blocked
