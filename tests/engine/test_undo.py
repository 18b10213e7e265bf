"""Undo, BGA style: the acting player takes back their own steps within their turn.

Never past a chance step (a revealed card), another player's action, or revealed hidden
information (a disc, a card taken back into the hand, the castillo's contents at a scoring).
An undo that is not allowed raises UndoError and changes nothing.
"""

from __future__ import annotations

import random

import pytest

from engine.elgrande.errors import UndoError
from engine.elgrande.game import CHANCE, Game, Options
from tests.engine.conftest import (
    next_round_with,
    play_powers,
    play_random,
    random_step,
    table_game,
)

PURPLE, GREEN, BLUE, ORANGE = range(4)
REVEALS = ("conspiracy", "fair", "fiesta", "coup")


def at_main(card: str, reveals: tuple[str, ...] = REVEALS, **options: object) -> Game:
    game = table_game(reveals=reveals, **options)  # type: ignore[arg-type]
    play_powers(game, 9, 8, 5, 3)  # purple acts first
    game.apply("take 2")
    game.apply(f"card {card}")
    return game


def undo_refused(game: Game, player: int) -> None:
    snapshot = game.snapshot()
    history = list(game.history)
    assert not game.can_undo(player)
    with pytest.raises(UndoError) as info:
        game.undo(player)
    assert str(info.value)
    assert game.snapshot() == snapshot
    assert game.history == history


def test_own_placements_undo_one_by_one() -> None:
    game = at_main("your-majesty")
    states = [game.snapshot()]
    for area in ("Toledo", "Aragon", "castillo"):
        game.apply(f"place {area}")
        states.append(game.snapshot())
    assert game.view(PURPLE)["can_undo"] is True
    for expected in reversed(states[:-1]):
        assert game.can_undo(PURPLE)
        undone = game.undo(PURPLE)
        assert undone.kind == "place"
        assert game.snapshot() == expected
    # Taking caballeros and choosing the card belong to the same turn: they undo too.
    assert game.undo(PURPLE) == game.parse("card your-majesty")
    assert game.undo(PURPLE) == game.parse("take 2")
    assert game.state.phase == "take"
    undo_refused(game, PURPLE)  # the power cards before belong to everyone


def test_a_castillo_throw_is_taken_back_from_the_announcements() -> None:
    game = at_main("your-majesty")
    before = game.view(None)
    game.apply("place castillo")
    assert game.view(None)["throws"] != before["throws"]
    game.undo(PURPLE)
    assert game.view(None) == before


def test_picks_and_moves_undo() -> None:
    game = at_main("conspiracy")
    game.apply("special")
    before_pick = game.snapshot()
    game.apply("pick green Aragon")
    after_pick = game.snapshot()
    game.apply("to Navarra")
    game.undo(PURPLE)
    assert game.snapshot() == after_pick
    game.undo(PURPLE)
    assert game.snapshot() == before_pick
    game.apply("pick green Aragon")
    game.apply("to Navarra")
    assert game.state.pieces[game.state.area("Navarra")][GREEN] == 1


def test_undo_then_a_different_step() -> None:
    game = at_main("your-majesty")
    game.apply("place Toledo")
    game.undo(PURPLE)
    game.apply("place Aragon")
    expected = at_main("your-majesty")
    expected.apply("place Aragon")
    assert game.snapshot() == expected.snapshot()


def test_never_past_another_players_action() -> None:
    game = table_game(reveals=REVEALS)
    game.apply("power 9")
    undo_refused(game, PURPLE)  # no longer purple's turn
    undo_refused(game, GREEN)  # green cannot take back purple's card
    play_powers(game, 8, 5, 3)
    game.apply("take 2")
    game.apply("card fair")
    game.apply("skip")
    game.apply("done")  # purple's turn ends
    assert game.current_players() == (GREEN,)
    undo_refused(game, PURPLE)
    undo_refused(game, GREEN)


def test_never_past_a_chance_step() -> None:
    game = table_game(reveals=REVEALS)
    assert game.history[-1][0] == CHANCE
    undo_refused(game, PURPLE)
    undo_refused(game, CHANCE)


