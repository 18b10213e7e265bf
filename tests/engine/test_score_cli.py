"""`castillo score FILE`: scoring a JSON position from the command line (docs/score-input.md)."""

from __future__ import annotations

import copy
import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import registry
from host.cli import main
from host.commands.game import random_play

BRIEF_EXAMPLE: dict[str, Any] = {
    "edition": "2023",
    "players": ["purple", "green", "blue", "orange"],
    "king": "Granada",
    "grandes": {"purple": "Granada", "green": "Navarra"},
    "regions": {"Galicia": {"orange": 4, "blue": 3, "purple": 2, "green": 1}},
    "castillo": {"purple": 3, "blue": 2, "orange": 1},
    "tiles": {"Toledo": "4-0-0"},
    "discs": {"purple": "Granada", "blue": "Sevilla", "orange": "Castilla"},
    "scoring": "general",
}
REPO = Path(__file__).resolve().parents[2]


def run(
    position: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, Any, str]:
    """Run `castillo score` on a position; returns (exit code, parsed stdout or None, stderr)."""
    path = tmp_path / "position.json"
    text = position if isinstance(position, str) else json.dumps(position)
    path.write_text(text, encoding="utf-8")
    code = main(["score", *extra, str(path)])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else None), err


def by_area(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {area["area"]: area for area in result["areas"]}


def test_general_scoring_of_the_documented_example(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, result, err = run(BRIEF_EXAMPLE, tmp_path, capsys)
    assert (code, err) == (0, "")
    areas = by_area(result)
    assert result["areas"][0]["area"] == "castillo"
    assert areas["castillo"]["points"] == {"purple": 5, "blue": 3, "orange": 1}
    # Purple's disc shows the King's region: back to court. The others move to their regions.
    assert result["castillo_moves"] == {
        "purple": {"count": 3, "to": "court", "why": "disc shows the King's region"},
        "blue": {"count": 2, "to": "Sevilla"},
        "orange": {"count": 1, "to": "Castilla"},
    }
    assert areas["Granada"]["counts"] == {}
    assert areas["Sevilla"]["points"] == {"blue": 4}
    assert areas["Castilla"]["points"] == {"orange": 6}
    assert areas["Galicia"]["points"] == {"orange": 4, "blue": 2, "purple": 0, "green": 0}
    assert areas["Toledo"]["values"] == [4, 0, 0] and areas["Toledo"]["tile"] == "4-0-0"
    assert result["totals"] == {"purple": 5, "green": 0, "blue": 9, "orange": 11}


def test_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(BRIEF_EXAMPLE)))
    assert main(["score", "--compact", "-"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert json.loads(out)["totals"]["orange"] == 11


def test_missing_and_ambiguous_discs_send_caballeros_to_court(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = {**BRIEF_EXAMPLE, "discs": {"purple": "Toledo", "blue": "?"}}
    code, result, _ = run(position, tmp_path, capsys)
    assert code == 0
    moves = result["castillo_moves"]
    assert moves["purple"] == {"count": 3, "to": "Toledo"}
    assert moves["blue"]["to"] == "court" and moves["blue"]["why"] == "disc set ambiguously"
    assert moves["orange"]["to"] == "court" and moves["orange"]["why"] == "no disc"
    toledo = by_area(result)["Toledo"]
    assert toledo["counts"] == {"purple": 3} and toledo["points"] == {"purple": 4}


def test_chosen_regions_any_names_and_the_kings_region(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = {
        "players": ["PURPLE", "Green", "blue", "orange"],
        "king": "granada",
        "grandes": {"purple": "Granada"},
        "regions": {"Granada": {"purple": 3, "orange": 1, "green": 1}, "Cataluna": {"blue": 1}},
        "scoring": {"regions": ["GRANADA", "Cataluña"]},
    }
    code, result, _ = run(position, tmp_path, capsys)
    assert code == 0
    assert [a["area"] for a in result["areas"]] == ["Granada", "Cataluña"]
    assert result["areas"][0]["bonus"] == {"purple": 4}
    assert result["totals"] == {"purple": 10, "green": 1, "blue": 4, "orange": 1}


def test_castillo_scoring_with_a_tile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = {**BRIEF_EXAMPLE, "tiles": {"castillo": "8-4-0"}, "scoring": {"castillo": True}}
    code, result, _ = run(position, tmp_path, capsys)
    assert code == 0
    assert [a["area"] for a in result["areas"]] == ["castillo"]
    assert result["areas"][0]["points"] == {"purple": 8, "blue": 4, "orange": 0}
    assert "castillo_moves" not in result


CARD_BOARD = {
    "Galicia": {"purple": 1},
    "Navarra": {"green": 2, "blue": 2},
    "Aragon": {"orange": 3, "purple": 1},
    "Cataluna": {"blue": 1},
    "Castilla": {"green": 4, "orange": 4},
    "Toledo": {"purple": 6, "blue": 2},
    "Valencia": {"orange": 2},
}


@pytest.mark.parametrize(
    ("edition", "card", "areas"),
    [
        ("2023", "fiesta", ["Navarra", "Aragón", "Valencia"]),
        ("2023", "outposts", ["Galicia", "Cataluña", "Sevilla"]),
        ("2023", "score-6-7", ["Castilla", "Toledo", "Granada"]),
        ("2023", "fewest", ["Galicia", "Cataluña"]),
        ("2023", "revelation", ["castillo"]),
        ("1995", "95-most", ["Castilla", "Toledo"]),
        ("1995", "95-fewest", ["Galicia", "Cataluña"]),
        ("1995", "95-first-only", [r for r in CARD_BOARD] + ["Sevilla", "Granada"]),
    ],
)
def test_card_scorings(
    edition: str,
    card: str,
    areas: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    colours = {
        "2023": ["purple", "green", "blue", "orange"],
        "1995": ["yellow", "red", "green", "blue"],
    }
    rename = dict(zip(colours["2023"], colours[edition], strict=True))
    board = {r: {rename[c]: n for c, n in counts.items()} for r, counts in CARD_BOARD.items()}
    position = {
        "edition": edition,
        "players": colours[edition],
        "king": "Sevilla",
        "regions": board,
        "castillo": {colours[edition][0]: 2},
        "scoring": card,
    }
    code, result, err = run(position, tmp_path, capsys)
    assert code == 0, err
    names = {"Aragon": "Aragón", "Cataluna": "Cataluña"}
    assert sorted(a["area"] for a in result["areas"]) == sorted(names.get(a, a) for a in areas)
    if card == "95-first-only":
        scored = by_area(result)
        assert scored["Castilla"]["points"] == {"red": 0, "blue": 0}  # a tie scores nothing
        assert scored["Toledo"]["points"] == {"yellow": 7, "green": 0}


def test_two_or_three_players_score_two_places(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = {
        "players": ["purple", "green", "blue"],
        "king": "Toledo",
        "regions": {"Galicia": {"purple": 3, "green": 2, "blue": 1}},
        "castillo": {"purple": 1, "green": 2, "blue": 3},
        "scoring": {"regions": ["Galicia", "castillo"]},
    }
    code, result, _ = run(position, tmp_path, capsys)
    assert code == 0 and result["places"] == 2
    galicia, castillo = result["areas"]
    assert galicia["points"] == {"purple": 4, "green": 2, "blue": 0}
    assert castillo["points"] == {"blue": 5, "green": 3, "purple": 0}


def test_a_tile_may_lie_in_the_kings_region(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A tile is never put into the King's region, but the King may move onto a tile; it stays.
    position = {**BRIEF_EXAMPLE, "tiles": {"Galicia": "8-4-0"}, "king": "Galicia"}
    position["scoring"] = {"regions": ["Galicia"]}
    code, result, _ = run(position, tmp_path, capsys)
    assert code == 0
    galicia = result["areas"][0]
    assert galicia["points"] == {"orange": 8, "blue": 4, "purple": 0, "green": 0}
    assert galicia["bonus"] == {"orange": 2}
    assert any("tile" in note for note in galicia["notes"])


def test_two_player_game_with_a_dummy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = {
        "players": ["purple", "green"],
        "dummy": "blue",
        "king": "Toledo",
        "regions": {"Castilla": {"blue": 4, "purple": 2, "green": 1}},
        "scoring": {"regions": ["Castilla"]},
    }
    code, result, _ = run(position, tmp_path, capsys)
    assert code == 0 and result["dummy"] == "blue" and result["places"] == 2
    castilla = result["areas"][0]
    # The dummy takes first place (and its 6 points vanish); purple scores second place.
    assert castilla["ranks"] == {"blue": 1, "purple": 2, "green": 3}
    assert castilla["points"] == {"purple": 4, "green": 0}
    assert result["totals"] == {"purple": 4, "green": 0}
    general = {**position, "castillo": {"blue": 2, "purple": 1}, "discs": {"purple": "Galicia"}}
    general["scoring"] = "general"
    code, result, _ = run(general, tmp_path, capsys)
    assert code == 0
    assert result["castillo_moves"]["blue"]["to"] == "province"  # the dummy sets no disc
    assert result["areas"][0]["points"] == {"purple": 3}  # blue first, purple second (3)


def test_new_regency_king_at_the_castillo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Revolt: the castillo is the King's region; its caballeros go back inside, not to regions.
    code, result, _ = run({**BRIEF_EXAMPLE, "king": "castillo"}, tmp_path, capsys)
    assert code == 0
    castillo = by_area(result)["castillo"]
    assert castillo["points"] == {"purple": 5, "blue": 3, "orange": 1}
    assert castillo["bonus"] == {"purple": 2}
    assert {m["to"] for m in result["castillo_moves"].values()} == {"castillo"}
    assert by_area(result)["Sevilla"]["counts"] == {}
    assert all(not a["bonus"] for a in result["areas"][1:])


def test_new_regency_king_in_france_gives_no_king_bonus(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, result, _ = run({**BRIEF_EXAMPLE, "king": "France"}, tmp_path, capsys)
    assert code == 0
    assert result["castillo_moves"]["purple"] == {"count": 3, "to": "Granada"}
    granada = by_area(result)["Granada"]
    assert granada["points"] == {"purple": 6} and granada["bonus"] == {"purple": 2}  # Grande only


def test_new_regency_grande_thrown_into_the_castillo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Tournament: a Grande in the castillo can win its bonus there, then leaves with its
    # owner's caballeros by the disc.
    position = {
        **BRIEF_EXAMPLE,
        "king": "Toledo",
        "tiles": {},
        "grandes": {"purple": "castillo", "blue": "castillo"},
        "discs": {"purple": "Granada", "blue": "Toledo", "orange": "Castilla"},
    }
    code, result, _ = run(position, tmp_path, capsys)
    assert code == 0
    areas = by_area(result)
    assert areas["castillo"]["bonus"] == {"purple": 2}
    assert result["castillo_moves"]["purple"] == {"count": 3, "to": "Granada", "grande": "Granada"}
    assert result["castillo_moves"]["blue"]["grande"] == "castillo"  # disc on the King: court
    assert areas["Granada"]["bonus"] == {"purple": 2}


def _with(**changes: Any) -> dict[str, Any]:
    position = copy.deepcopy(BRIEF_EXAMPLE)
    for key, value in changes.items():
        if value is None:
            del position[key]
        else:
            position[key] = value
    return position


BAD_INPUT: dict[str, tuple[Any, str]] = {
    "unknown-region": (
        _with(regions={"Atlantis": {"blue": 1}}),
        "regions.Atlantis: unknown region",
    ),
    "unknown-colour": (_with(regions={"Galicia": {"pink": 1}}), "regions.Galicia.pink"),
    "colour-not-playing": (_with(castillo={"red": 1}), "castillo.red: 'red' is not a colour"),
    "negative": (_with(castillo={"blue": -2}), "castillo.blue: a count must not be negative"),
    "fraction": (_with(castillo={"blue": 1.5}), "castillo.blue: a count must be a whole number"),
    "too-many": (
        _with(regions={"Galicia": {"blue": 20}, "Toledo": {"blue": 9}}),
        "blue has 31 caballeros on the board and in the castillo, but a colour owns only 30",
    ),
    "unknown-tile": (_with(tiles={"Toledo": "9-9-9"}), "tiles.Toledo: unknown scoring tile"),
    "tile-twice": (
        _with(tiles={"Toledo": "4-0-0", "Sevilla": "4-0-0"}),
        "tiles.Sevilla: tile 4-0-0 lies in two places",
    ),
    "region-twice": (
        _with(regions={"Aragon": {"blue": 1}, "Aragón": {"blue": 1}}),
        "regions.Aragón: the same area as 'Aragon'",
    ),
    "king-unknown": (_with(king="Madrid"), "king: unknown region 'Madrid'"),
    "disc-france": (_with(discs={"blue": "France"}), "discs.blue: unknown region 'France'"),
    "disc-castillo": (_with(discs={"blue": "castillo"}), "discs.blue: the castillo is not"),
    "grande-unknown": (_with(grandes={"blue": "Madrid"}), "grandes.blue: unknown region"),
    "unknown-field": (_with(grande={"blue": "Toledo"}), "grande: unknown field"),
    "no-players": (_with(players=None), "players: required field is missing"),
    "one-player": (_with(players=["purple"]), "players: must list 2 to 5 colours"),
    "same-colour": (_with(players=["purple", "Purple"]), "players: each player needs"),
    "edition": (_with(edition="2000"), "edition: must be one of 2023, 1995"),
    "1995-colour": (_with(edition="1995"), "players[0]: unknown colour 'purple'"),
    "dummy-with-4": (_with(dummy="red"), "dummy: only the 2-player game"),
    "dummy-disc": (
        _with(players=["purple", "green"], dummy="blue", regions={}, castillo={}),
        "discs.blue: the dummy sets no disc",
    ),
    "dummy-a-player": (
        _with(players=["purple", "green"], dummy="green", regions={}, castillo={}, discs={}),
        "dummy: green is a player's colour",
    ),
    "choice-card": (_with(scoring="fair"), 'describe it as {"regions": ["<region>"]}'),
    "not-scoring-card": (_with(scoring="coup"), "card 'coup' (Coup) does not score anything"),
    "other-edition-card": (_with(scoring="95-most"), 'set "edition": "1995"'),
    "unknown-scoring": (_with(scoring="everything"), "unknown scoring 'everything'"),
    "empty-regions": (_with(scoring={"regions": []}), "scoring.regions: must be a non-empty"),
    "scoring-region": (_with(scoring={"regions": ["Rome"]}), "scoring.regions[0]: unknown region"),
    "rivalry-discs": (_with(scoring="rivalry"), "rivalry needs every player's disc"),
    "not-json": ("{players: [}", "FILE: "),
    "not-object": ("[1, 2]", "the position must be a JSON object"),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUT))
def test_bad_input_names_the_field_and_exits_2(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position, expected = BAD_INPUT[case]
    code, result, err = run(position, tmp_path, capsys)
    assert code == 2 and result is None
    assert err.startswith("castillo score: error: ")
    assert expected in err
    assert "Traceback" not in err and err.count("\n") == 1


def test_missing_file_and_bad_override(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(tmp_path / "absent.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    override = tmp_path / "bad.toml"
    override.write_text("[[card]]\nid = 'x'\ndeck = 9\nplace = 1\n", encoding="utf-8")
    code, _, err = run(BRIEF_EXAMPLE, tmp_path, capsys, "--override", str(override))
    assert code == 2 and "card x: deck must be 1..5" in err


def test_the_installed_command_exits_2_without_a_traceback() -> None:
    bad = json.dumps(_with(castillo={"blue": -1}))
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", "score", "-"],
        input=bad,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert (
        done.stderr
        == "castillo score: error: castillo.blue: a count must not be negative, got -1\n"
    )
    good = subprocess.run(
        [sys.executable, "-m", "host.cli", "score", "-"],
        input=json.dumps(BRIEF_EXAMPLE),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )
    assert good.returncode == 0 and json.loads(good.stdout)["totals"]["blue"] == 9


def test_the_game_is_chosen_by_flag_or_by_the_input_and_el_grande_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, by_default, _ = run(BRIEF_EXAMPLE, tmp_path, capsys)
    assert code == 0
    code, by_flag, _ = run(BRIEF_EXAMPLE, tmp_path, capsys, "--game", "elgrande")
    assert code == 0 and by_flag == by_default
    code, by_field, _ = run({**BRIEF_EXAMPLE, "game": "el-grande"}, tmp_path, capsys)
    assert code == 0 and by_field == by_default


def test_an_unknown_game_or_a_game_the_input_contradicts_exits_2_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(BRIEF_EXAMPLE, tmp_path, capsys, "--game", "chess")
    assert (code, out) == (2, None) and "unknown game 'chess'" in err
    code, out, err = run({**BRIEF_EXAMPLE, "game": "chess"}, tmp_path, capsys, "--game", "elgrande")
    assert (code, out) == (2, None) and "a 'chess' position, not 'elgrande'" in err


# El Caballero: the "extended" field (docs/elcaballero-score.md). A Grande and Governors are
# pieces of the extended game; a base-game position holding one is refused, naming it and where.
CABALLERO_BASE: dict[str, Any] = {
    "game": "elcaballero",
    "players": ["red", "blue"],
    "areas": [
        {"cell": "0,0", "card": "LNESW"},
        {"cell": "1,-1", "card": "LNESW"},
        {"cell": "3,0", "card": "LE+SNSW"},
        {"cell": "4,0", "card": "LWg1+SNES"},
    ],
    "caballeros": [{"cell": "0,1", "owner": "blue", "side": "back"}],
}
RED_GRANDE = {"cell": "1,0", "owner": "red", "grande": True}  # touches both islands
BLUE_GOVERNOR = {"cell": "3,0", "region": 0, "owner": "blue"}  # the closed island 3,0-4,0


@pytest.mark.parametrize("extended", [None, False])
def test_el_caballero_base_position_refuses_a_grande_naming_its_owner_and_cell(
    extended: bool | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = {**CABALLERO_BASE, "caballeros": [*CABALLERO_BASE["caballeros"], RED_GRANDE]}
    if extended is not None:
        position["extended"] = extended
    code, result, err = run(position, tmp_path, capsys)
    assert (code, result) == (2, None)
    assert err == (
        "castillo score: error: cell 1,0: red's Grande is a piece of the extended game, and "
        'this is a base-game position (set "extended": true to score it)\n'
    )


@pytest.mark.parametrize("extended", [None, False])
def test_el_caballero_base_position_refuses_a_governor_naming_its_owner_and_cell(
    extended: bool | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = {**CABALLERO_BASE, "governors": [BLUE_GOVERNOR]}
    if extended is not None:
        position["extended"] = extended
    code, result, err = run(position, tmp_path, capsys)
    assert (code, result) == (2, None)
    assert err == (
        "castillo score: error: cell 3,0: blue's Governor is a piece of the extended game, and "
        'this is a base-game position (set "extended": true to score it)\n'
    )


def test_el_caballero_extended_position_scores_the_grande_and_the_governor(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = {
        **CABALLERO_BASE,
        "extended": True,
        "caballeros": [*CABALLERO_BASE["caballeros"], RED_GRANDE],
        "governors": [BLUE_GOVERNOR],
    }
    code, result, err = run(position, tmp_path, capsys)
    assert (code, err) == (0, "")
    assert result["extended"] is True
    # red's Grande card (front, unturned: 1 2 3 4 from north) counts W (4) on the island at
    # 0,0 and N (1) on the one at 1,-1; blue's back card at 0,1 puts 5 on 0,0 (its north).
    islands = {tuple(r["cards"]): r for r in result["regions"] if r["type"] == "land"}
    assert islands[("0,0",)]["caballeros"] == {"red": 4, "blue": 5}
    assert islands[("1,-1",)]["points"] == {"red": 2}
    # the closed island 3,0-4,0 (2 cards, 1 gold) with blue's Governor: 2 x (2 + 1)
    assert islands[("3,0", "4,0")]["points"] == {"blue": 6}
    assert result["totals"] == {"red": 2, "blue": 2 + 6}
    # the same map without the extended pieces is a base-game position
    code, base, _ = run({**CABALLERO_BASE, "extended": False}, tmp_path, capsys)
    assert code == 0 and base["extended"] is False and base["totals"] == {"red": 0, "blue": 2}


@pytest.mark.parametrize("value", ["yes", 1, None, []])
def test_el_caballero_extended_is_true_or_false(
    value: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, result, err = run({**CABALLERO_BASE, "extended": value}, tmp_path, capsys)
    assert (code, result) == (2, None)
    assert err == (
        "castillo score: error: extended: true (the extended game) or false (the base game)\n"
    )


def _caballero_final_position(extended: bool, seed: int) -> tuple[dict[str, Any], Any]:
    """A random El Caballero game played to its end, its map as a position, and its last
    scoring (nothing moves after the last scoring)."""
    spec = registry.get("elcaballero")
    options = spec.options_from_json(
        {
            "players": ["red", "blue", "green"],
            "mode": "dealer",
            "seed": seed,
            "catalogue": "synthetic",
            "extended": extended,
        }
    )
    state = spec.new_state(options)
    random_play(state, random.Random(seed))
    view = state.view()
    pieces = ("cell", "owner", "side", "rotation", "ships", "castillo", "grande")
    position = {
        "game": "elcaballero",
        "players": [player["colour"] for player in view["players"]],
        "extended": extended,
        "areas": [{k: a[k] for k in ("cell", "card", "rotation")} for a in view["areas"]],
        "caballeros": [{k: c[k] for k in pieces} for c in view["caballeros"]],
        "governors": [
            {k: g[k] for k in ("cell", "region", "owner", "ship")} for g in view["governors"]
        ],
    }
    return position, view["scorings"][-1]


def _by_cards(regions: list[dict[str, Any]]) -> dict[tuple[str, ...], dict[str, Any]]:
    """Regions by their cards (the numbers follow the order the map was built in)."""
    return {tuple(r["cards"]): {k: v for k, v in r.items() if k != "region"} for r in regions}


@pytest.mark.parametrize("extended", [True, False])
def test_el_caballero_positions_score_the_engines_final_maps_as_the_engine_did(
    extended: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grandes = governors = 0
    for seed in range(4):
        position, scoring = _caballero_final_position(extended, seed)
        grandes += sum(c["grande"] for c in position["caballeros"])
        governors += len(position["governors"])
        code, result, err = run(position, tmp_path, capsys)
        assert (code, err) == (0, ""), seed
        assert result["totals"] == scoring["totals"], seed
        assert _by_cards(result["regions"]) == _by_cards(scoring["regions"]), seed
    if extended:  # the extended games' maps hold the extended pieces, scored like the engine
        assert grandes > 0 and governors > 0
    else:
        assert grandes == governors == 0


def test_el_caballero_an_extended_map_is_refused_as_a_base_game_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position, _ = _caballero_final_position(True, 1)
    del position["extended"]
    code, result, err = run(position, tmp_path, capsys)
    assert (code, result) == (2, None)
    assert "is a piece of the extended game, and this is a base-game position" in err
