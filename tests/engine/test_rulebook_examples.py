"""Every worked example of the El Grande 2023 rulebook, as a named test.

Sources: /work/shared/seeds/000_*.txt (Czech, "Příklad"), 003_*.txt (Ukrainian, "Приклад"),
001_*.txt (Polish, "Przykład"). The game examples are driven through the real engine
(`legal_actions` / `apply` with the text notation) from a position laid out by
`tests.engine.builders`; scoring examples are checked both in the engine's own scoring and in
`engine.elgrande.position` (the `castillo score` command).

Examples in the rulebook, in its order, and the test of each:

- power cards: green 8, blue 3, orange 5, purple 9 -> test_power_card_order_example
- power card 9 takes up to 2 caballeros -> test_take_caballeros_power_9_gives_2
- King in Castilla: placement targets -> test_placement_around_the_king
- 4 players leave 1 action card unused each round -> test_unused_action_card_is_discarded_...
- example 1, Your Majesty -> test_your_majesty_example
- example 2, Fiesta skipped, 3 placed -> test_fiesta_skipped_then_place_3 (and what Fiesta would
  score: test_fiesta_scores_aragon_navarra_valencia)
- castillo 5/3/1, then the discs -> test_castillo_5_3_1_example
- a scoring tile laid on Castilla -> test_decree_tile_on_castilla_lowers_its_values
- Galicia, Navarra, Sevilla, Granada -> test_galicia_..., test_navarra_..., test_sevilla_...,
  test_granada_...; the tie rule restated -> test_tie_rules
- alternative action cards: with all 4, remove 1 card from deck 1, 2 from deck 2, 1 from deck 4
  -> test_alternative_cards_each_replace_a_random_card_of_their_deck, and which cards they are
  -> tests/engine/test_rule_fixes.py
- Power Shift: "9 + 1 = 10 allowed after a 9" -> test_power_shift_9_plus_1_after_a_9;
  "7 + 1 not allowed after an 8" -> test_power_shift_7_plus_1_not_after_an_8
- Intrigue -> test_intrigue_move_example; Outposts with tiles -> test_outposts_with_scoring_tiles;
  Withdrawal -> test_withdrawal_example; Coup -> test_coup_example
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.elgrande.errors import IllegalAction
from engine.elgrande.game import Game, Options
from engine.elgrande.position import score_position
from engine.elgrande.scoring import score_area
from tests.engine.builders import (
    acting,
    assert_conserved,
    count,
    legal,
    of_kind,
    pass_turn,
    play_powers,
    play_to_general_scoring,
    set_grey_hands,
    set_position,
    table_game,
)

PLAYERS = ["purple", "green", "blue", "orange"]
# Purple ("you" in the Ukrainian text) acts first with the 9.
PURPLE_FIRST = {"purple": 9, "green": 8, "blue": 5, "orange": 3}


def _scoring_by_area(scoring: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {area["area"]: area for area in scoring["areas"]}


# --------------------------------------------------------------------------- power and turn
def test_power_card_order_example() -> None:
    # Green starts; clockwise follow blue, orange and purple.
    game = table_game(first="green")
    assert acting(game) == ["green"]
    game.apply("power 8")
    assert acting(game) == ["blue"]
    assert "power 8" not in legal(game)
    with pytest.raises(IllegalAction, match="already played"):
        game.apply("power 8")
    game.apply("power 3")
    assert acting(game) == ["orange"]
    assert not {"power 8", "power 3"} & legal(game)
    game.apply("power 5")
    game.apply("power 9")
    assert [game.state.colours[p] for p in game.state.turn_order] == [
        "purple",
        "green",
        "orange",
        "blue",
    ]
    assert (game.state.phase, acting(game)) == ("take", ["purple"])


def test_lowest_power_card_takes_the_first_player_marker() -> None:
    game = table_game(first="green")
    play_powers(game, {"green": 8, "blue": 3, "orange": 5, "purple": 9})
    for _ in PLAYERS:
        pass_turn(game)
    assert game.state.colours[game.state.first] == "blue"
    assert sorted(game.state.power_discards[game.state.colour("blue")]) == [3]


def test_power_shift_9_plus_1_after_a_9() -> None:
    game = table_game(power_shift=True)
    set_grey_hands(game, {"green": ["g+1-court"]})
    game.apply("power 9")
    assert acting(game) == ["green"]
    assert "power 9" not in legal(game)
    assert "shift 9 g+1-court" in legal(game)  # 9 + 1 = 10 differs from every value played
    game.apply("shift 9 g+1-court")
    game.apply("power 5")
    game.apply("power 3")
    assert [game.state.colours[p] for p in game.state.turn_order] == [
        "green",
        "purple",
        "blue",
        "orange",
    ]


def test_power_shift_7_plus_1_not_after_an_8() -> None:
    game = table_game(power_shift=True)
    set_grey_hands(game, {"green": ["g+1-court"]})
    game.apply("power 8")
    assert "shift 7 g+1-court" not in legal(game)
    with pytest.raises(IllegalAction):
        game.apply("shift 7 g+1-court")
    assert "shift 8 g+1-court" in legal(game)


def test_take_caballeros_power_9_gives_2() -> None:
    game = table_game()
    play_powers(game, PURPLE_FIRST)
    assert of_kind(game, "take") == {"0", "1", "2"}
    court, province = count(game, "court", "purple"), game.state.province[0]
    game.apply("take 2")
    assert count(game, "court", "purple") == court + 2
    assert game.state.province[0] == province - 2
    assert_conserved(game)


def test_power_12_and_13_take_no_caballeros() -> None:
    game = table_game()
    play_powers(game, {"purple": 13, "green": 12, "blue": 1, "orange": 2})
    assert of_kind(game, "take") == {"0"}
    pass_turn(game)
    assert of_kind(game, "take") == {"0"}


def test_placement_around_the_king() -> None:
    game = table_game(king="Castilla")
    play_powers(game, PURPLE_FIRST)
    game.apply("take 2")
    game.apply("card conspiracy")
    assert of_kind(game, "place") == {"Galicia", "Navarra", "Aragon", "Toledo", "castillo"}
    with pytest.raises(IllegalAction, match="King's region"):
        game.apply("place Castilla")
    with pytest.raises(IllegalAction, match="not next to the King"):
        game.apply("place Valencia")
    with pytest.raises(IllegalAction, match="not a region"):
        game.apply("place France")


def _take_card_and_pass(game: Game, card: str) -> None:
    game.apply("take 0")
    game.apply(f"card {card}")
    game.apply("skip")
    game.apply("done")


def test_unused_action_card_is_discarded_but_your_majesty_stays() -> None:
    game = table_game(reveal=["conspiracy", "withdrawal", "fiesta", "decree"])
    play_powers(game, PURPLE_FIRST)
    for card in ("conspiracy", "withdrawal", "fiesta", "your-majesty"):
        _take_card_and_pass(game, card)
    # Four players, five cards: Decree was left over and is discarded with the used ones.
    assert "decree" in game.state.used_cards
    assert "your-majesty" not in game.state.used_cards
    assert game.state.phase == "reveal"
    assert game.state.face_up[4] == "your-majesty"


def test_your_majesty_left_over_stays_available() -> None:
    game = table_game(reveal=["conspiracy", "withdrawal", "fiesta", "decree"])
    play_powers(game, PURPLE_FIRST)
    for card in ("conspiracy", "withdrawal", "fiesta", "decree"):
        _take_card_and_pass(game, card)
    assert "your-majesty" not in game.state.used_cards
    assert set(game.state.used_cards) == {"conspiracy", "withdrawal", "fiesta", "decree"}
    while game.state.phase == "reveal":
        game.apply(game.legal_actions()[0])
    assert game.state.face_up[4] == "your-majesty"
    play_powers(game, {"purple": 10, "green": 11, "blue": 6, "orange": 7})
    game.apply("take 0")
    assert "card your-majesty" in legal(game)


# --------------------------------------------------------------------------- examples 1 and 2
def test_your_majesty_example() -> None:
    game = table_game(king="Valencia")
    play_powers(game, PURPLE_FIRST)
    game.apply("take 2")
    game.apply("card your-majesty")
    assert of_kind(game, "place") == {"Aragon", "Cataluna", "Toledo", "Granada", "castillo"}
    granada, toledo = count(game, "Granada", "purple"), count(game, "Toledo", "purple")
    for area in ("Granada", "Granada", "Toledo", "Toledo", "castillo"):
        game.apply(f"place {area}")
    assert count(game, "Granada", "purple") == granada + 2
    assert count(game, "Toledo", "purple") == toledo + 2
    assert count(game, "castillo", "purple") == 1
    thrown = game.state.throws[-1]
    assert (game.state.colours[thrown.by], game.state.colours[thrown.colour], thrown.count) == (
        "purple",
        "purple",
        1,
    )
    # All 5 placed: only the special action (or skipping it) is left.
    assert legal(game) == {"special", "skip"}
    game.apply("special")
    every_other_region = {r.ascii for r in game.state.regions} - {"Valencia"}
    assert of_kind(game, "king") == every_other_region
    game.apply("king Toledo")
    assert game.state.tok[game.state.king] == "Toledo"
    assert acting(game) == ["green"]
    assert_conserved(game)


def test_fiesta_skipped_then_place_3() -> None:
    game = table_game(king="Castilla", reveal=["fiesta"])
    play_powers(game, PURPLE_FIRST)
    game.apply("take 2")
    game.apply("card fiesta")
    aragon, toledo = count(game, "Aragon", "purple"), count(game, "Toledo", "purple")
    game.apply("skip")
    for area in ("Aragon", "Toledo", "Toledo"):
        game.apply(f"place {area}")
    assert (count(game, "Aragon", "purple"), count(game, "Toledo", "purple")) == (
        aragon + 1,
        toledo + 2,
    )
    assert game.state.scorings == []
    assert game.state.scores == [0, 0, 0, 0]
    # Three placed ends the placement, the special action was skipped: green's turn.
    assert acting(game) == ["green"]
    assert_conserved(game)


def test_fiesta_scores_aragon_navarra_valencia() -> None:
    game = table_game(king="Castilla", reveal=["fiesta"])
    play_powers(game, PURPLE_FIRST)
    board = {
        "Navarra": {"green": 2, "blue": 1},
        "Aragon": {"orange": 3},
        "Valencia": {"blue": 2, "purple": 2},
        "Galicia": {"purple": 5},
        "Cataluna": {"purple": 5},
    }
    set_position(game, board=board)
    game.apply("take 0")
    game.apply("card fiesta")
    game.apply("special")
    scoring = game.state.scorings[-1]
    assert scoring["kind"] == "fiesta"
    areas = _scoring_by_area(scoring)
    assert list(areas) == ["Navarra", "Aragón", "Valencia"]
    assert areas["Navarra"]["points"] == {"green": 5, "blue": 3}
    assert areas["Aragón"]["points"] == {"orange": 5}
    assert areas["Valencia"]["points"] == {"blue": 3, "purple": 3}
    assert scoring["totals"] == {"purple": 3, "green": 5, "blue": 6, "orange": 5}
    cli = score_position(
        {"players": PLAYERS, "king": "Castilla", "regions": board, "scoring": "fiesta"}
    )
    assert [a["area"] for a in cli["areas"]] == ["Navarra", "Aragón", "Valencia"]
    assert cli["totals"] == scoring["totals"]


# --------------------------------------------------------------------------- general scoring
def test_castillo_5_3_1_example() -> None:
    game = table_game(king="Toledo")
    set_position(game, board={}, castillo={"purple": 3, "blue": 2, "orange": 1})
    play_to_general_scoring(game)
    assert sorted(acting(game)) == sorted(PLAYERS)  # every disc is set at the same time
    discs = {"purple": "Granada", "green": "Galicia", "blue": "Sevilla", "orange": "Aragon"}
    for colour, region in discs.items():
        game.apply(f"disc {region}", game.state.colour(colour))
    castillo = game.state.scorings[-1]["areas"][0]
    assert castillo["area"] == "castillo"
    assert castillo["points"] == {"purple": 5, "blue": 3, "orange": 1}
    assert "green" not in castillo["ranks"]
    # Then the discs: purple's 3 go to Granada (and score there: sole first, 6 points).
    assert count(game, "Granada", "purple") == 3
    assert count(game, "Sevilla", "blue") == 2
    assert count(game, "Aragon", "orange") == 1
    assert sum(game.state.pieces[game.state.CASTILLO]) == 0
    granada = _scoring_by_area(game.state.scorings[-1])["Granada"]
    assert granada["counts"] == {"purple": 3}
    assert game.state.scores[game.state.colour("purple")] == 5 + 6
    assert_conserved(game)
    cli = score_position(
        {
            "players": PLAYERS,
            "king": "Toledo",
            "castillo": {"purple": 3, "blue": 2, "orange": 1},
            "discs": discs,
            "scoring": "general",
        }
    )
    assert cli["areas"][0]["points"] == castillo["points"]
    assert cli["castillo_moves"]["purple"] == {"count": 3, "to": "Granada"}
    assert cli["totals"] == dict(zip(game.state.colours, game.state.scores, strict=True))


def test_castillo_disc_on_the_kings_region_sends_caballeros_to_court() -> None:
    game = table_game(king="Granada")
    set_position(game, castillo={"purple": 3})
    play_to_general_scoring(game)
    court = count(game, "court", "purple")
    for colour in PLAYERS:
        game.apply("disc Granada", game.state.colour(colour))
    assert count(game, "Granada", "purple") == 0
    assert count(game, "court", "purple") == court + 3
    assert game.state.scorings[-1]["moved"]["purple"] == "court"
    assert_conserved(game)


# The board of the region examples: King and purple's Grande in Granada, green's Grande in
# Navarra, blue's in Sevilla.
REGION_EXAMPLES = {
    "Galicia": {"orange": 4, "blue": 3, "purple": 2, "green": 1},
    "Navarra": {"purple": 2, "blue": 2, "green": 2, "orange": 1},
    "Sevilla": {"blue": 2, "green": 2, "purple": 1},
    "Granada": {"purple": 3, "orange": 1, "green": 1},
}
REGION_GRANDES = {"purple": "Granada", "green": "Navarra", "blue": "Sevilla", "orange": "Castilla"}


@pytest.fixture(scope="module")
def region_examples() -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """The regions scored by the engine's general scoring and by `castillo score`."""
    game = table_game(king="Toledo")
    set_position(game, board=REGION_EXAMPLES, king="Granada", grandes=REGION_GRANDES)
    play_to_general_scoring(game)
    for colour in PLAYERS:
        game.apply("disc Galicia", game.state.colour(colour))
    engine = _scoring_by_area(game.state.scorings[-1])
    cli = score_position(
        {
            "players": PLAYERS,
            "king": "Granada",
            "grandes": REGION_GRANDES,
            "regions": REGION_EXAMPLES,
            "scoring": "general",
        }
    )
    return engine, _scoring_by_area(cli)


