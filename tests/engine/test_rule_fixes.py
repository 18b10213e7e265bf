"""The five rules an independent check against the three rulebooks found wrong (issue 11), each
with the rulebook statement it enforces. Quotes: cs = 000_184059bc133d7318.txt, uk =
003_fae534ded3e1092a.txt, pl = 001_f8ce1e3d33a23039.txt in shared/seeds.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from engine.elgrande.data import load
from engine.elgrande.errors import IllegalAction
from engine.elgrande.game import CHANCE, Game, Options
from engine.elgrande.record import from_record, summary, to_record
from engine.elgrande.spec import ALL_ALTERNATIVES
from host.cli import main
from tests.engine.builders import acting, play_powers, play_to_general_scoring, table_game
from tests.engine.conftest import next_round_with, play_random, players_for


# --------------------------------------------------------------- 1. the alternative action cards
def test_the_box_holds_55_action_cards_4_of_them_alternatives() -> None:
    # uk p. 2: "55 карт дій"; set-up: "Поверніть у коробку 10 карт дій з символом [New Regency]
    # ... та 4 карти дій з [alternative] ... Колоди № 1–4 містять по 10 карт. Колода № 5
    # складається лише з карти «Ваша Величність»."
    data = load("2023")
    assert sum(card.copies for card in data.cards.values()) == 55
    alternatives = [c for c in data.cards.values() if c.alternative]
    assert sum(c.copies for c in alternatives) == 4
    for deck in range(1, 5):
        assert len(data.deck_cards(deck)) == 10, deck
    assert data.deck_cards(5) == ["your-majesty"]


def test_alternative_cards_are_the_faces_of_their_page_from_decks_1_2_2_and_4() -> None:
    # cs p. 10, "Alternativní akční karty": "Příklad: Použijete-li všechny 4, vyřaďte dvě karty
    # z 2. balíčku, jednu z 1. balíčku a jednu z 4. balíčku." The page prints the faces of Veto,
    # Soupeření (Rivalry) and Delegace (Delegation); the fourth card's face is printed nowhere.
    data = load("2023")
    alternatives = {c.id: c.deck for c in data.cards.values() if c.alternative}
    assert alternatives == {"delegation": 1, "veto": 2, "veto-2": 2, "rivalry": 4}
    assert set(ALL_ALTERNATIVES) == set(alternatives)
    # Militia and Civil War are explained with the base cards ("Detaily jednotlivých akčních
    # karet"), not on the alternative page.
    assert not data.cards["militia"].alternative and not data.cards["civil-war"].alternative
    assert "militia" in data.deck_cards(1) and "civil-war" in data.deck_cards(2)


def test_adding_all_4_sets_aside_1_card_of_deck_1_2_of_deck_2_and_1_of_deck_4() -> None:
    # uk: "Наприклад, якщо ви хочете додати всі 4 карти, поверніть у коробку 1 випадкову карту з
    # колоди № 1; 2 випадкові карти з колоди № 2; 1 випадкову карту з колоди № 4."
    game = Game(Options(alternatives=ALL_ALTERNATIVES))
    game.apply("first purple", CHANCE)
    decks = []
    while game.state.phase == "setup_remove":
        action = game.legal_actions(CHANCE)[0]
        decks.append(int(action.arg))
        game.apply(action, CHANCE)
    assert sorted(decks) == [1, 2, 2, 4]
    assert [len(game.state.decks[d]) for d in range(1, 5)] == [10, 10, 10, 10]
    for card in ALL_ALTERNATIVES:
        assert card in game.state.decks[game.state.data.cards[card].deck]


def test_the_fourth_alternative_card_is_flagged_and_an_override_names_it(tmp_path: Path) -> None:
    # The rulebooks print no face for it: it stands in as a second Veto (1995's deck 2 held two),
    # flagged, and an owner's override file replaces it.
    data = load("2023")
    assert {"names", "text", "effect"} <= set(data.cards["veto-2"].unverified)
    override = tmp_path / "fourth.toml"
    override.write_text(
        '[[card]]\nid = "veto-2"\nnames = { en = "Exodus II" }\n'
        'text = "Each opponent returns all caballeros in their court to the province."\n'
        'effect = [{ op = "return", count = "all", from = ["court"] }]\nunverified = []\n',
        encoding="utf-8",
    )
    owned = load("2023", [override])
    card = owned.cards["veto-2"]
    assert card.alternative and card.deck == 2 and card.name() == "Exodus II"
    game = Game(Options(alternatives=("veto-2",), mode="dealer", seed=1), owned)
    assert "veto-2" in game.state.decks[2]


def test_records_of_game_version_1_keep_the_cards_they_were_made_with() -> None:
    # A game saved before the cards were settled (Militia an alternative) still replays.
    record = to_record(Game(Options(alternatives=("veto",), mode="dealer", seed=2)))
    old = {**record, "game_version": 1, "options": {**record["options"], "alternatives": []}}
    old["options"].pop("card_set")
    old["options"]["alternatives"] = ["militia"]
    old["actions"] = [["chance", "first purple"], ["chance", "remove 1 ambush"]]
    game = from_record(old)
    assert game.options.card_set == "v1" and "militia" in game.state.decks[1]
    with pytest.raises(ValueError, match="not an alternative"):
        Game(Options(alternatives=("militia",)))  # a new game uses the settled cards


# --------------------------------------------------------------- 2. the dummy has no standing
def test_replay_standings_leave_out_the_2_player_dummy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # uk, "Гра вдвох": "Уявний гравець також розміщує своїх кабальєро в Іспанії. Він може
    # вплинути на визначення більшості, але не набирає ПО."
    game = play_random(Options(players=players_for("2023", 2), mode="dealer", seed=5), seed=5)
    assert game.is_terminal()
    dummy = game.state.colours[game.state.dummy]
    result = summary(game)
    assert set(result["scores"]) == set(result["standings"]) == {"purple", "green"}
    path = tmp_path / "two.json"
    path.write_text(json.dumps(to_record(game)), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    ranked = re.findall(r"^  \d+\. (\w+) +-?\d+$", capsys.readouterr().out, re.MULTILINE)
    assert sorted(ranked) == ["green", "purple"] and dummy not in ranked


# --------------------------------------------------------------- 3. a card set aside unseen
def test_a_card_set_aside_unseen_leaves_10_cards_in_the_public_deck_count() -> None:
    # cs: "Za každou tuto kartu, kterou přidáte do příslušného balíčku, z něj jednu náhodně
    # vylosovanou kartu vyřaďte a vraťte ji do krabice, aniž by ji někdo viděl." The deck keeps
    # 10 cards: one out, one in.
    game = Game(Options(alternatives=("delegation", "veto"), mode="table"))
    game.apply("first purple", CHANCE)
    game.apply("remove 1 ?", CHANCE)
    game.apply("remove 2 ?", CHANCE)
    sizes = game.view()["deck_sizes"]
    assert sizes["1"] == 10 and sizes["2"] == 10 and sizes["3"] == 10
    game.apply("kingcard Castilla", CHANCE)
    for colour, home in zip(
        game.state.colours[:4], ("Toledo", "Aragon", "Galicia", "Sevilla"), strict=True
    ):
        game.apply(f"home {colour} {home}", CHANCE)
    game.apply(f"reveal 1 {game.state.decks[1][0]}", CHANCE)
    assert game.view()["deck_sizes"]["1"] == 9


def test_with_2_players_the_merged_deck_counts_the_card_set_aside_unseen() -> None:
    # uk, 2 players: "Перетасуйте карти дій у колодах № 2 і 3" (one deck of 20).
    game = Game(Options(players=players_for("2023", 2), alternatives=("veto",), mode="table"))
    game.apply("first purple", CHANCE)
    game.apply("remove 2 ?", CHANCE)
    assert game.view()["deck_sizes"]["2"] == 20 and "3" not in game.view()["deck_sizes"]


# --------------------------------------------------------------- 4. reasons naming the problem
def test_castillo_caballeros_at_the_general_scoring_leave_by_the_discs() -> None:
    # uk, general scoring: everyone sets the disc; the castillo is scored; "Then each player
    # moves all of their caballeros from the castillo to the region their disc shows".
    game = table_game()
    play_to_general_scoring(game)
    player = game.current_players()[0]
    with pytest.raises(IllegalAction, match="leave by the discs") as refusal:
        game.apply("pick green castillo", player)
    assert "before a general scoring" not in str(refusal.value)


def test_infiltration_before_its_announcement_says_to_announce_it() -> None:
    # uk, Проникнення: "Завдяки цій карті ви можете розміщувати своїх кабальєро в регіоні
    # короля." The card is a special action, done once announced ('special').
    game = table_game(new_regency=True, reveal=("infiltration",))
    play_powers(game, {"purple": 9, "green": 1, "blue": 2, "orange": 3})
    game.apply("take 2")
    game.apply("card infiltration")
    with pytest.raises(IllegalAction, match="announce Infiltration") as refusal:
        game.apply("place Castilla")
    assert "untouchable" not in str(refusal.value)
    game.apply("special")
    game.apply("place Castilla")  # once announced, it is allowed


# --------------------------------------------------------------- 5. two Vetoes, one question
def test_a_holder_of_both_1995_vetoes_is_asked_once_per_announced_action() -> None:
    # cs, Veto: "Každý hráč musí předem oznámit, kterou akci hodlá provést, bezprostředně poté se
    # musíte rozhodnout, zda veto využijete, či ne." One announced action, one decision.
    players = players_for("1995", 4)
    game = table_game(players, edition="1995", reveal=("95-veto",))
    play_powers(game, {"yellow": 12, "red": 1, "green": 2, "blue": 3})
    game.apply("take 0")
    game.apply("card 95-veto")
    reveals = [game.state.decks[1][0], "95-veto", game.state.decks[3][0], game.state.decks[4][0]]
    next_round_with(game, reveals, first_to_act="yellow")
    game.apply("take 0")
    game.apply("card 95-veto")
    assert Counter(v.holder for v in game.state.vetoes) == {game.state.colour("yellow"): 2}
    while game.current_players() == (game.state.colour("yellow"),):
        game.apply("done")
    player = game.current_players()[0]
    game.apply("take 0", player)
    game.apply(f"card {reveals[0]}", player)
    game.apply("special", player)
    assert acting(game) == ["yellow"]
    game.apply("allow", game.state.colour("yellow"))
    assert game.state.frame is not None and game.state.frame.kind != "veto"
    assert acting(game) == [game.state.colours[player]]
    assert len(game.state.vetoes) == 2  # allowing spends nothing
