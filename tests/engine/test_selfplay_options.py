"""`castillo selfplay --option NAME=VALUE` and `--list-options`: every game's options, read from
its spec's schema (host/commands/selfplay_options.py); El Grande's flags are shorthands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import registry
from host.cli import main

SELF_PLAY_SETS = {"players", "mode", "seed"}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["selfplay", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def played_record(
    capsys: pytest.CaptureFixture[str], folder: Path, *argv: str, seed: int = 3
) -> dict[str, Any]:
    """One self-played game's record (exit 0 and a silent stderr checked)."""
    code, _, err = run(capsys, *argv, "--games", "1", "--seed", str(seed), "--record", str(folder))
    assert (code, err) == (0, "")
    loaded: dict[str, Any] = json.loads((folder / f"game-{seed:06d}.json").read_text("utf-8"))
    return loaded


def schema_names(game_id: str) -> list[str]:
    return [f["name"] for f in registry.get(game_id).options_schema()]


def test_el_caballero_extended_game_by_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = played_record(
        capsys, tmp_path, "--game", "elcaballero", "--players", "3", "--option", "extended=true"
    )
    assert record["options"]["extended"] is True
    assert record["options"]["catalogue"] == "synthetic"  # self-play's other values kept
    _, state = registry.replay(record)
    view = state.view()
    assert state.is_terminal() and view["rounds"] == 10  # the extended game's 10 rounds
    assert [p["governors_left"] <= 5 for p in view["players"]] == [True] * 3
    base = played_record(capsys, tmp_path / "base", "--game", "elcaballero", "--players", "3")
    assert base["options"]["extended"] is False
    assert registry.replay(base)[1].view()["rounds"] == 7


def test_kingdomino_variants_by_option_and_the_summary_names_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--game", "kingdomino", "--players", "2", "--option", "dynasty=yes"]
    argv += ["--option", "harmony=TRUE", "--option", "mighty_duel=1"]
    record = played_record(capsys, tmp_path, *argv)
    chosen = {k: record["options"][k] for k in ("dynasty", "harmony", "mighty_duel")}
    assert chosen == {"dynasty": True, "harmony": True, "mighty_duel": True}
    assert record["options"]["middle_kingdom"] is False
    assert registry.replay(record)[1].is_terminal()
    code, out, _ = run(capsys, *argv, "--games", "1", "--seed", "4", "--json")
    assert code == 0
    assert json.loads(out)["options"] == {"dynasty": True, "harmony": True, "mighty_duel": True}


