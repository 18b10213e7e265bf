"""The variants of the El Grande 2023 rulebook, checked one rule at a time through the real API.

Sources: the variants pages and the action-card explanations of the rulebooks in
/work/shared/seeds/ (Ukrainian 003_*.txt "Варіанти гри", "Гра вдвох", "Гра втрьох",
"Нове регентство", "Альтернативні карти дій", "Мінливі сили", "Пояснення особливих карт";
Czech 000_*.txt "Varianty hry"; Polish 001_*.txt for Assassin, Veto and Revolt).

Every test drives a table-mode `Game` with the text notation: chance steps are entered as the
players would (`first`, `kingcard`, `home`, `remove`, `deal`, `dummycard`, `reveal`,
`dummypower`), positions are laid out with `tests.engine.builders.set_position`, and the rules are
read back from `legal_actions`, `view`, `snapshot` and the scorings. The last section plays random
games of every variant with 2 to 5 players and checks invariants at every step.

Interpretations where the rulebook is silent or ambiguous (the engine's choice, asserted here):

- 2 players: the dummy's caballeros thrown into the castillo go back to its supply at a general
  scoring (it sets no disc); the dummy is never asked to decide anything (Withdrawal, Civil War,
  Coup, Rivalry, Plague skip it); Assassin returns one of its caballeros (the actor chooses).
- Veto: choosing the Veto card lays it out at once (there is no special action to skip).
- Revolt: at a general scoring nobody sets a disc; the castillo keeps its caballeros and Grandes.
- Tournament: a Grande in the castillo moves with its owner's disc; a disc on the King's region
  (caballeros to the court) leaves the Grande in the castillo.
- Infiltration with the King beside the castillo (Revolt) opens nothing: the castillo stays shut.
- Escort from the castillo (Revolt) or from France/Portugal takes nobody along.
- Summer Residence counts the King's own region: if it is (one of) the emptiest, he may stay.
- Viceroy may swap the King with the acting player's own Grande.
- Power Shift: the modifier changes the power value (turn order, first player), not the number of
  caballeros taken, which stays the one printed on the power card.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from engine.elgrande.actions import Action
from engine.elgrande.errors import IllegalAction
from engine.elgrande.game import CHANCE, Game, Options
from engine.elgrande.record import from_record, to_record
from tests.engine.builders import (
    acting,
    assert_conserved,
    count,
    legal,
    of_kind,
    pass_turn,
    set_grey_hands,
    set_position,
)
from tests.engine.conftest import advance, random_step

FOUR = ("purple", "green", "blue", "orange")
TWO = ("purple", "green")
# Home regions in seat order from the first player (never Castilla, the King's region).
HOMES = ("Toledo", "Aragon", "Galicia", "Sevilla", "Valencia")
ALL_REGIONS = {
    "Galicia", "Navarra", "Aragon", "Cataluna", "Castilla", "Toledo", "Valencia", "Sevilla",
    "Granada",
}  # fmt: skip
CASTILLA_NEIGHBOURS = {"Galicia", "Navarra", "Aragon", "Toledo"}


# --------------------------------------------------------------------------- builders
def setup(
    players: Sequence[str] = FOUR,
    *,
    first: str | None = None,
    king: str = "Castilla",
    homes: Sequence[str] = HOMES,
    removes: Sequence[str] = (),
    **options: Any,
) -> Game:
    """A table-mode game through set-up: the first player, the cards set aside for alternative
    cards (`removes`, else the first listed), the King's card and the home cards in seat order
    from the first player. Stops at the next chance step (dummy cards, deal or reveal)."""
    game = Game(Options(players=tuple(players), mode="table", **options))
    start = first or players[0]
    game.apply(f"first {start}", CHANCE)
    wanted = list(removes)
    while game.state.phase == "setup_remove":
        game.apply(wanted.pop(0) if wanted else game.legal_actions(CHANCE)[0], CHANCE)
    game.apply(f"kingcard {king}", CHANCE)
    seat = players.index(start)
    for i in range(len(players)):
        game.apply(f"home {players[(seat + i) % len(players)]} {homes[i]}", CHANCE)
    return game


def to_power(
    game: Game,
    reveals: Mapping[int, str] | None = None,
    *,
    dummy_cards: Sequence[str] = (),
    dummy_power: int | None = None,
) -> None:
    """Enter the round's chance steps up to the power cards: the dummy's region cards, the action
    cards (`reveals`: deck slot -> card id; other slots show their first card), the dummy's power
    card. Power Shift deals and passes take the first listed card."""
    cards = list(dummy_cards)
    wanted = dict(reveals or {})
    while game.state.phase != "power":
        actors = game.current_players()
        if actors != (CHANCE,):
            assert game.state.phase == "setup_pass", game.state.phase
            for seat in actors:
                game.apply(game.legal_actions(seat)[0], seat)
            continue
        phase = game.state.phase
        if phase == "dummy_regions" and cards:
            game.apply(f"dummycard {cards.pop(0)}", CHANCE)
        elif phase == "dummy_power" and dummy_power is not None:
            game.apply(f"dummypower {dummy_power}", CHANCE)
        elif phase == "reveal":
            slot = int(game.legal_actions(CHANCE)[0].arg)
            card = wanted.pop(slot, None) or game.state.decks[slot][0]
            game.apply(f"reveal {slot} {card}", CHANCE)
        else:
            game.apply(game.legal_actions(CHANCE)[0], CHANCE)
    assert not cards and not wanted, (cards, wanted)


def powers(game: Game, values: Mapping[str, int]) -> None:
    """Each player's power card, in the order the engine asks for them."""
    while game.state.phase == "power":
        game.apply(f"power {values[game.state.colours[game.current_player()]]}")


def start_turn(game: Game, card: str, take: int = 0) -> None:
    game.apply(f"take {take}")
    game.apply(f"card {card}")


def finish_turn(game: Game) -> None:
    """Skip what is left of the special action and end the placement."""
    while game.state.phase == "main" and game.state.frame is None:
        moves = game.legal_actions()
        game.apply(Action("skip") if Action("skip") in moves else Action("done"))


def round_over(game: Game) -> None:
    """Every remaining turn of the round passes (take nothing, first card, nothing done)."""
    index = game.state.round_index
    while game.state.round_index == index and game.state.phase in ("take", "card", "main"):
        game.apply("take 0")
        if game.state.frame is not None:
            game.apply("skip")  # a Power Shift modifier's effect
        game.apply(game.legal_actions()[0])
        finish_turn(game)


def face_up(game: Game) -> list[str]:
    return [c for c in game.state.face_up if c]


def scored(game: Game) -> dict[str, dict[str, Any]]:
    """The last scoring's areas by name."""
    return {area["area"]: area for area in game.state.scorings[-1]["areas"]}


# --------------------------------------------------------------------------- 2 players
def test_two_players_add_a_dummy_colour() -> None:
    game = Game(Options(players=TWO))
    assert game.state.colours == ("purple", "green", "blue")  # the first colour nobody plays
    assert game.state.seats == (0, 1) and game.state.dummy == 2
    assert game.view()["dummy"] == "blue" and game.view()["players"] == ["purple", "green"]
    assert {str(a) for a in game.legal_actions(CHANCE)} == {"first purple", "first green"}
    chosen = Game(Options(players=TWO, dummy="red"))
    assert chosen.state.colours == ("purple", "green", "red")
    with pytest.raises(ValueError, match="different colour"):
        Game(Options(players=TWO, dummy="green"))
    with pytest.raises(ValueError, match="only used with 2 players"):
        Game(Options(players=("purple", "green", "blue"), dummy="red"))


