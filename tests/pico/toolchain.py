"""Where the emulated Pico's inputs come from: the MicroPython firmware image and the boot ROM.

Lookup order for the firmware (``firmware.uf2``):

1. ``CASTILLO_PICO_FIRMWARE`` (a path; taken as it is);
2. ``../shared/toolchain/micropython-rp2-pico/firmware.uf2`` beside the checkout, if its sha256 is
   the pinned one;
3. the official MicroPython v1.28.0 release for the Pico, downloaded from micropython.org into
   ``~/.cache/castillo/pico/`` (``CASTILLO_PICO_CACHE``); its sha256 is recorded on first use and
   checked on every later one.

The boot ROM: ``CASTILLO_PICO_BOOTROM``, else ``../shared/toolchain/rp2040-bootrom/bootrom-b1.bin``
with its pinned sha256. When something is missing the Pico tests skip with one line, unless
``CASTILLO_PICO_REQUIRED=1`` (set by ``.ci/run``): then they fail.
"""

from __future__ import annotations

import hashlib
import os
import re
import urllib.request
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "toolchain"
FIRMWARE_SHA256 = "affe16f62b7cf5acfa412b29de06339226b501d9846e4d08a6f9f9f400b6fac2"
BOOTROM_SHA256 = "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"
RELEASE = "v1.28.0"
DOWNLOAD_PAGE = "https://micropython.org/download/RPI_PICO/"
REQUIRED_ENV = "CASTILLO_PICO_REQUIRED"


class ToolchainMissing(Exception):
    """An input of the emulated Pico is not available on this machine."""


@dataclass(frozen=True)
class PicoInputs:
    firmware: Path
    bootrom: Path


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def required() -> bool:
    return os.environ.get(REQUIRED_ENV, "") not in ("", "0")


def cache_dir() -> Path:
    default = Path.home() / ".cache" / "castillo" / "pico"
    return Path(os.environ.get("CASTILLO_PICO_CACHE", str(default)))


def _pinned(path: Path, digest: str) -> Path | None:
    if path.is_file() and sha256(path) == digest:
        return path
    return None


def _download_release(cache: Path) -> Path | None:
    """The official release image, cached; its hash is recorded on first use, then enforced."""
    image = cache / f"RPI_PICO-{RELEASE}.uf2"
    record = cache / f"RPI_PICO-{RELEASE}.uf2.sha256"
    if image.is_file() and record.is_file():
        if sha256(image) != record.read_text().split()[0]:
            raise ToolchainMissing(f"{image} does not match its recorded sha256 {record}")
        return image
    try:
        with urllib.request.urlopen(DOWNLOAD_PAGE, timeout=15) as page:
            html = page.read().decode("utf-8", "replace")
        links = re.findall(r'href="([^"]*RPI_PICO-\d{8}-' + re.escape(RELEASE) + r'\.uf2)"', html)
        if not links:
            return None
        url = urllib.request.urljoin(DOWNLOAD_PAGE, links[0])
        with urllib.request.urlopen(url, timeout=60) as response:
            data = response.read()
    except OSError:  # no internet on this machine
        return None
    cache.mkdir(parents=True, exist_ok=True)
    image.write_bytes(data)
    record.write_text(f"{hashlib.sha256(data).hexdigest()}  {url}\n")
    return image


def find_firmware() -> Path:
    given = os.environ.get("CASTILLO_PICO_FIRMWARE")
    if given:
        if not Path(given).is_file():
            raise ToolchainMissing(f"CASTILLO_PICO_FIRMWARE={given} is not a file")
        return Path(given)
    shared = SHARED / "micropython-rp2-pico" / "firmware.uf2"
    found = _pinned(shared, FIRMWARE_SHA256) or _download_release(cache_dir())
    if found is None:
        raise ToolchainMissing(
            f"no MicroPython {RELEASE} Pico image: set CASTILLO_PICO_FIRMWARE, provide {shared} "
            f"(sha256 {FIRMWARE_SHA256[:12]}…) or allow the download from {DOWNLOAD_PAGE}"
        )
    return found


def find_bootrom() -> Path:
    given = os.environ.get("CASTILLO_PICO_BOOTROM")
    if given:
        if not Path(given).is_file():
            raise ToolchainMissing(f"CASTILLO_PICO_BOOTROM={given} is not a file")
        return Path(given)
    shared = SHARED / "rp2040-bootrom" / "bootrom-b1.bin"
    found = _pinned(shared, BOOTROM_SHA256)
    if found is None:
        raise ToolchainMissing(
            f"no RP2040 boot ROM: set CASTILLO_PICO_BOOTROM or provide {shared} "
            f"(sha256 {BOOTROM_SHA256[:12]}…)"
        )
    return found


def find_inputs() -> PicoInputs:
    return PicoInputs(find_firmware(), find_bootrom())
