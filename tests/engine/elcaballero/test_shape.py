"""El Caballero's engine shape (docs/game-protocol.md, "El Caballero's engine"), what is its own:
the state `Game` holds is the plain `State` (no subclass), and a clone holds its own copy of
every container of it. What every game shares (Game extends nothing, no forwarding, read-only
history and options, nothing below game.py imports it) is
tests/engine/platform/test_engine_shape.py."""

from __future__ import annotations

from engine.elcaballero.game import Game
from engine.elcaballero.options import Options
from engine.elcaballero.state import State

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


def test_the_game_holds_the_plain_state() -> None:
    assert type(dealt().state) is State  # not a subclass with the protocol on it


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