def _both(examples: tuple[dict[str, Any], dict[str, Any]], area: str) -> list[dict[str, Any]]:
    engine, cli = examples
    assert engine[area]["points"] == cli[area]["points"]
    assert engine[area]["bonus"] == cli[area]["bonus"]
    return [engine[area], cli[area]]


def test_galicia_example_4_2_0_third_place_scores_nothing(region_examples: Any) -> None:
    for galicia in _both(region_examples, "Galicia"):
        assert galicia["values"] == [4, 2, 0]
        assert galicia["points"] == {"orange": 4, "blue": 2, "purple": 0, "green": 0}
        assert galicia["ranks"] == {"orange": 1, "blue": 2, "purple": 3, "green": 4}
        assert galicia["bonus"] == {}


def test_navarra_three_way_tie_for_first_scores_second_place(region_examples: Any) -> None:
    for navarra in _both(region_examples, "Navarra"):
        assert navarra["points"] == {"purple": 3, "blue": 3, "green": 3, "orange": 1}
        assert navarra["ranks"] == {"purple": 2, "blue": 2, "green": 2, "orange": 3}
        # Green's Grande does not count for the majority, and a tie wins no Grande bonus.
        assert navarra["bonus"] == {}


def test_sevilla_tie_loses_grande_bonus(region_examples: Any) -> None:
    for sevilla in _both(region_examples, "Sevilla"):
        assert sevilla["points"] == {"blue": 3, "green": 3, "purple": 1}
        assert sevilla["bonus"] == {}
        assert any("blue loses the Grande bonus" in note for note in sevilla["notes"])