def test_two_players_score_on_the_2_3_player_side_first_two_places_only() -> None:
    game = setup(TWO)
    assert game.state.places == 2
    toledo = game.state.area("Toledo")
    assert game.state.values_of(toledo) == game.state.regions[toledo].values_2_3_players
    assert len(game.state.values_of(toledo)) == 2


def test_two_players_merge_decks_2_and_3_four_decks_face_up() -> None:
    game = setup(TWO)
    data = game.state.data
    assert Counter(game.state.decks[2]) == Counter(data.deck_cards(2) + data.deck_cards(3))
    assert game.state.decks[3] == []
    to_power(game, {1: "intrigue", 2: "fiesta", 4: "decree"}, dummy_cards=("Galicia", "Sevilla"))
    assert face_up(game) == ["intrigue", "fiesta", "decree", "your-majesty"]
    assert game.view()["deck_sizes"] == {"1": 9, "2": 19, "4": 9}


def test_two_players_cannot_reveal_deck_3_on_its_own() -> None:
    game = setup(TWO)
    game.apply("dummycard Galicia", CHANCE)
    game.apply("dummycard Sevilla", CHANCE)
    game.apply("reveal 1 intrigue", CHANCE)
    assert {a.arg for a in game.legal_actions(CHANCE)} == {"2"}
    with pytest.raises(IllegalAction):
        game.apply("reveal 3 fiesta", CHANCE)


def test_after_setup_all_region_cards_form_the_dummys_deck() -> None:
    game = setup(TWO, king="Castilla", homes=("Toledo", "Aragon"))
    assert game.state.phase == "dummy_regions" and acting(game) == ["chance"]
    # The King's card and both home cards are shuffled back in too.
    assert {a.arg for a in game.legal_actions(CHANCE)} == ALL_REGIONS
    assert len(game.snapshot()["dummy_regions_left"]) == 9


def test_dummy_gets_two_caballeros_on_each_of_two_region_cards_per_round() -> None:
    game = setup(TWO)
    game.apply("dummycard Galicia", CHANCE)
    assert game.state.phase == "dummy_regions"
    game.apply("dummycard Sevilla", CHANCE)
    assert game.state.phase == "reveal"
    assert count(game, "Galicia", "blue") == 2 and count(game, "Sevilla", "blue") == 2
    assert game.state.province[game.state.dummy] == 26
    assert_conserved(game)
    # The drawn cards are discarded: next round they cannot come again.
    to_power(game)
    powers(game, {"purple": 9, "green": 8})
    round_over(game)
    assert game.state.phase == "dummy_regions"
    drawable = {a.arg for a in game.legal_actions(CHANCE)}
    assert drawable == ALL_REGIONS - {"Galicia", "Sevilla"}
    with pytest.raises(IllegalAction):
        game.apply("dummycard Galicia", CHANCE)


def test_dummy_region_card_of_the_kings_region_places_nothing() -> None:
    game = setup(TWO, king="Castilla")
    game.apply("dummycard Castilla", CHANCE)
    game.apply("dummycard Toledo", CHANCE)
    assert count(game, "Castilla", "blue") == 0
    assert count(game, "Toledo", "blue") == 2
    assert game.state.province[game.state.dummy] == 28


def test_dummy_draws_no_more_once_all_30_are_on_the_board() -> None:
    game = setup(TWO)
    to_power(game, dummy_cards=("Galicia", "Sevilla"))
    # 29 of the dummy's caballeros are on the board: one card places the last one.
    set_position(game, board={"Galicia": {"blue": 15}, "Sevilla": {"blue": 14}})
    powers(game, {"purple": 9, "green": 8})
    round_over(game)
    assert game.state.phase == "dummy_regions"
    game.apply("dummycard Navarra", CHANCE)
    assert count(game, "Navarra", "blue") == 1 and game.state.province[game.state.dummy] == 0
    assert game.state.phase == "reveal"  # no second card
    to_power(game)
    powers(game, {"purple": 10, "green": 11})
    round_over(game)
    assert game.state.phase == "reveal"  # all 30 on the board: no region card at all
    assert_conserved(game)


def test_dummy_region_cards_are_reshuffled_after_each_general_scoring() -> None:
    game = setup(TWO)
    advance(game, lambda g: g.state.phase == "scoring")
    assert len(game.snapshot()["dummy_regions_left"]) == 9 - 6  # 2 cards in each of 3 rounds
    game.apply("disc Navarra", 0)
    game.apply("disc Valencia", 1)
    assert game.state.phase == "dummy_regions"
    assert {a.arg for a in game.legal_actions(CHANCE)} == ALL_REGIONS


def test_dummy_power_card_is_turned_before_the_players_play_and_blocks_its_value() -> None:
    game = setup(TWO, first="green")
    game.apply("dummycard Galicia", CHANCE)
    game.apply("dummycard Sevilla", CHANCE)
    for slot, card in ((1, "intrigue"), (2, "fiesta"), (4, "decree")):
        game.apply(f"reveal {slot} {card}", CHANCE)
    assert game.state.phase == "dummy_power" and acting(game) == ["chance"]
    assert {a.arg for a in game.legal_actions(CHANCE)} == {str(v) for v in range(1, 14)}
    game.apply("dummypower 9", CHANCE)
    assert game.view()["played"] == {"blue": 9}
    assert acting(game) == ["green"]  # the first player plays first, the dummy does not
    assert "power 9" not in legal(game)
    with pytest.raises(IllegalAction):
        game.apply("power 9")
    game.apply("power 13")
    assert "power 9" not in legal(game) and "power 13" not in legal(game)
    game.apply("power 5")
    assert [game.state.colours[p] for p in game.state.turn_order] == ["green", "blue", "purple"]
    assert 9 not in game.state.hands[game.state.dummy]


def test_dummy_takes_the_card_placing_most_caballeros_and_discards_it_unused() -> None:
    game = setup(TWO)
    to_power(
        game,
        {1: "intrigue", 2: "fiesta", 4: "decree"},
        dummy_cards=("Galicia", "Sevilla"),
        dummy_power=7,
    )
    powers(game, {"purple": 9, "green": 5})  # turn order: purple, the dummy, green
    start_turn(game, "your-majesty")
    finish_turn(game)
    # The dummy took Decree (4 caballeros, the most left) and did nothing with it.
    assert acting(game) == ["green"]
    assert "decree" in game.state.used_cards and "decree" not in face_up(game)
    assert game.state.tiles == {}
    game.apply("take 0")
    assert {a.arg for a in game.legal_actions()} == {"intrigue", "fiesta"}


def test_dummy_acting_first_turns_the_king_card_back_for_this_round() -> None:
    game = setup(TWO)
    to_power(
        game,
        {1: "intrigue", 2: "fiesta", 4: "decree"},
        dummy_cards=("Galicia", "Sevilla"),
        dummy_power=13,
    )
    powers(game, {"purple": 9, "green": 5})
    king = game.state.king
    game.apply("take 0")
    # Your Majesty (5) went to the dummy: unavailable to both players this round, not discarded.
    assert {a.arg for a in game.legal_actions()} == {"intrigue", "fiesta", "decree"}
    assert "your-majesty" not in game.state.used_cards and game.state.king == king
    game.apply("card intrigue")
    finish_turn(game)
    pass_turn(game)
    game.apply("dummycard Navarra", CHANCE)
    game.apply("dummycard Granada", CHANCE)
    assert game.state.face_up[4] == "your-majesty"  # back for the next round


def test_dummy_never_takes_the_first_player_marker() -> None:
    game = setup(TWO, first="purple")
    to_power(game, dummy_cards=("Galicia", "Sevilla"), dummy_power=1)
    powers(game, {"purple": 9, "green": 5})
    round_over(game)
    assert game.state.colours[game.state.first] == "green"  # the lowest card among the players
    assert game.state.power_discards[game.state.dummy] == [1]  # the dummy's card is discarded too


