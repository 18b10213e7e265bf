"""The emulated-Pico tier: the stock MicroPython Pico firmware on rp2040js with our firmware.

Missing inputs (firmware image, boot ROM, Node or the harness's npm packages) skip these tests
with one line, or fail them when CASTILLO_PICO_REQUIRED=1 (CI).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pico.emulator import HERE, EmulatedPico
from tests.pico.filesystem import build_image
from tests.pico.toolchain import PicoInputs, ToolchainMissing, find_inputs, required


def _unavailable(why: str) -> None:
    if required():
        pytest.fail(f"emulated Pico required but unavailable: {why}", pytrace=False)
    pytest.skip(f"emulated Pico unavailable: {why}")


@pytest.fixture(scope="session")
def pico_inputs() -> PicoInputs:
    if shutil.which("node") is None:
        _unavailable("node is not installed")
    if not (HERE / "node_modules" / "rp2040js").is_dir():
        _unavailable("run `npm ci` in tests/pico (make unit does)")
    try:
        return find_inputs()
    except ToolchainMissing as exc:
        _unavailable(str(exc))
        raise


@pytest.fixture(scope="session")
def fs_image(pico_inputs: PicoInputs, tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return build_image(tmp_path_factory.mktemp("pico-fs"))


def start_pico(inputs: PicoInputs, image: bytes, work: Path) -> EmulatedPico:
    pico = EmulatedPico(inputs, image, work)
    pico.boot()
    return pico


@pytest.fixture(scope="module")
def pico(
    pico_inputs: PicoInputs, fs_image: bytes, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[EmulatedPico]:
    """One booted Pico per test module (a boot costs ~5 s of wall time)."""
    board = start_pico(pico_inputs, fs_image, tmp_path_factory.mktemp("pico"))
    yield board
    board.close()


@pytest.fixture
def fresh_pico(pico_inputs: PicoInputs, fs_image: bytes, tmp_path: Path) -> Iterator[EmulatedPico]:
    """A Pico of its own, for tests that power-cycle or stop the firmware."""
    board = start_pico(pico_inputs, fs_image, tmp_path)
    yield board
    board.close()
