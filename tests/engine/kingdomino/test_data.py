"""The domino data against the reference's totals (docs/kingdomino-rules.md, "Data")."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine.core.errors import GameDataError
from engine.kingdomino.data import load


def halves(overrides: tuple[Path, ...] = ()) -> list[tuple[str, int]]:
    data = load(overrides)
    out = []
    for n in data.numbers():
        out.append((data.letters[data.terrain_a[n] - 1], data.crowns_a[n]))
        out.append((data.letters[data.terrain_b[n] - 1], data.crowns_b[n]))
    return out


def test_48_dominoes_96_squares_per_terrain() -> None:
    squares = halves()
    assert load().count == 48 and len(squares) == 96
    assert Counter(t for t, _ in squares) == {"W": 26, "F": 22, "L": 18, "G": 14, "S": 10, "M": 6}


def test_39_crowns_per_terrain() -> None:
    crowns: Counter[str] = Counter()
    for terrain, count in halves():
        crowns[terrain] += count
    assert sum(crowns.values()) == 39
    assert crowns == {"W": 5, "F": 6, "L": 6, "G": 6, "S": 6, "M": 10}


def test_squares_by_crowns_and_the_only_three_crown_square() -> None:
    assert Counter(c for _, c in halves()) == {0: 66, 1: 22, 2: 7, 3: 1}
    assert load().domino_text(48) == "W0 M3"


def test_mines_on_six_dominoes_only() -> None:
    data = load()
    mine = data.code["M"]
    with_mine = [n for n in data.numbers() if mine in (data.terrain_a[n], data.terrain_b[n])]
    assert with_mine == [23, 40, 45, 46, 47, 48]


def test_domino_39_is_grassland_and_a_one_crown_swamp() -> None:
    assert load().domino_text(39) == "G0 S1"  # one public data set has S0 here: a bug


def test_an_override_file_replaces_one_domino(tmp_path: Path) -> None:
    override = tmp_path / "fix.toml"
    override.write_text('[dominoes]\n39 = "G0 S0"\n', encoding="utf-8")
    assert load([override]).domino_text(39) == "G0 S0"
    assert load().domino_text(39) == "G0 S1"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[dominoes]\n39 = "G0 X1"\n', "unknown terrain"),
        ('[dominoes]\n39 = "G0 S4"\n', "crowns must be 0 to 3"),
        ('[dominoes]\n39 = "G0"\n', "two squares"),
        ('[dominoes]\n50 = "G0 S1"\n', "numbered 1 to 50"),
        ("[extras]\n", "unknown section"),
        ("[dominoes\n", "not TOML"),
    ],
)
def test_a_bad_override_names_the_problem(tmp_path: Path, text: str, message: str) -> None:
    override = tmp_path / "bad.toml"
    override.write_text(text, encoding="utf-8")
    with pytest.raises(GameDataError, match=message):
        load([override])
