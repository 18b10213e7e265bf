"""Every registered game's engine shape (issue 22, docs/game-protocol.md): the protocol class
`Game` holds the game's one mutable state as `game.state` instead of extending it.

For each game of `engine.registry` (a new game is covered without editing this file):

- `Game` extends nothing; `game.state` is not a `Game`; the state's class defines none of the
  protocol's methods (their names read from `engine.core.protocol.GameState`); neither class
  has a `__getattr__` hook;
- no forwarding: no public attribute of the state other than the protocol's `history` and
  `options` can be read on the game (the names from `dir()`, which works on mypyc-compiled
  instances too, where there is no `__dict__` and no annotations);
- `history` and `options` are the state's own objects, and read-only on the game;
- nothing below game.py imports it: no module of the game's package that game.py imports
  (directly or through another) imports game.py back (read with `ast` from the sources).

What is one game's own (a clone's copies of its containers) stays in the per-game tests.
"""

from __future__ import annotations

import ast
import inspect
import random
from pathlib import Path
from typing import Any

import pytest

from engine import registry
from engine.core.protocol import GameState

ROOT = Path(__file__).resolve().parents[3]
STEPS = 30  # random legal steps played before the checks (so lazily set fields exist)
# The protocol's members that are the state's data, answered by the game from its state.
STATE_MEMBERS = ("history", "options")


def protocol_members() -> tuple[set[str], set[str]]:
    """The protocol's method names and its other (data) members, from the Protocol class: a
    function plain, a method descriptor compiled; a property plain, a getset compiled."""
    public = {n: v for n, v in vars(GameState).items() if not n.startswith("_")}
    methods = {name for name, value in public.items() if inspect.isroutine(value)}
    return methods, set(public) - methods


def played(game_id: str) -> Any:
    """A game of `game_id` (its first test options, fewest players) some random steps in."""
    spec = registry.get(game_id)
    game = spec.new_state(spec.test_options(min(spec.player_counts))[0])
    rng = random.Random(7)
    for _ in range(STEPS):
        actors = game.current_players()
        if not actors:
            break
        player = actors[0]
        actions = game.legal_actions(player)
        game.apply(actions[rng.randrange(len(actions))], player)
    return game


def state_attributes(state: object) -> set[str]:
    """The public attributes of a state (its fields and helpers), `dir()` minus `object`'s."""
    return {name for name in set(dir(state)) - set(dir(object)) if not name.startswith("_")}


GAMES = registry.ids()


def test_every_registered_game_is_checked() -> None:
    assert GAMES and set(GAMES) == {spec.id for spec in registry.specs()}
    methods, data = protocol_members()
    assert data == set(STATE_MEMBERS), "the protocol's data members changed: update this test"
    assert {"apply", "current_players", "legal_actions", "clone"} <= methods


@pytest.mark.parametrize("game_id", GAMES)
def test_game_holds_its_state_and_extends_nothing(game_id: str) -> None:
    game = played(game_id)
    game_type = type(game)
    assert game_type.__bases__ == (object,), f"{game_id}: Game extends {game_type.__bases__}"
    assert hasattr(game, "state"), f"{game_id}: Game holds no state"
    state = game.state
    assert not isinstance(state, game_type) and type(state) is not game_type
    for cls in (game_type, type(state)):
        assert not hasattr(cls, "__getattr__"), f"{game_id}: {cls.__qualname__}.__getattr__"
        lookup = inspect.getattr_static(cls, "__getattribute__")
        assert lookup is object.__getattribute__, f"{game_id}: {cls.__qualname__} hooks lookup"


@pytest.mark.parametrize("game_id", GAMES)
def test_the_state_defines_no_protocol_method(game_id: str) -> None:
    state_type = type(played(game_id).state)
    methods, _ = protocol_members()
    on_state = sorted(name for name in methods if hasattr(state_type, name))
    assert on_state == [], f"{game_id}: {state_type.__qualname__} defines {on_state}"


@pytest.mark.parametrize("game_id", GAMES)
def test_the_game_forwards_no_state_field(game_id: str) -> None:
    game = played(game_id)
    methods, data = protocol_members()
    fields = state_attributes(game.state) - methods - data
    assert len(fields) >= 5, f"{game_id}: too few state fields found: {sorted(fields)}"
    forwarded = []
    for name in sorted(fields):
        try:
            getattr(game, name)
        except AttributeError:
            continue
        forwarded.append(name)
    assert forwarded == [], f"{game_id}: the game answers the state's {forwarded}"


@pytest.mark.parametrize("game_id", GAMES)
def test_history_and_options_are_the_states_and_read_only(game_id: str) -> None:
    game = played(game_id)
    state = game.state
    history, options = state.history, state.options
    assert history, f"{game_id}: no step recorded"
    assert game.history is history and game.options is options
    for name in STATE_MEMBERS:
        with pytest.raises(AttributeError):
            setattr(game, name, getattr(state, name))
    assert game.history is history and game.options is options  # nothing changed
    assert state.history is history and state.options is options


def package_imports(package: str, module: str) -> set[str]:
    """The modules of `package` that `package.module` imports (any form, from its source)."""
    directory = ROOT.joinpath(*package.split("."))
    tree = ast.parse((directory / f"{module}.py").read_text(encoding="utf-8"))
    named: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from . import x, from .x import y
                base = ".".join([package, base]) if base else package
            named.add(base)
            named.update(f"{base}.{alias.name}" for alias in node.names)
    prefix = f"{package}."
    return {
        name[len(prefix) :]
        for name in named
        if name.startswith(prefix) and (directory / f"{name[len(prefix) :]}.py").is_file()
    }


@pytest.mark.parametrize("game_id", GAMES)
def test_nothing_below_game_imports_it(game_id: str) -> None:
    module = type(played(game_id)).__module__
    package, top = module.rsplit(".", 1)
    assert (ROOT.joinpath(*package.split(".")) / f"{top}.py").is_file(), module
    below = package_imports(package, top)
    assert below, f"{module} imports nothing of its package"
    seen: set[str] = set()
    while below - seen:
        name = min(below - seen)
        seen.add(name)
        imported = package_imports(package, name)
        assert top not in imported, f"{package}.{name} imports {module}, which stands on it"
        below |= imported