@pytest.mark.parametrize(
    ("game_id", "name"),
    [
        (game_id, field["name"])
        for game_id in registry.ids()
        for field in registry.get(game_id).options_schema()
        if field["kind"] == "bool"
    ],
)
def test_every_yes_no_option_of_every_game_reaches_the_game(
    game_id: str, name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each true/false option of each schema, set against self-play's value, is in the game
    played (for some player count the game allows it: a 3-player rule needs 3 players)."""
    spec = registry.get(game_id)
    reached = []
    for players in spec.player_counts:
        flipped = not spec.options_to_json(spec.selfplay_options(players, None))[name]
        argv = ["--game", game_id, "--players", str(players), "--option", f"{name}={flipped}"]
        code, _, err = run(capsys, *argv, "--games", "1", "--seed", "1", "--record", str(tmp_path))
        if code == 2:  # refused by the game's own check for this player count: said in a line
            assert err.startswith("castillo: ") and err.count("\n") == 1, err
            continue
        assert (code, err) == (0, "")
        record = json.loads((tmp_path / "game-000001.json").read_text("utf-8"))
        reached.append(record["options"][name] is flipped)
    assert reached and all(reached)


def test_el_grande_flags_are_shorthands_for_its_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    by_flags = played_record(
        capsys,
        tmp_path / "flags",
        "--players",
        "3",
        "--short",
        "--new-regency",
        "--alternative",
        "veto",
        "--alternative",
        "rivalry",
        "--edition",
        "2023",
    )
    options = ["short_game=true", "new_regency=true", "alternatives=veto,rivalry", "edition=2023"]
    argv = [item for option in options for item in ("--option", option)]
    by_options = played_record(capsys, tmp_path / "options", "--players", "3", *argv)
    assert by_flags == by_options
    assert by_options["options"]["short_game"] is True
    assert by_options["options"]["alternatives"] == ["veto", "rivalry"]
    # an option with no flag of its own, through El Grande's fast path
    opened = played_record(capsys, tmp_path / "open", "--option", "open_power_cards=true")
    assert opened["options"]["open_power_cards"] is True
    # a flag and --option saying the same is fine; saying otherwise is refused
    same = played_record(capsys, tmp_path / "same", "--short", "--option", "short_game=true")
    assert same["options"]["short_game"] is True
    code, out, err = run(capsys, "--short", "--option", "short_game=false", "--games", "1")
    assert (code, out) == (2, "")
    assert err == "castillo: --option short_game: --short (a shorthand for it) says otherwise\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--game", "kingdomino", "--option", "dinasty=true"],
            "--option dinasty: not an option of Kingdomino (its options: dynasty, "
            "middle_kingdom, harmony, mighty_duel, wider_draft, three_player_four_per_line; "
            "see castillo selfplay --game kingdomino --list-options)",
        ),
        (
            ["--game", "elcaballero", "--option", "extended=maybe"],
            "--option extended=maybe: must be true or false",
        ),
        (
            ["--game", "elcaballero", "--option", "lake_ship=sometimes"],
            "--option lake_ship: one of buy, none",
        ),
        (
            ["--game", "elcaballero", "--option", "two_player_tie=all"],
            "--option two_player_tie: one of second, nothing",
        ),
        (
            ["--game", "kingdomino", "--option", "dynasty"],
            "--option dynasty: give NAME=VALUE (see castillo selfplay --game kingdomino "
            "--list-options)",
        ),
        (
            ["--game", "kingdomino", "--option", "seed=3"],
            "--option seed: set by self-play (--seed)",
        ),
        (
            ["--game", "elcaballero", "--option", "players=red,blue"],
            "--option players: set by self-play (--players)",
        ),
        (
            ["--game", "kingdomino", "--option", "dynasty=true", "--option", "dynasty=false"],
            "--option dynasty: given twice",
        ),
        (
            ["--game", "kingdomino", "--option", "mighty_duel=true"],
            "--option mighty_duel: the Mighty Duel is for 2 players only",
        ),
        (
            ["--game", "elcaballero", "--option", "short_game=true"],
            "--option short_game: not an option of El Caballero (its options: catalogue, "
            "catalogue_label, catalogue_cards, two_player_tie, automatic_reinforcements, "
            "second_area_optional, court_capacity, last_card_empties_court, "
            "remove_on_same_island, start_card_needs_land, extended, lake_ship, "
            "grande_ships_as_removal, grande_pays_its_price, grande_no_tie_everywhere, "
            "withdraw_grande_card; see castillo selfplay --game elcaballero --list-options)",
        ),
    ],
    ids=[
        "unknown-name",
        "not-a-bool",
        "lake-ship-value",
        "two-player-tie-value",
        "no-equals",
        "seed-reserved",
        "players-reserved",
        "twice",
        "game-refuses-combination",
        "another-games-option",
    ],
)
def test_unknown_names_and_bad_values_exit_2_with_the_valid_ones(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, *argv, "--games", "1", "--record", str(tmp_path / "games"))
    assert (code, out) == (2, "")
    assert err == f"castillo: {message}\n"
    assert not (tmp_path / "games").exists()  # refused before a game is played


@pytest.mark.parametrize("game_id", registry.ids())
def test_list_options_shows_the_games_schema(
    game_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = registry.get(game_id)
    code, out, err = run(capsys, "--game", game_id, "--list-options", "--json")
    assert (code, err) == (0, "")
    listed = json.loads(out)
    names = [field["name"] for field in listed["options"]]
    assert names == [n for n in schema_names(game_id) if n not in SELF_PLAY_SETS]
    assert set(listed["set_by_selfplay"]) == SELF_PLAY_SETS
    used = spec.options_to_json(spec.selfplay_options(4 if 4 in spec.player_counts else 2, None))
    assert all(field["selfplay"] == used[field["name"]] for field in listed["options"])
    code, text, _ = run(capsys, "--game", game_id, "--list-options")
    assert code == 0 and text.startswith(f"{spec.title}'s options (castillo selfplay --game ")
    assert all(any(line.split()[0] == n for line in text.splitlines()) for n in names)


def test_list_options_as_text_shows_values_defaults_and_shorthands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, text, _ = run(capsys, "--game", "elcaballero", "--list-options")
    rows = {line.split()[0]: line.split()[1:] for line in text.splitlines()[2:-1]}
    assert rows["extended"] == ["true", "or", "false", "false", "false"]
    assert rows["catalogue"] == ["text", '"synthetic"', '""']  # self-play's value, the default
    _, text, _ = run(capsys, "--list-options")
    assert any(
        line.split()[0] == "short_game" and "(also --short)" in line for line in text.split("\n")
    )


def test_help_lists_every_games_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["selfplay", "--help"])
    assert done.value.code == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--option NAME=VALUE" in help_text and "--list-options" in help_text
    for game_id in registry.ids():
        names = [n for n in schema_names(game_id) if n not in SELF_PLAY_SETS]
        assert f"--game {game_id}: {', '.join(names)}" in help_text
