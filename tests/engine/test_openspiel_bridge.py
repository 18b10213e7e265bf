"""The OpenSpiel bridge (bench/_openspiel.py): every registered game as a pyspiel game.

A random game of each registered game, every player count, played through the pyspiel API
(chance nodes drawn from `chance_outcomes()`) to its end: its returns are the engine's for the
same actions replayed on the engine itself, its clones are independent, and OpenSpiel's MCTSBot
(the benches' baseline) answers a legal move of our protocol.
"""

from __future__ import annotations

import random

import pyspiel
import pytest

from bench._openspiel import EngineGame, MCTSPlayer, register_all
from engine import registry
from engine.core.protocol import CHANCE

CASES = [(spec.id, n) for spec in registry.specs() for n in spec.player_counts]


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_a_random_game_through_pyspiel_scores_as_the_engine(game_id: str, players: int) -> None:
    game = EngineGame(game_id, players=players, params={"seed": players})
    state = game.new_initial_state()
    rng = random.Random(players)
    chance_steps = 0
    taken: list[tuple[int, str]] = []
    while not state.is_terminal():
        player = state.current_player()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            actions = [a for a, _ in outcomes]
            action = rng.choices(actions, [p for _, p in outcomes])[0]
            chance_steps += 1
        else:
            legal = state.legal_actions()
            assert legal == sorted(legal) and legal
            assert player in state.engine.current_players()
            action = rng.choice(legal)
        taken.append((CHANCE if player < 0 else player, state.action_to_string(player, action)))
        state.apply_action(action)
    spec = registry.get(game_id)
    engine = spec.replay_start(game.options)
    for actor, text in taken:
        engine.apply(text, actor)
    assert engine.is_terminal()
    assert state.returns() == [float(s) for s in engine.returns()]
    assert state.returns() == [float(s) for s in state.engine.returns()]
    assert chance_steps > 0


def test_clones_are_independent_and_games_load_by_name() -> None:
    register_all()
    register_all()  # twice: a no-op
    game = pyspiel.load_game("castillo_elgrande", {"players": 4, "seed": 2})
    assert game.num_players() == 4
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    copy = state.clone()
    before = str(copy.engine.snapshot())
    state.apply_action(state.legal_actions()[0])
    assert str(copy.engine.snapshot()) == before
    assert len(copy.engine.history) + 1 == len(state.engine.history)


@pytest.mark.parametrize("game_id", registry.ids())
def test_mctsbot_answers_a_legal_move(game_id: str) -> None:
    """OpenSpiel's MCTSBot (random rollouts, a fixed number of simulations) as a player of our
    protocol picks a legal action of the seat asked, on a dealer game (wrapped by replay)."""
    spec = registry.get(game_id)
    options = spec.selfplay_options(spec.player_counts[-1], 4)
    state = spec.new_state(options)
    player = MCTSPlayer(game_id, options, seed=1, simulations=3)
    rng = random.Random(3)
    asked = 0
    while not state.is_terminal() and asked < 3:
        actors = state.current_players()
        if actors == (CHANCE,):
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0], CHANCE)
            continue
        seat = actors[0]
        if len(state.legal_actions(seat)) > 1:
            action = player.choose(state, seat)
            assert state.is_legal(seat, action)
            asked += 1
        legal = state.legal_actions(seat)
        state.apply(legal[rng.randrange(len(legal))], seat)
    assert asked == 3
