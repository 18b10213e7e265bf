"""Every file the command line reads (a position for `castillo score`, a record for `castillo
replay`, an `--override` data file, El Caballero's card catalogue) follows the rules of
engine.core.userfiles: a regular file, at most 8 MiB (JSON) or 1 MiB (TOML), nested at most 32
levels. A refusal is one line on stderr and exit code 2, promptly: never a traceback, never a
hang on /dev/zero or a FIFO.

The cases that hung or exhausted the memory before the rules run `castillo` in a child process
with a time limit and an address-space cap (2 GiB), so a regression fails instead of hanging the
suite or eating the machine's memory."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from engine import registry
from engine.core import record as core_record
from engine.core.errors import GameDataError
from engine.elcaballero.catalogue import SYNTHETIC_FILE, load_catalogue
from host.cli import main

REPO = Path(__file__).resolve().parents[2]
GAMES = ("elgrande", "kingdomino", "elcaballero")
TIME_LIMIT = 30.0  # seconds; a refusal takes well under one (the child's start included)


def _cap_memory() -> None:
    cap = 2 << 30
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def castillo(*args: str, stdin: Any = subprocess.DEVNULL) -> tuple[int, str, float]:
    """`castillo ARGS` in a child process: (exit code, stderr, seconds taken)."""
    env = {**os.environ, "CASTILLO_ENGINE": "plain"}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", *args],
        cwd=REPO,
        env=env,
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=TIME_LIMIT,
        preexec_fn=_cap_memory,
    )
    return done.returncode, done.stderr, time.monotonic() - started


def refused_in_a_child(script: str, *args: str) -> str:
    """Run a loader `script` (it exits "refused: <why>") in a child process with the memory
    cap and time limit (a loader that hangs or reads forever cannot take the test run down);
    its refusal."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=TIME_LIMIT,
        preexec_fn=_cap_memory,
    )
    assert done.returncode == 1 and done.stderr.startswith("refused: "), done.stderr
    return done.stderr