def test_players_may_move_the_dummys_caballeros() -> None:
    game = setup(TWO)
    to_power(game, {1: "intrigue"}, dummy_cards=("Galicia", "Sevilla"))
    powers(game, {"purple": 13, "green": 12})  # the dummy plays the lowest card left
    start_turn(game, "intrigue")
    game.apply("special")
    assert "pick blue Galicia" in legal(game)  # the dummy counts as an opponent
    game.apply("pick blue Galicia")
    game.apply("to Navarra")
    game.apply("done")
    assert count(game, "Navarra", "blue") == 1 and count(game, "Galicia", "blue") == 1
    assert_conserved(game)


def test_assassin_returns_one_dummy_caballero_chosen_by_the_actor() -> None:
    game = setup(TWO)
    to_power(game, {2: "assassin"}, dummy_cards=("Galicia", "Sevilla"))
    powers(game, {"purple": 13, "green": 12})
    start_turn(game, "assassin")
    game.apply("special")
    assert acting(game) == ["purple"] and of_kind(game, "return") == {"green Aragon"}
    game.apply("return green Aragon")
    assert acting(game) == ["purple"]
    assert of_kind(game, "return") == {"blue Galicia", "blue Sevilla"}
    game.apply("return blue Sevilla")
    assert count(game, "Sevilla", "blue") == 1 and game.state.province[game.state.dummy] == 27
    assert game.state.phase == "main" and game.state.frame is None
    assert_conserved(game)


def test_withdrawal_skips_the_dummy() -> None:
    game = setup(TWO)
    to_power(game, {2: "withdrawal"}, dummy_cards=("Galicia", "Sevilla"))
    powers(game, {"purple": 13, "green": 12})
    start_turn(game, "withdrawal")
    game.apply("special")
    assert acting(game) == ["green"]  # green chooses 3 of their own
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    # The dummy would have to choose its 3: the step is skipped, its caballeros stay.
    assert acting(game) == ["purple"] and game.state.frame is None
    assert count(game, "Galicia", "blue") == 2 and count(game, "Sevilla", "blue") == 2
    assert game.state.province[game.state.dummy] == 26


def test_civil_war_asks_no_disc_of_the_dummy() -> None:
    game = setup(TWO)
    to_power(game, {2: "civil-war"}, dummy_cards=("Galicia", "Sevilla"))
    powers(game, {"purple": 13, "green": 12})
    start_turn(game, "civil-war")
    game.apply("special")
    assert acting(game) == ["green"]
    game.apply("disc Aragon", 1)
    assert count(game, "Aragon", "green") == 0
    assert count(game, "Galicia", "blue") == 2 and count(game, "Sevilla", "blue") == 2


def test_coup_leaves_the_dummys_caballeros_where_they_are() -> None:
    game = setup(TWO)
    to_power(game, {4: "coup"}, dummy_cards=("Aragon", "Sevilla"))
    powers(game, {"purple": 13, "green": 12})
    start_turn(game, "coup")
    game.apply("special")
    game.apply("region Aragon")
    assert acting(game) == ["green"]  # only green has a disc to set
    game.apply("disc Valencia", 1)
    assert count(game, "Valencia", "green") == 2 and count(game, "Aragon", "green") == 0
    assert count(game, "Aragon", "blue") == 2


def test_plague_discs_are_set_by_the_players_only() -> None:
    game = setup(TWO)
    to_power(game, {2: "disc-return-2"}, dummy_cards=("Galicia", "Sevilla"))
    powers(game, {"purple": 13, "green": 12})
    start_turn(game, "disc-return-2")
    game.apply("special")
    assert set(acting(game)) == {"purple", "green"}  # the dummy has 2 in Galicia: not asked
    game.apply("disc Toledo", 0)
    game.apply("disc Aragon", 1)
    assert count(game, "Galicia", "blue") == 2 and count(game, "Toledo", "purple") == 0


def test_rivalry_discs_are_set_by_the_players_only() -> None:
    game = setup(TWO, alternatives=("rivalry",))
    to_power(game, {4: "rivalry"}, dummy_cards=("Galicia", "Sevilla"))
    powers(game, {"purple": 13, "green": 12})
    start_turn(game, "rivalry")
    game.apply("special")
    assert set(acting(game)) == {"purple", "green"}


def test_dummy_counts_for_majority_but_scores_nothing_not_even_the_king_bonus() -> None:
    game = setup(TWO)
    to_power(game, {2: "fair"}, dummy_cards=("Galicia", "Sevilla"))
    set_position(game, board={"Castilla": {"blue": 3, "purple": 2, "green": 1}})
    powers(game, {"purple": 13, "green": 12})
    start_turn(game, "fair")
    game.apply("special")
    game.apply("region Castilla")  # the King's region may be chosen
    area = scored(game)["Castilla"]
    assert area["ranks"] == {"blue": 1, "purple": 2, "green": 3}
    assert area["points"] == {
        "purple": 4,
        "green": 0,
    }  # 6/4 on the 2–3 player side; 3rd place scores 0
    assert area["bonus"] == {}  # the dummy is sole first: nobody takes the King bonus
    assert game.view()["scores"] == {"purple": 4, "green": 0}


def test_dummy_castillo_caballeros_go_back_to_its_supply_at_a_general_scoring() -> None:
    game = setup(TWO)
    advance(game, lambda g: g.state.phase == "scoring")
    set_position(game, castillo={"blue": 3, "purple": 2, "green": 1})
    province = game.state.province[game.state.dummy]
    assert set(acting(game)) == {"purple", "green"}  # the dummy sets no disc
    game.apply("disc Navarra", 0)
    game.apply("disc Valencia", 1)
    general = game.state.scorings[-1]
    castillo = general["areas"][0]
    assert castillo["area"] == "castillo" and castillo["ranks"]["blue"] == 1
    assert castillo["points"] == {
        "purple": 3,
        "green": 0,
    }  # 5/3: the dummy is first, green third scores 0
    assert general["moved"] == {"purple": "Navarra", "green": "Valencia"}
    assert game.state.pieces[game.state.CASTILLO] == [0, 0, 0]
    assert game.state.province[game.state.dummy] == province + 3
    assert_conserved(game)


def test_two_player_dummy_with_new_regency_discards_the_king_card() -> None:
    game = setup(TWO, new_regency=True)
    to_power(game, {5: "viceroy"}, dummy_cards=("Galicia", "Sevilla"), dummy_power=13)
    powers(game, {"purple": 9, "green": 8})
    assert "viceroy" in game.state.used_cards and "viceroy" not in face_up(game)


# --------------------------------------------------------------------------- 3 players
def test_three_players_score_two_places_and_have_no_dummy() -> None:
    game = setup(("purple", "green", "blue"))
    assert game.state.places == 2 and game.state.dummy == -1 and game.state.n == 3
    to_power(game, {3: "revelation"})
    assert len(face_up(game)) == 5  # decks 2 and 3 stay apart unless the table merges them
    set_position(game, castillo={"purple": 3, "green": 2, "blue": 1})
    powers(game, {"purple": 13, "green": 12, "blue": 11})
    start_turn(game, "revelation")
    game.apply("special")
    assert scored(game)["castillo"]["points"] == {"purple": 5, "green": 3, "blue": 0}


def test_three_players_may_merge_decks_2_and_3() -> None:
    game = setup(("purple", "green", "blue"), merge_decks_2_3=True)
    assert game.state.decks[3] == [] and len(game.state.decks[2]) == 20
    to_power(game, {2: "revelation"})
    assert len(face_up(game)) == 4
    assert game.options.to_json()["merge_decks_2_3"] is True


