"""The database's files on disk: private modes and one owning process.

The database, its WAL and its shared-memory file hold secret choices and seat tokens: they are
created 0600 in a folder created 0700 (SQLite gives the WAL and SHM the database file's mode),
and an existing database and its folder get their modes fixed when it is opened (the folder:
`host.paths.private_dir`, which leaves a shared or foreign folder as it is, with a warning).

Only one process may serve a database: two `castillo run` on the same file would both continue
the same game and write interleaved logs. `<db>.lock` is held with `flock` while a store is
open (the kernel releases it when the process dies, even by SIGKILL) and names the holder.
Stores opened again in the same process share the lock (tests and tools read a database the
process already serves).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import sys
import threading
from pathlib import Path

from host.paths import private_dir

FILE_MODE = 0o600
SIDE_FILES = ("-wal", "-shm", "-journal")


class DatabaseInUse(Exception):
    """Another process has the database open."""


def prepare_files(db: Path) -> None:
    """Create the folder (0700) and the database file (0600); tighten existing ones."""
    private_dir(db.parent)  # a shared folder (/tmp say) stays so: the files are private anyway
    fd = os.open(db, os.O_RDWR | os.O_CREAT, FILE_MODE)
    os.close(fd)
    for path in [db, *(db.with_name(db.name + suffix) for suffix in SIDE_FILES)]:
        with contextlib.suppress(FileNotFoundError):
            if stat.S_IMODE(path.stat().st_mode) != FILE_MODE:
                os.chmod(path, FILE_MODE)


class _Held:
    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.users = 0


_held: dict[Path, _Held] = {}
_held_lock = threading.Lock()


def lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".lock")


def acquire(db: Path) -> Path:
    """Hold `<db>.lock` for this process; `DatabaseInUse` names the other holder."""
    path = lock_path(db).resolve()
    with _held_lock:
        held = _held.get(path)
        if held is None:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(fd, 512, 0).decode(errors="replace").strip()
                os.close(fd)
                who = f" ({holder})" if holder else ""
                raise DatabaseInUse(
                    f"the database {db} is already open in another process{who}: stop that "
                    "`castillo run` first, or give this one its own --data-dir"
                ) from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"pid {os.getpid()}: {' '.join(sys.argv)}\n".encode(), 0)
            held = _held[path] = _Held(fd)
        held.users += 1
    return path


def release(path: Path) -> None:
    """Give back one `acquire`; the last one in the process unlocks."""
    with _held_lock:
        held = _held.get(path)
        if held is None:
            return
        held.users -= 1
        if held.users > 0:
            return
        del _held[path]
        with contextlib.suppress(OSError):
            os.ftruncate(held.fd, 0)
        os.close(held.fd)  # closing the last descriptor releases the flock
