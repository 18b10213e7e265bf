"""Scoring, bonuses, tie-breaks and Dynasty (the rulebook's "Konec hry" and "Varianty")."""

from __future__ import annotations

import json

from engine import registry
from engine.core import record as core_record
from engine.kingdomino.data import load
from engine.kingdomino.game import Game
from engine.kingdomino.kingdom import Kingdom
from engine.kingdomino.options import COLOURS, Options
from engine.kingdomino.scoring import Breakdown, breakdown, deciding_tie_break, winners
from tests.engine.kingdomino.helpers import random_game

# The example kingdom (castle in row 3, column 2).
EXAMPLE = ["F0 F0 G0 W0 .", ". F0 F0 W0 M3", "S0 C W0 W1 S0", "M2 G0 S0 W0 L1", ". G0 S0 M2 ."]


def built(rows: list[str], size: int = 5) -> Kingdom:
    """A kingdom from rows of squares, the castle where "C" is."""
    data = load()
    grid = [row.split() for row in rows]
    (castle_row, castle_col) = next(
        (r, c) for r, row in enumerate(grid) for c, square in enumerate(row) if square == "C"
    )
    kingdom = Kingdom(size)
    for r, row in enumerate(grid):
        for c, square in enumerate(row):
            if square not in ("C", "."):
                terrain, crowns = data.square(square, "test")
                kingdom.set_square(
                    r - castle_row + size - 1, c - castle_col + size - 1, terrain, crowns
                )
    return kingdom


def test_each_territory_scores_squares_times_crowns() -> None:
    kingdom = built(EXAMPLE)
    by_points = sorted(
        (squares * crowns, squares, crowns) for _, squares, crowns in kingdom.territories()
    )
    assert [p for p in by_points if p[0]] == [(1, 1, 1), (2, 1, 2), (2, 1, 2), (3, 1, 3), (5, 5, 1)]
    assert kingdom.score() == 13


def test_a_territory_without_crowns_scores_nothing() -> None:
    kingdom = built(["F0 F0 C"])
    assert kingdom.territories() == [(2, 2, 0)] and kingdom.score() == 0


def test_separate_territories_of_one_terrain_score_separately() -> None:
    kingdom = built(["M2 W0 M2 C"])
    assert kingdom.score() == 4  # 1 x 2 twice, not 2 x 4


def test_the_castle_belongs_to_no_territory() -> None:
    kingdom = built(["W1 C W1"])
    assert kingdom.score() == 2


def test_middle_kingdom_gives_10_when_the_castle_is_in_the_centre() -> None:
    centred = built(["W1 W0 . . .", ". . . . .", ". . C . .", ". . . . .", ". . . . W0"])
    assert Breakdown(centred, True, False, 0).middle_kingdom == 10
    # Incomplete kingdoms: every square within the 5x5 centred on the castle (decided).
    assert built(["W1 W0 C"]).centred()
    assert not built(["W1 W0 W0 C"]).centred()
    assert Breakdown(built(EXAMPLE), True, False, 0).middle_kingdom == 0
    assert Breakdown(centred, False, False, 0).middle_kingdom == 0


def test_harmony_gives_5_without_a_discard() -> None:
    kingdom = built(EXAMPLE)
    assert Breakdown(kingdom, False, True, 0).harmony == 5
    assert Breakdown(kingdom, False, True, 2).harmony == 0
    assert Breakdown(kingdom, False, True, 0).total == 18


def test_harmony_no_discard_is_a_complete_kingdom() -> None:
    """Each player receives 12 dominoes: no discard exactly when the 5x5 is full."""
    for seed in range(12):
        game = random_game(Options(mode="dealer", seed=seed, harmony=True), seed)
        for seat in range(4):
            complete = game.state.kingdoms[seat].complete()
            assert (game.state.discarded[seat] == 0) == complete
            assert (breakdown(game.state, seat).harmony == 5) == complete


def test_ties_go_to_the_largest_territory_then_the_most_crowns_then_are_shared() -> None:
    assert winners([30, 25], [3, 9], [1, 1]) == [0]
    assert winners([30, 30], [3, 9], [9, 1]) == [1]
    assert deciding_tie_break([30, 30], [3, 9], [9, 1]) == "largest_territory"
    assert winners([30, 30], [9, 9], [4, 6]) == [1]
    assert deciding_tie_break([30, 30], [9, 9], [4, 6]) == "crowns"
    assert winners([30, 30, 2], [9, 9, 1], [6, 6, 0]) == [0, 1]
    assert deciding_tie_break([30, 30, 2], [9, 9, 1], [6, 6, 0]) == "shared"


def test_the_largest_territory_counts_whatever_its_crowns() -> None:
    plain = built(["F0 F0 F0 F0 C W1"])
    assert Breakdown(plain, False, False, 0).largest == 4


def test_dynasty_plays_three_games_and_sums_them() -> None:
    game = random_game(Options(players=COLOURS[:3], mode="dealer", seed=8, dynasty=True))
    assert len(game.state.past) == 3
    assert game.returns() == [sum(row[seat] for row in game.state.past) for seat in range(3)]
    draws = sum(1 for _, a in game.history if a.kind == "draw")
    assert draws == 3 * 36
    assert game.view()["games"] == 3


def test_a_record_replays_through_the_registry() -> None:
    spec = registry.get("kingdomino")
    game = random_game(Options(mode="dealer", seed=4, middle_kingdom=True))
    record = json.loads(json.dumps(core_record.to_record(spec, game)))
    assert record["game"] == "kingdomino"
    _, again = registry.replay(record)
    assert again.snapshot() == game.snapshot() and again.returns() == game.returns()
    table = Game(Options(middle_kingdom=True))
    for player, action in game.history:
        table.apply(action, player)
    assert table.returns() == game.returns()
