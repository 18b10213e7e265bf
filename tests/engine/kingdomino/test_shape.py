"""Kingdomino's engine shape (issue 22), what is its own: a clone holds its own copy of the
state (its kingdoms, history, the claims of the round), and a playout clone records nothing.
What every game shares (Game holds its `State` and extends nothing, the state carries no
protocol, no forwarding, read-only history and options, nothing below game.py imports it) is
tests/engine/platform/test_engine_shape.py."""

from __future__ import annotations

import random

from engine.kingdomino import rounds  # the round's rules over a state
from engine.kingdomino.game import Game
from engine.kingdomino.options import Options


def test_a_clone_holds_its_own_copy_of_the_state() -> None:
    game = Game(Options(players=("pink", "blue"), mode="dealer", seed=3))
    twin = game.clone()
    assert twin.state is not game.state
    assert twin.state.kingdoms[0] is not game.state.kingdoms[0]
    assert twin.history == game.history and twin.history is not game.history
    move = twin.state.moves()[0]
    rounds.play(twin.state, move)
    assert game.state.line_next == twin.state.line_next
    assert game.state.next_kings != twin.state.next_kings  # the claim is the twin's only
    playout = game.clone(random.Random(1))
    assert playout.history == [] and playout.state.recording is False