def test_granada_king_and_grande_bonus_10_points(region_examples: Any) -> None:
    for granada in _both(region_examples, "Granada"):
        assert granada["points"] == {"purple": 6, "orange": 1, "green": 1}
        assert granada["bonus"] == {"purple": 4}
        assert granada["points"]["purple"] + granada["bonus"]["purple"] == 10


def test_tie_rules() -> None:
    # Three tied for most on 5/3/1 score 3 each; the next scores 1.
    tied = score_area("Navarra", {"a": 2, "b": 2, "c": 2, "d": 1}, (5, 3, 1))
    assert tied.points == {"a": 3, "b": 3, "c": 3, "d": 1}
    # Counts 4, 3, 2, 2 on 6/4/2 score 6, 4, 0, 0.
    after = score_area("Castilla", {"a": 4, "b": 3, "c": 2, "d": 2}, (6, 4, 2))
    assert after.points == {"a": 6, "b": 4, "c": 0, "d": 0}
    # With 2-3 players only two places score: a tie for 2nd scores nothing.
    three = score_position(
        {
            "players": ["purple", "green", "blue"],
            "king": "Toledo",
            "regions": {"Castilla": {"purple": 3, "green": 2, "blue": 2}},
            "scoring": {"regions": ["Castilla"]},
        }
    )
    assert three["places"] == 2
    assert three["areas"][0]["points"] == {"purple": 6, "green": 0, "blue": 0}
    four = score_position(
        {
            "players": PLAYERS,
            "king": "Toledo",
            "regions": {"Castilla": {"purple": 3, "green": 2, "blue": 2}},
            "scoring": {"regions": ["Castilla"]},
        }
    )
    assert four["areas"][0]["points"] == {"purple": 6, "green": 2, "blue": 2}


