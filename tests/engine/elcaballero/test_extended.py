"""The extended game (the seed's "Rozšiřující pravidla", the reference's §7): one rulebook
statement per test, then the gaps EC-8 and EC-24 ... EC-30 with their options."""

from __future__ import annotations

import random

import pytest

from engine.core.errors import IllegalAction, OptionsError
from engine.elcaballero import rounds
from engine.elcaballero.board import key_of
from engine.elcaballero.cards import card_from_text
from engine.elcaballero.extended import GRANDE_COURT
from engine.elcaballero.game import Game
from engine.elcaballero.options import Options
from engine.elcaballero.scoring import caballero_totals
from engine.elcaballero.spec import SPEC
from tests.engine.elcaballero.helpers import LAND, SEA, powers, put_caballero, table_game

ISLAND_W = "LE+SNSW"  # land on the east edge only, sea on three sides
ISLAND_E = "LW+SNES"  # its mirror: together, the rulebook's closed island of two cards
RING_LAKE = "LNESW+S"  # land all round a lake touching no edge (closed from the start)


def refused(game: Game, action: str, key: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        game.apply(action)
    assert caught.value.key == "elcaballero.refuse." + key, caught.value.reason
    return caught.value


def extended_game(
    market: tuple[str, ...] = (LAND, LAND, LAND, SEA, SEA), **options: object
) -> Game:
    """Red's turn (power 13) in an extended 3-player game, red's court raised to 20."""
    game = table_game(market=market, extended=True, **options)
    powers(game, 13, 3, 2)
    game.state.court[0] = 20
    return game


def two_islands(**options: object) -> Game:
    """The start island at 0,0 and another one at 2,0: cell 1,0 touches land W and E."""
    game = extended_game(**options)
    game.state.board.place_area(card_from_text(LAND), 0, 2, 0)
    return game


def red_total(game: Game, x: int, y: int) -> int:
    root = game.state.board.region_at(x, y, 0)
    return caballero_totals(game.state.board, game.state.rules.layout, game.state.n).get(
        root, [0, 0, 0]
    )[0]


# ------------------------------------------------------------------ setup and rounds
def test_rulebook_extended_setup_all_cards_ships_castillos_5_governors_and_a_grande() -> None:
    game = table_game(extended=True)
    assert game.state.stack == [10, 10, 10]
    assert game.state.ship_supply == 16 and game.state.castillo_supply == 16
    assert game.state.governors_left == [5, 5, 5]
    assert game.state.grande_at == [GRANDE_COURT] * 3
    assert game.view()["players"][0]["grande"] == "court"


def test_rulebook_extended_10_rounds_scorings_after_rounds_4_7_and_10() -> None:
    game = SPEC.new_state(SPEC.test_options(3)[2])
    assert isinstance(game, Game) and game.options.extended
    rng = random.Random(2)
    while not game.is_terminal():
        game.apply(rng.choice(game.legal_actions()))
    assert game.state.round == 10 and [s["round"] for s in game.state.scorings] == [4, 7, 10]
    assert sum(len(h) for h in game.state.hands) == 3 * 3  # 10 of the 13 power cards played


def test_the_extended_verbs_are_refused_in_the_base_game() -> None:
    game = table_game()
    powers(game, 13, 3, 2)
    put_caballero(game, 0, 0, -1)
    refused(game, "grande 0,-1", "extended_only")
    refused(game, "governor 0,0 0", "extended_only")
    assert not any(a.kind == "grande" for a in game.legal_actions())


# ------------------------------------------------------------------ Governors
def test_rulebook_example_closed_island_of_two_cards_takes_a_governor_for_1() -> None:
    game = table_game(start=ISLAND_W, market=(ISLAND_E, LAND, LAND, SEA, SEA), extended=True)
    powers(game, 13, 3, 2)
    refused(game, "governor 0,0 0", "not_closed")  # the island's east edge faces nothing yet
    game.apply("area 1 1,0N")
    assert "governor 0,0 0" in [str(a) for a in game.legal_actions()]
    game.apply("governor 1,0 0")  # any card of the region names it
    assert game.state.court[0] == 4 and game.state.governors_left[0] == 4
    assert game.view()["governors"] == [
        {"owner": "red", "cell": "0,0", "region": 0, "type": "land", "ship": False}
    ]


def test_rulebook_a_region_facing_a_caballero_card_is_not_closed() -> None:
    game = table_game(start=ISLAND_W, extended=True)
    powers(game, 13, 3, 2)
    put_caballero(game, 1, 1, 0)  # blue's card faces the island's only edge
    refused(game, "governor 0,0 0", "not_closed")


def test_rulebook_a_closed_lake_can_take_a_governor_too() -> None:
    game = extended_game(market=(RING_LAKE, LAND, LAND, SEA, SEA))
    game.apply("area 1 1,0N")
    game.apply("governor 1,0 1")  # region 1 of the ring card: its lake
    assert game.view()["governors"][0]["type"] == "sea"


def test_rulebook_at_most_one_governor_per_closed_region() -> None:
    game = extended_game(market=(RING_LAKE, LAND, LAND, SEA, SEA))
    game.apply("area 1 1,0N")
    game.apply("governor 1,0 1")
    refused(game, "governor 1,0 1", "governed")
    game.apply("done")
    refused(game, "governor 1,0 1", "governed")  # nor by anyone else


def test_rulebook_five_governors_a_player() -> None:
    game = extended_game(market=(RING_LAKE, LAND, LAND, SEA, SEA))
    game.apply("area 1 1,0N")
    game.state.governors_left[0] = 0
    refused(game, "governor 1,0 1", "no_governor_left")


def test_rulebook_a_governor_stays_to_the_end_and_scores_at_each_scoring() -> None:
    game = table_game(start=ISLAND_W, market=(ISLAND_E, LAND, LAND, SEA, SEA), extended=True)
    powers(game, 13, 3, 2)
    game.apply("area 1 1,0N")
    game.apply("governor 0,0 0")
    rounds.score(game.state)
    rounds.score(game.state)
    assert [s["totals"]["red"] for s in game.state.scorings] == [4, 4]
    assert len(game.state.board.governors) == 1


def test_rulebook_closed_island_with_your_governor_scores_double() -> None:
    start = "LE+SNSW"
    game = table_game(start=start, market=("LWg1+SNES", LAND, LAND, SEA, SEA), extended=True)
    powers(game, 13, 3, 2)
    game.apply("area 1 1,0N")
    game.apply("governor 0,0 0")
    rounds.score(game.state)
    island = next(r for r in game.state.scorings[0]["regions"] if r.get("governor"))
    assert island["governor"] == "red" and island["points"] == {"red": 2 * (2 + 1)}


def test_rulebook_closed_lake_scores_single_and_only_with_your_ship_on_it() -> None:
    game = extended_game(market=("LNESW+Sf2", LAND, LAND, SEA, SEA))
    game.apply("area 1 1,0N")
    game.apply("governor 1,0 1")
    rounds.score(game.state)
    assert game.state.scorings[-1]["totals"]["red"] == 0  # no ship: nothing
    game.apply("lakeship 1,0 1")  # EC-8: bought for 2, one of the turn's ships
    assert (
        game.state.court[0] == 20 - 1 - 2
        and game.state.ship_supply == 15
        and game.state.turn[4] == 1
    )
    rounds.score(game.state)
    lake = next(r for r in game.state.scorings[-1]["regions"] if r.get("governor"))
    assert lake["points"] == {"red": 1 + 2}  # 1 per card + 1 per fish
    assert (
        game.state.scorings[-1]["ships"] == []
    )  # EC-30: the lake's ship scores with the lake only


def test_rulebook_at_most_one_ship_per_lake_and_only_the_governors_owner() -> None:
    game = extended_game(market=(RING_LAKE, LAND, LAND, SEA, SEA))
    game.apply("area 1 1,0N")
    game.apply("governor 1,0 1")
    game.apply("lakeship 1,0 1")
    refused(game, "lakeship 1,0 1", "lake_ship_there")
    game.apply("done")
    refused(game, "lakeship 1,0 1", "lake_not_yours")


def test_ec8_option_no_ship_on_a_closed_lake() -> None:
    game = extended_game(market=(RING_LAKE, LAND, LAND, SEA, SEA), lake_ship="none")
    game.apply("area 1 1,0N")
    game.apply("governor 1,0 1")
    refused(game, "lakeship 1,0 1", "lake_ship_off")
    assert not any(a.kind == "lakeship" for a in game.legal_actions())


# ------------------------------------------------------------------ the Grande
def test_rulebook_the_grande_costs_2_and_goes_on_your_own_card() -> None:
    game = extended_game()
    game.apply("knight 0,-1S 3")
    game.apply("grande 0,-1")
    assert game.state.court[0] == 20 - 3 - 2 and game.state.board.caballeros[key_of(0, -1)].grande
    assert game.view()["players"][0]["grande"] == "0,-1"
    refused(game, "grande 0,-1", "grande_on_map")
    game.apply("area 1 -1,0N")
    game.apply("done")
    refused(game, "grande 0,-1", "not_yours")


def test_rulebook_way_1_land_arriving_later_next_to_the_grande_counts_for_free() -> None:
    game = extended_game()
    game.apply("area 1 -1,0N")
    game.apply("knight 0,-1S 3")  # front unturned: S 3, W 4
    game.apply("grande 0,-1")
    game.apply("done")
    court = game.state.court[0]
    game.apply("area 1 -1,-1N")  # blue's land reaches the west side of red's card
    assert key_of(0, -1) in game.state.board.caballeros  # protected: not removed
    assert red_total(game, 0, 0) == 3 + 4 and game.state.court[0] == court  # nothing paid


def test_rulebook_a_card_with_the_grande_is_not_turned() -> None:
    game = extended_game()
    game.apply("knight 0,-1S 3")
    game.apply("grande 0,-1")
    refused(game, "raise 0,-1S 6", "grande_fixed")


def test_rulebook_a_card_with_the_grande_may_carry_ships_and_a_castillo() -> None:
    game = extended_game()
    game.state.board.place_area(card_from_text(SEA), 0, 1, -1)
    game.apply("knight 0,-1S 3")
    game.apply("grande 0,-1")
    game.apply("ship 0,-1E")
    game.apply("castillo 0,-1")
    card = game.state.board.caballeros[key_of(0, -1)]
    assert card.grande and card.castillo and card.ships == 1 << 1


def test_rulebook_way_2_a_card_on_several_lands_with_the_grande_pays_the_highest_number() -> None:
    game = two_islands()
    refused(game, "knight 1,0W 4", "two_lands")  # without the Grande it cannot lie there
    refused(game, "knightgrande 1,0E 2", "grande_highest")  # W would show 4
    game.apply("knightgrande 1,0W 4")
    assert game.state.court[0] == 20 - 4 - 2  # the highest land number + the Grande (EC-25)
    assert red_total(game, 0, 0) == 4 and red_total(game, 2, 0) == 2  # both numbers count
    assert (
        game.state.stack[0] == 9 and game.state.turn[3] == 1
    )  # one of the turn's 0-2 cards (EC-28)


def test_ec25_option_a_card_placed_with_the_grande_pays_only_the_highest_number() -> None:
    game = two_islands(grande_pays_its_price=False)
    game.apply("knightgrande 1,0W 4")
    assert game.state.court[0] == 20 - 4


def test_rulebook_way_2_with_the_grande_moved_from_another_card() -> None:
    game = two_islands()
    game.apply("knight 0,-1S 3")
    game.apply("grande 0,-1")  # from the court, then moved in the same turn (EC-28)
    game.apply("knightgrande 1,0W 4")
    assert game.state.court[0] == 20 - 3 - 2 - 4 - 1
    assert (
        game.state.grande_at[0] == key_of(1, 0)
        and not game.state.board.caballeros[key_of(0, -1)].grande
    )
    refused(game, "movegrande 1,0 0,-1", "grande_moved")


def test_rulebook_moving_the_grande_costs_1_and_once_a_turn() -> None:
    game = extended_game()
    game.apply("area 1 1,0N")
    game.apply("knight 0,-1S 3")
    game.apply("knight 0,1N 1")
    game.apply("grande 0,-1")
    game.apply("movegrande 0,-1 0,1")
    assert game.state.court[0] == 20 - 3 - 1 - 2 - 1
    refused(game, "movegrande 0,1 0,-1", "grande_moved")
    refused(game, "movegrande 0,-1 0,1", "grande_moved")


def grande_between_two_islands(castillo: bool, **options: object) -> Game:
    """Red's card at 1,0 touches both islands (W 4, E 2) and carries the Grande from the court,
    a ship on its north edge (a sea card at 1,-1) and maybe a castillo; red's second card lies
    at 0,-1. Red's court is then 20 again, and the Grande has not moved this turn."""
    game = two_islands(**options)
    game.state.board.place_area(card_from_text(SEA), 0, 1, -1)
    game.apply("knightgrande 1,0W 4")
    game.apply("ship 1,0N")
    if castillo:
        game.apply("castillo 1,0")
    game.apply("knight 0,-1S 3")
    game.state.court[0] = 20
    return game


def test_rulebook_the_grande_leaving_a_card_on_several_lands_removes_it_caballeros_lost() -> None:
    game = grande_between_two_islands(castillo=False)
    game.apply("movegrande 1,0 0,-1")
    assert key_of(1, 0) not in game.state.board.caballeros and game.state.stack[0] == 9
    assert game.state.court[0] == 20 - 1  # its caballeros are lost
    assert game.state.ship_supply == 16  # EC-24: its ship to the supply, as for any removal
    assert game.state.board.caballeros[key_of(0, -1)].grande


def test_rulebook_the_grande_leaving_a_castillo_card_returns_its_highest_land_number() -> None:
    game = grande_between_two_islands(castillo=True)
    game.apply("movegrande 1,0 0,-1")
    assert key_of(1, 0) not in game.state.board.caballeros
    assert game.state.court[0] == 20 - 1 + 4  # the highest number it had facing land
    assert game.state.castillo_supply == 16 and game.state.court_ships[0] == 1


def test_ec24_option_ships_of_a_card_the_grande_left_go_to_the_court() -> None:
    game = grande_between_two_islands(castillo=False, grande_ships_as_removal=False)
    game.apply("movegrande 1,0 0,-1")
    assert game.state.court_ships[0] == 1 and game.state.ship_supply == 15


def test_the_grande_leaving_a_card_on_one_land_leaves_it_in_place() -> None:
    game = extended_game()
    game.apply("area 1 1,0N")
    game.apply("knight 0,-1S 3")
    game.apply("knight 0,1N 1")
    game.apply("grande 0,-1")
    game.apply("movegrande 0,-1 0,1")
    assert key_of(0, -1) in game.state.board.caballeros
    game.state.turn[3] = 0
    game.apply("raise 0,-1S 6")  # it may be turned again once the Grande has left


def test_ec26_the_no_tie_rule_holds_on_every_land_the_new_card_touches() -> None:
    game = two_islands()
    put_caballero(game, 1, 2, -1, rotation=1)  # blue's front at 2,-1: S shows 2 on island 2,0
    error = refused(game, "knightgrande 1,0W 4", "tie")  # W 4 on 0,0 and E 2 on 2,0
    assert error.params == {"colour": "blue", "total": 2, "cell": "2,0"}


def test_ec26_option_the_no_tie_rule_only_on_the_paid_side() -> None:
    game = two_islands(grande_no_tie_everywhere=False)
    put_caballero(game, 1, 2, -1, rotation=1)
    game.apply("knightgrande 1,0W 4")  # E 2 ties blue's 2: allowed by this option
    game = two_islands(grande_no_tie_everywhere=False)
    put_caballero(game, 1, 2, -1)  # blue's S shows 3 on island 2,0
    refused(game, "knightgrande 1,0E 3", "tie")  # E 3 is the paid side (W shows 1)


def test_ec27_withdrawing_the_grande_card_brings_the_grande_home_or_is_refused() -> None:
    game = extended_game()
    game.apply("knight 0,-1S 3")
    game.apply("grande 0,-1")
    game.state.placed_now.clear()  # a later turn
    game.apply("withdraw 0,-1")
    assert game.state.grande_at[0] == GRANDE_COURT and game.state.stack[0] == 10
    game = extended_game(withdraw_grande_card=False)
    game.apply("knight 0,-1S 3")
    game.apply("grande 0,-1")
    game.state.placed_now.clear()
    refused(game, "withdraw 0,-1", "grande_withdraw")


def test_every_extended_refusal_keeps_the_state() -> None:
    game = two_islands()
    before = game.snapshot()
    for action, key in (
        ("movegrande 0,0 1,0", "grande_in_court"),
        ("governor 5,5 0", "no_area"),
        ("governor 0,0 3", "no_region"),
        ("knightgrande 0,-1S 3", "grande_needs_lands"),
        ("knightgrande 1,0N 4", "grande_face_land"),
    ):
        refused(game, action, key)
        assert game.snapshot() == before


def test_extended_options_are_named_and_round_trip() -> None:
    options = Options(players=("red", "blue"), extended=True, lake_ship="none")
    assert SPEC.options_from_json(SPEC.options_to_json(options)) == options
    with pytest.raises(OptionsError) as caught:
        SPEC.options_from_json({"players": ["red", "blue"], "lake_ship": "free"})
    assert set(caught.value.errors) == {"lake_ship"}