@pytest.mark.parametrize("players", [FOUR, (*FOUR, "red")], ids=["4p", "5p"])
def test_merged_decks_are_refused_with_4_or_5_players(players: tuple[str, ...]) -> None:
    with pytest.raises(ValueError, match="2 or 3 players"):
        Game(Options(players=players, merge_decks_2_3=True))


# --------------------------------------------------------------------------- short game
def test_short_game_is_6_rounds_2_3_5_6_8_9_with_three_general_scorings() -> None:
    game = setup(short_game=True)
    assert game.state.round_number == 2 and game.view()["rounds"] == [2, 3, 5, 6, 8, 9]
    advance(game, Game.is_terminal)
    assert [h["round"] for h in game.state.score_history] == [2, 3, 5, 6, 8, 9]
    general = [s["round"] for s in game.state.scorings if s["kind"] == "general"]
    assert general == [3, 6, 9]
    assert sum(1 for p, a in game.history if a.kind == "power" and p == 0) == 6


# --------------------------------------------------------------------------- New Regency
def regency(**options: Any) -> Game:
    return setup(new_regency=True, **options)


def test_new_regency_king_cards_form_deck_5_instead_of_your_majesty() -> None:
    game = regency()
    assert len(game.state.decks[5]) == 10
    assert "your-majesty" not in game.state.decks[5] and game.state.king_card == ""
    assert all(game.state.data.cards[c].regency for c in game.state.decks[5])
    to_power(game, {5: "exile"})
    assert face_up(game)[-1] == "exile" and game.state.face_up[4] == "exile"
    assert "your-majesty" not in face_up(game)


def test_new_regency_card_is_discarded_at_round_end_used_or_not() -> None:
    game = regency()
    to_power(game, {5: "exile"})
    powers(game, {"purple": 13, "green": 12, "blue": 11, "orange": 10})
    round_over(game)  # nobody took Exile
    assert "exile" in game.state.used_cards and len(game.state.decks[5]) == 9
    assert game.state.phase == "reveal"
    to_power(game, {5: "tournament"})
    assert game.state.face_up[4] == "tournament" and len(game.state.decks[5]) == 8
    powers(game, {"purple": 9, "green": 8, "blue": 7, "orange": 6})
    start_turn(game, "tournament")
    assert "tournament" in game.state.used_cards  # taken: discarded, never back


def regency_turn(card: str, **position: Any) -> Game:
    """Purple (9) acts first with the New Regency `card` face up, in a laid-out position, and
    takes 2 caballeros to the court."""
    game = regency()
    to_power(game, {5: card})
    if position:
        set_position(game, **position)
    powers(game, {"purple": 9, "green": 8, "blue": 7, "orange": 6})
    start_turn(game, card, take=2)
    return game


def test_viceroy_swaps_the_king_with_any_one_grande() -> None:
    game = regency_turn("viceroy")  # Grandes: purple Toledo, green Aragon, blue Galicia, ...
    game.apply("special")
    assert of_kind(game, "viceroy") == {"purple", "green", "blue", "orange"}
    game.apply("viceroy green")
    assert game.view()["king"] == "Aragon" and game.view()["grandes"]["green"] == "Castilla"
    assert of_kind(game, "place") == {"Navarra", "Castilla", "Toledo", "Cataluna", "Valencia"} | {
        "castillo"
    }


def test_viceroy_needs_both_in_regions() -> None:
    game = regency_turn("viceroy", king="France")
    game.apply("special")  # the King is in France: nothing to swap
    assert game.state.frame is None and game.view()["king"] == "France"
    game = regency_turn("viceroy", grandes={"green": "castillo", "blue": "castillo"})
    game.apply("special")
    assert of_kind(game, "viceroy") == {"purple", "orange"}  # not the Grandes in the castillo


def test_exile_sends_the_king_to_france_or_portugal_whose_borders_become_adjacent() -> None:
    game = regency_turn("exile")
    game.apply("special")
    assert of_kind(game, "king") == {"France", "Portugal"}
    game.apply("king France")
    assert game.view()["king"] == "France"
    assert of_kind(game, "place") == {"Navarra", "Aragon", "Cataluna", "castillo"}
    game.apply("place Cataluna")
    assert count(game, "Cataluna", "purple") == 1


def test_exile_from_portugal_leads_to_its_border_regions() -> None:
    game = regency_turn("exile", king="Portugal")
    assert of_kind(game, "place") == {"Galicia", "Castilla", "Toledo", "Sevilla", "castillo"}
    game.apply("special")
    assert of_kind(game, "king") == {"France"}  # the King is in Portugal already


def test_escort_takes_two_caballeros_of_any_colours_along() -> None:
    board = {"Castilla": {"green": 2, "blue": 1}, "Toledo": {"purple": 2}}
    game = regency_turn("escort", board=board)
    game.apply("special")
    assert of_kind(game, "king") == ALL_REGIONS - {"Castilla"}
    game.apply("king Granada")
    assert acting(game) == ["purple"]
    assert of_kind(game, "pick") == {"green Castilla", "blue Castilla"}
    assert "done" not in legal(game)  # escorting is not optional
    game.apply("pick green Castilla")
    game.apply("pick blue Castilla")
    assert game.state.frame is None
    assert count(game, "Granada", "green") == 1 and count(game, "Granada", "blue") == 1
    assert count(game, "Castilla", "green") == 1 and count(game, "Castilla", "blue") == 0
    assert_conserved(game)


def test_escort_takes_fewer_when_fewer_are_there() -> None:
    game = regency_turn("escort", board={"Castilla": {"blue": 1}, "Toledo": {"purple": 2}})
    game.apply("special")
    game.apply("king Sevilla")
    game.apply("pick blue Castilla")
    assert game.state.frame is None and count(game, "Sevilla", "blue") == 1
    empty = regency_turn("escort", board={"Toledo": {"purple": 2}})
    empty.apply("special")
    empty.apply("king Sevilla")
    assert empty.state.frame is None and empty.view()["king"] == "Sevilla"


def test_revolt_puts_the_king_beside_the_castillo() -> None:
    game = regency_turn("revolt", castillo={"purple": 3, "green": 1})
    game.apply("special")
    assert game.view()["king"] == "castillo"
    # Every region is adjacent; nobody throws into the castillo, the King's region now.
    assert of_kind(game, "place") == ALL_REGIONS
    with pytest.raises(IllegalAction):
        game.apply("place castillo")
    game.apply("place Cataluna")
    game.apply("place Sevilla")
    assert count(game, "castillo", "purple") == 3


def test_infiltration_with_the_king_at_the_castillo_keeps_it_shut() -> None:
    game = regency_turn("infiltration", king="castillo")
    game.apply("special")
    assert of_kind(game, "place") == ALL_REGIONS  # every region is adjacent; not the castillo


def test_escort_from_the_castillo_or_france_takes_nobody_along() -> None:
    game = regency_turn("escort", king="castillo", castillo={"green": 3})
    game.apply("special")
    assert of_kind(game, "king") == ALL_REGIONS
    game.apply("king Toledo")
    assert game.state.frame is None and count(game, "castillo", "green") == 3
    exiled = regency_turn("escort", king="France")
    exiled.apply("special")
    exiled.apply("king Toledo")
    assert exiled.state.frame is None and exiled.view()["king"] == "Toledo"


