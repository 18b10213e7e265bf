"""The rulebook's gaps (the reference's EC-1 ... EC-34): a test named after the gap for what
the other test files do not show yet (the default, and the option where there is one).
docs/elcaballero-rules.md names each gap's tests; the last test here checks that every gap has
its row there and that the tests it names exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.core.errors import IllegalAction
from engine.elcaballero import checks, rounds
from engine.elcaballero.board import Governor, Map, key_of
from engine.elcaballero.cards import card_from_text
from engine.elcaballero.extended import GRANDE_COURT
from engine.elcaballero.game import Game
from engine.elcaballero.options import Options
from engine.elcaballero.rules import load_rules
from engine.elcaballero.scoring import caballero_totals, land_points, score_map
from engine.elcaballero.spec import SPEC
from tests.engine.elcaballero.helpers import LAND, SEA, powers, put_caballero, table_game

ROOT = Path(__file__).resolve().parents[3]
TIP_N = "LN+SESW"  # land reaching the north edge only, sea on the other three


def refused(game: Game, action: str, key: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        game.apply(action)
    assert caught.value.key == "elcaballero.refuse." + key, caught.value.reason
    return caught.value


def kinds(game: Game) -> set[str]:
    return {action.kind for action in game.legal_actions()}


def red_total(game: Game, x: int, y: int) -> int:
    root = game.state.board.region_at(x, y, 0)
    return caballero_totals(game.state.board, game.state.rules.layout, game.state.n).get(
        root, [0] * game.state.n
    )[0]


# ------------------------------------------------------------------ EC-1 ... EC-14
def test_ec1_a_ship_scores_its_sea_as_it_is_at_the_scoring() -> None:
    game = table_game(start=TIP_N, market=("SNESWf1", SEA, LAND, LAND, LAND))
    powers(game, 9, 3, 2)
    game.state.court[0] = 20
    game.apply("knight 1,0N 1")  # next to the start card's sea only
    game.apply("ship 1,0W")  # the sea is one card now
    game.apply("area 1 0,1N")  # the sea grows: a card with a fish
    game.apply("area 1 -1,0N")  # and another card
    rounds.score(game.state)
    assert [ship["points"] for ship in game.state.scorings[-1]["ships"]] == [3 + 1]


def test_ec2_caballeros_per_power_card() -> None:
    caballeros = load_rules().power_caballeros
    assert caballeros == (7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 0) and sum(caballeros) == 48
    for value in range(1, 14):
        game = table_game(players=("red", "blue"))
        powers(game, value, 13 if value < 13 else 1)
        if game.current_players() == (1,):  # blue's higher card first
            game.apply("area 1 1,0N")
            game.apply("done")
        game.apply("reinforce")
        assert game.state.court[0] == 5 + caballeros[value - 1], value


def test_ec3_cards_are_described_at_the_table_without_a_catalogue() -> None:
    game = table_game(market=("LNEg2+SSW", "SNESW+Lg1", "LN+LS+SEWf1", SEA, LAND))
    assert game.state.catalogue is None and game.state.pile_left == 48 - 1 - 5
    assert [card.text for card in game.state.market][:2] == ["LNEg2+SSW", "SNESW+Lg1"]
    fresh = Game(Options(players=("red", "blue")))
    fresh.apply(f"start {LAND}")
    refused(fresh, "reveal LNQ", "bad_card")
    with pytest.raises(ValueError, match="not the real cards"):
        Game(Options(players=("red", "blue"), mode="dealer"))


def test_ec5_caballero_card_numbers_run_clockwise_front_1_to_4_back_5_to_8() -> None:
    game = table_game()
    assert game.state.rules.layout == ((1, 2, 3, 4), (5, 6, 7, 8))
    front = put_caballero(game, 0, 5, 5)
    back = put_caballero(game, 1, 7, 7, side=1)
    turned = put_caballero(game, 2, 9, 9, rotation=1)  # a quarter turn clockwise
    assert [checks.number(game.state, front, s) for s in range(4)] == [1, 2, 3, 4]  # N E S W
    assert [checks.number(game.state, back, s) for s in range(4)] == [5, 6, 7, 8]
    assert [checks.number(game.state, turned, s) for s in range(4)] == [4, 1, 2, 3]


def test_ec7_a_tie_at_the_end_is_a_shared_victory() -> None:
    game = table_game(players=("red", "blue", "green"))
    game.state.scores = [12, 12, 7]
    game.state.phase = "over"
    assert game.is_terminal() and game.returns() == [12, 12, 7]
    assert SPEC.winners(game) is None  # no tie-break: the highest scores share the win


def test_ec8_a_lake_ship_comes_with_or_after_the_governor_as_one_of_the_turns_ships() -> None:
    game = table_game(market=("LNESW+S", LAND, LAND, SEA, SEA), extended=True)
    powers(game, 13, 3, 2)
    game.state.court[0] = 20
    game.apply("area 1 1,0N")
    game.apply("governor 1,0 1")
    game.apply("done")  # no ship yet
    game.apply("area 1 -1,0N")
    game.apply("done")
    game.apply("area 1 0,-1N")
    game.apply("done")
    for _ in range(3):
        game.apply(f"reveal {LAND}")
    powers(game, 10, 12, 11)  # green starts round 2; red plays the highest
    game.state.court[0] = 20
    game.state.turn[4] = 2  # red has bought its two ships this turn
    refused(game, "lakeship 1,0 1", "ships_bought")
    game.state.turn[4] = 1
    game.apply("lakeship 1,0 1")  # a later turn, for 2
    assert game.state.court[0] == 18 and game.state.turn[4] == 2


def test_ec10_option_no_court_capacity_keeps_every_reinforcement() -> None:
    game = table_game(court_capacity=False)
    game.state.stack[0] = 1  # one caballero card off the map: 8 at most with the limit
    powers(game, 12, 3, 2)
    game.state.court[0] = 8
    game.apply("reinforce")
    assert game.state.court[0] == 8 + 1


def test_ec11_the_market_is_refilled_as_far_as_the_pile_allows() -> None:
    game = table_game()
    game.state.pile_left = 2
    powers(game, 13, 3, 2)
    for _ in range(3):
        game.apply(next(a for a in game.legal_actions() if a.kind == "area"))
        game.apply("done")
    assert game.state.phase == "reveal" and len(game.state.market) == 2
    game.apply(f"reveal {LAND}")
    game.apply(f"reveal {LAND}")
    assert game.state.phase == "power" and len(game.state.market) == 4 and game.state.pile_left == 0
    assert game.state.round == 2


def test_ec12_no_market_card_fits_anywhere_so_the_turn_ends_without_one() -> None:
    game = table_game(market=(SEA,) * 5)  # sea cannot meet the all-land start card
    powers(game, 13, 3, 2)
    assert "area" not in kinds(game) and "done" in kinds(game)
    game.apply("done")
    assert len(game.state.board.areas) == 1 and game.current_players() == (1,)


# ------------------------------------------------------------------ EC-15 ... EC-23
def test_ec15_reinforcements_not_taken_are_forfeited() -> None:
    game = table_game()
    powers(game, 1, 3, 2)
    assert "reinforce" in kinds(game)
    game.apply("area 1 1,0N")
    game.apply("done")  # without the 7 caballeros
    assert game.state.court[0] == 5 and not game.state.turn[0]


def test_ec16_the_nines_second_card_is_compulsory_and_judged_after_the_first() -> None:
    game = table_game(market=(LAND, SEA, SEA, SEA, SEA))
    put_caballero(game, 0, 0, -1)  # red's card north of the all-land start card
    powers(game, 9, 3, 2)
    refused(game, "area 2 0,-2N", "no_contact")  # the land card fits by an area card
    game.apply("area 1 1,0N")
    # now only sea is left and no sea fits by an area card: the fallback, judged again
    refused(game, "done", "area_missing")
    game.apply("area 1 0,-2N")  # next to red's own caballero card
    game.apply("done")
    assert len(game.state.board.areas) == 3


def test_ec16_option_the_nines_second_card_is_optional() -> None:
    game = table_game(second_area_optional=True)
    powers(game, 9, 3, 2)
    refused(game, "done", "area_missing")  # the first card stays compulsory
    game.apply("area 1 1,0N")
    assert "done" in kinds(game)
    game.apply("done")
    assert len(game.state.board.areas) == 2


def test_ec17_the_fallback_is_compulsory_and_its_piece_joins_the_map_later() -> None:
    game = table_game(market=(SEA,) * 5)
    put_caballero(game, 0, 0, -1)  # red's card: S faces the all-land start card
    powers(game, 13, 3, 2)
    assert "done" not in kinds(game)
    refused(game, "done", "area_missing")
    game.apply("area 1 1,-1N")  # next to red's card only: a separate piece
    sea = game.state.board.region_at(1, -1, 0)
    assert game.state.board.region_cards(sea) == 1 and key_of(0, -1) in game.state.board.caballeros
    game.apply("done")
    game.state.market[0] = card_from_text("LW+SNES")  # blue's market card (a position for a test)
    game.apply("area 1 1,0N")  # its land W meets the start card, its sea N the piece
    assert game.state.board.region_at(1, 0, 1) == game.state.board.find(sea)
    assert game.state.board.region_at(1, 0, 0) == game.state.board.region_at(0, 0, 0)


def test_ec17_another_players_card_any_of_them_when_none_of_ones_own_has_room() -> None:
    game = table_game(market=(SEA,) * 5)
    put_caballero(game, 1, 0, -1)  # blue's card
    put_caballero(game, 2, 0, 1)  # green's card
    powers(game, 13, 3, 2)  # red has no caballero card on the map
    cells = {action.arg2[:-1] for action in game.legal_actions() if action.kind == "area"}
    assert {"0,-2", "1,-1", "0,2", "1,1"} <= cells  # by either player's card: red picks
    game.apply("area 1 0,2N")
    assert key_of(0, 2) in game.state.board.areas


def ships_and_castillos() -> Game:
    """Red's turn: three red cards next to the start card's sea (1,0 with a castillo, 0,1,
    -1,0), a ship at red's court, a court of 20."""
    game = table_game(start=TIP_N)
    for x, y in ((1, 0), (0, 1), (-1, 0)):
        put_caballero(game, 0, x, y)
    game.state.board.caballeros[key_of(1, 0)].castillo = True
    game.state.castillo_supply -= 1
    game.state.court_ships[0] = 1
    game.state.ship_supply -= 1
    powers(game, 13, 3, 2)
    game.state.court[0] = 20
    return game


