"""The castillo correction (`castillo-fix`, issue 11): when the tower and the game disagree and
the tower's physical count wins, the table records it, and the castillo scored at the next
general scoring is the one in the tower."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.elgrande.actions import Action
from engine.elgrande.errors import IllegalAction
from engine.elgrande.game import CHANCE, Game
from tests.engine.builders import (
    assert_conserved,
    play_powers,
    play_to_general_scoring,
    table_game,
)


def purple_to_place() -> Game:
    """Purple acts first, has taken 2 caballeros and the first face-up card."""
    game = table_game()
    play_powers(game, {"purple": 9, "green": 1, "blue": 2, "orange": 3})
    game.apply("take 2")
    game.apply(game.legal_actions()[0])  # the first face-up card
    assert game.state.phase == "main"
    return game


def castillo_scored(game: Game) -> dict[str, int]:
    """Play to the general scoring, set every disc, and read the castillo the scoring counted."""
    turn = game.state.turn
    while game.state.turn is turn and game.state.phase == "main" and game.state.frame is None:
        moves = game.legal_actions()
        game.apply(Action("skip") if Action("skip") in moves else Action("done"))
    play_to_general_scoring(game)
    while game.state.phase == "scoring" and game.state.frame is not None:
        for seat in game.current_players():
            game.apply(game.legal_actions(seat)[0], seat)
    general = next(s for s in game.state.scorings if s["kind"] == "general")
    area = next(a for a in general["areas"] if a["area"] == "castillo")
    return dict(area["counts"])


def test_wrong_colour_thrown_the_tower_wins() -> None:
    # Purple announced a purple caballero; a green cube fell into the tower.
    game = purple_to_place()
    game.apply("place castillo")
    tower = Counter({"green": 1})
    game.apply("castillo-fix purple-1 wrong-colour", CHANCE)
    game.apply("castillo-fix green+1 wrong-colour", CHANCE)
    assert_conserved(game)
    assert game.history[-1] == (CHANCE, game.parse("castillo-fix green+1 wrong-colour"))
    assert castillo_scored(game) == dict(tower)


def test_too_many_cubes_the_tower_wins() -> None:
    # Announced 1, threw 2: the second came from purple's court.
    game = purple_to_place()
    game.apply("place castillo")
    court = game.state.court[game.state.colour("purple")]
    game.apply("castillo-fix purple+1 too-many", CHANCE)
    assert game.state.court[game.state.colour("purple")] == court - 1
    assert_conserved(game)
    assert castillo_scored(game) == {"purple": 2}


def test_undo_after_a_throw_the_cube_stays_in_the_tower() -> None:
    game = purple_to_place()
    game.apply("place castillo")
    game.undo(game.state.colour("purple"))  # the game takes it back; the cube is in the tower
    assert game.state.pieces[game.state.CASTILLO] == [0, 0, 0, 0]
    game.apply("castillo-fix purple+1 undo", CHANCE)
    assert not game.can_undo(game.state.colour("purple"))  # a correction is never undone
    assert_conserved(game)
    assert castillo_scored(game) == {"purple": 1}


def test_a_correction_is_public_and_says_why() -> None:
    game = purple_to_place()
    game.apply("castillo-fix Orange+2 stuck", CHANCE)
    assert game.view()["log"][-1] == ["chance", "castillo-fix orange+2 stuck"]
    assert game.view()["castillo"]["total"] == 2


@pytest.mark.parametrize(
    ("text", "player", "key"),
    [
        ("castillo-fix green+1 undo", 0, "fix_by_table"),
        ("castillo-fix green+0 undo", CHANCE, "fix_bad_amount"),
        ("castillo-fix pink+1 undo", CHANCE, "fix_bad_amount"),
        ("castillo-fix green+1 because", CHANCE, "fix_bad_reason"),
        ("castillo-fix green-1 recount", CHANCE, "fix_castillo_short"),
        ("castillo-fix green+40 recount", CHANCE, "fix_supply_short"),
    ],
)
def test_a_bad_correction_is_refused_and_changes_nothing(text: str, player: int, key: str) -> None:
    game = purple_to_place()
    before = game.snapshot()
    with pytest.raises(IllegalAction) as refused:
        game.apply(text, player)
    assert refused.value.key == f"elgrande.refuse.{key}"
    assert game.snapshot() == before
