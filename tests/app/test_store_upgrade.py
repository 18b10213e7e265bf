"""The store's schema versions: a database written before them (tests/app/fixtures/
store-v0.sqlite, made by make_store_v0.py) opens after the upgrade, lists its games and
continues the running one; a database of a newer version is refused untouched."""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from engine import registry
from host.app.session import Role, Session
from host.app.store import SCHEMA_VERSION, SchemaTooNew, Store

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "store-v0.sqlite"


@pytest.fixture
def old_db(tmp_path: Path) -> Path:
    path = tmp_path / "castillo.db"
    shutil.copyfile(FIXTURE, path)
    return path


def _version(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def test_the_fixture_is_a_database_before_schema_versions() -> None:
    with sqlite3.connect(f"file:{FIXTURE}?mode=ro", uri=True) as db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(games)")]
        assert db.execute("PRAGMA user_version").fetchone()[0] == 0
    assert "game" not in columns


def test_an_old_database_is_migrated_and_lists_its_games(old_db: Path) -> None:
    store = Store(old_db)
    try:
        assert store.schema_version() == SCHEMA_VERSION >= 1
        games = store.list_games()
    finally:
        store.close()
    assert [(g["id"], g["game"], g["finished"]) for g in games] == [
        (2, "elgrande", False),
        (1, "elgrande", True),
    ]
    assert games[1]["players"] == ["purple", "green", "blue"]
    assert _version(old_db) == SCHEMA_VERSION


def test_the_running_game_continues_after_the_upgrade(old_db: Path) -> None:
    store = Store(old_db)
    session = Session(store, checks_enabled=False)
    try:
        assert session.restore_last() == 2
        active = session.active
        assert active is not None and active.spec is registry.get("elgrande")
        game = active.game
        assert len(game.history) >= 30
        player = game.current_players()[0]
        action = random.Random(1).choice(game.legal_actions(player))
        before = len(game.history)
        session.act(Role("seat", game.state.colours[player]), str(action))
        assert len(game.history) > before  # the action and any dealer draws after it
        history = [(p, str(a)) for p, a in game.history]
    finally:
        session.close()
        store.close()
    store = Store(old_db)  # and the new action is durable: the game comes back with it
    session = Session(store, checks_enabled=False)
    try:
        assert session.restore_last() == 2
        assert session.active is not None
        assert [(p, str(a)) for p, a in session.active.game.history] == history
    finally:
        session.close()
        store.close()


def test_the_finished_game_exports_a_record_that_replays(old_db: Path) -> None:
    store = Store(old_db)
    session = Session(store, checks_enabled=False)
    try:
        record = session.export_record(1)
        summary = store.list_games()[1]
    finally:
        session.close()
        store.close()
    assert record["game"] == "elgrande"
    _spec, state = registry.replay(record)
    assert state.is_terminal()
    scores = dict(zip(state.seat_names(), state.returns(), strict=True))
    assert {c: scores[c] for c in summary["scores"]} == summary["scores"]


def test_a_new_database_has_the_current_schema(tmp_path: Path) -> None:
    store = Store(tmp_path / "new.db")
    try:
        assert store.schema_version() == SCHEMA_VERSION
        game_id = store.create_game("nim", {"options": {}}, {"left": "t1", "right": "t2"})
        assert store.game_start(game_id) == ("nim", {"options": {}})
    finally:
        store.close()


def test_a_database_newer_than_the_code_is_refused_untouched(old_db: Path) -> None:
    with sqlite3.connect(old_db) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = old_db.read_bytes()
    with pytest.raises(SchemaTooNew, match=r"schema version \d+, newer than this version"):
        Store(old_db)
    assert old_db.read_bytes() == before
    Store(old_db.with_name("other.db")).close()  # the lock was given back: nothing held