def test_an_opponents_choice_inside_my_turn_is_final() -> None:
    game = at_main("withdrawal", reveals=("conspiracy", "withdrawal", "fiesta", "coup"))
    game.apply("special")
    assert game.current_players() == (GREEN,)
    undo_refused(game, PURPLE)  # purple's special action is announced: green chooses now
    undo_refused(game, GREEN)
    game.apply("return green court")
    assert game.can_undo(GREEN)  # green's own returns, within green's part
    game.undo(GREEN)
    assert game.state.court[GREEN] == 7


def test_never_past_a_revealed_disc() -> None:
    game = at_main("disc-return-2", reveals=("conspiracy", "disc-return-2", "fiesta", "coup"))
    game.apply("special")
    game.apply("disc Toledo", PURPLE)
    undo_refused(game, PURPLE)  # a disc, once set, is final
    game.apply("disc Aragon", GREEN)
    game.apply("disc Galicia", BLUE)
    game.apply("disc Sevilla", ORANGE)  # revealed: everyone returns 2
    assert game.current_players() == (PURPLE,)
    undo_refused(game, PURPLE)
    game.apply("place Navarra")
    game.undo(PURPLE)
    undo_refused(game, PURPLE)


def test_never_past_a_power_card_taken_back() -> None:
    game = at_main(
        "power-of-attorney", reveals=("conspiracy", "fair", "fiesta", "power-of-attorney")
    )
    game.apply("special")
    game.apply("powerback 9")
    undo_refused(game, PURPLE)


def test_never_past_the_castillo_opened_by_a_scoring() -> None:
    """Revelation scores the castillo: its contents are public from then on, so the turn's
    steps before cannot be taken back (that would re-hide what everyone saw)."""
    game = at_main("your-majesty")
    game.apply("place castillo")
    game.apply("place castillo")
    game.apply("done")
    game.apply("skip")
    next_round_with(game, ("ambush", "fair", "revelation", "decree"), first_to_act="green")
    game.apply("take 0")
    game.apply("card revelation")
    game.apply("special")
    assert game.state.scorings[-1]["areas"][0]["counts"] == {"purple": 2}
    undo_refused(game, GREEN)


def test_undo_in_a_dealer_game_keeps_the_deal() -> None:
    """Undoing and redoing a step in a dealer game changes nothing that follows: the next
    round's cards are the same as without the undo."""
    options = Options(mode="dealer", seed=42)
    plain = Game(options)
    undone = Game(options)
    rng = random.Random(1)
    undos = 0
    while not plain.is_terminal():
        for player, action in random_step(plain, rng):
            plain.apply(action, player)
            undone.apply(action, player)
            if undone.can_undo(player) and rng.random() < 0.5:
                assert undone.undo(player) == action
                undone.apply(action, player)
                undos += 1
        assert undone.history == plain.history
    assert undos > 20
    assert undone.snapshot() == plain.snapshot()


UNDO_CASES = [
    Options(seed=0),
    Options(seed=1),
    Options(players=("yellow", "red", "green", "blue", "black"), edition="1995", seed=2),
    Options(seed=3, new_regency=True, power_shift=True, alternatives=("veto", "rivalry")),
    Options(players=("purple", "green"), seed=4),
]


@pytest.mark.parametrize(
    "options", UNDO_CASES, ids=["2023-a", "2023-b", "1995-5p", "regency-shift", "2p"]
)
def test_random_undo_restores_every_state(options: Options) -> None:
    """Over a random game: after every step, if its player may undo, undo gives back exactly
    the state before that step; if not, UndoError leaves the state alone."""
    game = play_random(options, options.seed)
    probe = Game(options)
    previous = probe.snapshot()
    undos = 0
    for player, action in game.history:
        probe.apply(action, player)
        if player == CHANCE:
            pass
        elif probe.can_undo(player):
            assert probe.undo(player) == action
            assert probe.snapshot() == previous
            probe.apply(action, player)
            undos += 1
        else:
            undo_refused(probe, player)
        previous = probe.snapshot()
    assert probe.snapshot() == game.snapshot()
    assert undos > 30
