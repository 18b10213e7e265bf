"""Where the repository's data folders are (the host runs from a checkout), and the private
folders the app keeps its own data in."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
PRIVATE_MODE = 0o700

log = logging.getLogger("host.paths")


def hardware_dir() -> Path:
    """The build pack folder holding pinmap.json and ledmap.json (override: CASTILLO_HARDWARE)."""
    return Path(os.environ.get("CASTILLO_HARDWARE", REPO_ROOT / "hardware"))


def firmware_dir() -> Path:
    """The firmware folder copied to the Pico (override: CASTILLO_FIRMWARE)."""
    return Path(os.environ.get("CASTILLO_FIRMWARE", REPO_ROOT / "firmware"))


def private_dir(folder: Path) -> None:
    """Make `folder` the app's private folder: created 0700, or an existing one tightened to
    0700 (a data folder made by an older version, or by hand, is often 0755).

    A folder that is not only ours keeps its mode, with a warning: one another user owns, a
    shared one with the sticky bit (/tmp), the home folder or the root. So does one whose mode
    cannot be changed (a read-only or foreign file system): the app goes on, its database files
    are created 0600 anyway. A path that is not a folder is left to the caller to refuse."""
    if not folder.exists():
        folder.mkdir(mode=PRIVATE_MODE, parents=True, exist_ok=True)
        _chmod(folder)  # mkdir's mode is filtered by the umask
        return
    info = folder.stat()
    if not stat.S_ISDIR(info.st_mode) or stat.S_IMODE(info.st_mode) & 0o077 == 0:
        return
    resolved = folder.resolve()
    if info.st_uid != os.geteuid():
        why = "another user owns it"
    elif info.st_mode & stat.S_ISVTX:
        why = "it is a shared folder (sticky bit)"
    elif resolved in (Path.home().resolve(), Path(resolved.anchor)):
        why = "it is the home folder or the root"
    else:
        _chmod(folder)
        return
    log.warning(
        "the data folder %s is open to other users (mode %o) and is left so: %s",
        folder,
        stat.S_IMODE(info.st_mode),
        why,
    )


def _chmod(folder: Path) -> None:
    try:
        os.chmod(folder, PRIVATE_MODE)
    except OSError as exc:
        log.warning(
            "the data folder %s could not be made private (mode 700): %s",
            folder,
            exc.strerror,
        )
