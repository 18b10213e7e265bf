"""Issue 9, engine side: dealer draws nobody can predict, and no option that names a host file.

An unseeded dealer game draws its chance outcomes from the system's unpredictable source (a
31-bit seed driving a Mersenne Twister was recovered from the public set-up draws); the record
keeps every outcome, so replay never draws. Override files reach the engine only from the
command line: options from a client or a record cannot carry them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.elgrande.bots import random_game
from engine.elgrande.errors import RecordError
from engine.elgrande.game import CHANCE, Game, Options
from engine.elgrande.record import from_record, to_record
from host.cli import main

OVERRIDE = """
[[region]]
name = "Toledo"
values = [9, 4, 2]
"""


def chance_steps(game: Game) -> list[str]:
    return [str(action) for player, action in game.history if player == CHANCE]


def test_the_default_is_no_seed() -> None:
    assert Options().seed is None


def test_two_unseeded_dealer_games_are_dealt_differently() -> None:
    first = Game(Options(mode="dealer"))
    second = Game(Options(mode="dealer"))
    # The set-up draws: first player, the King's region and 4 home regions. Equal by chance in
    # fewer than 1 in 4 * 10 * 9 * 8 * 7 * 6 deals.
    assert chance_steps(first) != chance_steps(second)


def test_a_seed_given_explicitly_reproduces_the_game() -> None:
    options = Options(mode="dealer", seed=12345, short_game=True)
    first, second = random_game(options), random_game(options)
    assert first.history == second.history
    assert first.state.scores == second.state.scores


def test_an_unseeded_dealer_game_replays_from_its_record() -> None:
    game = random_game(Options(mode="dealer", short_game=True))
    record = json.loads(json.dumps(to_record(game)))
    assert record["options"]["seed"] is None
    replayed = from_record(record)
    assert replayed.history == game.history
    assert replayed.snapshot() == game.snapshot()


def test_a_resumed_unseeded_game_keeps_dealing() -> None:
    """Cut mid-game and restored, an unseeded dealer game draws the next outcomes itself."""
    game = Game(Options(mode="dealer"))
    while game.state.round_number == 1:
        player = game.current_players()[0]
        game.apply(game.legal_actions(player)[0], player)
    cut = json.loads(json.dumps(to_record(game)))
    resumed = from_record(cut)
    assert resumed.current_players() != (CHANCE,)
    assert resumed.history == game.history


@pytest.mark.parametrize("overrides", [["/etc/passwd"], ["pyproject.toml"], "/dev/zero"])
def test_options_from_json_refuse_override_files(overrides: object) -> None:
    with pytest.raises(ValueError, match="'overrides': cannot be an option"):
        Options.from_json({"players": ["purple", "green"], "overrides": overrides})


def test_a_record_naming_override_files_is_refused() -> None:
    record = json.loads(json.dumps(to_record(Game(Options(mode="dealer", seed=1)))))
    record["options"]["overrides"] = ["/dev/ptmx"]
    with pytest.raises(RecordError, match="'overrides': cannot be an option"):
        from_record(record)


def test_records_of_earlier_versions_with_no_override_file_still_load() -> None:
    record = json.loads(json.dumps(to_record(Game(Options(mode="dealer", seed=1)))))
    record["options"]["overrides"] = []  # what every record written before carried
    assert from_record(record).history == Game(Options(mode="dealer", seed=1)).history


def test_the_command_line_passes_override_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    override = tmp_path / "toledo.toml"
    override.write_text(OVERRIDE, encoding="utf-8")
    games = tmp_path / "games"
    selfplay = ["selfplay", "--games", "1", "--seed", "3", "--short", "--json"]
    code = main([*selfplay, "--record", str(games), "--override", str(override)])
    assert code == 0
    capsys.readouterr()
    record = games / "game-000003.json"
    assert "overrides" not in json.loads(record.read_text(encoding="utf-8"))["options"]
    assert main(["replay", str(record), "--json", "--override", str(override)]) == 0
    with_override = json.loads(capsys.readouterr().out)
    assert main(["replay", str(record), "--json"]) == 0
    without = json.loads(capsys.readouterr().out)
    toledo = [
        area["values"]
        for scoring in with_override["scorings"]
        for area in scoring["areas"]
        if area["area"] == "Toledo"
    ]
    assert any(values[0] == 9 for values in toledo)  # 7 in the shipped data
    assert without["scorings"] != with_override["scorings"]
