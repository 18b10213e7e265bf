"""El Caballero's engine shape (docs/game-protocol.md, "El Caballero's engine"): `Game` holds one
plain `State` as `game.state` and extends nothing; a clone holds its own copy of that state; the
rules below `game.py` never import it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.elcaballero.game import Game
from engine.elcaballero.options import Options
from engine.elcaballero.state import State

ENGINE = Path(__file__).resolve().parents[3] / "engine" / "elcaballero"
# the state and the rules over it: below the protocol (game.py), never importing it
BELOW_GAME = (
    "state",
    "rounds",
    "checks",
    "steps",
    "extended",
    "legal",
    "views",
    "placement",
    "scoring",
    "listing",
)
# the state's mutable containers: a clone has its own
CONTAINERS = (
    "history",
    "court",
    "stack",
    "court_ships",
    "governors_left",
    "grande_at",
    "hands",
    "scores",
    "scorings",
    "log",
    "pile",
    "market",
    "played",
    "order",
    "turn",
    "placed_now",
)


def dealt(seed: int = 3, steps: int = 40) -> Game:
    """A dealer game some steps in (each step the first legal action)."""
    game = Game(
        Options(players=("red", "blue", "green"), mode="dealer", seed=seed, catalogue="synthetic")
    )
    for _ in range(steps):
        player = game.current_players()[0]
        game.apply(game.legal_actions(player)[0], player)
    return game


def test_the_game_holds_its_state_and_extends_nothing() -> None:
    game = dealt()
    assert Game.__bases__ == (object,)
    assert isinstance(game.state, State) and not isinstance(game, State)
    assert type(game.state) is State  # the plain state, not a subclass with the protocol on it


def test_history_and_options_are_the_states_and_read_only() -> None:
    game = dealt()
    assert game.history is game.state.history and game.options is game.state.options
    with pytest.raises(AttributeError):
        game.options = game.state.options  # type: ignore[misc]
    with pytest.raises(AttributeError):
        game.history = []  # type: ignore[misc]


def test_a_clone_holds_its_own_copy_of_the_state() -> None:
    game = dealt()
    copy = game.clone()
    assert copy.state is not game.state and copy.state.board is not game.state.board
    for name in CONTAINERS:
        assert getattr(copy.state, name) == getattr(game.state, name), name
        assert getattr(copy.state, name) is not getattr(game.state, name), name
    for table in ("options", "rules", "catalogue", "size"):  # immutable: shared
        assert getattr(copy.state, table) is getattr(game.state, table), table
    assert copy.state.dealer_seed != game.state.dealer_seed  # a dealer clone deals its own cards
    before = game.snapshot()
    while not copy.is_terminal():
        player = copy.current_players()[0]
        copy.apply(copy.legal_actions(player)[-1], player)
    assert game.snapshot() == before


def _imports(module: str) -> set[str]:
    tree = ast.parse((ENGINE / f"{module}.py").read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return out


@pytest.mark.parametrize("module", BELOW_GAME)
def test_the_state_and_the_rules_never_import_the_game(module: str) -> None:
    assert "engine.elcaballero.game" not in _imports(module)
