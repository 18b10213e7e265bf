"""The card catalogues a host offers at the table: the catalogue files in the data folder's
`catalogues/` folder (`*.toml`, docs/elcaballero-cards.md) and the one `castillo run
--catalogue FILE` names (host/games/elcaballero/cli.py), each by its file name.

The lobby lists the names (the folder is looked at each time, so a file copied there is offered
without a restart); a file is read only when a game is started with it, by the rules for users'
files (a regular file of at most 1 MiB of TOML, nested at most 32 levels), and only a name of
the listing is ever opened: a client's text never becomes a path.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from engine.elcaballero.catalogue import Catalogue, CatalogueError, load_catalogue
from engine.elcaballero.options import CATALOGUES, file_name_ok

FOLDER = "catalogues"  # in the data folder (beside castillo.db)
SUFFIX = ".toml"
MAX_LISTED = 50  # the lobby's picker, not a file manager


@dataclass
class Shelf:
    """Where this host's catalogues are: the data folder's `catalogues/` and `--catalogue`."""

    folder: Path | None = None
    given: Path | None = None


SHELF = Shelf()


def configure(data_dir: Path | None, given: Path | None = None) -> Catalogue | None:
    """The host's catalogues (`castillo run`): the data folder's, and `given`, which is read
    and checked now (CatalogueError, or ValueError for a name the lobby could not offer)."""
    checked = None
    if given is not None:
        name = given.name
        if not file_name_ok(name) or name in CATALOGUES:
            raise ValueError(
                f"{given}: a catalogue file's name is at most 80 characters and does not "
                "start with a dot"
            )
        checked = load_catalogue(given)
    SHELF.folder = data_dir / FOLDER if data_dir is not None else None
    SHELF.given = given
    return checked


def names() -> list[str]:
    """The catalogue files offered, by name: `--catalogue`'s first, then the folder's in name
    order (at most MAX_LISTED)."""
    out: list[str] = []
    if SHELF.given is not None:
        out.append(SHELF.given.name)
    if SHELF.folder is None:
        return out
    try:
        found = sorted(os.listdir(SHELF.folder))
    except OSError:  # no folder yet (or not readable): nothing from it
        return out
    for name in found:
        if len(out) >= MAX_LISTED:
            break
        if name.endswith(SUFFIX) and file_name_ok(name) and name not in out:
            out.append(name)
    return out


def default() -> str:
    """The lobby's preselected catalogue: `--catalogue`'s file, else none ("")."""
    return SHELF.given.name if SHELF.given is not None else ""


def load(name: str) -> Catalogue:
    """The catalogue file offered as `name`; KeyError if none is, CatalogueError (naming the
    file, the line and the problem) if it is refused."""
    if SHELF.given is not None and name == SHELF.given.name:
        return load_catalogue(SHELF.given, source=name)
    if SHELF.folder is None or name not in names():
        raise KeyError(name)
    return load_catalogue(SHELF.folder / name, source=name)


__all__ = ["FOLDER", "SHELF", "CatalogueError", "configure", "default", "load", "names"]