def test_revolt_no_caballero_may_be_moved_into_the_castillo() -> None:
    game = regency()
    to_power(game, {1: "conspiracy", 5: "revolt"})
    powers(game, {"purple": 13, "green": 12, "blue": 11, "orange": 10})
    start_turn(game, "revolt")
    game.apply("special")
    finish_turn(game)
    start_turn(game, "conspiracy")
    game.apply("special")
    game.apply("pick green Aragon")
    assert "castillo" not in of_kind(game, "to")
    assert of_kind(game, "to") == ALL_REGIONS - {"Aragon"}


def test_revolt_castillo_scoring_gives_the_king_bonus() -> None:
    game = regency()
    to_power(game, {3: "revelation", 5: "revolt"})
    set_position(game, castillo={"purple": 3, "green": 1})
    powers(game, {"purple": 13, "green": 12, "blue": 11, "orange": 10})
    start_turn(game, "revolt")
    game.apply("special")
    finish_turn(game)
    start_turn(game, "revelation")
    game.apply("special")
    castillo = scored(game)["castillo"]
    assert castillo["points"] == {"purple": 5, "green": 3}
    assert castillo["bonus"] == {"purple": 2}
    assert count(game, "castillo", "purple") == 3  # the pieces go back in


def test_revolt_caballeros_stay_in_the_castillo_at_a_general_scoring() -> None:
    game = regency()
    to_power(game, {5: "revolt"})
    set_position(game, castillo={"purple": 3, "green": 1})
    powers(game, {"purple": 13, "green": 12, "blue": 11, "orange": 10})
    start_turn(game, "revolt")
    game.apply("special")
    finish_turn(game)
    advance(game, lambda g: any(s["kind"] == "general" for s in g.state.scorings))
    assert not any(a.kind == "disc" for _, a in game.history)  # no discs are set
    general = game.state.scorings[-1]
    assert general["areas"][0]["bonus"] == {"purple": 2}  # King bonus in the castillo
    assert general["moved"] == {}
    assert count(game, "castillo", "purple") == 3 and count(game, "castillo", "green") == 1
    assert game.view()["king"] == "castillo"  # until a card moves him again


def test_summer_residence_goes_to_the_emptiest_occupied_region_tie_is_a_choice() -> None:
    board = {
        "Castilla": {"blue": 3},
        "Galicia": {"green": 1},
        "Navarra": {"orange": 1},
        "Toledo": {"purple": 2},
        "Aragon": {"green": 2},
    }
    game = regency_turn("summer-residence", board=board)
    game.apply("special")
    assert of_kind(game, "king") == {"Galicia", "Navarra"}  # empty regions do not count
    game.apply("king Navarra")
    assert game.view()["king"] == "Navarra"
    board["Navarra"] = {"orange": 2}
    single = regency_turn("summer-residence", board=board)
    single.apply("special")
    assert of_kind(single, "king") == {"Galicia"}


def test_summer_residence_counts_the_kings_own_region_and_may_leave_him_there() -> None:
    board = {"Castilla": {"blue": 1}, "Galicia": {"green": 1}, "Toledo": {"purple": 3}}
    game = regency_turn("summer-residence", board=board)
    game.apply("special")
    assert of_kind(game, "king") == {"Castilla", "Galicia"}
    game.apply("king Castilla")
    assert game.view()["king"] == "Castilla" and game.state.frame is None


def test_tournament_throws_every_grande_there_into_the_castillo() -> None:
    game = regency_turn("tournament", grandes={"blue": "Aragon"})  # green's home is Aragon
    game.apply("special")
    assert of_kind(game, "king") == ALL_REGIONS - {"Castilla"}
    game.apply("king Aragon")
    grandes = game.view()["grandes"]
    assert grandes["green"] == "castillo" and grandes["blue"] == "castillo"
    assert grandes["purple"] == "Toledo" and grandes["orange"] == "Sevilla"


def test_tournament_grande_bonus_in_the_castillo_and_the_grande_leaves_with_the_disc() -> None:
    game = regency()
    to_power(game, {3: "revelation", 5: "tournament"})
    set_position(game, castillo={"green": 3, "purple": 1})
    powers(game, {"purple": 13, "green": 12, "blue": 11, "orange": 10})
    start_turn(game, "tournament")
    game.apply("special")
    game.apply("king Aragon")  # green's Grande
    finish_turn(game)
    start_turn(game, "revelation")
    game.apply("special")
    castillo = scored(game)["castillo"]
    assert castillo["bonus"] == {"green": 2} and castillo["points"]["green"] == 5
    assert game.view()["grandes"]["green"] == "castillo"  # thrown back in after Revelation
    advance(game, lambda g: g.state.phase == "scoring")
    for colour, region in (("purple", "Granada"), ("green", "Valencia")):
        game.apply(f"disc {region}", game.state.colour(colour))
    for colour in ("blue", "orange"):
        game.apply("disc Navarra", game.state.colour(colour))
    assert game.view()["grandes"]["green"] == "Valencia"
    assert count(game, "Valencia", "green") >= 3


def test_tournament_grande_stays_in_the_castillo_when_the_disc_shows_the_kings_region() -> None:
    game = regency_turn("tournament")
    game.apply("special")
    game.apply("king Aragon")
    finish_turn(game)
    set_position(game, castillo={"green": 2})
    advance(game, lambda g: g.state.phase == "scoring")
    king = game.view()["king"]
    for colour in FOUR:
        region = king if colour == "green" else "Navarra"
        game.apply(f"disc {region}", game.state.colour(colour))
    assert game.view()["grandes"]["green"] == "castillo"
    assert game.state.scorings[-1]["moved"]["green"] == "court"


def test_infiltration_lets_only_this_player_place_into_the_kings_region_this_turn() -> None:
    game = regency_turn("infiltration")
    assert "Castilla" not in of_kind(game, "place")  # not before the special action
    game.apply("special")
    assert game.view()["king"] == "Castilla"  # the King does not move
    assert of_kind(game, "place") == CASTILLA_NEIGHBOURS | {"Castilla", "castillo"}
    game.apply("place Castilla")
    game.apply("place Castilla")
    game.apply("place Galicia")  # split as usual
    assert count(game, "Castilla", "purple") == 2
    game.apply("done")
    assert acting(game) == ["green"]
    start_turn(game, "conspiracy", take=2)
    assert "Castilla" not in of_kind(game, "place")  # the others never, nor later turns


def test_infiltration_placed_before_the_special_action_cannot_enter() -> None:
    game = regency_turn("infiltration")
    game.apply("place Toledo")
    game.apply("done")
    game.apply("special")  # the placement is over: the turn ends
    assert acting(game) == ["green"] and count(game, "Castilla", "purple") == 0


# --------------------------------------------------------------------------- alternative cards
def test_each_alternative_card_replaces_a_card_set_aside_from_its_deck() -> None:
    game = Game(Options(alternatives=("delegation", "veto-2", "veto")))
    game.apply("first purple", CHANCE)
    assert game.state.phase == "setup_remove"
    assert {a.arg for a in game.legal_actions(CHANCE)} == {"1"}  # Delegation's deck first
    game.apply("remove 1 ambush", CHANCE)
    assert {a.arg for a in game.legal_actions(CHANCE)} == {"2"}
    with pytest.raises(IllegalAction):
        game.apply("remove 3 fiesta", CHANCE)  # no alternative card belongs to deck 3
    game.apply("remove 2 fair", CHANCE)
    game.apply("remove 2 withdrawal", CHANCE)
    assert game.state.phase == "setup_king"
    data = game.state.data
    assert [len(game.state.decks[d]) for d in range(1, 5)] == [10, 10, 10, 10]
    assert "ambush" not in game.state.decks[1] and "delegation" in game.state.decks[1]
    deck2 = Counter(game.state.decks[2])
    assert deck2["fair"] == 2 and deck2["withdrawal"] == 1
    assert deck2["veto-2"] == 1 and deck2["veto"] == 1
    assert Counter(game.state.decks[3]) == Counter(data.deck_cards(3))


