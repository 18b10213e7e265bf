"""El Caballero on the command line: `castillo run --catalogue FILE` (host/commands/run.py asks
each game's cli module for its run flags). The file is checked before the app starts (a refusal
names its line: exit 2); the lobby then offers it first among the data folder's catalogues
(host/games/elcaballero/catalogues.py)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from host.games.elcaballero.catalogues import FOLDER, configure


def add_run_flags(run: Any) -> None:
    run.add_argument(
        "--catalogue",
        type=Path,
        metavar="FILE",
        help="El Caballero: your card catalogue (docs/elcaballero-cards.md), offered first in "
        f"the lobby; the data folder's {FOLDER}/*.toml are offered too",
    )


def prepare_run(args: argparse.Namespace, data_dir: Path) -> list[str]:
    """Check `--catalogue`'s file and set where the lobby finds catalogues; the lines the app
    prints when it listens. ValueError (the file's name, line and problem) if refused."""
    given: Path | None = args.catalogue
    catalogue = configure(data_dir, given)
    lines = [f"El Caballero catalogues: {data_dir / FOLDER}/*.toml"]
    if catalogue is not None:
        what = f"{catalogue.label}, {catalogue.total} cards"
        lines.append(f"El Caballero catalogue: {given} ({what})")
    return lines