# --------------------------------------------------------------------------- scoring tiles
def test_decree_tile_on_castilla_lowers_its_values() -> None:
    game = table_game(king="Toledo", reveal=["decree"])
    play_powers(game, PURPLE_FIRST)
    game.apply("take 0")
    game.apply("card decree")
    game.apply("special")
    targets = of_kind(game, "tile")
    assert "4-0-0 Castilla" in targets and "8-4-0 castillo" in targets
    assert not any(t.endswith(" Toledo") for t in targets)  # never into the King's region
    game.apply("tile 4-0-0 Castilla")
    assert game.state.values_of(game.state.area("Castilla")) == (4, 0, 0)
    assert game.state.regions[game.state.area("Castilla")].values == (6, 4, 2)


def test_decree_moves_a_placed_tile_but_never_out_of_the_kings_region() -> None:
    game = table_game(king="Toledo", reveal=["decree"])
    play_powers(game, PURPLE_FIRST)
    set_position(game, tiles={"4-0-0": "Sevilla", "8-4-0": "Toledo"})
    game.apply("take 0")
    game.apply("card decree")
    game.apply("special")
    targets = of_kind(game, "tile")
    assert not any(t.startswith("8-4-0") for t in targets)
    assert not any(t.endswith(" Sevilla") or t.endswith(" Toledo") for t in targets)
    game.apply("tile 4-0-0 Castilla")
    assert game.state.values_of(game.state.area("Castilla")) == (4, 0, 0)
    assert game.state.values_of(game.state.area("Sevilla")) == (4, 3, 1)


