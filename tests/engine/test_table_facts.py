"""The public facts a Board Game Arena player expects to see at the table (issue 11): each
player's remaining power cards (with the table option `open_power_cards`), the action card each
player took this round, and the secret discs once revealed."""

from __future__ import annotations

import json

from engine.elgrande.game import CHANCE, Game, Options
from tests.engine.conftest import play_powers, table_game

REVEALS = ("conspiracy", "fair", "fiesta", "power-of-attorney")


def _first_round_over(game: Game) -> None:
    """Every player takes nothing more than a card and ends the turn (round 1 ends)."""
    while game.state.phase not in ("reveal", "scoring", "over"):
        player = game.current_players()[0]
        legal = [str(a) for a in game.legal_actions(player)]
        for preferred in ("take 0", "skip", "done"):
            if preferred in legal:
                game.apply(preferred, player)
                break
        else:
            game.apply(legal[0], player)


# ---------------------------------------------------------------------- remaining power cards
def test_power_cards_left_in_hand_are_secret_by_default() -> None:
    """The rulebook discards played power cards face down: without the option nobody but the
    player sees what is left (only how many)."""
    game = table_game(reveals=REVEALS)
    play_powers(game, 9, 8, 5, 3)
    public = game.view(None)
    assert "remaining_power" not in public and "discarded_power" not in public
    assert public["hand_sizes"]["purple"] == 12
    assert not game.options.open_power_cards


def test_open_power_cards_show_every_players_remaining_and_discarded_cards() -> None:
    game = table_game(reveals=REVEALS, open_power_cards=True)
    play_powers(game, 9, 8, 5, 3)
    public = game.view(None)
    assert public["options"]["open_power_cards"] is True
    every = list(range(1, 14))
    assert public["remaining_power"]["purple"] == [v for v in every if v != 9]
    assert public["remaining_power"]["orange"] == [v for v in every if v != 3]
    assert public["played"] == {"purple": 9, "green": 8, "blue": 5, "orange": 3}
    assert public["discarded_power"] == {c: [] for c in ("purple", "green", "blue", "orange")}
    _first_round_over(game)
    public = game.view(None)
    assert public["discarded_power"]["green"] == [8]
    assert 8 not in public["remaining_power"]["green"]
    for seat in range(4):  # every seat sees the same as the public, and its own hand
        view = game.view(seat)
        assert view["remaining_power"] == public["remaining_power"]
        assert view["hand"] == public["remaining_power"][game.state.colours[seat]]


def test_power_of_attorney_card_taken_back_is_public_with_open_discards() -> None:
    """From an open discard pile a card taken back is seen leaving it: the log names it."""
    game = table_game(reveals=REVEALS, open_power_cards=True)
    play_powers(game, 9, 8, 5, 3)
    game.apply("take 2")
    game.apply("card power-of-attorney")
    game.apply("special")
    game.apply("powerback 9")
    public = game.view(None)
    assert ["purple", "powerback 9"] in public["log"]
    assert 9 in public["remaining_power"]["purple"]


def test_power_of_attorney_card_taken_back_stays_secret_by_default() -> None:
    """The rulebook: "you need not show it to the others"."""
    game = table_game(reveals=REVEALS)
    play_powers(game, 9, 8, 5, 3)
    game.apply("take 2")
    game.apply("card power-of-attorney")
    game.apply("special")
    game.apply("powerback 9")
    text = json.dumps(game.view(game.state.colour("green")))
    assert ["purple", "powerback ?"] in game.view(None)["log"]
    assert "remaining_power" not in text and "powerback 9" not in text


def test_the_option_reads_from_json_and_records() -> None:
    options = Options.from_json({"players": ["purple", "green"], "open_power_cards": True})
    assert options.open_power_cards
    assert Options.from_json(Options().to_json()).open_power_cards is False


# ---------------------------------------------------------------------- action cards taken
def test_the_action_card_each_player_took_stays_public_for_the_round() -> None:
    game = table_game(reveals=REVEALS)
    play_powers(game, 9, 8, 5, 3)
    assert game.view(None)["taken"] == {}
    game.apply("take 2")
    game.apply("card fair")
    assert game.view(None)["taken"] == {"purple": "fair"}
    while len(game.view(None)["taken"]) < 4:  # green, blue and orange take theirs too
        player = game.current_players()[0]
        legal = [str(a) for a in game.legal_actions(player)]
        game.apply(next((t for t in ("take 0", "skip", "done") if t in legal), legal[0]), player)
    taken = game.view(None)["taken"]
    assert taken["purple"] == "fair"
    assert len(set(taken.values())) == 4
    # the next round starts afresh
    _first_round_over(game)
    assert game.state.phase == "reveal" and game.view(None)["taken"] == {}


def test_the_dummys_card_is_shown_too() -> None:
    game = Game(Options(players=("purple", "green"), mode="dealer", seed=3))
    while game.state.phase != "take":
        player = game.current_players()[0]
        game.apply(game.legal_actions(player)[0], player)
    while game.view(None)["taken"].get(game.state.colours[game.state.dummy]) is None:
        player = game.current_players()[0]
        game.apply(game.legal_actions(player)[0], player)
    assert game.view(None)["taken"][game.state.colours[game.state.dummy]] in game.state.data.cards


# ---------------------------------------------------------------------- discs once revealed
def _coup(game: Game) -> tuple[str, list[str]]:
    """Purple plays Coup on Navarra, where the three others stand; returns who sets a disc."""
    play_powers(game, 9, 8, 5, 3)
    for p in (1, 2, 3):
        game.state.pieces[game.state.area("Navarra")][p] = 1
    game.state.touched()
    game.apply("take 2")
    game.apply("card coup")
    game.apply("special")
    game.apply("region Navarra")
    return "Navarra", [game.state.colours[p] for p in game.current_players()]


def test_coup_discs_are_logged_once_revealed() -> None:
    game = table_game(reveals=("conspiracy", "fair", "fiesta", "coup"))
    region, setters = _coup(game)
    first, *others = setters
    assert len(setters) == 3
    choice = next(a for a in game.legal_actions(game.state.colour(first)))
    game.apply(choice, game.state.colour(first))
    log = game.view(None)["log"]
    assert [first, "disc ?"] in log and [first, str(choice)] not in log  # not yet
    assert game.view(None)["disc_reveals"] == []
    chosen = {first: choice.arg}
    for colour in others:
        action = game.legal_actions(game.state.colour(colour))[-1]
        game.apply(action, game.state.colour(colour))
        chosen[colour] = action.arg
    public = game.view(None)
    for colour, area in chosen.items():
        assert [colour, f"disc {area}"] in public["log"]
    assert public["disc_reveals"] == [{"card": "coup", "round": 1, "discs": chosen}]
    assert region not in chosen.values()


def test_general_scoring_discs_are_logged_once_revealed() -> None:
    game = Game(Options(mode="dealer", seed=5))
    while game.state.phase != "scoring":
        player = game.current_players()[0]
        player = player if player != CHANCE else CHANCE
        game.apply(game.legal_actions(player)[-1], player)
    game.apply("disc Aragon", 0)
    assert ["purple", "disc ?"] in game.view(None)["log"]
    for p in (1, 2, 3):
        game.apply("disc Galicia", p)
    public = game.view(None)
    reveal = public["disc_reveals"][-1]
    assert reveal["card"] == "general" and reveal["round"] == 3
    assert reveal["discs"] == {
        "purple": "Aragon",
        "green": "Galicia",
        "blue": "Galicia",
        "orange": "Galicia",
    }
    assert ["purple", "disc Aragon"] in public["log"]
