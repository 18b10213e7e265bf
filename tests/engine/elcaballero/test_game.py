"""The base game's flow, one rulebook statement per test (docs/elcaballero-rules.md), in table
mode with the cards entered as descriptions."""

from __future__ import annotations

import random

import pytest

from engine.core.errors import IllegalAction, UndoError
from engine.elcaballero import checks
from engine.elcaballero.board import key_of
from engine.elcaballero.cards import card_from_text
from engine.elcaballero.game import Game
from engine.elcaballero.options import Options
from engine.elcaballero.scoring import caballero_totals
from tests.engine.elcaballero.helpers import LAND, SEA, powers, put_caballero, table_game


def refused(game: Game, action: str, key: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        game.apply(action)
    assert caught.value.key == "elcaballero.refuse." + key, caught.value.reason
    return caught.value


def test_rulebook_setup_start_card_shows_neither_gold_nor_fish() -> None:
    game = Game(Options(players=("red", "blue")))
    refused(game, "start LNg1+SESW", "start_card")
    refused(game, "start LN+SESWf1", "start_card")
    game.apply("start LN+SESW")
    assert game.state.board.areas[key_of(0, 0)].card.text == "LN+SESW"


def test_ec4_the_start_card_shows_land_by_default_and_an_option_lifts_it() -> None:
    refused(Game(Options(players=("red", "blue"))), "start SNESW", "start_card")
    Game(Options(players=("red", "blue"), start_card_needs_land=False)).apply("start SNESW")


def test_rulebook_setup_courts_of_5_and_8_caballero_cards_12_ships_12_castillos() -> None:
    game = table_game()
    assert game.state.court == [5, 5, 5] and game.state.stack == [8, 8, 8]
    assert game.state.ship_supply == 12 and game.state.castillo_supply == 12


def test_rulebook_market_of_5_then_the_power_cards() -> None:
    game = table_game()
    assert len(game.state.market) == 5 and game.state.phase == "power"
    assert game.current_players() == (0,)  # round 1: the youngest (listed first) starts


def test_rulebook_no_power_value_twice_in_a_round() -> None:
    game = table_game()
    powers(game, 5)
    error = refused(game, "power 5", "power_taken")
    assert error.params == {"value": 5}


def test_rulebook_the_highest_power_card_plays_first() -> None:
    game = table_game()
    powers(game, 3, 11, 7)
    assert game.state.phase == "turn" and [game.options.players[p] for p in game.state.order] == [
        "blue",
        "green",
        "red",
    ]


def play_minimal_turns(game: Game) -> None:
    """Every seat of the round places its area card somewhere legal and ends the turn."""
    while game.state.phase == "turn":
        area = next(a for a in game.legal_actions() if a.kind == "area")
        game.apply(area)
        if game.state.turn[2] > game.state.turn[1]:
            game.apply(next(a for a in game.legal_actions() if a.kind == "area"))
        game.apply("done")


def test_rulebook_the_last_in_turn_order_starts_the_next_round() -> None:
    game = table_game()
    powers(game, 11, 3, 7)  # order red, green, blue
    play_minimal_turns(game)
    assert game.state.phase == "reveal"  # the market is refilled to 5
    for _ in range(3):
        game.apply(f"reveal {LAND}")
    assert game.state.phase == "power" and game.state.round == 2
    assert game.current_players() == (1,)  # blue was last


def test_rulebook_unused_market_cards_stay_and_the_market_is_refilled_to_5() -> None:
    game = table_game(market=(LAND, "LNESWg1", LAND, SEA, SEA))
    powers(game, 11, 3, 7)
    play_minimal_turns(game)
    left = [c.text for c in game.state.market]
    assert len(left) == 2
    for _ in range(3):
        game.apply("reveal LN+SESW")
    assert [c.text for c in game.state.market][:2] == left and len(game.state.market) == 5


def test_rulebook_power_card_9_places_two_area_cards() -> None:
    game = table_game()
    powers(game, 9, 3, 2)
    game.apply("area 1 1,0N")
    refused(game, "done", "area_missing")
    game.apply("area 1 -1,0N")
    game.apply("done")
    assert len(game.state.board.areas) == 3


def test_rulebook_only_the_area_card_is_compulsory() -> None:
    game = table_game()
    powers(game, 13, 3, 2)
    refused(game, "done", "area_missing")
    game.apply("area 1 1,0N")
    game.apply("done")
    assert game.current_players() == (1,)


def test_rulebook_reinforcements_add_the_power_cards_caballeros() -> None:
    game = table_game()
    powers(game, 6, 3, 2)
    game.apply("reinforce")
    assert game.state.court[0] == 5 + 4
    refused(game, "reinforce", "reinforced")


def test_ec15_reinforcements_can_be_automatic() -> None:
    game = table_game(automatic_reinforcements=True)
    powers(game, 6, 3, 2)
    assert game.state.court[0] == 9


def test_rulebook_a_caballero_card_pays_the_number_facing_land() -> None:
    game = table_game()
    powers(game, 13, 3, 2)
    game.apply("knight 0,-1S 3")  # the start card's land lies south of 0,-1
    assert game.state.court[0] == 2 and game.state.stack[0] == 7
    card = game.state.board.caballeros[key_of(0, -1)]
    assert checks.number(game.state, card, 2) == 3


def test_rulebook_the_number_must_face_the_land() -> None:
    game = table_game()
    powers(game, 13, 3, 2)
    refused(game, "knight 0,-1N 3", "face_land")


def test_rulebook_a_card_next_to_sea_only_goes_front_up_and_costs_1() -> None:
    game = table_game(start="LN+SESW")
    powers(game, 13, 3, 2)
    refused(game, "knight 0,1N 5", "sea_front")
    game.apply("knight 0,1N 4")
    assert game.state.court[0] == 4


def test_rulebook_a_sea_card_gaining_land_later_counts_at_no_cost() -> None:
    game = table_game(start="LN+SESW", market=("LSE+SNW", "LSW+SNE", LAND, SEA, SEA))
    powers(game, 9, 3, 2)
    game.apply("knight 1,0N 1")  # next to the start card's sea only: 1 caballero
    game.apply("area 1 0,-1N")
    game.apply("area 1 1,-1N")  # its south land now faces the card's north edge (1)
    assert game.state.court[0] == 4
    island = game.state.board.region_at(0, 0, 0)
    assert island == game.state.board.region_at(1, -1, 0)
    assert caballero_totals(game.state.board, game.state.rules.layout, 3)[island] == [1, 0, 0]


def test_rulebook_several_cards_of_one_player_add_up_and_the_no_tie_rule() -> None:
    game = table_game()
    put_caballero(game, 1, -1, 0)  # blue: front, unturned: its east edge (2) faces the land
    powers(game, 13, 3, 2)
    error = refused(game, "knight 0,-1S 2", "tie")
    assert error.params == {"colour": "blue", "total": 2, "cell": "0,0"}
    game.apply("knight 0,-1S 1")
    error = refused(game, "knight 0,1N 1", "tie")  # 1 + 1 would equal blue's 2
    game.apply("knight 0,1N 3")


def test_rulebook_a_card_may_not_touch_land_on_two_sides() -> None:
    game = table_game()
    game.state.board.place_area(card_from_text(LAND), 0, 1, 0)
    game.state.board.place_area(card_from_text(LAND), 0, 0, -1)
    powers(game, 13, 3, 2)
    error = refused(game, "knight 1,-1S 3", "two_lands")
    assert error.params == {"count": 2}


def test_rulebook_at_most_two_caballero_cards_placed_or_raised_per_turn() -> None:
    game = table_game()
    powers(game, 13, 3, 2)
    game.state.court[0] = 20
    game.apply("knight 0,-1S 1")
    game.apply("raise 0,-1S 2")
    refused(game, "knight 0,1N 1", "knights_done")


def test_ec13_a_card_is_only_turned_higher() -> None:
    game = table_game()
    powers(game, 13, 3, 2)
    game.apply("knight 0,-1S 3")
    refused(game, "raise 0,-1S 2", "raise_lower")


def test_rulebook_raising_pays_the_difference() -> None:
    game = table_game()
    powers(game, 13, 3, 2)
    game.state.court[0] = 12
    game.apply("knight 0,-1S 2")
    game.apply("raise 0,-1S 6")  # flipped to the back: 6 faces the land
    assert game.state.court[0] == 12 - 2 - 4


def test_rulebook_a_ship_costs_2_and_goes_on_an_edge_facing_sea() -> None:
    game = table_game(start="LN+SESW")
    powers(game, 13, 3, 2)
    game.apply("knight 1,0N 1")  # sea only: 1
    refused(game, "ship 1,0N", "ship_not_sea")
    game.apply("ship 1,0W")
    assert game.state.court[0] == 2 and game.state.ship_supply == 11
    refused(game, "ship 1,0W", "ship_there")


def test_rulebook_a_castillo_costs_1_and_one_per_card() -> None:
    game = table_game()
    powers(game, 13, 3, 2)
    game.apply("knight 0,-1S 1")
    game.apply("castillo 0,-1")
    assert game.state.court[0] == 3 and game.state.castillo_supply == 11
    refused(game, "castillo 0,-1", "castillo_there")


def crowded_setup(castillo: bool) -> Game:
    """Red's card at 1,0 faces the start card's land (W, number 4) and a sea (E) with a ship;
    a land card laid at 1,-1 will touch it from the north."""
    game = table_game(market=(LAND, LAND, LAND, SEA, SEA))
    game.state.board.place_area(card_from_text(LAND), 0, 0, -1)
    game.state.board.place_area(card_from_text(SEA), 0, 2, 0)
    card = put_caballero(game, 0, 1, 0)  # front unturned: W shows 4
    card.ships = 1 << 1
    game.state.ship_supply -= 1
    if castillo:
        card.castillo = True
        game.state.castillo_supply -= 1
    powers(game, 13, 3, 2)
    return game


def test_rulebook_removal_without_castillo_loses_caballeros_and_ships() -> None:
    game = crowded_setup(castillo=False)
    game.apply("area 1 1,-1N")
    assert key_of(1, 0) not in game.state.board.caballeros
    assert (
        game.state.stack[0] == 8 and game.state.court[0] == 5
    )  # the card back, its caballeros lost
    assert game.state.ship_supply == 12 and game.state.court_ships[0] == 0  # its ship to the supply


def test_rulebook_removal_with_castillo_returns_caballeros_and_ships_to_court() -> None:
    game = crowded_setup(castillo=True)
    game.apply("area 1 1,-1N")
    assert key_of(1, 0) not in game.state.board.caballeros
    assert game.state.court[0] == 5 + 4  # EC-22: the number that faced land before
    assert game.state.court_ships[0] == 1 and game.state.castillo_supply == 12


def test_ec9_option_keeps_a_card_whose_two_sides_face_one_island() -> None:
    game = crowded_setup(castillo=False)
    game.state.options = Options(players=game.options.players, remove_on_same_island=False)
    game.apply("area 1 1,-1N")  # 1,-1 joins the start card's island through 0,-1
    assert key_of(1, 0) in game.state.board.caballeros


def test_rulebook_withdrawing_with_a_castillo_returns_its_caballeros() -> None:
    game = crowded_setup(castillo=True)
    game.apply("withdraw 1,0")
    assert (
        game.state.court[0] == 5 + 4
        and game.state.court_ships[0] == 1
        and game.state.castillo_supply == 12
    )
    assert game.state.stack[0] == 8


def test_ec19_a_card_placed_this_turn_is_not_withdrawn() -> None:
    game = table_game()
    powers(game, 13, 3, 2)
    game.apply("knight 0,-1S 1")
    refused(game, "withdraw 0,-1", "placed_now")


def test_rulebook_moving_a_ship_and_putting_one_back_cost_1_each() -> None:
    game = crowded_setup(castillo=False)
    game.state.board.place_area(card_from_text(SEA), 0, 2, 1)
    put_caballero(game, 0, 1, 1)  # red's second card: N faces... its E faces the sea at 2,1
    game.apply("moveship 1,0E 1,1E")
    assert game.state.court[0] == 4
    game.apply("shipback 1,1E")
    assert game.state.court_ships[0] == 1 and game.state.court[0] == 4
    game.apply("reship 1,0E")
    assert game.state.court[0] == 3 and game.state.court_ships[0] == 0


def test_ec10_reinforcements_beyond_the_courts_capacity_are_lost() -> None:
    game = table_game()
    game.state.stack[0] = 1  # one caballero card off the map: a court of 8 at most
    powers(game, 6, 3, 2)
    game.apply("reinforce")
    assert game.state.court[0] == 8


def test_undo_within_a_turn_never_past_the_power_cards() -> None:
    game = table_game()
    powers(game, 13, 3, 2)
    assert not game.can_undo(0)
    game.apply("knight 0,-1S 3")
    assert game.can_undo(0) and not game.can_undo(1)
    assert str(game.undo(0)) == "knight 0,-1S 3"
    assert game.state.court[0] == 5 and not game.state.board.caballeros
    game.apply("area 1 1,0N")
    game.apply("done")
    with pytest.raises(UndoError):
        game.undo(0)


def test_views_keep_each_hand_secret() -> None:
    game = table_game()
    powers(game, 13)
    mine, theirs, public = game.view(0), game.view(1), game.view(None)
    assert 13 not in mine["hand"] and len(mine["hand"]) == 12
    assert len(theirs["hand"]) == 13 and "hand" not in public
    assert all("hand" not in p for p in public["players"])
    assert public["power_played"] == {"red": 13}  # played cards lie face up


def test_rulebook_scorings_after_rounds_4_and_7() -> None:
    from engine.elcaballero.spec import SPEC

    game = SPEC.new_state(SPEC.test_options(3)[0])
    rng = random.Random(1)
    while not game.is_terminal():
        game.apply(rng.choice(game.legal_actions()))
    assert [s["round"] for s in game.state.scorings] == [4, 7]
    assert game.returns() == [
        sum(s["totals"][name] for s in game.state.scorings) for name in game.options.players
    ]


def test_every_refusal_has_a_translation_in_every_language() -> None:
    import json
    from pathlib import Path

    from engine.elcaballero.refusals import PREFIX, TEMPLATES

    root = Path(__file__).resolve().parents[3] / "host/games/elcaballero/static/i18n"
    for lang in ("en", "cs", "pl", "uk"):
        bundle = json.loads((root / lang / "engine.json").read_text(encoding="utf-8"))
        assert set(bundle) == {PREFIX + k for k in TEMPLATES}, lang
        for name, english in TEMPLATES.items():
            fields = sorted(part.split("}")[0] for part in english.split("{")[1:])
            said = sorted(part.split("}")[0] for part in bundle[PREFIX + name].split("{")[1:])
            assert said == fields, f"{lang} {name}: parameters {said} != {fields}"
