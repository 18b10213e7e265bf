"""The issue-24 speed bench (bench/engine_elgrande_vs_issue.py) checks its arguments and, when the
baseline cannot be built (no git history, no mypyc), says why in one line and measures nothing.
Nothing here compiles or plays a game."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import engine_elgrande_vs_issue as bench


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rounds", "1"], "--rounds must be at least 3, not 1"),
        (["--games", "0"], "--games must be at least 1, not 0"),
        (["--commit", "../../etc"], "--commit must be a commit id"),
        (["--rounds", "many"], "invalid int value: 'many'"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        bench.main(*argv)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_no_git_history_skips_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(bench, "ROOT", tmp_path)  # not a git repository
    assert bench.main("--commit", "9ecc0a4") == 0
    out = capsys.readouterr().out
    assert out.startswith("skipped: git cannot extract 9ecc0a4's engine")
    assert out.count("\n") == 1
    assert not (tmp_path / "build").exists()


def test_no_mypyc_skips_in_one_line_and_builds_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sources = tmp_path / "build" / "baseline-0123abc" / "sources" / "engine"
    sources.mkdir(parents=True)
    (sources / "__init__.py").write_text("")
    monkeypatch.setattr(bench, "ROOT", tmp_path)
    monkeypatch.setattr(bench, "MYPYC", tmp_path / "no-mypyc")
    assert bench.main("--commit", "0123abc") == 0
    out = capsys.readouterr().out
    assert out == f"skipped: no mypyc at {tmp_path / 'no-mypyc'} (make setup installs it)\n"
    assert not (tmp_path / "build" / "baseline-0123abc" / "mypyc").exists()


def test_no_c_compiler_is_a_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mypyc = tmp_path / "mypyc"
    mypyc.write_text("")
    monkeypatch.setattr(bench, "MYPYC", mypyc)
    monkeypatch.setattr(bench, "COMPILER", "no-such-cc-anywhere")
    assert bench.why_not_buildable() == "no C compiler (no-such-cc-anywhere) for mypyc"
