"""Scoring (reference §6): land regions by majority with gold, ties as the rulebook says (EC-6,
EC-14), every ship by its sea's cards and fish, Governors on closed regions (extended)."""

from __future__ import annotations

from engine.elcaballero.board import CaballeroCard, Map, key_of
from engine.elcaballero.cards import card_from_text
from engine.elcaballero.rules import load_rules
from engine.elcaballero.scoring import Governor, caballero_totals, land_points, score_map

LAYOUT = load_rules().layout
NAMES3 = ["red", "blue", "green"]


def test_rulebook_the_most_caballeros_score_2_per_card_and_2_per_gold() -> None:
    points, places, _ = land_points([5, 0, 0], cards=3, gold=2, players=3)
    assert points == [10, 0, 0] and places == [1, 0, 0]


def test_rulebook_second_most_scores_1_per_card_and_1_per_gold_with_3_or_4_players() -> None:
    assert land_points([5, 3, 0, 1], cards=3, gold=2, players=4)[0] == [10, 5, 0, 0]


def test_rulebook_no_second_place_with_2_players() -> None:
    assert land_points([5, 3], cards=3, gold=2, players=2)[0] == [10, 0]


def test_rulebook_tied_for_most_each_score_second_place_points() -> None:
    assert land_points([4, 4, 2], cards=3, gold=1, players=3)[0] == [4, 4, 0]


def test_ec14_three_tied_for_most_score_second_place_and_nobody_else_scores() -> None:
    assert land_points([4, 4, 4, 2], cards=2, gold=0, players=4)[0] == [2, 2, 2, 0]


def test_rulebook_tied_for_second_score_nothing() -> None:
    assert land_points([6, 2, 2], cards=2, gold=1, players=3)[0] == [6, 0, 0]


def test_ec6_two_players_tied_for_most_score_1_per_card_and_gold_by_default() -> None:
    assert land_points([3, 3], cards=2, gold=1, players=2)[0] == [3, 3]
    assert land_points([3, 3], 2, 1, 2, two_player_tie="nothing")[0] == [0, 0]


def test_a_region_without_caballeros_scores_nothing() -> None:
    assert land_points([0, 0, 0], cards=4, gold=2, players=3)[0] == [0, 0, 0]


def test_caballeros_count_the_number_on_the_edge_facing_the_land() -> None:
    board = Map()
    board.place_area(card_from_text("LNESW"), 0, 0, 0)
    # front 1-2-3-4 clockwise from north: the south edge shows 3; turned once, 2
    board.place_caballero(CaballeroCard(0, 0, 0, key_of(0, -1)))
    board.place_caballero(CaballeroCard(1, 1, 1, key_of(1, 0)))  # back, turned: west shows 7
    island = board.region_at(0, 0, 0)
    assert caballero_totals(board, LAYOUT, 2)[island] == [3, 7]


def test_rulebook_several_cards_of_one_player_on_one_region_add_up() -> None:
    board = Map()
    board.place_area(card_from_text("LNESW"), 0, 0, 0)
    board.place_caballero(CaballeroCard(0, 0, 0, key_of(0, -1)))  # 3
    board.place_caballero(CaballeroCard(0, 0, 0, key_of(0, 1)))  # north edge: 1
    assert caballero_totals(board, LAYOUT, 2)[board.region_at(0, 0, 0)] == [4, 0]


def test_rulebook_a_ship_scores_1_per_sea_card_and_1_per_fish() -> None:
    board = Map()
    board.place_area(card_from_text("LN+SESWf1"), 0, 0, 0)
    board.place_area(card_from_text("SNESWf2"), 0, 1, 0)
    board.place_area(card_from_text("SNESW"), 0, 0, 1)
    ship = CaballeroCard(1, 0, 0, key_of(1, 1))
    ship.ships = 1 | 8  # ships on its north and west edges: both on the same sea
    board.place_caballero(ship)
    result = score_map(board, LAYOUT, NAMES3)
    assert [s["points"] for s in result["ships"]] == [6, 6]  # 3 cards + 3 fish, each ship
    assert result["totals"] == {"red": 0, "blue": 12, "green": 0}


def test_rulebook_example_closed_island_of_two_cards_scores_double_for_its_governor() -> None:
    board = Map()
    board.place_area(card_from_text("LEg1+SNSW"), 0, 0, 0)
    board.place_area(card_from_text("LW+SNES"), 0, 1, 0)
    island = board.region_at(0, 0, 0)
    assert board.is_closed(island)
    result = score_map(board, LAYOUT, NAMES3, [Governor(2, island, False)])
    land = next(r for r in result["regions"] if r["type"] == "land")
    assert land["closed"] and land["governor"] == "green" and land["points"] == {"green": 6}
    assert result["totals"]["green"] == 6


def test_rulebook_closed_lake_scores_single_only_with_the_governors_ship() -> None:
    board = Map()
    board.place_area(card_from_text("LNESW+Sf1"), 0, 0, 0)
    lake = board.region_at(0, 0, 1)
    assert score_map(board, LAYOUT, NAMES3, [Governor(0, lake, True)])["totals"]["red"] == 2
    assert score_map(board, LAYOUT, NAMES3, [Governor(0, lake, False)])["totals"]["red"] == 0


def test_score_map_lists_every_region_with_why() -> None:
    board = Map()
    board.place_area(card_from_text("LNESWg1"), 0, 0, 0)
    board.place_area(card_from_text("LNESW"), 0, 1, 0)
    board.place_caballero(CaballeroCard(0, 1, 0, key_of(0, -1)))  # back: south shows 7
    board.place_caballero(CaballeroCard(1, 0, 0, key_of(1, -1)))  # front: 3
    board.place_caballero(CaballeroCard(2, 0, 2, key_of(0, 1)))  # front turned twice: 3
    result = score_map(board, LAYOUT, NAMES3)
    (land,) = result["regions"]
    assert land["size"] == 2 and land["gold"] == 1
    assert land["caballeros"] == {"red": 7, "blue": 3, "green": 3}
    assert land["places"] == {"red": 1, "blue": 2, "green": 2}
    assert land["points"] == {"red": 6}
    assert "tied for second" in land["why"]