def test_cards_are_set_aside_before_the_alternative_cards_go_in() -> None:
    # "Return 1 random card per alternative card to the box ... then add the new cards":
    # an alternative card is never the one set aside.
    game = Game(Options(alternatives=("veto-2", "veto")))
    game.apply("first purple", CHANCE)
    base = Counter(game.state.data.deck_cards(2))
    for _ in range(2):
        pool = {a.arg2 for a in game.legal_actions(CHANCE)}
        assert pool == {*base, "?"}, pool  # "?": set aside unseen at the table
        card = game.legal_actions(CHANCE)[-2].arg2
        game.apply(f"remove 2 {card}", CHANCE)
        base[card] -= 1
        base += Counter()  # drop a card with no copy left
    assert Counter(game.state.decks[2]) == base + Counter(["veto-2", "veto"])


def test_alternative_cards_with_two_players_are_set_aside_before_decks_merge() -> None:
    game = setup(TWO, alternatives=("veto",), removes=("remove 2 fair",))
    assert len(game.state.decks[2]) == 20 and game.state.decks[3] == []
    assert Counter(game.state.decks[2])["fair"] == 2 and "veto" in game.state.decks[2]


def test_alternative_card_not_chosen_is_never_revealed() -> None:
    game = setup()
    with pytest.raises(IllegalAction, match="alternative"):
        game.apply("reveal 1 delegation", CHANCE)
    with pytest.raises(ValueError, match="not an alternative"):
        Game(Options(alternatives=("fiesta",)))


def veto_round(**options: Any) -> Game:
    """Purple (9) takes the Veto and lays it out; green (8) is next, with Your Majesty face up."""
    game = setup(alternatives=("veto",), **options)
    to_power(game, {1: "intrigue", 2: "veto"})
    powers(game, {"purple": 9, "green": 8, "blue": 7, "orange": 6})
    start_turn(game, "veto")  # choosing it lays it out: no special action to do or skip
    finish_turn(game)
    return game


def test_veto_lies_in_front_of_its_owner() -> None:
    game = veto_round()
    assert game.view()["vetoes"] == [{"holder": "purple", "card": "veto"}]
    assert "veto" not in game.state.used_cards
    assert acting(game) == ["green"]


def test_veto_cancels_an_announced_special_action_but_the_placement_still_happens() -> None:
    game = veto_round()
    start_turn(game, "your-majesty", take=2)
    game.apply("special")  # announced: the Veto holder is asked at once
    assert acting(game) == ["purple"] and legal(game, "purple") == {"veto", "allow"}
    assert game.view()["step"] == {"step": "veto", "actor": "purple", "against": "green"}
    game.apply("veto", game.state.colour("purple"))
    assert game.state.king == game.state.area("Castilla") and game.state.frame is None
    assert acting(game) == ["green"]
    # The special action is over; placing around the King is still open.
    assert of_kind(game, "place") == CASTILLA_NEIGHBOURS | {"castillo"}
    assert "special" not in legal(game)
    game.apply("place Galicia")
    game.apply("done")
    assert count(game, "Galicia", "green") == 1 and acting(game) == ["blue"]
    # Used up: discarded.
    assert game.view()["vetoes"] == [] and "veto" in game.state.used_cards


def test_veto_after_the_placement_ends_the_turn() -> None:
    game = veto_round()
    start_turn(game, "your-majesty", take=2)
    game.apply("place Toledo")
    game.apply("done")
    game.apply("special")
    game.apply("veto", game.state.colour("purple"))
    assert acting(game) == ["blue"] and game.state.king == game.state.area("Castilla")


def test_veto_holder_may_allow_and_keeps_the_veto() -> None:
    game = veto_round()
    start_turn(game, "your-majesty", take=2)
    game.apply("special")
    game.apply("allow", game.state.colour("purple"))
    assert (
        acting(game) == ["green"]
        and game.state.frame is not None
        and game.state.frame.kind == "king"
    )
    assert "veto" not in legal(game, "purple")  # a started action is never cancelled
    game.apply("king Granada")
    assert game.view()["king"] == "Granada"
    assert game.view()["vetoes"] == [{"holder": "purple", "card": "veto"}]


def test_veto_is_not_asked_about_its_holders_own_special_action() -> None:
    game = veto_round()
    round_over(game)
    to_power(game, {1: "intrigue"})
    powers(game, {"purple": 13, "green": 12, "blue": 11, "orange": 10})
    start_turn(game, "intrigue")
    game.apply("special")
    assert game.state.frame is not None and game.state.frame.kind == "move"


def test_veto_unused_is_discarded_at_the_end_of_the_next_round() -> None:
    game = veto_round()
    round_over(game)
    assert game.view()["vetoes"] == [{"holder": "purple", "card": "veto"}]  # next round too
    assert "veto" not in game.state.used_cards
    to_power(game)
    powers(game, {"purple": 13, "green": 12, "blue": 11, "orange": 10})
    round_over(game)
    assert game.view()["vetoes"] == [] and "veto" in game.state.used_cards


def test_choosing_the_veto_lays_it_out_at_once() -> None:
    # "Having chosen the Veto card, you lay it face up in front of you."
    game = setup(alternatives=("veto",))
    to_power(game, {2: "veto"})
    powers(game, {"purple": 9, "green": 8, "blue": 7, "orange": 6})
    start_turn(game, "veto")
    assert game.view()["vetoes"] == [{"holder": "purple", "card": "veto"}]
    assert "veto" not in game.state.used_cards
    assert "special" not in legal(game) and "skip" not in legal(game)


def militia_turn() -> Game:
    game = setup()
    to_power(game, {1: "militia"})
    powers(game, {"purple": 9, "green": 8, "blue": 7, "orange": 6})
    start_turn(game, "militia", take=2)
    game.apply("special")
    return game


def test_militia_places_up_to_2_into_any_regions_but_the_kings_and_never_the_castillo() -> None:
    game = militia_turn()
    assert of_kind(game, "place") == ALL_REGIONS - {"Castilla"}  # adjacency does not matter
    with pytest.raises(IllegalAction):
        game.apply("place castillo")
    with pytest.raises(IllegalAction):
        game.apply("place Castilla")
    game.apply("place Cataluna")
    game.apply("place Granada")  # one each in two regions
    assert game.state.frame is None
    assert count(game, "Cataluna", "purple") == 1 and count(game, "Granada", "purple") == 1
    # Then the card's own placement (1) around the King.
    assert of_kind(game, "place") == CASTILLA_NEIGHBOURS | {"castillo"}
    assert_conserved(game)


def test_militia_both_into_one_region_or_fewer() -> None:
    game = militia_turn()
    game.apply("place Valencia")
    game.apply("place Valencia")
    assert count(game, "Valencia", "purple") == 2
    fewer = militia_turn()
    fewer.apply("place Valencia")
    fewer.apply("done")
    assert count(fewer, "Valencia", "purple") == 1 and fewer.state.frame is None


