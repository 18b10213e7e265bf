"""El Caballero's computer players (engine/elcaballero/bots.py): legal moves at random
positions, nothing changed in the game they are given, decisions that depend only on what the
seat may know, the projected score, the kept turn plan, the spec's hooks and a short strength
check with fixed seeds and a small rollout budget (the real matches: bench/players_elcaballero.py).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from engine.core.spec import SeatNotActing
from engine.elcaballero.bots import (
    GreedyPlayer,
    MonteCarloPlayer,
    Player,
    RandomPlayer,
    worth_weighing,
)
from engine.elcaballero.game import Game
from engine.elcaballero.options import Options
from engine.elcaballero.scoring import score_map
from engine.elcaballero.spec import SPEC

COLOURS = ("red", "blue", "green", "yellow")
CONFIGS = [(3, False), (3, True), (4, False), (4, True)]


def options(players: int, extended: bool, seed: int, mode: str = "dealer") -> Options:
    return Options(
        players=COLOURS[:players], mode=mode, seed=seed, catalogue="synthetic", extended=extended
    )


def random_position(players: int, extended: bool, seed: int, steps: int) -> Game:
    game = Game(options(players, extended, seed))
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_terminal():
            break
        seat = game.current_players()[0]
        actions = game.legal_actions(seat)
        game.apply(actions[rng.randrange(len(actions))], seat)
    return game


def play(game: Game, players: list[Player]) -> Game:
    while not game.is_terminal():
        seat = game.current_players()[0]
        game.apply(players[seat].choose(game, seat), seat)
    return game


def small_monte_carlo(seed: int = 1) -> MonteCarloPlayer:
    return MonteCarloPlayer(seconds=None, seed=seed, playouts=4, plans=3)


@pytest.mark.parametrize(("players", "extended"), CONFIGS)
def test_every_player_takes_a_legal_step_and_leaves_the_game_unchanged(
    players: int, extended: bool
) -> None:
    bots: list[Player] = [RandomPlayer(1), GreedyPlayer(1), small_monte_carlo()]
    for index, steps in enumerate((0, 40, 90, 140)):
        game = random_position(players, extended, 100 * players + index, steps)
        if game.is_terminal():
            continue
        seat = game.current_players()[0]
        before = game.snapshot()
        for bot in bots:
            action = bot.choose(game, seat)
            assert game.is_legal(seat, action), (type(bot).__name__, str(action))
            assert game.snapshot() == before, f"{type(bot).__name__} changed the game"


@pytest.mark.parametrize(("players", "extended"), CONFIGS)
def test_the_projected_score_is_the_points_plus_a_scoring_now_and_changes_nothing(
    players: int, extended: bool
) -> None:
    for steps in (30, 80, 130, 400):
        game = random_position(players, extended, steps, steps)
        before = game.snapshot()
        projected = game.projected_scores()
        assert game.snapshot() == before
        if game.is_terminal():
            assert projected == game.state.scores
            continue
        scoring = score_map(
            game.state.board, game.state.rules.layout, game.seat_names(), game.state.board.governors
        )
        now = [int(scoring["totals"][name]) for name in game.seat_names()]
        assert projected == [s + n for s, n in zip(game.state.scores, now, strict=True)]


def last_turn_of_round_2(game: Game) -> bool:
    return (
        game.state.round == 2
        and game.state.phase == "turn"
        and game.state.turn_index == game.state.n - 1
    )


def power_cards_of_round_3(game: Game) -> bool:
    return game.state.round == 3 and game.state.phase == "power"


def twin_positions(
    players: int, extended: bool, stop: Callable[[Game], bool] = last_turn_of_round_2
) -> tuple[Game, Game]:
    """Two games with the same public history that differ in what no seat may know: the
    dealer's seed (which decides the cards still face down). The first is dealt from seed 1
    and played by greedy players to `stop`; the second replays that record at a table and
    then deals on from seed 999."""
    dealt = Game(options(players, extended, seed=1))
    greedy = GreedyPlayer(3)
    while not stop(dealt):
        seat = dealt.current_players()[0]
        dealt.apply(greedy.choose(dealt, seat), seat)
    table = Game(options(players, extended, seed=1, mode="table"))
    for player, action in dealt.history:
        table.apply(action, player)
    table.resume_as(replace(dealt.options, seed=999))
    return dealt, table


def deal_on(game: Game, steps: list[tuple[int, str]]) -> list[str]:
    """Take `steps` on `game`; the chance steps it deals meanwhile."""
    start = len(game.history)
    for player, action in steps:
        game.apply(action, player)
    return [str(a) for p, a in game.history[start:] if p < 0]


@pytest.mark.parametrize(("players", "extended"), [(4, False), (3, True)])
def test_a_decision_depends_only_on_what_the_seat_may_know(players: int, extended: bool) -> None:
    dealt, table = twin_positions(players, extended)
    seat = dealt.current_players()[0]
    assert dealt.view(seat) == table.view(seat)  # the same public position
    # ...whose futures differ: ending the round, each game deals other cards
    area = next(a for a in dealt.legal_actions(seat) if a.kind == "area")
    finish = [(seat, "reinforce"), (seat, str(area)), (seat, "done")]
    real_a, real_b = twin_positions(players, extended)
    assert deal_on(real_a, finish) != deal_on(real_b, finish)
    # a seat's determinized copies deal the same cards from the same seed in both
    copy_a, copy_b = dealt.determinize(seat, 5), table.determinize(seat, 5)
    assert deal_on(copy_a, finish) == deal_on(copy_b, finish)
    # and the Monte Carlo player, given the same seed, decides the same in both
    first_a = MonteCarloPlayer(seconds=None, seed=7, playouts=12, plans=4).choose(dealt, seat)
    first_b = MonteCarloPlayer(seconds=None, seed=7, playouts=12, plans=4).choose(table, seat)
    assert first_a == first_b


def test_the_power_card_decision_depends_only_on_what_the_seat_may_know() -> None:
    dealt, table = twin_positions(4, False, power_cards_of_round_3)
    assert dealt.view(0) == table.view(0) and dealt.state.dealer_seed != table.state.dealer_seed
    seat = dealt.current_players()[0]
    picks = [
        MonteCarloPlayer(seconds=None, seed=11, playouts=26).choose(game, seat)
        for game in (dealt, table)
    ]
    assert picks[0] == picks[1] and picks[0].kind == "power"


def test_a_turn_is_planned_once_and_its_later_steps_follow_the_plan() -> None:
    game = random_position(3, False, 5, 0)
    player = MonteCarloPlayer(seconds=None, seed=2, playouts=9, plans=3)
    while game.state.phase != "turn":
        seat = game.current_players()[0]
        game.apply(player.choose(game, seat), seat)
    seat = game.current_players()[0]
    game.apply(player.choose(game, seat), seat)
    searched = player.playouts
    steps = 1
    while game.current_players() == (seat,) and game.state.phase == "turn":
        game.apply(player.choose(game, seat), seat)
        steps += 1
    assert steps >= 2 and player.playouts == searched, "a later step searched again"


def test_caballero_numbers_weighed_are_the_least_for_each_standing() -> None:
    for seed in range(6):
        game = random_position(4, False, seed, 60 + 10 * seed)
        if game.state.phase != "turn":
            continue
        seat = game.current_players()[0]
        actions = game.legal_actions(seat)
        kept = worth_weighing(game.state, seat, actions)
        assert set(kept) <= set(actions)
        dropped = [a for a in actions if a not in kept]
        assert all(a.kind in ("knight", "raise") for a in dropped)
        for action in dropped:  # a cheaper number at the same spot is kept
            assert any(
                k.kind == action.kind and k.arg == action.arg and int(k.arg2) < int(action.arg2)
                for k in kept
            )
        assert {(a.kind, a.arg) for a in actions} == {(a.kind, a.arg) for a in kept}


def test_the_spec_offers_levels_a_timed_player_and_refuses_bad_ones() -> None:
    assert SPEC.computer_levels == (1, 2, 3, 4, 5)
    assert SPEC.computer_default in SPEC.computer_levels and SPEC.hint_level == 3
    game = random_position(3, True, 8, 50)
    seat = game.current_players()[0]
    copy = SPEC.computer_copy(game)
    assert isinstance(copy, Game) and copy.snapshot() == game.snapshot()
    for level in (1, 2):
        assert game.is_legal(seat, SPEC.computer(level).choose(game, seat))
    assert game.is_legal(seat, SPEC.computer_timed(0.05).choose(game, seat))
    with pytest.raises(ValueError, match="levels are 1 to 5"):
        SPEC.computer(9)
    for bad in (0, -1.0, 601.0):
        with pytest.raises(ValueError, match="time budget"):
            SPEC.computer_timed(bad)
    with pytest.raises(SeatNotActing):
        SPEC.computer(1).choose(game, (seat + 1) % 3)


@pytest.mark.parametrize(("players", "extended", "seed"), [(3, False, 1), (4, True, 2)])
def test_the_monte_carlo_player_beats_random_players(
    players: int, extended: bool, seed: int
) -> None:
    """A smoke test of strength (fixed seeds, 4 rollouts a decision): it wins."""
    hero = seed % players
    bots: list[Player] = [RandomPlayer(seed * 10 + s) for s in range(players)]
    bots[hero] = small_monte_carlo(seed)
    game = play(Game(options(players, extended, seed)), bots)
    assert game.state.scores[hero] == max(game.state.scores) > 0


def test_the_greedy_player_beats_random_players() -> None:
    wins = 0
    for seed in range(4):
        bots: list[Player] = [RandomPlayer(seed * 10 + s) for s in range(4)]
        bots[seed] = GreedyPlayer(seed)
        game = play(Game(options(4, seed % 2 == 1, seed)), bots)
        wins += game.state.scores[seed] == max(game.state.scores)
    assert wins >= 3


@pytest.mark.parametrize("strength", [["--level", "2"], ["--seconds", "0.2"]])
def test_castillo_move_prints_a_legal_step_for_an_el_caballero_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], strength: list[str]
) -> None:
    from engine.core.record import to_record
    from host.cli import main

    game = random_position(4, True, 12, 70)
    seat = game.current_players()[0]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(to_record(SPEC, game)), encoding="utf-8")
    colour = game.seat_names()[seat]
    argv = ["move", "--game", "elcaballero", "--seat", colour, *strength, str(path)]
    assert main(argv) == 0
    printed = capsys.readouterr().out.strip()
    assert game.is_legal(seat, printed), printed
    other = game.seat_names()[(seat + 1) % 4]
    assert main(["move", "--game", "elcaballero", "--seat", other, str(path)]) == 2
    assert "does not act now" in capsys.readouterr().err
