"""Saved games in SQLite (stdlib sqlite3): games, seats, the game log and the tower ledger.

Durability: WAL journal with `synchronous=FULL`. In WAL mode FULL syncs the log on every commit,
so a commit that returned survives a power cut, not only a crash of this process (NORMAL would
risk the last commits on power loss: a Raspberry Pi gets unplugged). Commits are small and come
at human speed (actions, a few cubes a second), so one fsync each is cheap.

Every write commits before it returns; the caller acknowledges (to a client, or to the tower)
only after that. One connection, shared by the app's threads under a lock.

The files are private (0600 in a 0700 folder) and one process owns a database at a time
(`host/app/db_files.py`): opening one another process serves raises `DatabaseInUse`.

Schema versions: `PRAGMA user_version` says which of `MIGRATIONS` a database has had (0: the
store before versions, as `SCHEMA` creates it). Opening one runs the missing migrations forward,
each in one transaction with its new version; a database of a newer version than this code
knows is refused (`SchemaTooNew`), never read or changed.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host.app import db_files
from host.tower.ledger import LedgerEntry

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    start TEXT NOT NULL,            -- {"options": ...} or {"record": ...} (imported)
    summary TEXT NOT NULL DEFAULT '{}',
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    colour TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    claimed INTEGER NOT NULL DEFAULT 0,
    lang TEXT NOT NULL DEFAULT 'en',
    PRIMARY KEY (game_id, colour)
);
CREATE TABLE IF NOT EXISTS log (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL,             -- action, undo, tower, tick, confirm, resolve
    actor TEXT NOT NULL DEFAULT '',
    payload TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS log_by_game ON log (game_id, id);
CREATE TABLE IF NOT EXISTS ledger (
    id INTEGER PRIMARY KEY,
    game_id INTEGER,                -- the active game when the tower event came (or NULL)
    entry TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""
# Migration N (1-based) takes a database from version N-1 to N. Append only; never edit one.
MIGRATIONS: tuple[str, ...] = (
    # 1: the game each saved game is of (engine.registry id); older games are all El Grande
    "ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'elgrande'",
)
SCHEMA_VERSION = len(MIGRATIONS)


class SchemaTooNew(Exception):
    """The database was written by a newer version of the app: this one must not touch it."""


@dataclass(frozen=True)
class LogRow:
    id: int
    kind: str
    actor: str
    payload: dict[str, Any]
    at: float
    problem: str = ""  # why the row cannot be read (its payload is then empty)


@dataclass(frozen=True)
class SeatRow:
    colour: str
    token: str
    claimed: bool
    lang: str


class Store:
    """The app's database (see the module docstring)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._lock_file: Path | None = None
        if str(path) != ":memory:":
            db_files.prepare_files(self.path)
            self._lock_file = db_files.acquire(self.path)
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(
                str(path), check_same_thread=False, isolation_level=None, timeout=10.0
            )
            self._refuse_newer()  # before anything writes to the file (WAL mode would)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except (sqlite3.Error, SchemaTooNew):
            self._db.close()
            self._release_lock()
            raise

    def _migrate(self) -> None:
        """Bring the schema to `SCHEMA_VERSION` (see the module docstring)."""
        version = self.schema_version()
        if version == 0:
            self._db.executescript(SCHEMA)  # a new file, or one of the store before versions
        for number in range(version + 1, SCHEMA_VERSION + 1):
            with self._tx() as db:
                db.execute(MIGRATIONS[number - 1])
                db.execute(f"PRAGMA user_version = {number}")

    def _refuse_newer(self) -> None:
        version = self.schema_version()
        if version > SCHEMA_VERSION:
            raise SchemaTooNew(
                f"the database {self.path} has schema version {version}, newer than this "
                f"version of castillo reads (up to {SCHEMA_VERSION}): run the newer castillo "
                "that wrote it, or give this one its own --data-dir"
            )

    def schema_version(self) -> int:
        with self._lock:
            return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
        self._release_lock()

    def _release_lock(self) -> None:
        lock_file, self._lock_file = self._lock_file, None
        if lock_file is not None:
            db_files.release(lock_file)

    def _tx(self) -> _Transaction:
        return _Transaction(self)

    # ------------------------------------------------------------------ games
    def create_game(self, game: str, start: dict[str, Any], seats: dict[str, str]) -> int:
        """A new saved game of `game` (an engine.registry id) with its seats' tokens."""
        now = time.time()
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO games (game, created, updated, start) VALUES (?, ?, ?, ?)",
                (game, now, now, json.dumps(start)),
            )
            game_id = int(cur.lastrowid or 0)
            db.executemany(
                "INSERT INTO seats (game_id, colour, token) VALUES (?, ?, ?)",
                [(game_id, colour, token) for colour, token in seats.items()],
            )
        return game_id

    def game_start(self, game_id: int) -> tuple[str, dict[str, Any]] | None:
        """The game's id (engine.registry) and how it started; None if there is no such game."""
        with self._lock:
            row = self._db.execute(
                "SELECT game, start FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        return (str(row[0]), json.loads(row[1])) if row else None

    def list_games(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, game, created, updated, summary, finished FROM games ORDER BY id DESC"
            ).fetchall()
        out = []
        for game_id, game, created, updated, summary, finished in rows:
            entry = {"id": game_id, "game": game, "created": created, "updated": updated}
            entry.update(json.loads(summary))
            entry["finished"] = bool(finished)
            out.append(entry)
        return out

    # ------------------------------------------------------------------ the game log
    def append(
        self,
        game_id: int,
        kind: str,
        payload: dict[str, Any],
        at: float,
        actor: str = "",
        summary: dict[str, Any] | None = None,
    ) -> int:
        """Append one log entry (and the game's new summary) durably; its id."""
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO log (game_id, kind, actor, payload, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, kind, actor, json.dumps(payload, separators=(",", ":")), at),
            )
            if summary is not None:
                db.execute(
                    "UPDATE games SET updated = ?, summary = ?, finished = ? WHERE id = ?",
                    (at, json.dumps(summary), int(bool(summary.get("finished"))), game_id),
                )
            return int(cur.lastrowid or 0)

    def set_summary(self, game_id: int, summary: dict[str, Any]) -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE games SET summary = ?, finished = ? WHERE id = ?",
                (json.dumps(summary), int(bool(summary.get("finished"))), game_id),
            )

    def log(self, game_id: int) -> Iterator[LogRow]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, kind, actor, payload, at FROM log WHERE game_id = ? ORDER BY id",
                (game_id,),
            ).fetchall()
        for row_id, kind, actor, payload, at in rows:
            yield _log_row(row_id, kind, actor, payload, at)

    # ------------------------------------------------------------------ seats
    def seats(self, game_id: int) -> list[SeatRow]:
        with self._lock:
            rows = self._db.execute(
                "SELECT colour, token, claimed, lang FROM seats WHERE game_id = ?", (game_id,)
            ).fetchall()
        return [SeatRow(c, t, bool(k), lang) for c, t, k, lang in rows]

    def update_seat(self, game_id: int, colour: str, **fields: Any) -> None:
        allowed = {"token", "claimed", "lang"}
        if not fields or set(fields) - allowed:
            raise ValueError(f"seat fields are {sorted(allowed)}")
        assignments = ", ".join(f"{name} = ?" for name in fields)
        with self._tx() as db:
            db.execute(
                f"UPDATE seats SET {assignments} WHERE game_id = ? AND colour = ?",
                (*fields.values(), game_id, colour),
            )

    # ------------------------------------------------------------------ settings
    def setting(self, key: str, default: str = "") -> str:
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else default

    def set_setting(self, key: str, value: str) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    # ------------------------------------------------------------------ the tower ledger
    def append_ledger(
        self,
        entry: LedgerEntry,
        game_id: int | None,
        log_payload: dict[str, Any] | None,
        at: float,
    ) -> bool:
        """A ledger entry, and (with an active game) its game-log entry, in one commit. An event
        already stored (the same boot and sequence number as the last entry) is not stored
        twice: False."""
        with self._tx() as db:
            if entry.kind in ("event", "skipped"):
                row = db.execute("SELECT entry FROM ledger ORDER BY id DESC LIMIT 1").fetchone()
                last = _ledger_entry(row[0]) if row else None
                if last is not None and (last.kind, last.boot, last.seq) == (
                    entry.kind,
                    entry.boot,
                    entry.seq,
                ):
                    return False
            db.execute(
                "INSERT INTO ledger (game_id, entry, at) VALUES (?, ?, ?)",
                (game_id, entry.to_json(), entry.at),
            )
            if game_id is not None and log_payload is not None:
                db.execute(
                    "INSERT INTO log (game_id, kind, actor, payload, at) VALUES (?, ?, ?, ?, ?)",
                    (game_id, "tower", "tower", json.dumps(log_payload), at),
                )
        return True

    def last_ledger(self) -> LedgerEntry | None:
        with self._lock:
            rows = self._db.execute("SELECT entry FROM ledger ORDER BY id DESC LIMIT 64").fetchall()
        for (text,) in rows:
            entry = _ledger_entry(text)
            if entry is not None:
                return entry  # a damaged row is passed over, not fatal
        return None


def _ledger_entry(text: str) -> LedgerEntry | None:
    try:
        return LedgerEntry.from_json(text)
    except (ValueError, KeyError, TypeError):
        return None


def _log_row(row_id: int, kind: Any, actor: Any, payload: Any, at: Any) -> LogRow:
    """A log row as stored; one that cannot be read says why in `problem`."""
    try:
        parsed = json.loads(payload)
        if not isinstance(parsed, dict):
            raise ValueError("the payload is not an object")
        return LogRow(row_id, str(kind), str(actor), parsed, float(at))
    except (TypeError, ValueError) as exc:
        return LogRow(row_id, str(kind), str(actor), {}, 0.0, problem=f"unreadable row: {exc}")


class _Transaction:
    """`with store._tx() as db:` one IMMEDIATE transaction under the store's lock."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def __enter__(self) -> sqlite3.Connection:
        self._store._lock.acquire()
        self._store._db.execute("BEGIN IMMEDIATE")
        return self._store._db

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            self._store._db.execute("COMMIT" if exc_type is None else "ROLLBACK")
        finally:
            self._store._lock.release()