def test_civil_war_each_opponent_returns_all_from_one_secretly_chosen_region() -> None:
    game = setup()
    to_power(game, {2: "civil-war"})
    board = {
        "Aragon": {"green": 2, "purple": 1},
        "Galicia": {"green": 1},
        "Castilla": {"green": 1},  # the King's region: untouchable
        "Toledo": {"blue": 3},
    }
    set_position(game, board=board)  # orange has caballeros only in the court
    powers(game, {"purple": 9, "green": 8, "blue": 7, "orange": 6})
    start_turn(game, "civil-war")
    game.apply("special")
    assert set(acting(game)) == {"green", "blue"}  # orange is lucky: nothing on the board
    assert of_kind(game, "disc", "green") == {"Aragon", "Galicia"}
    assert of_kind(game, "disc", "blue") == {"Toledo"}
    game.apply("disc Aragon", game.state.colour("green"))
    # Secret until every disc is set.
    assert "my_disc" not in game.view()["step"] and "Aragon" not in json.dumps(game.view()["step"])
    assert game.view(game.state.colour("green"))["step"]["my_disc"] == "Aragon"
    assert "my_disc" not in game.view(game.state.colour("blue"))["step"]
    game.apply("disc Toledo", game.state.colour("blue"))
    assert count(game, "Aragon", "green") == 0 and count(game, "Toledo", "blue") == 0
    assert count(game, "Aragon", "purple") == 1 and count(game, "Galicia", "green") == 1
    assert acting(game) == ["purple"]
    assert_conserved(game)


def test_assassin_returns_one_caballero_of_each_opponent_from_regions_chosen_by_the_actor() -> None:
    game = setup()
    to_power(game, {2: "assassin"})
    board = {
        "Aragon": {"green": 2},
        "Castilla": {"green": 1, "orange": 2},  # the King's region: untouchable
        "Sevilla": {"orange": 1},
        "Galicia": {"orange": 1},
    }
    set_position(game, board=board, court={"blue": 5})  # blue: only in the court
    powers(game, {"purple": 9, "green": 8, "blue": 7, "orange": 6})
    start_turn(game, "assassin")
    game.apply("special")
    assert acting(game) == ["purple"] and of_kind(game, "return") == {"green Aragon"}
    game.apply("return green Aragon")
    # Blue has none in the regions (the court does not count): orange is next.
    assert of_kind(game, "return") == {"orange Sevilla", "orange Galicia"}
    game.apply("return orange Galicia")
    assert game.state.frame is None
    assert count(game, "Aragon", "green") == 1 and count(game, "Galicia", "orange") == 0
    assert count(game, "court", "blue") == 5 and count(game, "Castilla", "orange") == 2
    assert_conserved(game)


# --------------------------------------------------------------------------- Power Shift
HANDS = {
    "purple": ("g+2-grande", "g+2-grande", "g-2-grande"),
    "green": ("g+1-court", "g+1-court", "g+1-court"),
    "blue": ("g-1-own", "g-1-own", "g-1-own"),
    "orange": ("g-1-foreign", "g-1-foreign", "g-1-foreign"),
}


def shift_setup() -> Game:
    """Power Shift set up through the deal (explicit cards) up to the secret pass."""
    game = setup(power_shift=True, first="blue")
    assert game.state.phase == "setup_deal"
    for colour in FOUR:  # dealt in seat order, three each
        for card in HANDS[colour]:
            assert acting(game) == ["chance"]
            assert {a.arg for a in game.legal_actions(CHANCE)} == {colour}
            game.apply(f"deal {colour} {card}", CHANCE)
    return game


def test_power_shift_deals_3_modifier_cards_each_weighted_by_copies() -> None:
    game = setup(power_shift=True)
    outcomes = dict((str(a), p) for a, p in game.chance_outcomes())
    assert outcomes["deal purple g+1-court"] == pytest.approx(3 / 16)
    assert outcomes["deal purple g+2-grande"] == pytest.approx(2 / 16)
    game = shift_setup()
    assert game.state.phase == "setup_pass" and set(acting(game)) == set(FOUR)
    assert {str(a) for a in game.legal_actions(0)} == {"pass g+2-grande", "pass g-2-grande"}
    assert len(game.snapshot()["modifier_deck"]) == 16 - 12  # the rest stay in the box


def test_power_shift_pass_one_card_face_down_to_the_left_all_at_once() -> None:
    game = shift_setup()
    passes = {"purple": "g-2-grande", "green": "g+1-court", "blue": "g-1-own"}
    for colour, card in passes.items():
        game.apply(f"pass {card}", game.state.colour(colour))
        assert game.legal_actions(game.state.colour(colour)) == []  # a pass is final
    assert acting(game) == ["orange"] and game.state.phase == "setup_pass"
    game.apply("pass g-1-foreign", game.state.colour("orange"))
    hands = game.snapshot()["modifier_hands"]
    assert sorted(hands["purple"]) == sorted(["g+2-grande", "g+2-grande", "g-1-foreign"])
    assert sorted(hands["green"]) == sorted(["g+1-court", "g+1-court", "g-2-grande"])
    assert sorted(hands["blue"]) == sorted(["g-1-own", "g-1-own", "g+1-court"])
    assert sorted(hands["orange"]) == sorted(["g-1-foreign", "g-1-foreign", "g-1-own"])
    assert game.state.phase == "reveal"


def test_power_shift_hands_and_passes_are_secret() -> None:
    game = shift_setup()
    game.apply("pass g-2-grande", 0)
    purple_only = ("g+2-grande", "g-2-grande")
    for viewer in (None, 1, 2, 3):
        text = json.dumps(game.view(viewer))
        assert not any(card in text for card in purple_only), viewer
    mine = game.view(0)
    assert sorted(mine["modifier_hand"]) == sorted(HANDS["purple"])
    assert mine["step"]["my_pass"] == "g-2-grande"
    public = game.view()
    assert "modifier_hand" not in public and public["modifier_hand_sizes"]["purple"] == 3
    assert public["step"]["set"] == ["purple"]
    deals = [line for line in public["log"] if line[1].startswith("deal")]
    assert deals[0] == ["chance", "deal purple ?"] and len(deals) == 12
    assert ["purple", "pass ?"] in public["log"]
    assert game.snapshot()["step"]["passes"] == {"purple": "g-2-grande"}  # only the full state


def shift_round(
    hands: Mapping[str, Sequence[str]], reveals: Mapping[int, str] | None = None
) -> Game:
    """Power Shift with the first cards dealt and passed, then these modifier hands."""
    game = setup(power_shift=True)
    to_power(game, reveals)
    set_grey_hands(game, hands)
    return game


def test_power_shift_total_must_differ_from_every_total_played() -> None:
    game = shift_round({"purple": ["g+1-court"], "green": ["g-1-own"]})
    game.apply("shift 9 g+1-court")  # total 10
    assert "power 10" not in legal(game)  # a plain 10 now equals a total played
    assert "power 9" in legal(game)  # the 9 itself is no total
    assert "shift 11 g-1-own" not in legal(game) and "shift 10 g-1-own" in legal(game)
    with pytest.raises(IllegalAction):
        game.apply("shift 11 g-1-own")


def test_power_shift_modifier_effect_comes_after_the_court_and_before_the_action_card() -> None:
    game = shift_round({"purple": ["g+1-court"]}, {1: "intrigue"})
    game.apply("shift 9 g+1-court")
    powers(game, {"green": 8, "blue": 7, "orange": 6})
    assert acting(game) == ["purple"] and game.state.phase == "take"
    court, province = count(game, "court", "purple"), game.state.province[0]
    game.apply("take 2")
    assert legal(game) == {"grey", "skip"}
    with pytest.raises(IllegalAction):
        game.apply("card intrigue")
    game.apply("grey")  # +1 Court: one more caballero from the province
    assert count(game, "court", "purple") == court + 3 and game.state.province[0] == province - 3
    assert game.state.phase == "card" and "card intrigue" in legal(game)
    game.apply("card intrigue")
    assert game.state.phase == "main"


