"""`castillo score --game elcaballero FILE|-` (docs/elcaballero-score.md): the worked example,
catalogue ids, and bad input exiting with 2 and naming the cell."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from host.cli import main

REPO = Path(__file__).resolve().parents[3]
EXAMPLE = REPO / "docs" / "examples" / "elcaballero-position.json"


def run(
    position: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, Any, str]:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position), encoding="utf-8")
    code = main(["score", "--game", "elcaballero", *extra, str(path)])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else None), err


def example() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return loaded


def test_the_documented_worked_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--game", "elcaballero", str(EXAMPLE)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["totals"] == {"red": 8, "blue": 5, "green": 11}
    island = result["regions"][0]
    assert island["cards"] == ["0,-1", "0,0", "1,0"] and island["gold"] == 1
    assert island["caballeros"] == {"red": 6, "blue": 3, "green": 0}
    assert island["points"] == {"red": 8, "blue": 4}
    assert [(s["owner"], s["points"]) for s in result["ships"]] == [("blue", 1), ("green", 5)]
    closed = next(r for r in result["regions"] if r.get("governor"))
    assert closed["closed"] and closed["points"] == {"green": 6}


def test_the_game_is_read_from_the_input_and_stdin_works(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(EXAMPLE.read_text(encoding="utf-8")))
    assert main(["score", "-"]) == 0  # "game": "elcaballero" in the file
    assert json.loads(capsys.readouterr().out)["totals"]["green"] == 11


def test_catalogue_ids_of_the_synthetic_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = {
        "players": ["red", "blue"],
        "catalogue": "synthetic",
        "areas": [{"cell": "0,0", "card": "SYN-LAND"}, {"cell": "1,0", "card": "SYN-LAND-G2"}],
        "caballeros": [{"cell": "0,-1", "owner": "red", "side": "back"}],
    }
    code, result, _ = run(position, tmp_path, capsys)
    assert code == 0 and result["totals"] == {"red": 2 * (2 + 2), "blue": 0}
    assert "not the real cards" in result["catalogue"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda p: p["areas"].append({"cell": "0,0", "card": "SNESW"}), "cell 0,0: holds two"),
        (
            lambda p: p["areas"].append({"cell": "-1,-1", "card": "LNESW"}),
            "cell -1,-1: its E side: land would meet sea",
        ),
        (
            lambda p: p["areas"].append({"cell": "-1,-1", "card": "SNESW"}),
            "cell -1,-1: holds two cards",
        ),
        (lambda p: p["areas"].append({"cell": "2,-1", "card": "SNESW"}), ""),
        (lambda p: p["areas"].__setitem__(1, {"cell": "1,0", "card": "SNESW"}), "cell 1,0: its W"),
        (lambda p: p["caballeros"][3].__setitem__("ships", ["N"]), "cell 2,0: the ship on edge N"),
        (lambda p: p["caballeros"][0].__setitem__("owner", "pink"), "cell -1,0: owner must be"),
        (lambda p: p["areas"][0].__setitem__("card", "LNS+SEW"), "cell 0,0: the land region"),
        (lambda p: p["governors"][0].__setitem__("cell", "0,0"), "cell 0,0: a Governor stands"),
        (lambda p: p["areas"][0].__setitem__("cell", "zero"), "areas[0].cell"),
    ],
)
def test_bad_input_exits_2_naming_the_cell(
    change: Any, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = example()
    change(position)
    code, result, err = run(position, tmp_path, capsys)
    if not message:  # a harmless change: still scores
        assert code == 0
        return
    assert (code, result) == (2, None)
    assert message in err, err


def test_a_caballero_card_on_two_lands_needs_a_grande(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = {
        "players": ["red", "blue"],
        "extended": True,  # the Grande is a piece of the extended game
        "areas": [{"cell": "0,0", "card": "LNESW"}, {"cell": "1,-1", "card": "LNESW"}],
        "caballeros": [{"cell": "1,0", "owner": "red"}],
    }
    code, _, err = run(position, tmp_path, capsys)
    assert code == 2 and "cell 1,0: touches land on more than one side" in err
    position["caballeros"][0]["grande"] = True  # type: ignore[index]
    code, result, _ = run(position, tmp_path, capsys)
    # a Grande's card counts every number facing land: W (4) and N (1)
    assert code == 0 and [r["caballeros"]["red"] for r in result["regions"]] == [4, 1]


EXTENDED = REPO / "docs" / "examples" / "elcaballero-extended-position.json"


def test_the_documented_extended_example_with_a_grande_and_governors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["score", "--game", "elcaballero", str(EXTENDED)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["totals"] == {"red": 7, "blue": 8, "green": 3}
    assert result["grandes"] == [
        {
            "owner": "red",
            "cell": "1,0",
            "lands": [
                {"edge": "E", "region": 2, "caballeros": 2},
                {"edge": "W", "region": 1, "caballeros": 4},
            ],
        }
    ]
    lake = next(r for r in result["regions"] if r.get("governor") == "green")
    assert lake["type"] == "sea" and lake["points"] == {"green": 1 + 2}
    assert [s["owner"] for s in result["ships"]] == ["red"]  # the lake's ship scores with it


def extended_example() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(EXTENDED.read_text(encoding="utf-8"))
    return loaded


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda p: p["caballeros"].append(
                {"cell": "1,1", "owner": "red", "grande": True, "rotation": 0}
            ),
            "cell 1,1: red has one Grande, already at 1,0",
        ),
        (
            lambda p: p["governors"].extend([{"cell": "0,3", "region": 1, "owner": "blue"}] * 1),
            "cell 0,3: a closed region holds one Governor at most",
        ),
        (
            lambda p: p["governors"][1].__setitem__("ship", True),
            "cell 5,0: a Governor's ship sails on a closed lake",
        ),
        (
            lambda p: p["governors"][1].__setitem__("region", 1),
            "cell 5,0: a Governor stands only on a closed region",
        ),
    ],
)
def test_bad_extended_input_exits_2_naming_the_cell(
    change: Any, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = extended_example()
    change(position)
    code, result, err = run(position, tmp_path, capsys)
    assert (code, result) == (2, None)
    assert message in err, err


def test_five_governors_a_player_at_most(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    areas = [{"cell": f"{3 * i},0", "card": "LNESW+S"} for i in range(6)]
    position = {
        "players": ["red", "blue"],
        "extended": True,
        "areas": areas,
        "governors": [{"cell": a["cell"], "region": 1, "owner": "red"} for a in areas],
    }
    code, _, err = run(position, tmp_path, capsys)
    assert code == 2 and "cell 15,0: red has 5 Governors" in err
