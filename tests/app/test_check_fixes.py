"""The throw checks' fixes as a state machine (issue 11, "The physical castillo stays true"):
each fix leaves the tower's count and the game's castillo agreeing, or says they do not."""

from __future__ import annotations

from dataclasses import replace

import pytest

from host.tower.checks import ANNOUNCE_S, EARLY_S, CheckError, Checks
from tests.app.test_checks import Game, Tower


@pytest.fixture
def setup() -> tuple[Checks, Game, Tower]:
    checks = Checks(("purple", "green", "blue", "orange"))
    game = Game()
    checks.sync_game(game.facts(), 0.0)
    return checks, game, Tower()


def wrong_colour(checks: Checks, game: Game, tower: Tower) -> int:
    """Orange announced, a green cube thrown."""
    game.throw("orange")
    checks.sync_game(game.facts(), 0.0)
    tower.drop(checks, "green", 0.5)
    checks.tick(0.5 + EARLY_S)
    (issue,) = checks.issues
    return issue.id


def agree(checks: Checks, game: Game) -> bool:
    tower = checks.effective()
    return all(tower[c] == game.castillo.get(c, 0) for c in checks.colours)


def test_wrong_colour_misread_keeps_the_game(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    issue = wrong_colour(checks, game, tower)
    assert checks.corrections(issue, "misread") == []
    checks.resolve(issue, "misread", 7.0)
    assert not checks.issues and agree(checks, game)
    assert "disagree" not in checks.warnings


def test_wrong_colour_tower_wins_asks_for_both_corrections(
    setup: tuple[Checks, Game, Tower],
) -> None:
    checks, game, tower = setup
    issue = wrong_colour(checks, game, tower)
    assert checks.corrections(issue, "tower_wins") == [
        ("green", 1, "wrong-colour"),
        ("orange", -1, "wrong-colour"),
    ]
    # the session records the corrections in the game first
    game.castillo = {"green": 1}
    checks.sync_game(game.facts(), 7.0)
    checks.resolve(issue, "tower_wins", 7.0)
    assert not checks.issues and agree(checks, game)


def test_wrong_colour_take_out_then_lift_and_throw_back(
    setup: tuple[Checks, Game, Tower],
) -> None:
    checks, game, tower = setup
    issue = wrong_colour(checks, game, tower)
    checks.resolve(issue, "take_out", 7.0)
    (take_out,) = checks.issues
    assert (take_out.kind, take_out.colours, take_out.rethrow) == (
        "take_out",
        {"green": 1},
        {"orange": 1},
    )
    assert "take out 1 green cube" in take_out.text
    tower.event(checks, "reset", 8.0)  # the castillo lifted: the game's castillo goes back in
    assert not checks.issues
    tower.drop(checks, "orange", 9.0)
    assert not checks.expected and agree(checks, game)


def test_take_out_done_without_lifting(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    checks.resolve(wrong_colour(checks, game, tower), "take_out", 7.0)
    checks.resolve(checks.issues[0].id, "done", 8.0)
    assert [c.colour for c in checks.expected] == ["orange"]  # now throw the announced one
    tower.drop(checks, "orange", 9.0)
    assert not checks.issues and agree(checks, game)


def too_many(checks: Checks, game: Game, tower: Tower) -> int:
    """Purple announced 1 and threw 2."""
    game.throw("purple")
    checks.sync_game(game.facts(), 0.0)
    tower.drop(checks, "purple", 0.5)
    tower.drop(checks, "purple", 0.6)
    checks.tick(0.6 + EARLY_S)
    (issue,) = checks.issues
    assert (issue.kind, issue.colours) == ("extra", {"purple": 1})
    return issue.id


def test_too_many_then_announce_the_cube(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    issue = too_many(checks, game, tower)
    checks.resolve(issue, "announce", 10.0)
    assert not checks.blocked  # the player can place the caballero they meant to throw
    game.throw("purple")
    checks.sync_game(game.facts(), 20.0)
    assert not checks.seen and not checks.expected and agree(checks, game)


def test_too_many_announce_runs_out_again(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    checks.resolve(too_many(checks, game, tower), "announce", 10.0)
    assert checks.tick(10.0 + ANNOUNCE_S)
    assert checks.issues[0].kind == "extra"


def test_too_many_after_the_last_placement_offers_no_announce(
    setup: tuple[Checks, Game, Tower],
) -> None:
    """A cube too many thrown with the player's last placement cannot be announced: the fix is
    not offered (it would only bring the issue back after ANNOUNCE_S) and is refused."""
    checks, game, tower = setup
    issue = too_many(checks, game, tower)
    assert "announce" in checks.issues[0].options  # facts without can_announce: offered
    facts = game.facts()
    checks.sync_game(replace(facts, can_announce=frozenset({"green"})), 10.0)
    assert checks.issues[0].options == ["tower_wins", "take_out", "accept_game"]
    with pytest.raises(CheckError):
        checks.option(issue, "announce")
    checks.sync_game(replace(facts, can_announce=frozenset({"purple"})), 11.0)
    assert "announce" in checks.public()["issues"][0]["options"]


def test_too_many_tower_wins(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    issue = too_many(checks, game, tower)
    assert checks.corrections(issue, "tower_wins") == [("purple", 1, "too-many")]
    game.castillo["purple"] += 1
    checks.sync_game(game.facts(), 7.0)
    checks.resolve(issue, "tower_wins", 7.0)
    assert agree(checks, game) and "disagree" not in checks.warnings


def test_a_fix_that_leaves_a_disagreement_warns(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    issue = too_many(checks, game, tower)
    checks.resolve(issue, "tower_wins", 7.0)  # but the game never recorded the correction
    assert "disagree" in checks.warnings
    assert "disagree" in checks.public()["warnings"]
    game.castillo["purple"] += 1
    checks.sync_game(game.facts(), 8.0)
    tower.drop(checks, "blue", 9.0)
    checks.tick(9.0 + EARLY_S)
    checks.resolve(checks.issues[0].id, "accept_game", 20.0)  # the next fix sees them agree
    assert "disagree" not in checks.warnings


def test_undo_after_a_throw_keeps_the_cube_in(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    game.throw("purple")
    checks.sync_game(game.facts(), 0.0)
    tower.drop(checks, "purple", 0.3)
    game.throws["purple"] -= 1
    game.castillo["purple"] -= 1
    checks.sync_game(game.facts(), 1.0)
    (issue,) = checks.issues
    assert checks.corrections(issue.id, "tower_wins") == [("purple", 1, "undo")]
    with pytest.raises(CheckError):
        checks.corrections(issue.id, "misread")


def test_a_grande_is_taken_out_by_lifting(setup: tuple[Checks, Game, Tower]) -> None:
    checks, game, tower = setup
    game.throw("blue")
    checks.sync_game(game.facts(), 0.0)
    tower.drop(checks, "blue", 0.2)
    checks.tower("grande", {}, {**tower.totals, "grande:purple": 1}, 1.0)
    (issue,) = checks.issues
    checks.resolve(issue.id, "take_out", 2.0)
    (take_out,) = checks.issues
    assert take_out.grande and "the Grande" in take_out.text
    tower.event(checks, "reset", 3.0)
    tower.drop(checks, "blue", 4.0)
    assert not checks.issues and not checks.expected and agree(checks, game)


def test_el_grande_names_the_colours_that_can_still_be_announced() -> None:
    """The game's side of it: the acting player's colour while a placement into the castillo
    is legal; nothing while the discs of a general scoring are chosen."""
    import random

    from engine.elgrande.game import Game as ElGrande
    from engine.elgrande.game import Options
    from host.games.elgrande.adapter import announceable

    game = ElGrande(Options(players=("purple", "green", "blue", "orange"), mode="dealer", seed=5))
    rng = random.Random(1)
    seen_place = seen_scoring = False
    while not (seen_place and seen_scoring):
        actor = game.current_players()[0]
        player = actor if actor >= 0 else None
        actions = game.legal_actions(player)
        if player is not None and any(str(a) == "place castillo" for a in actions):
            assert game.state.colours[player] in announceable(game)
            seen_place = True
        if game.state.phase == "scoring":
            assert announceable(game) == frozenset()
            seen_scoring = True
        game.apply(actions[rng.randrange(len(actions))], player)
