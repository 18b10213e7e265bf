"""The import contracts of .importlinter fail when a forbidden import is added, for every game.

Each test copies the Python files of engine/ and host/ with .importlinter into a temporary
folder, adds one probe module (or one new game folder), and runs lint-imports there on the one
contract concerned. The games are read from the folders, not listed here: a fourth game is probed
the day its folder exists, and a made-up game ("newgame", created in the copy) stands for it today.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
NEW_GAME = "newgame"


def _game_folders(parent: Path, shared: Iterable[str] = ()) -> list[str]:
    return sorted(
        p.name
        for p in parent.iterdir()
        if p.is_dir() and (p / "__init__.py").is_file() and p.name not in shared
    )


ENGINE_GAMES = _game_folders(ROOT / "engine", shared=["core"])
ADAPTERS = _game_folders(ROOT / "host" / "games")


def _copy_sources(dest: Path) -> None:
    def not_python(folder: str, names: list[str]) -> list[str]:
        return [
            n
            for n in names
            if n == "__pycache__"
            or not (n.endswith(".py") or os.path.isdir(os.path.join(folder, n)))
        ]

    for package in ("engine", "host"):
        shutil.copytree(ROOT / package, dest / package, ignore=not_python)
    shutil.copy(ROOT / ".importlinter", dest / ".importlinter")


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("contracts") / "base"
    _copy_sources(base)
    return base


def _add_new_game(tree: Path) -> None:
    """The made-up game, in both places a game lives."""
    for package in (tree / "engine" / NEW_GAME, tree / "host" / "games" / NEW_GAME):
        package.mkdir()
        (package / "__init__.py").write_text('"""A game that does not exist yet."""\n')


@pytest.fixture
def tree(sources: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "tree"
    shutil.copytree(sources, dest)
    return dest


def _lint(tree: Path, contract: str) -> tuple[int, str]:
    env = {**os.environ, "PYTHONPATH": str(tree), "COLUMNS": "400"}
    done = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--contract", contract],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stdout + done.stderr


def _probe(tree: Path, package: str, imported: str) -> str:
    """A module in `package` (dotted) that imports `imported`; its dotted name."""
    folder = tree.joinpath(*package.split("."))
    (folder / "_contract_probe.py").write_text(f"import {imported}\n")
    return f"{package}._contract_probe"


def _assert_broken(tree: Path, contract: str, importer: str, imported: str) -> None:
    rc, out = _lint(tree, contract)
    assert rc == 1, f"contract {contract} kept with {importer} -> {imported}:\n{out}"
    assert f"{importer} -> {imported} (l.1)" in out, out


CONTRACTS = [
    "layers",
    "acyclic",
    "host-knows-no-game",
    "commands-know-no-game",
    "host-games-independent",
    "games-know-no-app",
]


def test_the_copied_tree_keeps_every_contract(sources: Path) -> None:
    """Without a probe every contract is kept, so each break below is the probe's."""
    for contract in CONTRACTS:
        rc, out = _lint(sources, contract)
        assert rc == 0, out


def test_the_games_are_found() -> None:
    assert {"elcaballero", "elgrande", "kingdomino"} <= set(ENGINE_GAMES)
    assert "registry" not in ENGINE_GAMES  # a module, not a folder
    assert set(ADAPTERS) == set(ENGINE_GAMES)


@pytest.mark.parametrize("source", ["host.app", "host.commands"])
@pytest.mark.parametrize("game", [*ENGINE_GAMES, NEW_GAME])
def test_app_and_commands_import_no_game_engine(tree: Path, source: str, game: str) -> None:
    contract = "host-knows-no-game" if source == "host.app" else "commands-know-no-game"
    if game == NEW_GAME:
        _add_new_game(tree)
    importer = _probe(tree, source, f"engine.{game}")
    _assert_broken(tree, contract, importer, f"engine.{game}")


@pytest.mark.parametrize("source", ["host.app", "host.commands"])
@pytest.mark.parametrize("game", [*ADAPTERS, NEW_GAME])
def test_app_and_commands_import_no_game_adapter(tree: Path, source: str, game: str) -> None:
    contract = "host-knows-no-game" if source == "host.app" else "commands-know-no-game"
    if game == NEW_GAME:
        _add_new_game(tree)
    importer = _probe(tree, source, f"host.games.{game}")
    _assert_broken(tree, contract, importer, f"host.games.{game}")


def test_an_import_deep_in_a_game_is_caught(tree: Path) -> None:
    """The case issue 22 names: `import engine.kingdomino.game` in host/app passed `make lint`."""
    importer = _probe(tree, "host.app", "engine.kingdomino.game")
    _assert_broken(tree, "host-knows-no-game", importer, "engine.kingdomino.game")


def test_app_and_commands_may_use_core_and_registry(tree: Path) -> None:
    for source, contract in (
        ("host.app", "host-knows-no-game"),
        ("host.commands", "commands-know-no-game"),
    ):
        folder = tree.joinpath(*source.split("."))
        (folder / "_contract_probe.py").write_text(
            "import engine.core.spec\nimport engine.registry\nimport host.games\n"
        )
        rc, out = _lint(tree, contract)
        assert rc == 0, out


@pytest.mark.parametrize("game", [*ADAPTERS, NEW_GAME])
def test_adapters_import_no_other_adapter(tree: Path, game: str) -> None:
    if game == NEW_GAME:
        _add_new_game(tree)
    other = next(g for g in ADAPTERS if g != game)
    importer = _probe(tree, f"host.games.{game}", f"host.games.{other}")
    _assert_broken(tree, "host-games-independent", importer, f"host.games.{other}")


@pytest.mark.parametrize("game", ENGINE_GAMES)
def test_engine_games_import_no_other_game(tree: Path, game: str) -> None:
    other = next(g for g in ENGINE_GAMES if g != game)
    importer = _probe(tree, f"engine.{game}", f"engine.{other}")
    _assert_broken(tree, "layers", importer, f"engine.{other}")


def test_a_new_engine_folder_must_be_given_its_layer(tree: Path) -> None:
    _add_new_game(tree)
    rc, out = _lint(tree, "layers")
    assert rc == 1, out
    assert "not listed as layers" in out and f"- engine.{NEW_GAME}" in out, out


@pytest.mark.parametrize("game", [*ADAPTERS, NEW_GAME])
def test_adapters_import_nothing_of_the_app(tree: Path, game: str) -> None:
    """Issue 22: host/app and host/games imported each other; an adapter now speaks to the
    tower's checks and lights (host.tower) and the API's errors and JSON (host.api) only."""
    if game == NEW_GAME:
        _add_new_game(tree)
    importer = _probe(tree, f"host.games.{game}", "host.app.session")
    _assert_broken(tree, "games-know-no-app", importer, "host.app.session")