def test_ec18_withdrawing_moving_and_redeploying_have_no_limit() -> None:
    game = ships_and_castillos()
    game.apply("ship 1,0W")
    game.apply("ship 0,1N")
    refused(game, "ship -1,0E", "ships_bought")
    game.apply("reship -1,0E")  # from the court: not one of the 1-2 ships bought
    for step in (
        "shipback 1,0W",
        "shipback 0,1N",
        "reship 1,0W",
        "moveship 1,0W 0,1N",
        "moveship 0,1N 1,0W",
        "moveship -1,0E 0,1N",
        "movecastillo 1,0 0,1",
        "movecastillo 0,1 -1,0",
        "movecastillo -1,0 1,0",
        "withdraw 1,0",
        "withdraw 0,1",
        "withdraw -1,0",
    ):
        game.apply(step)
    assert (
        not game.state.board.caballeros
        and game.state.stack[0] == 8
        and game.state.court_ships[0] == 3
    )


def test_ec18_a_castillo_is_not_taken_back_on_its_own() -> None:
    game = ships_and_castillos()
    castillo_steps = {
        str(a) for a in game.legal_actions() if a.arg == "1,0" and "castillo" in a.kind
    }
    assert castillo_steps == {"movecastillo 1,0 0,1", "movecastillo 1,0 -1,0"}
    game.apply("withdraw 1,0")  # only with its card, and then to the supply
    assert game.state.castillo_supply == 12


