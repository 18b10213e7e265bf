"""El Grande's engine shape (issue 22): `Game` holds its state (`game.state`, a `Board`) instead
of extending it, the board is plain state with no protocol hooks, and nothing below game.py
imports it (docs/game-protocol.md, "The worked example: El Grande")."""

from __future__ import annotations

import ast
import copy
import random
from pathlib import Path

from engine.elgrande.board import STATE_FIELDS, Board
from engine.elgrande.game import Game, Options

ENGINE = Path(__file__).resolve().parents[2] / "engine" / "elgrande"
# The modules that stand on game.py: the spec, records, computer players, the package itself.
ABOVE_GAME = {"__init__", "game", "spec", "record", "search", "determinize", "bots"}
# What the board declared for Game to override before issue 22.
HOOKS = ("current_players", "legal_actions", "can_undo", "resolve_choice", "resolve_veto")


def _played(seed: int, steps: int) -> Game:
    game = Game(Options(mode="dealer", seed=seed))
    rng = random.Random(seed)
    for _ in range(steps):
        player = game.current_players()[0]
        actions = game.legal_actions(player)
        game.apply(actions[rng.randrange(len(actions))], player)
    return game


def test_game_holds_a_plain_board() -> None:
    game = _played(3, 40)
    assert Game.__mro__ == (Game, object)  # no base class: the state is held, not inherited
    assert isinstance(game.state, Board) and not isinstance(game, Board)
    for hook in HOOKS:
        assert not hasattr(Board, hook), f"the board still declares the hook {hook}"
    # no delegation: a board field is read through game.state only
    assert not hasattr(Game, "__getattr__")
    for name in ("pieces", "scores", "phase", "turn", "frame", "colours", "checkpoint"):
        assert not hasattr(game, name), f"Game forwards the board's {name}"
    # the protocol's history and options answer from the state (read-only)
    assert game.history is game.state.history
    assert game.options is game.state.options
    assert all(hasattr(game.state, name) for name in STATE_FIELDS)


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


def test_nothing_below_game_imports_it() -> None:
    for path in sorted(ENGINE.glob("*.py")):
        if path.stem in ABOVE_GAME:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            assert "engine.elgrande.game" not in names, f"{path.name} imports game.py"
