"""How the emulated Pico's firmware image is found (no emulator needed, no network used)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.pico import toolchain


@pytest.fixture
def nowhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No shared toolchain, an empty cache, no environment overrides."""
    monkeypatch.setattr(toolchain, "SHARED", tmp_path / "shared")
    monkeypatch.setenv("CASTILLO_PICO_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("CASTILLO_PICO_FIRMWARE", raising=False)
    return tmp_path


def test_an_image_named_by_the_environment_wins(
    nowhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    image = nowhere / "mine.uf2"
    image.write_bytes(b"uf2")
    monkeypatch.setenv("CASTILLO_PICO_FIRMWARE", str(image))
    assert toolchain.find_firmware() == image
    monkeypatch.setenv("CASTILLO_PICO_FIRMWARE", str(nowhere / "missing.uf2"))
    with pytest.raises(toolchain.ToolchainMissing, match="not a file"):
        toolchain.find_firmware()


def test_the_shared_image_is_used_only_with_the_pinned_hash(
    nowhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = nowhere / "shared" / "micropython-rp2-pico" / "firmware.uf2"
    shared.parent.mkdir(parents=True)
    shared.write_bytes(b"some other build")
    monkeypatch.setattr(toolchain, "_download_release", lambda cache: None)  # offline
    with pytest.raises(toolchain.ToolchainMissing, match="no MicroPython"):
        toolchain.find_firmware()
    monkeypatch.setattr(
        toolchain, "FIRMWARE_SHA256", hashlib.sha256(b"some other build").hexdigest()
    )
    assert toolchain.find_firmware() == shared


def test_a_downloaded_image_must_keep_the_hash_recorded_on_first_use(nowhere: Path) -> None:
    cache = nowhere / "cache"
    cache.mkdir()
    image = cache / f"RPI_PICO-{toolchain.RELEASE}.uf2"
    image.write_bytes(b"release")
    record = cache / f"RPI_PICO-{toolchain.RELEASE}.uf2.sha256"
    record.write_text(hashlib.sha256(b"release").hexdigest() + "  https://example.invalid/x.uf2\n")
    assert toolchain.find_firmware() == image
    image.write_bytes(b"tampered")
    with pytest.raises(toolchain.ToolchainMissing, match="does not match"):
        toolchain.find_firmware()