def test_outposts_with_scoring_tiles() -> None:
    game = table_game(king="Castilla", reveal=["outposts"])
    play_powers(game, PURPLE_FIRST)
    board = {
        "Galicia": {"green": 3},
        "Cataluna": {"blue": 1, "orange": 1},
        "Toledo": {"purple": 2, "orange": 1},
        "Sevilla": {"green": 1},
    }
    set_position(game, board=board, tiles={"4-0-0": "Toledo", "8-4-0": "Galicia"})
    game.apply("take 0")
    game.apply("card outposts")
    game.apply("special")
    areas = _scoring_by_area(game.state.scorings[-1])
    # Sevilla, Cataluña and Toledo (4-0-0 tile) are scored; Galicia (8-4-0 tile) is not.
    assert set(areas) == {"Cataluña", "Toledo", "Sevilla"}
    assert areas["Toledo"]["values"] == [4, 0, 0]
    assert areas["Toledo"]["points"] == {"purple": 4, "orange": 0}
    assert areas["Cataluña"]["points"] == {"blue": 2, "orange": 2}
    assert areas["Sevilla"]["points"] == {"green": 4}
    cli = score_position(
        {
            "players": PLAYERS,
            "king": "Castilla",
            "regions": board,
            "tiles": {"Toledo": "4-0-0", "Galicia": "8-4-0"},
            "scoring": "outposts",
        }
    )
    assert {a["area"] for a in cli["areas"]} == set(areas)
    assert cli["totals"] == game.state.scorings[-1]["totals"]