def one_line_refusal(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err
    assert err.count("\n") == 1, err
    for word in words:
        assert word in err, err


def nested_json(depth: int, game: str) -> str:
    return json.dumps({"game": game, "x": 1}).replace("1", "[" * depth + "]" * depth)


def in_process(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().err


@pytest.mark.parametrize("game", GAMES)
def test_score_refuses_json_nested_1000_deep(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text(nested_json(1000, game), encoding="utf-8")
    code, err = in_process(capsys, "score", "--game", game, str(deep))
    one_line_refusal(code, err, "nested deeper than 32 levels", str(deep))


@pytest.mark.parametrize("game", GAMES)
def test_score_refuses_json_nested_40_deep(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Deep enough to parse, deeper than any real position: refused all the same."""
    deep = tmp_path / "deep.json"
    deep.write_text(nested_json(40, game), encoding="utf-8")
    code, err = in_process(capsys, "score", "--game", game, str(deep))
    one_line_refusal(code, err, "nested deeper than 32 levels")


@pytest.mark.parametrize("game", GAMES)
def test_score_refuses_dev_zero_promptly(game: str) -> None:
    code, err, seconds = castillo("score", "--game", game, "/dev/zero")
    one_line_refusal(code, err, "/dev/zero is a character device, not a regular file")
    assert seconds < TIME_LIMIT


def test_score_refuses_a_fifo_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "position.fifo"
    os.mkfifo(fifo)
    code, err, _ = castillo("score", str(fifo))
    one_line_refusal(code, err, "is a FIFO (named pipe), not a regular file")


def test_score_refuses_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = in_process(capsys, "score", str(tmp_path))
    one_line_refusal(code, err, "is a directory, not a regular file")


def test_score_refuses_a_file_over_8_mib(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.json"
    big.write_text('{"pad": "' + "x" * (8 << 20) + '"}', encoding="utf-8")
    code, err = in_process(capsys, "score", str(big))
    one_line_refusal(code, err, "is larger than 8 MiB")


def test_score_refuses_endless_standard_input() -> None:
    with open("/dev/zero", "rb") as zero:
        code, err, _ = castillo("score", "-", stdin=zero)
    one_line_refusal(code, err, "stdin is larger than 8 MiB")


def test_score_refuses_json_numbers_it_cannot_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for text, words in (
        ('{"x": NaN}', "NaN is not a number"),
        ('{"x": 1e400}', "out of range"),
        ('{"x": ' + "9" * 5000 + "}", "not usable JSON"),
    ):
        path = tmp_path / "numbers.json"
        path.write_text(text, encoding="utf-8")
        code, err = in_process(capsys, "score", str(path))
        one_line_refusal(code, err, words)


def deep_catalogue(tmp_path: Path, depth: int = 500) -> Path:
    path = tmp_path / "catalogue.toml"
    shipped = SYNTHETIC_FILE.read_text(encoding="utf-8")
    path.write_text(f"deep = {'[' * depth}{']' * depth}\n{shipped}", encoding="utf-8")
    return path


def test_the_catalogue_loader_refuses_toml_nested_500_deep(tmp_path: Path) -> None:
    """The engine's own loader (not only the command line) applies the depth rule."""
    with pytest.raises(GameDataError, match="nested deeper than 32 levels"):
        load_catalogue(deep_catalogue(tmp_path))


LOAD_CATALOGUE = """
import sys
from engine import registry
from engine.core import record as core_record
from engine.core.errors import GameDataError
from engine.elcaballero.catalogue import load_catalogue
try:
    load_catalogue(sys.argv[1])
except GameDataError as refused:
    sys.exit(f"refused: {refused}")
"""


def test_the_catalogue_loader_refuses_special_files(tmp_path: Path) -> None:
    """The engine's loader, in a child process (before, it hung on a FIFO and read /dev/zero
    until the memory ran out)."""
    fifo = tmp_path / "catalogue.fifo"
    os.mkfifo(fifo)
    for path, words in (("/dev/zero", "character device"), (str(fifo), "FIFO")):
        assert words in refused_in_a_child(LOAD_CATALOGUE, path)


def test_score_refuses_a_catalogue_nested_500_deep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = tmp_path / "position.json"
    position.write_text('{"game": "elcaballero"}', encoding="utf-8")
    catalogue = deep_catalogue(tmp_path)
    code, err = in_process(capsys, "score", "--override", str(catalogue), str(position))
    one_line_refusal(code, err, "nested deeper than 32 levels")


@pytest.mark.parametrize("game", GAMES)
def test_score_refuses_a_dev_zero_override_promptly(game: str, tmp_path: Path) -> None:
    position = tmp_path / "position.json"
    position.write_text(json.dumps({"game": game}), encoding="utf-8")
    code, err, _ = castillo("score", "--override", "/dev/zero", str(position))
    one_line_refusal(code, err, "--override", "character device")


def test_a_toml_key_of_20000_parts_is_refused_before_parsing(tmp_path: Path) -> None:
    """tomllib takes 6 s on such a key (its time grows with the square of the parts)."""
    from engine.core import userfiles  # (imported here: a test of it, not of the whole file)

    path = tmp_path / "dotted.toml"
    path.write_text(".".join(["k"] * 20_000) + " = 1\n", encoding="utf-8")
    started = time.monotonic()
    with pytest.raises(userfiles.UnreadableFile, match="more than 32 dotted parts"):
        userfiles.load_toml(path)
    assert time.monotonic() - started < 1.0


def test_toml_strings_and_comments_do_not_count_as_nesting(tmp_path: Path) -> None:
    from engine.core import userfiles

    path = tmp_path / "text.toml"
    brackets = "[" * 100
    dots = ".".join(["a"] * 100)
    path.write_text(
        f'a = "{brackets}"\nb = \'{dots}\'\nc = """\n{brackets}\n"""\n# {brackets} {dots}\n',
        encoding="utf-8",
    )
    assert userfiles.load_toml(path)["a"] == brackets


def test_replay_refuses_dev_zero_and_deep_records(tmp_path: Path) -> None:
    code, err, _ = castillo("replay", "/dev/zero")
    one_line_refusal(code, err, "character device")
    deep = tmp_path / "deep.json"
    deep.write_text(nested_json(1000, "elgrande"), encoding="utf-8")
    code, err, _ = castillo("replay", str(deep))
    one_line_refusal(code, err, "nested deeper than 32 levels")


def test_replay_and_selfplay_check_override_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = registry.get("elgrande")  # the game with data override files
    record = tmp_path / "record.json"
    fresh = core_record.to_record(spec, spec.new_state(spec.selfplay_options(3, 1)))
    record.write_text(json.dumps(fresh), encoding="utf-8")
    code, err = in_process(capsys, "replay", "--override", str(tmp_path), str(record))
    one_line_refusal(code, err, "is a directory")
    code, err = in_process(capsys, "selfplay", "--games", "1", "--override", str(tmp_path))
    one_line_refusal(code, err, "is a directory")


def test_real_files_still_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The shipped catalogue and a whole game's record pass the rules."""
    assert load_catalogue(SYNTHETIC_FILE).total == 48
    folder = tmp_path / "records"
    assert main(["selfplay", "--games", "1", "--seed", "3", "--record", str(folder)]) == 0
    (record,) = folder.iterdir()
    capsys.readouterr()
    assert main(["replay", "--json", str(record)]) == 0
    assert json.loads(capsys.readouterr().out)["finished"] is True


def test_tower_sim_refuses_a_trace_that_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "trace.fifo"
    os.mkfifo(fifo)
    for path, words in (("/dev/zero", "character device"), (str(fifo), "FIFO")):
        code, err, _ = castillo("tower-sim", "--trace", path)
        one_line_refusal(code, err, words)


@pytest.mark.parametrize(
    "text",
    [
        '"""' + "x" * ((1 << 20) - 8),  # an unclosed multi-line string
        '"' + '\\"' * ((1 << 19) - 8),  # an unclosed string of escaped quotes
        "'" * ((1 << 20) - 8),
        "a" * ((1 << 20) - 8) + ".",  # one long bare word
    ],
    ids=["unclosed-multiline", "escaped-quotes", "apostrophes", "long-word"],
)
def test_the_toml_pre_check_takes_linear_time(text: str, tmp_path: Path) -> None:
    """The check that runs before tomllib must not be the slow part: 1 MiB of the worst text
    for a string-stripping regex (a first version took 40 s on 64 kB of an unclosed string)."""
    from engine.core import userfiles

    path = tmp_path / "worst.toml"
    path.write_text(text, encoding="utf-8")
    started = time.monotonic()
    with pytest.raises(userfiles.UnreadableFile):
        userfiles.load_toml(path)
    assert time.monotonic() - started < 2.0


def test_multiline_and_escaped_toml_strings_keep_their_brackets(tmp_path: Path) -> None:
    from engine.core import userfiles

    path = tmp_path / "strings.toml"
    path.write_text(
        'a = """q\\" [[[[ "" """\n'
        "b = 'x[[['\n"
        "c = '''\n.[.[.[\n'''\n"
        '"k.\\"[".w = [ [1], {x.y = 2} ] # [[[ a.b.c\n',
        encoding="utf-8",
    )
    assert userfiles.load_toml(path) == {
        "a": 'q" [[[[ "" ',
        "b": "x[[[",
        "c": ".[.[.[\n",
        'k."[': {"w": [[1], {"x": {"y": 2}}]},
    }


LOAD_OVERRIDE = """
import sys
from engine.core.errors import GameDataError
from engine.elgrande import data as elgrande
from engine.kingdomino import data as kingdomino
loader = {"elgrande": elgrande.load, "kingdomino": kingdomino.load}[sys.argv[1]]
try:
    loader(overrides=[sys.argv[2]])
except GameDataError as refused:
    sys.exit(f"refused: {refused}")
"""


@pytest.mark.parametrize("game", ("elgrande", "kingdomino"))
def test_the_data_loaders_refuse_special_and_deep_override_files(game: str, tmp_path: Path) -> None:
    """El Grande's and Kingdomino's own override loaders (not only the command line) read by
    the rules for users' files: before, a FIFO hung them and /dev/zero filled the memory."""
    fifo = tmp_path / "override.fifo"
    os.mkfifo(fifo)
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 500 + "]" * 500 + "\n", encoding="utf-8")
    cases = (("/dev/zero", "character device"), (str(fifo), "FIFO"), (str(deep), "nested"))
    for path, words in cases:
        assert words in refused_in_a_child(LOAD_OVERRIDE, game, path)
