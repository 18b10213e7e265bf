"""`castillo move` (added after issue 21) reads its record by the rules for users' files
(engine.core.userfiles), as every other command does (tests/engine/test_cli_file_limits.py): a
regular file of at most 8 MiB nested at most 32 levels, stdin capped the same; a refusal is one
line on stderr and exit 2, promptly, never a hang on /dev/zero or a FIFO."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.engine.test_cli_file_limits import TIME_LIMIT, castillo, nested_json, one_line_refusal

MOVE = ("move", "--game", "kingdomino", "--seat", "pink", "--level", "1")


def test_move_refuses_dev_zero_promptly() -> None:
    code, err, seconds = castillo(*MOVE, "/dev/zero")
    one_line_refusal(code, err, "/dev/zero is a character device, not a regular file")
    assert seconds < TIME_LIMIT


def test_move_refuses_a_fifo_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "record.fifo"
    os.mkfifo(fifo)
    code, err, _ = castillo(*MOVE, str(fifo))
    one_line_refusal(code, err, "is a FIFO (named pipe), not a regular file")


def test_move_refuses_a_directory(tmp_path: Path) -> None:
    code, err, _ = castillo(*MOVE, str(tmp_path))
    one_line_refusal(code, err, "is a directory, not a regular file")


@pytest.mark.parametrize("depth", [40, 1000])
def test_move_refuses_a_record_nested_too_deep(tmp_path: Path, depth: int) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text(nested_json(depth, "kingdomino"), encoding="utf-8")
    code, err, _ = castillo(*MOVE, str(deep))
    one_line_refusal(code, err, "nested deeper than 32 levels")
    with deep.open("rb") as stdin:
        code, err, _ = castillo(*MOVE, "-", stdin=stdin)
    one_line_refusal(code, err, "nested deeper than 32 levels")


def test_move_refuses_a_file_over_8_mib(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_text('{"pad": "' + "x" * (8 << 20) + '"}', encoding="utf-8")
    code, err, _ = castillo(*MOVE, str(big))
    one_line_refusal(code, err, "is larger than 8 MiB")


def test_move_refuses_endless_standard_input() -> None:
    with open("/dev/zero", "rb") as zero:
        code, err, _ = castillo(*MOVE, "-", stdin=zero)
    one_line_refusal(code, err, "stdin is larger than 8 MiB")