# --------------------------------------------------------------------------- card examples
def test_intrigue_move_example() -> None:
    game = table_game(king="Sevilla", reveal=["intrigue"])
    play_powers(game, PURPLE_FIRST)
    set_position(
        game,
        board={
            "Granada": {"purple": 2},
            "Aragon": {"green": 1},
            "Valencia": {"blue": 1},
            "Castilla": {"orange": 1},
            "Sevilla": {"green": 2},
        },
    )
    game.apply("take 0")
    game.apply("card intrigue")
    game.apply("special")
    picks = of_kind(game, "pick")
    assert picks == {"purple Granada", "green Aragon", "blue Valencia", "orange Castilla"}
    game.apply("pick purple Granada")
    assert "Sevilla" not in of_kind(game, "to")  # never into the King's region
    game.apply("to Castilla")
    game.apply("pick purple Granada")
    game.apply("to castillo")
    assert not any(p.startswith("purple") for p in of_kind(game, "pick"))  # 2 own moved
    game.apply("pick green Aragon")
    game.apply("to Valencia")
    game.apply("pick blue Valencia")
    game.apply("to Castilla")
    assert game.state.frame is None  # 2 own and 2 opponents' moved: the special action is over
    assert count(game, "Granada", "purple") == 0
    assert count(game, "Castilla", "purple") == 1
    assert count(game, "castillo", "purple") == 1
    assert (count(game, "Aragon", "green"), count(game, "Valencia", "green")) == (0, 1)
    assert (count(game, "Valencia", "blue"), count(game, "Castilla", "blue")) == (0, 1)
    assert count(game, "Sevilla", "green") == 2
    throw = game.state.throws[-1]
    assert (game.state.colours[throw.by], game.state.colours[throw.colour], throw.count) == (
        "purple",
        "purple",
        1,
    )
    assert_conserved(game)


