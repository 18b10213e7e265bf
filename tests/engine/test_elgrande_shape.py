"""El Grande's engine shape (issue 22), what is its own: the state `Game` holds is a `Board`
with every field of `STATE_FIELDS` and none of the hooks it declared for `Game` before; a clone
holds its own copy of it (docs/game-protocol.md, "The worked example: El Grande"). What every
game shares (Game extends nothing, no forwarding, read-only history and options, nothing below
game.py imports it) is tests/engine/platform/test_engine_shape.py."""

from __future__ import annotations

import copy
import random

from engine.elgrande.board import STATE_FIELDS, Board
from engine.elgrande.game import Game, Options

# What the board declared for Game to override before issue 22 and the protocol does not name
# (the protocol's own methods are checked for every game in test_engine_shape.py).
HOOKS = ("resolve_choice", "resolve_veto")


def _played(seed: int, steps: int) -> Game:
    game = Game(Options(mode="dealer", seed=seed))
    rng = random.Random(seed)
    for _ in range(steps):
        player = game.current_players()[0]
        actions = game.legal_actions(player)
        game.apply(actions[rng.randrange(len(actions))], player)
    return game


def test_the_board_has_its_fields_and_no_old_hooks() -> None:
    game = _played(3, 40)
    assert isinstance(game.state, Board)
    for hook in HOOKS:
        assert not hasattr(Board, hook), f"the board still declares the hook {hook}"
    missing = [name for name in STATE_FIELDS if not hasattr(game.state, name)]
    assert missing == [], f"the board lacks {missing}"


def test_a_clone_holds_its_own_state() -> None:
    game = _played(4, 60)
    clone = game.clone()
    assert clone.state is not game.state
    assert clone.state.layout is game.state.layout  # the shared tables stay shared
    assert clone.state.pieces is not game.state.pieces and clone.history is not game.history
    assert clone.state.pieces == game.state.pieces and clone.history == game.history
    player = clone.current_players()[0]
    before = game.snapshot()
    clone.apply(clone.legal_actions(player)[0], player)
    assert game.snapshot() == before  # the original is untouched
    deep = copy.deepcopy(game, memo={id(game.state.data): game.state.data})
    assert deep.state is not game.state and deep.snapshot() == before
