"""Trace files, scoring, and `castillo tower-sim` end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from host.cli import main
from host.tower.sim.gen_trace import synthetic_trace
from host.tower.sim.trace import Pulse, parse_csv, pulses, read_csv, score, write_csv


def test_csv_round_trip_and_pulses(tmp_path: Path) -> None:
    rows = synthetic_trace(cubes=5, seed=2, grandes=1)
    path = tmp_path / "t.csv"
    write_csv(rows, path)
    assert path.read_text().splitlines()[0] == "t_us,r,g,b,c,beam,label,beam2"
    again = read_csv(path)
    assert again == rows
    found = pulses(again)
    assert len(found) == 6 and found[-1].cubes[0].startswith("grande:")
    assert all(9_000 < p.duration_us < 25_000 for p in found)


def test_header_is_checked() -> None:
    with pytest.raises(ValueError):
        parse_csv("t,r,g\n1,2,3\n")


def test_scoring_flags_wrong_missed_and_extra() -> None:
    ps = [Pulse(0, 11_000, "red", 0, 1), Pulse(50_000, 61_000, "blue", 2, 3)]
    ps.append(Pulse(90_000, 112_000, "red+blue", 4, 5))
    evs = [
        {"k": "drop", "c": "red", "pulse_us": 11_000},
        {"k": "drop", "c": "red", "pulse_us": 11_000},
        {"k": "merged", "est": 2, "pulse_us": 22_000},
    ]
    s = score(ps, evs)
    assert s.as_dict() == {
        "cubes": 4, "correct": 1, "uncertain": 2, "wrong": 1, "missed": 0, "extra": 0,
    }  # fmt: skip
    s = score(ps, evs[:1] + evs[2:] + [{"k": "drop", "c": "red", "pulse_us": 5}])
    assert (s.missed, s.extra) == (1, 1)


def test_cli_makes_and_replays_a_trace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "trace.csv"
    assert main(["tower-sim", "--make-trace", str(path), "--cubes", "40", "--seed", "4"]) == 0
    capsys.readouterr()
    assert main(["tower-sim", "--trace", str(path), "--calibrate-first", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == {"cubes", "correct", "uncertain", "wrong", "missed", "extra"}
    assert result["cubes"] == 40 - 15  # 3 of each of the 5 colours went to calibration
    assert result["wrong"] == result["missed"] == result["extra"] == 0
    assert result["correct"] + result["uncertain"] == result["cubes"]