def test_withdrawal_example() -> None:
    # Orange sits at purple's left, then blue, then green.
    game = table_game(["purple", "orange", "blue", "green"], king="Granada", reveal=["withdrawal"])
    play_powers(game, {"purple": 9, "orange": 8, "blue": 5, "green": 3})
    set_position(
        game,
        board={
            "Aragon": {"orange": 2, "purple": 1},
            "Valencia": {"blue": 1, "green": 1},
            "Galicia": {"blue": 1},
            "Toledo": {"green": 2},
            "Castilla": {"green": 1},
            "Granada": {"green": 2},
        },
        court={"orange": 4, "blue": 2, "green": 0},
    )
    provinces = list(game.state.province)
    game.apply("take 0")
    game.apply("card withdrawal")
    game.apply("special")
    assert acting(game) == ["orange"]
    assert of_kind(game, "return") == {"orange court", "orange Aragon"}
    for _ in range(3):
        game.apply("return orange court")
    assert acting(game) == ["blue"]
    game.apply("return blue court")
    game.apply("return blue court")
    game.apply("return blue Valencia")
    assert acting(game) == ["green"]
    # Never from the King's region (Granada), and green's court is empty.
    assert of_kind(game, "return") == {"green Toledo", "green Valencia", "green Castilla"}
    game.apply("return green Toledo")
    game.apply("return green Toledo")
    game.apply("return green Valencia")
    assert acting(game) == ["purple"]
    assert [count(game, "court", c) for c in ("orange", "blue", "green")] == [1, 0, 0]
    assert count(game, "Aragon", "orange") == 2
    assert (count(game, "Valencia", "blue"), count(game, "Galicia", "blue")) == (0, 1)
    assert (count(game, "Toledo", "green"), count(game, "Valencia", "green")) == (0, 0)
    assert (count(game, "Castilla", "green"), count(game, "Granada", "green")) == (1, 2)
    assert [game.state.province[p] - provinces[p] for p in range(4)] == [0, 3, 3, 3]
    assert_conserved(game)


def test_coup_example() -> None:
    game = table_game(king="Galicia", reveal=["coup"])
    play_powers(game, PURPLE_FIRST)
    set_position(game, board={"Toledo": {"purple": 2, "orange": 1, "blue": 2, "green": 2}})
    game.apply("take 0")
    game.apply("card coup")
    game.apply("special")
    assert of_kind(game, "region") == {r.ascii for r in game.state.regions} - {"Galicia"}
    game.apply("region Toledo")
    assert sorted(acting(game)) == ["blue", "green", "orange"]
    elsewhere = {r.ascii for r in game.state.regions} - {"Galicia", "Toledo"}
    assert of_kind(game, "disc", "orange") == elsewhere
    game.apply("disc Cataluna", game.state.colour("orange"))
    # Secret until all are set: others see only who has set a disc.
    step = game.view(game.state.colour("purple"))["step"]
    assert step["set"] == ["orange"] and "my_disc" not in step
    assert game.view(game.state.colour("orange"))["step"]["my_disc"] == "Cataluna"
    assert count(game, "Cataluna", "orange") == 0
    game.apply("disc Granada", game.state.colour("blue"))
    game.apply("disc Valencia", game.state.colour("green"))
    assert count(game, "Cataluna", "orange") == 1
    assert count(game, "Granada", "blue") == 2
    assert count(game, "Valencia", "green") == 2
    assert [count(game, "Toledo", c) for c in PLAYERS] == [2, 0, 0, 0]  # yours stay
    assert acting(game) == ["purple"]
    assert_conserved(game)


def test_alternative_cards_each_replace_a_random_card_of_their_deck() -> None:
    data = Game(Options()).state.data
    alternatives = tuple(c.id for c in data.cards.values() if c.alternative)
    game = Game(Options(alternatives=alternatives))
    game.apply("first purple")
    while game.state.phase != "setup_king":  # the cards set aside are chance steps at the table
        game.apply(game.legal_actions()[0])
    for deck in range(1, 5):
        cards = game.state.decks[deck]
        assert len(cards) == 10, deck
        base = Counter(data.deck_cards(deck))
        added = [c for c in alternatives if data.cards[c].deck == deck]
        assert Counter(cards) - base == Counter(added)
        assert sum((base - Counter(cards)).values()) == len(added)  # one set aside per card
