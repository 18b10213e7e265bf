"""`castillo score --game kingdomino` (docs/kingdomino-score.md): the issue's format, exactly."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from host.cli import main

EXAMPLE: dict[str, Any] = {
    "game": "kingdomino",
    "size": 5,
    "kingdoms": {
        "pink": [
            "F0 F0 G0 W0 .",
            ". F0 F0 W0 M3",
            "S0 C W0 W1 S0",
            "M2 G0 S0 W0 L1",
            ". G0 S0 M2 .",
        ]
    },
    "middle_kingdom": False,
    "harmony": True,
    "discarded": {"pink": 2},
}
FULL_CENTRED = [
    "W1 W0 W0 W0 W0",
    "F1 F0 F0 F0 F0",
    "L1 L0 C L0 L0",
    "G2 G0 G0 G0 G0",
    "S2 S0 S0 S0 S0",
]


def run(
    position: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, Any, str]:
    path = tmp_path / "position.json"
    path.write_text(position if isinstance(position, str) else json.dumps(position), "utf-8")
    code = main(["score", "--game", "kingdomino", *extra, str(path)])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else None), err


def test_the_issue_example(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, result, err = run(EXAMPLE, tmp_path, capsys)
    assert (code, err) == (0, "")
    assert result["totals"] == {"pink": 13} and result["winners"] == ["pink"]
    assert result["bonus"] == {"pink": {"middle_kingdom": 0, "harmony": 0}}  # 2 discarded
    scoring = sorted(
        (t["terrain"], t["squares"], t["crowns"], t["points"])
        for t in result["territories"]["pink"]
        if t["points"]
    )
    assert scoring == [
        ("lake", 1, 1, 1),
        ("mine", 1, 2, 2),
        ("mine", 1, 2, 2),
        ("mine", 1, 3, 3),
        ("wheat", 5, 1, 5),
    ]


def test_bonuses_and_two_kingdoms_with_a_tie_break(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = {
        "game": "kingdomino",
        "kingdoms": {"pink": FULL_CENTRED, "blue": FULL_CENTRED},
        "middle_kingdom": True,
        "harmony": True,
        "discarded": {"blue": 1},
    }
    code, result, _ = run(position, tmp_path, capsys)
    assert code == 0
    # Each row is one territory of 5 (the lake row: 2 + 2 beside the castle) with 1 or 2 crowns.
    points = 5 + 5 + 2 + 10 + 10
    assert result["totals"] == {"pink": points + 15, "blue": points + 10}
    assert result["bonus"]["pink"] == {"middle_kingdom": 10, "harmony": 5}
    assert result["winners"] == ["pink"]


def test_a_shared_win(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = {"kingdoms": {"pink": FULL_CENTRED, "green": FULL_CENTRED}}
    code, result, _ = run(position, tmp_path, capsys)
    assert code == 0 and result["winners"] == ["pink", "green"]
    assert result["decided_by"] == "shared"


def test_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(EXAMPLE)))
    assert main(["score", "--game", "kingdomino", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["totals"] == {"pink": 13}


def with_rows(rows: list[str], **extra: Any) -> dict[str, Any]:
    return {"game": "kingdomino", "kingdoms": {"pink": rows}, **extra}


@pytest.mark.parametrize(
    ("position", "message"),
    [
        (
            with_rows(
                [*EXAMPLE["kingdoms"]["pink"][:2], "S0 C W0 W1", *EXAMPLE["kingdoms"]["pink"][3:]]
            ),
            "kingdoms.pink[2]: row 3 has 4 squares, not 5",
        ),
        (
            with_rows(["F0 F0 G0 W0 .", ". F0 X0 W0 M3", *EXAMPLE["kingdoms"]["pink"][2:]]),
            "kingdoms.pink[1][2]: row 2, column 3: unknown terrain 'X'",
        ),
        (
            with_rows(["F0 F0 G0 W2 .", *EXAMPLE["kingdoms"]["pink"][1:]]),
            "kingdoms.pink[0][3]: row 1, column 4: no wheat square carries 2 crown(s) (at most 1)",
        ),
        (
            with_rows(
                [
                    "F0 F0 G0 W0 .",
                    *EXAMPLE["kingdoms"]["pink"][1:2],
                    "S0 F0 W0 W1 S0",
                    *EXAMPLE["kingdoms"]["pink"][3:],
                ]
            ),
            "kingdoms.pink: no castle",
        ),
        (
            with_rows(["F0 C G0 W0 .", *EXAMPLE["kingdoms"]["pink"][1:]]),
            "kingdoms.pink[2][1]: two castles: row 1, column 2 and row 3, column 2",
        ),
        (with_rows(EXAMPLE["kingdoms"]["pink"][:4]), "kingdoms.pink: has 4 rows, not 5"),
        (with_rows(EXAMPLE["kingdoms"]["pink"], size=6), "size: must be 5"),
        (with_rows(EXAMPLE["kingdoms"]["pink"], harmony="yes"), "harmony: must be true or false"),
        (with_rows(EXAMPLE["kingdoms"]["pink"], discarded={"blue": 1}), "discarded.blue"),
        (with_rows(EXAMPLE["kingdoms"]["pink"], extra=1), "extra: unknown field"),
        ({"kingdoms": {"red": EXAMPLE["kingdoms"]["pink"]}}, "kingdoms.red: unknown colour"),
        ("{not json", "is not JSON"),
    ],
)
def test_bad_input_exits_2_naming_row_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], position: Any, message: str
) -> None:
    code, result, err = run(position, tmp_path, capsys)
    assert code == 2 and result is None
    assert message in err, err


def test_check_tiles_accepts_a_real_kingdom(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, result, _ = run(EXAMPLE, tmp_path, capsys, "--check-tiles")
    assert code == 0 and result["totals"] == {"pink": 13}


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (["M3 M3 . . .", ". . C . .", *[". . . . ."] * 3], "2 squares M3: the dominoes have 1"),
        (
            [
                "S0 S0 S0 S0 S0",
                "S0 S0 S0 S0 S0",
                "S0 S0 C S0 S0",
                "S0 S0 S0 S0 S0",
                "S0 S0 S0 S0 S0",
            ],
            "24 squares S0: the dominoes have",
        ),
        (
            ["W1 . . . .", ". . C . .", *[". . . . ."] * 3],
            "1 squares: dominoes cover an even number",
        ),
    ],
)
def test_check_tiles_refuses_what_the_dominoes_cannot_make(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rows: list[str], message: str
) -> None:
    code, _, err = run(with_rows(rows), tmp_path, capsys, "--check-tiles")
    assert code == 2 and message in err, err
    assert run(with_rows(rows), tmp_path, capsys)[0] == 0  # without the flag: scored


def test_check_tiles_counts_all_kingdoms_together(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = ["M3 W0 . . .", ". . C . .", *[". . . . ."] * 3]
    position = {"kingdoms": {"pink": one, "blue": one}}
    code, _, err = run(position, tmp_path, capsys, "--check-tiles")
    assert code == 2 and "all the kingdoms together" in err


def test_the_mighty_duel_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = ["W1 W0 . . . . .", *[". . . . . . ."] * 2, ". . . C . . .", *[". . . . . . ."] * 3]
    code, result, _ = run({"size": 7, "kingdoms": {"yellow": rows}}, tmp_path, capsys)
    assert code == 0 and result["totals"] == {"yellow": 2}
