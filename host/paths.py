"""Where the repository's data folders are (the host runs from a checkout)."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def hardware_dir() -> Path:
    """The build pack folder holding pinmap.json and ledmap.json (override: CASTILLO_HARDWARE)."""
    return Path(os.environ.get("CASTILLO_HARDWARE", REPO_ROOT / "hardware"))


def firmware_dir() -> Path:
    """The firmware folder copied to the Pico (override: CASTILLO_FIRMWARE)."""
    return Path(os.environ.get("CASTILLO_FIRMWARE", REPO_ROOT / "firmware"))