def test_ec19_a_card_withdrawn_this_turn_comes_back_next_turn() -> None:
    game = table_game()
    put_caballero(game, 0, 0, -1)
    game.state.stack[0] = 0  # every other card of red's is on the map too
    powers(game, 13, 3, 2)
    game.apply("withdraw 0,-1")
    assert game.state.stack[0] == 1
    refused(game, "knight 0,1N 1", "no_card_left")
    assert "knight" not in kinds(game)
    game.apply("area 1 1,0N")
    game.apply("done")
    game.state.turn[6] = 0  # red's next turn: the card is back in play
    assert checks.may_place_card(game.state, 0)


def ship_on_a_card_facing_land() -> Game:
    """Red's turn: red's card at 0,-1 shows 3 to the start card's land (S) and carries a ship
    on its E edge (a sea card at 1,-1)."""
    game = table_game()
    game.state.board.place_area(card_from_text(SEA), 0, 1, -1)
    powers(game, 13, 3, 2)
    game.state.court[0] = 20
    game.apply("knight 0,-1S 3")
    game.apply("ship 0,-1E")
    return game


def test_ec20_turning_rotates_and_flips_and_ships_keep_their_sides() -> None:
    game = ship_on_a_card_facing_land()
    game.apply("raise 0,-1S 6")  # flipped to the back and turned: 6 faces the land
    card = game.state.board.caballeros[key_of(0, -1)]
    assert card.side == 1 and checks.number(game.state, card, 2) == 6
    assert game.state.court[0] == 20 - 3 - 2 - 3  # the difference
    assert card.ships == 1 << 1  # the ship stays on the map's E side, still facing sea
    assert red_total(game, 0, 0) == 6  # the number under the ship does not count
    rounds.score(game.state)
    assert [s["points"] for s in game.state.scorings[-1]["ships"]] == [1]


