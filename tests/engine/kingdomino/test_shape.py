"""The engine's shape (issue 22): `Game` holds the game's one mutable `State` as `game.state`
instead of extending it; the state is plain (no protocol on it, no call back into `Game`); the
rules are functions over the state; nothing below game.py imports it; and a reader sees where
a field lives (no delegation from `Game` to the state's fields)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from engine.kingdomino.game import Game
from engine.kingdomino.options import Options
from engine.kingdomino.state import State

ENGINE = Path(__file__).resolve().parents[3] / "engine" / "kingdomino"
# The modules the protocol stands on: they take the state and never import game.py.
BELOW_GAME = (
    "data",
    "kingdom",
    "legal",
    "options",
    "playout",
    "refusals",
    "rounds",
    "scoring",
    "state",
    "steps",
    "verbs",
    "views",
)
PROTOCOL_ONLY = ("apply", "legal_actions", "undo", "can_undo", "view", "snapshot", "clone")


def test_game_holds_its_state_and_extends_nothing() -> None:
    game = Game(Options(players=("pink", "blue"), mode="dealer", seed=3))
    assert Game.__bases__ == (object,)
    assert isinstance(game.state, State)
    assert game.history is game.state.history and game.options is game.state.options


def test_the_state_carries_no_protocol() -> None:
    assert not issubclass(Game, State)
    for name in PROTOCOL_ONLY:
        assert not hasattr(State, name), f"State.{name}: the protocol is Game's"


@pytest.mark.parametrize("field", ["kingdoms", "line_next", "step", "drawn", "past", "data"])
def test_a_state_field_is_read_through_game_state(field: str) -> None:
    game = Game(Options(players=("pink", "blue"), mode="dealer", seed=3))
    assert hasattr(game.state, field)
    with pytest.raises(AttributeError):
        getattr(game, field)
    assert "__getattr__" not in vars(Game)


@pytest.mark.parametrize("module", BELOW_GAME)
def test_nothing_below_game_imports_it(module: str) -> None:
    tree = ast.parse((ENGINE / f"{module}.py").read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
            imported.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    assert "engine.kingdomino.game" not in imported, f"{module}.py imports game.py"


def test_a_clone_holds_its_own_copy_of_the_state() -> None:
    from engine.kingdomino import rounds  # the round's rules over a state

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
