"""The UI is a shell (host/app/static) plus one plugin folder per game (host/games/<id>/static),
the shell knowing no game (docs/table-app.md, "The UI: a shell and a plugin per game"):

- no file of the shell names a registered game (id, alias or title) or a place on a game's board;
- the shell's modules import nothing from a game's folder (a game's plugin is found through
  GET /api/catalogue);
- every import of every module, the shell's and the plugins', names a file that exists and
  names only what that file exports (a page with a broken import shows nothing at all).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine import registry

REPO = Path(__file__).resolve().parents[2]
SHELL = REPO / "host" / "app" / "static"
GAMES = REPO / "host" / "games"

IMPORT = re.compile(
    r"""^\s*(?:import|export)\s+(?:(\{[^}]*\}|\*\s+as\s+\w+|\w+)\s+from\s+)?["']([^"']+)["']""",
    re.M,
)
EXPORT_DECL = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([\w$]+)", re.M)
EXPORT_LIST = re.compile(r"^export\s*\{([^}]*)\}", re.M)


def _shell_files() -> list[Path]:
    return sorted(p for p in SHELL.rglob("*") if p.suffix in {".js", ".html", ".css", ".json"})


def _modules() -> list[Path]:
    return sorted([*SHELL.rglob("*.js"), *GAMES.glob("*/static/**/*.js")])


def _game_names() -> set[str]:
    names: set[str] = set()
    for spec in registry.specs():
        names |= {spec.id, spec.title, *spec.aliases}
    return {name.lower() for name in names}


def _board_places() -> set[str]:
    """El Grande's regions and its two neighbours, as its map names them."""
    board = json.loads((GAMES / "elgrande" / "static" / "map.json").read_text("utf-8"))
    return set(board["regions"]) | set(board["borders"])


def test_the_check_would_see_a_game_named_in_the_shell() -> None:
    """The checks below can fail: the words they look for are real words of the games."""
    assert {"elgrande", "el grande", "kingdomino", "elcaballero", "el caballero"} <= _game_names()
    assert {"Galicia", "Aragon", "Granada", "France", "Portugal"} <= _board_places()


def test_no_shell_file_names_a_game() -> None:
    names = _game_names()
    named = [
        f"{path.relative_to(REPO)}: {name}"
        for path in _shell_files()
        for name in names
        if name in path.read_text("utf-8").lower()
    ]
    assert not named


def test_no_shell_file_names_a_place_on_a_games_board() -> None:
    places = _board_places()
    named = [
        f"{path.relative_to(REPO)}: {place}"
        for path in _shell_files()
        for place in places
        if re.search(rf"\b{re.escape(place)}\b", path.read_text("utf-8"))
    ]
    assert not named


def test_the_shell_imports_nothing_from_a_games_folder() -> None:
    imports = [
        f"{path.relative_to(REPO)}: {target}"
        for path in SHELL.rglob("*.js")
        for _names, target in IMPORT.findall(path.read_text("utf-8"))
        if not target.startswith("./")
    ]
    assert not imports


def _resolve(module: Path, target: str) -> Path:
    if target.startswith("/static/"):
        return SHELL / target.removeprefix("/static/")
    if target.startswith("/games/"):
        game, _, rest = target.removeprefix("/games/").partition("/")
        return GAMES / game / "static" / rest
    return (module.parent / target).resolve()


def _exports(module: Path) -> set[str]:
    text = module.read_text("utf-8")
    names = set(EXPORT_DECL.findall(text))
    for group in EXPORT_LIST.findall(text):
        names |= {part.split(" as ")[-1].strip() for part in group.split(",") if part.strip()}
    return names


@pytest.mark.parametrize("module", _modules(), ids=lambda p: str(p.relative_to(REPO)))
def test_every_import_names_a_file_and_what_it_exports(module: Path) -> None:
    for names, target in IMPORT.findall(module.read_text("utf-8")):
        source = _resolve(module, target)
        assert source.is_file(), f"{target}: no such file"
        if names.startswith("{"):
            wanted = {
                part.split(" as ")[0].strip() for part in names[1:-1].split(",") if part.strip()
            }
            assert wanted <= _exports(source), f"{target} lacks {wanted - _exports(source)}"


@pytest.mark.parametrize("game", [spec.id for spec in registry.specs()])
def test_a_games_plugin_draws_the_table_and_the_seats(game: str) -> None:
    plugin = GAMES / game / "static" / "plugin.js"
    if not plugin.is_file():
        pytest.skip(f"{game} has no plugin: the shell's generic one shows it")
    assert {"renderTable", "renderSeat"} <= _exports(plugin)