def test_ec20_a_card_facing_no_land_is_not_turned() -> None:
    game = table_game(start=TIP_N)
    powers(game, 13, 3, 2)
    game.apply("knight 1,0N 1")
    refused(game, "raise 1,0N 2", "raise_no_land")
    assert "raise" not in kinds(game)


def test_ec21_the_last_caballero_card_onto_the_map_empties_the_court() -> None:
    game = table_game()
    powers(game, 13, 3, 2)
    game.state.stack[0] = 1
    game.apply("knight 0,-1S 2")
    assert game.state.stack[0] == 0 and game.state.court[0] == 0  # the 3 left are lost
    game.apply("reinforce")  # nothing: no card to show a court
    assert game.state.court[0] == 0


def test_ec21_option_the_court_is_kept_without_display_cards_up_to_8() -> None:
    game = table_game(last_card_empties_court=False)
    powers(game, 12, 3, 2)  # red's card 12 brings 1 caballero
    game.state.stack[0] = 1
    game.state.court[0] = 8
    game.apply("knight 0,-1S 2")
    assert game.state.stack[0] == 0 and game.state.court[0] == 6  # kept
    game.state.court[0] = 8
    game.apply("reinforce")
    assert game.state.court[0] == 8  # at most one card's 8


def test_ec22_a_castillo_returns_the_number_that_faced_land_zero_for_a_sea_card() -> None:
    game = table_game(start=TIP_N)
    powers(game, 13, 3, 2)
    game.apply("knight 1,0N 1")  # sea only: 1 paid
    game.apply("castillo 1,0")
    game.state.placed_now.clear()  # a later turn
    game.apply("withdraw 1,0")
    assert game.state.court[0] == 5 - 1 - 1  # nothing came back: no number faced land
    assert game.state.castillo_supply == 12


def test_ec23_ships_of_a_withdrawn_card_go_to_the_owners_court() -> None:
    game = ship_on_a_card_facing_land()
    game.state.placed_now.clear()  # a later turn
    game.apply("withdraw 0,-1")  # no castillo: the caballeros are lost, not the ship
    assert (
        game.state.court_ships[0] == 1
        and game.state.ship_supply == 11
        and game.state.court[0] == 20 - 5
    )


