"""Dealer mode (the engine draws chance outcomes) against table mode (players enter them).

A dealer game is a function of its seed and the players' decisions; its record replays in table
mode to the same state; a table game asks for every chance step and a dealer game for none.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from engine.elgrande.actions import Action
from engine.elgrande.errors import IllegalAction
from engine.elgrande.game import CHANCE, Game, Options
from engine.elgrande.record import from_record, to_record
from tests.engine.conftest import ALTERNATIVES_2023, players_for

VARIANTS = [
    Options(mode="dealer", seed=5),
    Options(players=players_for("1995", 5), edition="1995", mode="dealer", seed=6),
    Options(
        players=players_for("2023", 5),
        mode="dealer",
        seed=7,
        alternatives=ALTERNATIVES_2023,
        short_game=True,
    ),
]
IDS = ["2023-4p", "1995-5p", "2023-5p-short-alt"]


def play_decisions(options: Options, policy_seed: int, stop: int | None = None) -> Game:
    """A dealer game whose decisions come from a seeded policy (uniform over legal actions);
    `stop`: leave it after that many actions in the history."""
    game = Game(options)
    rng = random.Random(policy_seed)
    while not game.is_terminal() and (stop is None or len(game.history) < stop):
        actors = game.current_players()
        assert actors != (CHANCE,), "a dealer game asked for a chance step"
        for player in actors:
            game.apply(rng.choice(game.legal_actions(player)), player)
    return game


def state(game: Game) -> dict[str, Any]:
    """The full snapshot without the mode (which is what differs between the two modes)."""
    snapshot = game.snapshot()
    snapshot.get("options", {}).pop("mode", None)
    return snapshot


def chance_steps(game: Game) -> list[Action]:
    return [a for p, a in game.history if p == CHANCE]


@pytest.mark.parametrize("options", VARIANTS, ids=IDS)
def test_same_seed_and_decisions_give_the_same_game(options: Options) -> None:
    first = play_decisions(options, policy_seed=1)
    second = play_decisions(options, policy_seed=1)
    assert first.history == second.history
    assert first.snapshot() == second.snapshot()
    assert first.is_terminal()


def test_another_seed_deals_other_cards() -> None:
    deals = {
        tuple(chance_steps(play_decisions(Options(mode="dealer", seed=s), 1, stop=40)))
        for s in range(8)
    }
    assert len(deals) == 8


def test_the_deal_does_not_depend_on_the_decisions_before_it() -> None:
    """Set-up and round 1's cards are dealt before anyone decides anything."""
    a = play_decisions(Options(mode="dealer", seed=9), policy_seed=1, stop=1)
    b = play_decisions(Options(mode="dealer", seed=9), policy_seed=2, stop=1)
    assert chance_steps(a) == chance_steps(b)
    assert a.state.phase == "power"


@pytest.mark.parametrize("options", VARIANTS, ids=IDS)
def test_a_dealer_record_replays_in_table_mode(options: Options) -> None:
    dealer = play_decisions(options, policy_seed=3, stop=150)
    record = json.loads(json.dumps(to_record(dealer)))
    assert record["options"]["mode"] == "dealer"
    record["options"]["mode"] = "table"
    table = from_record(record)
    assert state(table) == state(dealer)
    assert table.history == dealer.history
    # Same state, but from here the table enters the cards itself.
    replayed = Game.replay(dataclasses.replace(options, mode="table"), dealer.history)
    assert state(replayed) == state(dealer)
    while not table.state.is_chance():
        for player in table.current_players():
            table.apply(table.legal_actions(player)[0], player)
    assert table.current_players() == (CHANCE,)
    assert table.chance_outcomes()


def test_a_table_game_asks_for_every_chance_step() -> None:
    game = Game(Options(players=players_for("2023", 4)))
    assert game.current_players() == (CHANCE,)
    assert game.history == []
    game.apply("first green", CHANCE)
    assert game.state.first == 1
    assert game.current_players() == (CHANCE,)


def test_a_dealer_game_never_asks_for_chance_and_refuses_it() -> None:
    game = Game(Options(mode="dealer", seed=4))
    assert game.state.phase == "power"
    assert CHANCE not in game.current_players()
    before = game.snapshot()
    with pytest.raises(IllegalAction):
        game.apply("reveal 1 ambush", CHANCE)
    assert game.snapshot() == before
    done = play_decisions(Options(mode="dealer", seed=4), policy_seed=4)
    assert done.is_terminal()
    kinds = {a.kind for a in chance_steps(done)}
    assert {"first", "kingcard", "home", "reveal"} <= kinds


@pytest.mark.parametrize("options", VARIANTS, ids=IDS)
def test_a_resumed_dealer_game_deals_deterministically(options: Options) -> None:
    """Restored from its record mid-game (a host restart), a dealer game goes on dealing: the
    same record and decisions always give the same continuation."""
    dealer = play_decisions(options, policy_seed=5, stop=120)
    record = json.loads(json.dumps(to_record(dealer)))
    endings = []
    for _ in range(2):
        game = from_record(record)
        assert game.options.mode == "dealer"
        assert game.snapshot() == dealer.snapshot()
        rng = random.Random(99)
        while not game.is_terminal():
            assert game.current_players() != (CHANCE,)
            for player in game.current_players():
                game.apply(rng.choice(game.legal_actions(player)), player)
        endings.append((game.history, game.snapshot()))
    assert endings[0] == endings[1]
    assert len(chance_steps(Game.replay(options, endings[0][0]))) > len(chance_steps(dealer))


def _decide(game: Game) -> None:
    """A deterministic decision that depends only on the position in the history."""
    for player in game.current_players():
        if player in game.current_players():
            legal = game.legal_actions(player)
            game.apply(legal[(len(game.history) * 7919) % len(legal)], player)


@pytest.mark.parametrize("cut", [40, 150, 260])
def test_a_dealer_game_resumed_from_its_record_deals_as_if_never_interrupted(cut: int) -> None:
    options = Options(mode="dealer", seed=11)
    whole = Game(options)
    while not whole.is_terminal():
        _decide(whole)
    resumed = Game(options)
    while len(resumed.history) < cut:
        _decide(resumed)
    resumed = from_record(json.loads(json.dumps(to_record(resumed))))
    while not resumed.is_terminal():
        _decide(resumed)
    assert resumed.history == whole.history
    assert resumed.state.scores == whole.state.scores
