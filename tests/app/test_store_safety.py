"""The saved-games database is private and served by one process at a time (issue 9).

- its folder is created 0700, the database, WAL and SHM 0600; an existing database opened with
  looser modes is tightened;
- a second `castillo run` on a database another one serves stops with a message naming the
  first; the lock goes with the process (SIGKILL frees it); the same process may open it again.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from host.app.db_files import DatabaseInUse
from host.app.store import Store
from tests.app.test_recovery import RUN, start_server

REPO = Path(__file__).resolve().parents[2]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def loose_umask() -> Iterator[None]:
    old = os.umask(0o022)  # the usual default: files 0644, folders 0755
    yield
    os.umask(old)


def test_new_database_files_are_private(tmp_path: Path, loose_umask: None) -> None:
    db = tmp_path / "state" / "castillo.db"
    store = Store(db)
    try:
        store.create_game("elgrande", {"options": {}}, {"purple": "secret-token"})
        store.set_setting("active_game", "1")
        assert mode(db.parent) == 0o700
        for name in ("castillo.db", "castillo.db-wal", "castillo.db-shm", "castillo.db.lock"):
            assert (db.parent / name).exists(), name
            assert mode(db.parent / name) == 0o600, name
    finally:
        store.close()


def test_an_existing_database_gets_private_modes(tmp_path: Path, loose_umask: None) -> None:
    db = tmp_path / "castillo.db"
    old = sqlite3.connect(db)
    old.execute("PRAGMA journal_mode=WAL")
    old.execute("CREATE TABLE t (x)")
    old.execute("INSERT INTO t VALUES (1)")
    old.commit()
    files = [db, db.with_name("castillo.db-wal"), db.with_name("castillo.db-shm")]
    for path in files:
        os.chmod(path, 0o644)
    store = Store(db)
    try:
        for path in files:
            assert mode(path) == 0o600, path.name
    finally:
        store.close()
        old.close()


def test_a_second_server_on_the_same_database_is_refused(tmp_path: Path) -> None:
    first, _ = start_server(tmp_path)
    try:
        try:
            second = subprocess.run(
                [*RUN, "--data-dir", str(tmp_path)],
                cwd=REPO,
                capture_output=True,
                text=True,
                timeout=30,
            )
        except subprocess.TimeoutExpired:
            pytest.fail("a second castillo run served the same database")
        assert second.returncode == 2
        assert "already open" in second.stderr
        assert f"pid {first.pid}" in second.stderr
        # in this process too: the first server still holds the database
        with pytest.raises(DatabaseInUse, match=f"pid {first.pid}"):
            Store(tmp_path / "castillo.db")
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
    # the kernel dropped the lock with the killed process: the database opens again
    store = Store(tmp_path / "castillo.db")
    again = Store(tmp_path / "castillo.db")  # the same process may open it twice
    again.close()
    store.close()
    third = Store(tmp_path / "castillo.db")
    third.close()