# ------------------------------------------------------------------ EC-28 ... EC-34
def test_ec28_a_card_placed_with_a_moved_grande_is_the_turns_one_move() -> None:
    game = table_game(extended=True)
    game.state.board.place_area(card_from_text(LAND), 0, 2, 0)  # 1,0 touches land W and E
    powers(game, 13, 3, 2)
    game.state.court[0] = 20
    game.apply("knight 0,-1S 3")
    game.apply("knight 0,1N 1")
    game.apply("grande 0,-1")
    game.apply("movegrande 0,-1 0,1")
    game.state.turn[3] = 0  # room for one more card (the 0-2 limit is its own test)
    refused(game, "knightgrande 1,0W 4", "grande_moved")
    game = table_game(extended=True)
    game.state.board.place_area(card_from_text(LAND), 0, 2, 0)
    powers(game, 13, 3, 2)
    game.state.court[0] = 20
    game.apply("knight 0,-1S 3")
    game.apply("grande 0,-1")
    game.apply("knightgrande 1,0W 4")  # moved with the card: the turn's move
    refused(game, "movegrande 1,0 0,-1", "grande_moved")
    assert game.state.turn[3] == 2 and game.state.grande_at[0] != GRANDE_COURT


def test_ec29_closed_is_geometry_even_where_no_caballero_card_may_lie() -> None:
    game = table_game(start="LE+SNSW", extended=True)  # an island reaching its E edge only
    game.state.board.place_area(card_from_text(TIP_N), 0, 1, 1)  # land reaching up to cell 1,0
    powers(game, 13, 3, 2)
    refused(game, "knight 1,0W 2", "two_lands")  # cell 1,0 takes no caballero card now
    island = game.state.board.region_at(0, 0, 0)
    assert not game.state.board.is_closed(island)  # but it is an empty cell next to the island
    refused(game, "governor 0,0 0", "not_closed")


def test_ec30_a_lakes_ship_scores_with_the_lake_once_not_as_a_ship_too() -> None:
    board = Map()
    board.place_area(card_from_text("LNESW+Sf2"), 0, 0, 0)  # a lake inside a ring of land
    lake = board.region_at(0, 0, 1)
    board.governors.append(Governor(1, lake, True))  # blue's Governor and ship
    result = score_map(board, load_rules().layout, ["red", "blue"], board.governors)
    assert result["ships"] == [] and result["totals"] == {"red": 0, "blue": 1 + 2}


def test_ec32_the_most_is_a_plurality_not_more_than_half() -> None:
    points, places, _ = land_points([4, 3, 2, 1], cards=2, gold=0, players=4)
    assert places[0] == 1 and points == [4, 2, 0, 0]  # 4 of 10 caballeros is the most


def test_ec33_gold_is_a_unit_of_1_doubled_for_the_most() -> None:
    points, _, _ = land_points([5, 3, 0], cards=1, gold=2, players=3)
    assert points == [2 * (1 + 2), 1 + 2, 0]


def test_ec34_power_cards_are_played_face_up_one_by_one() -> None:
    game = table_game()
    assert game.current_players() == (0,)
    powers(game, 13)
    assert game.current_players() == (1,)  # one seat at a time
    assert game.view(None)["power_played"] == {"red": 13}  # everyone sees it
    assert "power 13" not in {str(a) for a in game.legal_actions()}
    refused(game, "power 13", "power_taken")


# ------------------------------------------------------------------ the documentation
def test_every_gap_has_a_row_in_the_rules_naming_a_test_that_exists() -> None:
    rules = (ROOT / "docs/elcaballero-rules.md").read_text(encoding="utf-8")
    here = Path(__file__).parent
    defined = {
        name
        for path in here.glob("test_*.py")
        for name in re.findall(r"^def (test_\w+)\(", path.read_text(encoding="utf-8"), re.M)
    }
    rows: dict[int, str] = {}
    for line in rules.splitlines():
        found = re.match(r"\| EC-(\d+) ", line)
        if found:
            rows[int(found.group(1))] = line
    assert sorted(rows) == list(range(1, 35)), "a gap without a row"
    for gap, row in rows.items():
        named = re.findall(r"`(test_\w+)`", row)
        assert named, f"EC-{gap}: the row names no test"
        for name in named:
            assert name in defined, f"EC-{gap}: no test {name}"