def test_power_shift_modifier_effect_may_be_skipped() -> None:
    game = shift_round({"purple": ["g+2-province"]})
    game.apply("shift 9 g+2-province")
    powers(game, {"green": 8, "blue": 7, "orange": 6})
    game.apply("take 2")
    game.apply("grey")  # place 1 from the province into any region but the King's
    assert of_kind(game, "place") == ALL_REGIONS - {"Castilla"}
    game.apply("place Granada")
    assert count(game, "Granada", "purple") == 1 and game.state.phase == "card"
    pass_turn_from_card(game)
    skipper = shift_round({"purple": ["g+2-province"]})
    skipper.apply("shift 9 g+2-province")
    powers(skipper, {"green": 8, "blue": 7, "orange": 6})
    skipper.apply("take 0")
    skipper.apply("skip")
    assert skipper.state.phase == "card" and skipper.state.frame is None


def pass_turn_from_card(game: Game) -> None:
    game.apply(game.legal_actions()[0])
    finish_turn(game)


def test_power_shift_first_player_is_the_lowest_total() -> None:
    game = shift_round({"purple": ["g+2-grande"]})
    game.apply("shift 1 g+2-grande")  # total 3
    powers(game, {"green": 2, "blue": 5, "orange": 6})
    assert [game.state.colours[p] for p in game.state.turn_order] == [
        "orange",
        "blue",
        "purple",
        "green",
    ]
    assert game.view()["power_totals"] == {"purple": 3, "green": 2, "blue": 5, "orange": 6}
    assert game.state.turn is not None and game.state.turn.take == 3  # orange: power card 6 takes 3
    pass_turn(game)
    pass_turn(game)
    # The caballeros come from the power card itself (1: 6), whatever the modifier adds.
    assert game.state.turn is not None and game.state.colours[game.state.turn.player] == "purple"
    assert game.state.turn.take == 6
    round_over(game)
    assert game.state.colours[game.state.first] == "green"  # 2 beats purple's power card 1 (+2 = 3)
    assert game.snapshot()["modifier_discards"]["purple"] == ["g+2-grande"]


def test_power_of_attorney_may_take_back_a_modifier_instead() -> None:
    game = shift_round({"purple": ["g+1-court"]}, {4: "power-of-attorney"})
    game.apply("shift 9 g+1-court")
    powers(game, {"green": 8, "blue": 7, "orange": 6})
    game.apply("take 0")
    game.apply("skip")
    game.apply("card power-of-attorney")
    game.apply("special")
    assert of_kind(game, "powerback") == {"9", "g+1-court"}
    game.apply("powerback g+1-court")
    assert game.state.grey_hands[0] == ["g+1-court"] and 9 not in game.state.hands[0]
    assert ["purple", "powerback ?"] in game.view()["log"]
    finish_turn(game)
    round_over(game)
    assert game.state.power_discards[0] == [9] and game.state.grey_discards[0] == []


def test_power_shift_with_two_players_deals_to_the_players_only() -> None:
    game = setup(TWO, power_shift=True)
    assert game.state.phase == "setup_deal"
    for _ in range(6):
        assert {a.arg for a in game.legal_actions(CHANCE)} <= {"purple", "green"}
        game.apply(game.legal_actions(CHANCE)[0], CHANCE)
    assert set(acting(game)) == {"purple", "green"}
    game.apply(game.legal_actions(0)[0], 0)
    game.apply(game.legal_actions(1)[0], 1)
    assert [len(h) for h in game.state.grey_hands] == [3, 3, 0]
    assert game.state.phase == "dummy_regions"


# --------------------------------------------------------------------------- random-game smoke
VARIANT_OPTIONS: dict[str, dict[str, Any]] = {
    "plain": {},
    "short": {"short_game": True},
    "regency": {"new_regency": True},
    "shift": {"power_shift": True},
    "alternatives": {"alternatives": ("delegation", "veto", "veto-2", "rivalry")},
    "merged": {"merge_decks_2_3": True},
    "everything": {
        "short_game": True,
        "new_regency": True,
        "power_shift": True,
        "alternatives": ("delegation", "veto", "veto-2", "rivalry"),
    },
}
SMOKE = [
    (name, players)
    for name in VARIANT_OPTIONS
    for players in (2, 3, 4, 5)
    if name != "merged" or players == 3  # always merged with 2; refused with 4–5
]


@dataclass
class RoundWatch:
    """Per-round facts of a random game, checked when the turns start."""

    rounds_seen: int = -1
    regency_deck: int = -1


def check_step(game: Game, watch: RoundWatch, per_colour: int) -> None:
    for p, colour in enumerate(game.state.colours):
        where = [row[p] for row in game.state.pieces] + [
            game.state.court[p],
            game.state.province[p],
        ]
        assert min(where) >= 0 and sum(where) == per_colour, (colour, where)
    if game.state.dummy >= 0:
        assert game.state.dummy not in game.current_players()
        assert game.state.first != game.state.dummy
        assert game.state.court[game.state.dummy] == 0
    if (
        game.state.phase == "take" and game.state.round_index != watch.rounds_seen
    ):  # the round's 1st turn
        played = [p for p in range(game.state.n) if game.state.played[p]]
        totals = [game.state.totals[p] for p in played]
        assert len(set(totals)) == len(totals), totals  # every total differs
        assert game.state.turn_order == sorted(played, key=lambda p: -game.state.totals[p])
        assert len(played) == game.state.n  # the dummy plays a power card too
        if game.options.new_regency:
            left = len(game.state.decks[5])
            assert watch.regency_deck in (-1, left + 1), (watch.regency_deck, left)
            watch.regency_deck = left
        watch.rounds_seen = game.state.round_index


@pytest.mark.parametrize(("variant", "players"), SMOKE, ids=[f"{v}-{n}p" for v, n in SMOKE])
def test_random_variant_games_conserve_caballeros_and_replay(variant: str, players: int) -> None:
    for seed in (1, 2):
        options = Options(
            players=FOUR[:players] if players <= 4 else (*FOUR, "red"),
            mode="dealer" if seed == 2 else "table",
            seed=seed,
            **VARIANT_OPTIONS[variant],
        )
        game = Game(options)
        rng = random.Random(seed)
        watch = RoundWatch()
        per_colour = game.state.data.caballeros_per_colour
        middle: dict[str, Any] | None = None
        while not game.is_terminal():
            for player, action in random_step(game, rng):
                game.apply(action, player)
                check_step(game, watch, per_colour)
            if middle is None and game.state.round_index == 3:
                # As JSON text: the snapshot shares some lists with the live game.
                middle = {"record": to_record(game), "snapshot": json.dumps(game.snapshot())}
            assert len(game.history) < 5_000
        general = [s for s in game.state.scorings if s["kind"] == "general"]
        assert len(general) == 3
        assert len(game.state.score_history) == (6 if options.short_game else 9)
        assert middle is not None
        again = from_record(json.loads(json.dumps(middle["record"])))
        assert again.snapshot() == json.loads(middle["snapshot"])
        replayed = from_record(json.loads(json.dumps(to_record(game))))
        assert replayed.snapshot() == game.snapshot()
        assert replayed.state.scores == game.state.scores


def test_table_sets_a_card_aside_unseen() -> None:
    # "Return 1 random card ... to the box": at the table nobody looks at it.
    game = Game(Options(alternatives=("delegation",)))
    game.apply("first purple", CHANCE)
    assert "remove 1 ?" in [str(a) for a in game.legal_actions(CHANCE)]
    assert all(a.arg2 != "?" for a, _ in game.chance_outcomes())
    game.apply("remove 1 ?", CHANCE)
    assert game.state.phase == "setup_king" and game.state.unseen_set_aside[1] == 1
    assert "delegation" in game.state.decks[1]
