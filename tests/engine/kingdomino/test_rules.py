"""The rulebook's statements, one test each (docs/kingdomino-rules.md lists them)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core.actions import Action
from engine.core.errors import NotationError, OptionsError, UndoError
from engine.core.protocol import CHANCE
from engine.kingdomino import kingdom as kd
from engine.kingdomino.game import Game
from engine.kingdomino.kingdom import Kingdom
from engine.kingdomino.options import COLOURS, Options, Setup
from engine.kingdomino.scoring import breakdown
from tests.engine.kingdomino.helpers import (
    draw,
    first_picks,
    random_game,
    refused,
    started_4p,
    table_game,
)

WHEAT, FOREST, LAKE = 1, 2, 3


@pytest.mark.parametrize(
    ("players", "variants", "kings", "line", "dominoes", "rounds", "size"),
    [
        (2, {}, 4, 4, 24, 6, 5),
        (3, {}, 3, 3, 36, 12, 5),
        (4, {}, 4, 4, 48, 12, 5),
        (2, {"mighty_duel": True}, 4, 4, 48, 12, 7),
        (2, {"wider_draft": True}, 4, 5, 30, 6, 5),
        (3, {"wider_draft": True}, 3, 4, 48, 12, 5),
        (3, {"three_player_four_per_line": True}, 3, 4, 48, 12, 5),
    ],
)
def test_setup_by_player_count_and_variant(
    players: int,
    variants: dict[str, bool],
    kings: int,
    line: int,
    dominoes: int,
    rounds: int,
    size: int,
) -> None:
    setup = Setup(Options(players=COLOURS[:players], **variants))
    assert (setup.kings, setup.line, setup.dominoes, setup.rounds, setup.size) == (
        kings,
        line,
        dominoes,
        rounds,
        size,
    )


@pytest.mark.parametrize(
    ("players", "variants", "each"),
    [
        (2, {}, 12),
        (3, {}, 12),
        (4, {}, 12),
        (2, {"mighty_duel": True}, 24),
        (2, {"wider_draft": True}, 12),
        (3, {"wider_draft": True}, 12),
        (3, {"three_player_four_per_line": True}, 12),
    ],
)
def test_every_player_ends_with_12_dominoes_24_in_the_mighty_duel(
    players: int, variants: dict[str, bool], each: int
) -> None:
    game = random_game(Options(players=COLOURS[:players], mode="dealer", seed=5, **variants))
    got = Counter(p for p, a in game.history if a.kind in ("place", "discard"))
    assert got == {seat: each for seat in range(players)}
    assert game.state.drawn == game.state.setup.dominoes


def test_a_line_is_sorted_by_number() -> None:
    game = table_game(4)
    draw(game, [40, 3, 17, 24])
    assert game.state.line_next == [3, 17, 24, 40]
    first = {"domino": 3, "faces": "F0 F0", "king": "", "placed": False}
    assert game.view()["next_line"][0] == first


def test_random_first_pick_order_each_drawn_king_claims_and_the_last_has_no_choice() -> None:
    game = table_game(4)
    draw(game, [1, 2, 3, 4])
    assert game.current_players() == (CHANCE,)
    assert {str(a) for a in game.legal_actions(CHANCE)} == {f"king {c}" for c in COLOURS}
    first_picks(game, [("blue", 3), ("pink", 4), ("green", 1)])
    assert [str(a) for a in game.legal_actions(CHANCE)] == ["king yellow"]
    game.apply("king yellow", CHANCE)
    assert [str(a) for a in game.legal_actions(1)] == ["claim 2"]


def test_with_two_players_each_places_two_kings_in_the_first_pick() -> None:
    game = table_game(2)
    draw(game, [5, 6, 7, 8])
    first_picks(game, [("yellow", 5), ("pink", 6), ("yellow", 8)])
    assert [str(a) for a in game.legal_actions(CHANCE)] == ["king pink"]
    game.apply("king pink", CHANCE)
    game.apply("claim 7", 0)
    assert Counter(game.state.setup.seat_of_king[k] for k in game.state.line_kings) == {0: 2, 1: 2}


def test_turn_order_is_the_order_of_the_kings_on_the_line() -> None:
    game = table_game(4)
    draw(game, [1, 2, 3, 4])
    first_picks(game, [("blue", 3), ("pink", 4), ("green", 1), ("yellow", 2)])
    draw(game, [10, 20, 30, 40])
    order = []
    for _ in range(4):
        seat = game.current_players()[0]
        order.append(seat)
        game.apply(game.legal_actions(seat)[0], seat)  # place
        game.apply(game.legal_actions(seat)[0], seat)  # claim
    assert [COLOURS[s] for s in order] == ["green", "yellow", "blue", "pink"]


def test_place_then_claim() -> None:
    game = started_4p()
    assert refused(game, "claim 34", 0).key == "kingdomino.refuse.place_first"
    game.apply("place 1 e4n", 0)
    assert refused(game, "place 1 e4n", 0).key == "kingdomino.refuse.claim_now"
    assert refused(game, "claim 99", 0).key == "kingdomino.refuse.not_in_line"
    game.apply("claim 34", 0)
    assert game.current_players() == (1,)
    game.apply("place 2 e6s", 1)
    assert refused(game, "claim 34", 1).key == "kingdomino.refuse.claimed"


def test_only_your_own_domino_and_only_on_your_turn() -> None:
    game = started_4p()
    assert refused(game, "place 2 e4n", 0).key == "kingdomino.refuse.not_your_domino"
    assert refused(game, "place 2 e4n", 1).key == "kingdomino.refuse.not_your_turn"


def test_a_domino_must_touch_the_castle_or_the_same_terrain() -> None:
    game = started_4p()
    why = refused(game, "place 1 a1e", 0)
    assert why.key == "kingdomino.refuse.no_contact"
    assert why.reason == "1 cannot go there: no side touches a wheat or your castle"
    assert why.params == {"domino": 1, "first": "W", "second": "W"}


def test_no_contact_reason_names_both_terrains() -> None:
    game = started_4p()
    kingdom = game.state.kingdoms[0]
    kingdom.place(kingdom.cell(4, 5) * 4 + kd.EAST, WHEAT, 0, WHEAT, 0)
    game.state.line[0] = 34  # pink's king now stands on 34 (lake, forest)
    why = refused(game, "place 34 f2e", 0)
    assert why.reason == "34 cannot go there: no side touches a lake or forest or your castle"


def test_a_corner_is_not_a_side() -> None:
    game = started_4p()
    assert refused(game, "place 1 d4n", 0).key == "kingdomino.refuse.no_contact"


def test_one_matching_side_is_enough_the_other_half_may_touch_anything() -> None:
    kingdom = Kingdom(5)
    castle_row, castle_col = 4, 4
    kingdom.place(kingdom.cell(castle_row - 1, castle_col) * 4 + kd.NORTH, WHEAT, 0, WHEAT, 0)
    # A forest-wheat domino beside the wheat: its wheat half touches wheat, its forest half
    # touches the castle's other neighbour, nothing else.
    move = kingdom.cell(castle_row - 2, castle_col + 1) * 4 + kd.SOUTH
    assert kingdom.check(move, WHEAT, FOREST) == kd.OK
    # The same squares with the forest half against the wheat: no contact.
    flipped = kingdom.cell(castle_row - 2, castle_col + 1) * 4 + kd.EAST
    assert kingdom.check(flipped, FOREST, LAKE) == kd.NO_CONTACT
    assert move in kingdom.placements(WHEAT, 0, FOREST, 0)


def test_the_frame_floats_the_castle_need_not_be_central() -> None:
    kingdom = Kingdom(5)
    row = 4
    kingdom.place(kingdom.cell(row, 5) * 4 + kd.EAST, WHEAT, 0, WHEAT, 0)  # f5 g5
    kingdom.place(kingdom.cell(row, 7) * 4 + kd.EAST, WHEAT, 0, WHEAT, 0)  # h5 i5
    assert kingdom.right - kingdom.left + 1 == 5  # castle at the west edge of the frame
    assert kingdom.check(kingdom.cell(row, 3) * 4 + kd.NORTH, WHEAT, WHEAT) == kd.TOO_WIDE
    assert kingdom.check(kingdom.cell(row - 1, 5) * 4 + kd.NORTH, WHEAT, WHEAT) == kd.OK


def test_too_wide_is_refused_with_the_width() -> None:
    game = started_4p()
    kingdom = game.state.kingdoms[0]
    kingdom.place(kingdom.cell(4, 5) * 4 + kd.EAST, WHEAT, 0, WHEAT, 0)
    kingdom.place(kingdom.cell(4, 7) * 4 + kd.EAST, WHEAT, 0, WHEAT, 0)
    why = refused(game, "place 1 d5n", 0)
    assert why.key == "kingdomino.refuse.too_wide"
    assert why.reason == "your kingdom would be 6 squares wide (at most 5)"


def test_a_domino_that_fits_nowhere_is_discarded_and_only_then() -> None:
    game = started_4p()
    assert refused(game, "discard 1", 0).key == "kingdomino.refuse.must_place"
    kingdom = game.state.kingdoms[0]
    for row in range(5):
        for col in range(4, 9):
            if kingdom.terrain[kingdom.cell(row, col)] == kd.EMPTY:
                kingdom.set_square(row, col, FOREST, 0)
    assert game.legal_actions(0) == [Action("discard", "1")]
    assert refused(game, "place 1 d5n", 0).key in {
        "kingdomino.refuse.too_wide",
        "kingdomino.refuse.outside",
    }
    game.apply("discard 1", 0)
    assert game.state.discarded[0] == 1 and breakdown(game.state, 0).harmony == 0


def test_the_last_round_has_no_claims() -> None:
    game = Game(Options(mode="dealer", seed=9))
    while game.state.drawn < game.state.setup.dominoes or game.state.line_next:
        game.apply(game.legal_actions()[0])
    seat = game.current_players()[0]
    assert {a.kind for a in game.legal_actions(seat)} <= {"place", "discard"}
    assert refused(game, "claim 1", seat).key == "kingdomino.refuse.nothing_to_claim"
    while not game.is_terminal():
        assert all(a.kind != "claim" for a in game.legal_actions())
        game.apply(game.legal_actions()[0])


def test_wider_draft_discards_the_unclaimed_domino_of_each_line() -> None:
    game = random_game(Options(players=("pink", "blue"), mode="dealer", seed=2, wider_draft=True))
    assert len(game.state.left_over) == 6 and game.state.drawn == 30


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"players": ["pink", "blue", "green"], "mighty_duel": True}, "mighty_duel"),
        ({"players": list(COLOURS), "wider_draft": True}, "wider_draft"),
        ({"players": ["pink", "blue"], "wider_draft": True, "mighty_duel": True}, "wider_draft"),
        (
            {"players": list(COLOURS), "three_player_four_per_line": True},
            "three_player_four_per_line",
        ),
        ({"players": ["pink", "red"]}, "players"),
        ({"players": ["pink"]}, "players"),
        ({"mode": "casino"}, "mode"),
    ],
)
def test_options_the_rulebook_refuses(options: dict[str, object], field: str) -> None:
    with pytest.raises(OptionsError) as caught:
        Options.from_json(options)
    assert field in caught.value.errors


def test_table_mode_accepts_any_number_not_seen_and_refuses_the_rest() -> None:
    game = table_game(2)  # 24 dominoes removed unseen: the engine cannot know which
    draw(game, [48, 1])
    assert refused(game, "draw 48", CHANCE).key == "kingdomino.refuse.drawn_already"
    assert refused(game, "draw 49", CHANCE).key == "kingdomino.refuse.no_such_domino"
    draw(game, [47, 12])
    assert game.state.line_next == [1, 12, 47, 48]


def test_the_seeded_dealer_is_reproducible_and_the_unseeded_one_is_not() -> None:
    def first_lines(seed: int | None) -> list[int]:
        return Game(Options(mode="dealer", seed=seed)).state.line_next

    assert first_lines(4) == first_lines(4)
    assert len({tuple(first_lines(None)) for _ in range(5)}) > 1


def test_a_twin_domino_has_one_name_per_placement() -> None:
    game = started_4p()
    assert game.parse("place 1 e4n") == Action("place", "1", "e3s")
    assert game.parse("PLACE 01 E3S") == Action("place", "1", "e3s")
    with pytest.raises(NotationError):
        game.parse("place 1 z9n")
    with pytest.raises(NotationError):
        game.parse("place 1 e10n")


def test_undo_takes_back_a_placement_before_the_claim_only() -> None:
    game = started_4p()
    before = game.snapshot()
    game.apply("place 1 e4n", 0)
    assert game.can_undo(0) and not game.can_undo(1)
    with pytest.raises(UndoError):
        game.undo(1)
    assert game.undo(0) == Action("place", "1", "e3s")
    assert game.snapshot() == before
    game.apply("place 1 e4n", 0)
    game.apply("claim 10", 0)
    assert not game.can_undo(0)


def test_views_list_legal_actions_for_the_viewer_only() -> None:
    game = started_4p()
    assert game.view(0)["legal"] and game.view(1)["legal"] == []
    assert "legal" not in game.view(None)
    assert game.view(None)["acting"] == ["pink"]


def test_dealer_draws_never_show_the_pile() -> None:
    game = Game(Options(mode="dealer", seed=1))
    public = game.view(None)
    assert public["drawn"] == 4 and len(public["next_line"]) == 4
    assert "pile" not in public and "deck" not in public


def test_the_fast_placement_listing_equals_checking_every_placement() -> None:
    """Kingdom.placements scans only beside the kingdom; Kingdom.check is the rule itself."""
    for seed, variants in ((1, {}), (2, {"mighty_duel": True})):
        players = COLOURS[:2] if variants else COLOURS
        game = Game(Options(players=players, mode="dealer", seed=seed, **variants))
        states = 0
        while not game.is_terminal():
            if game.state.step == 2:
                number, data = game.state.current_domino(), game.state.data
                kingdom = game.state.kingdoms[game.current_players()[0]]
                halves = (
                    data.terrain_a[number],
                    data.crowns_a[number],
                    data.terrain_b[number],
                    data.crowns_b[number],
                )
                fast = kingdom.placements(*halves)
                assert len(set(fast)) == len(fast)
                assert sorted(fast) == sorted(kingdom.placements_by_scan(*halves))
                states += 1
            game.apply(game.legal_actions()[-1])
        assert states >= 24
