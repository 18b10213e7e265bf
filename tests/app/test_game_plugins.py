"""A game's plugin folder (host/games/<id>/static/): served under /games/<id>/, its i18n bundle
(i18n/<lang>/*.json, every file of the language merged) at /games/<id>/i18n/<lang>.json, and
named in the catalogue when it has a plugin.js. The test-only Nim gets a folder outside host/
(the adapters' `plugins_dir` points at a temporary one)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import registry
from host.app.server import Access, create_app
from host.games import GameAdapter
from tests.app.conftest import LoopbackClient, Table
from tests.engine.platform.nim import SPEC as NIM


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    root = tmp_path / "games"
    monkeypatch.setattr(GameAdapter, "plugins_dir", root)
    registry.register(NIM)
    yield root / "nim" / "static"
    registry.unregister(NIM)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_a_games_i18n_bundle_merges_every_file_of_the_language(
    plugins: Path, tmp_path: Path
) -> None:
    _write(plugins / "i18n" / "en" / "engine.json", json.dumps({"nim.a": "A", "nim.b": "B"}))
    _write(plugins / "i18n" / "en" / "refusals.json", json.dumps({"nim.refuse.x": "No {n}"}))
    _write(plugins / "i18n" / "en" / "broken.json", "{not json")  # costs only itself
    _write(plugins / "i18n" / "cs" / "engine.json", json.dumps({"nim.a": "Á"}))
    _write(plugins / "plugin.js", "export function render() {}\n")
    table = Table(tmp_path / "castillo.db")
    try:
        with LoopbackClient(create_app(table.session, Access())) as client:
            english = client.get("/games/nim/i18n/en.json")
            czech = client.get("/games/nim/i18n/cs.json").json()
            polish = client.get("/games/nim/i18n/pl.json").json()
            unknown_lang = client.get("/games/nim/i18n/xx.json")
            unknown_game = client.get("/games/chess/i18n/en.json")
            plugin = client.get("/games/nim/plugin.js")
            games = {g["id"]: g for g in client.get("/api/catalogue").json()["games"]}
    finally:
        table.close()
    assert english.status_code == 200
    assert english.json() == {"nim.a": "A", "nim.b": "B", "nim.refuse.x": "No {n}"}
    assert czech == {"nim.a": "Á"} and polish == {}
    assert unknown_lang.status_code == 400 and unknown_game.status_code == 404
    assert plugin.status_code == 200 and "render" in plugin.text
    assert games["nim"]["plugin"] == "/games/nim/plugin.js"


def test_a_game_without_a_folder_has_an_empty_bundle_and_no_plugin(
    plugins: Path, tmp_path: Path
) -> None:
    table = Table(tmp_path / "castillo.db")
    try:
        with LoopbackClient(create_app(table.session, Access())) as client:
            bundle = client.get("/games/nim/i18n/en.json")
            games = {g["id"]: g for g in client.get("/api/catalogue").json()["games"]}
            missing = client.get("/games/nim/plugin.js")
    finally:
        table.close()
    assert bundle.status_code == 200 and bundle.json() == {}
    assert games["nim"]["plugin"] is None and missing.status_code == 404
