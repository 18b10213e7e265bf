"""`castillo selfplay --game ID` and `castillo replay` for games other than El Grande."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import registry
from engine.core import record as core_record
from host.cli import main

OTHER_GAMES = [game_id for game_id in registry.ids() if game_id != registry.DEFAULT]
SEATINGS = [(game_id, n) for game_id in OTHER_GAMES for n in registry.get(game_id).player_counts]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_every_registered_game_is_covered() -> None:
    assert {"kingdomino", "elcaballero"} <= set(OTHER_GAMES)


@pytest.mark.parametrize(("game_id", "players"), SEATINGS)
def test_selfplay_records_replay_to_the_same_scores(
    game_id: str, players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = tmp_path / "games"
    argv = ["selfplay", "--game", game_id, "--players", str(players), "--games", "2"]
    code, out, err = run(capsys, *argv, "--seed", "7", "--record", str(games), "--json")
    assert (code, err) == (0, "")
    summary = json.loads(out)
    assert summary["game"] == game_id and summary["games"] == 2
    assert len(summary["wins_or_shared"]) == players
    assert 2 <= sum(summary["wins_or_shared"].values()) <= 2 * players  # ties share a win
    assert sorted(p.name for p in games.iterdir()) == ["game-000007.json", "game-000008.json"]

    record = json.loads((games / "game-000007.json").read_text("utf-8"))
    assert record["game"] == game_id and record["options"]["seed"] == 7
    _, state = registry.replay(record)
    assert state.is_terminal()
    scores = dict(zip(state.seat_names(), state.returns(), strict=True))

    code, out, err = run(capsys, "replay", str(games / "game-000007.json"), "--json")
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert result["game"] == game_id and result["finished"] is True
    assert result["scores"] == scores
    best = max(scores.values())
    assert all(
        (place == 1) == (scores[name] == best) for name, place in result["standings"].items()
    )

    code, out, _ = run(capsys, "replay", str(games / "game-000007.json"))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"{registry.get(game_id).title}, final scores:"
    shown = [line.split() for line in lines[1:]]
    assert [int(score) for _, _, score in shown] == sorted(scores.values(), reverse=True)
    assert {name: int(score) for _, name, score in shown} == scores


@pytest.mark.parametrize("game_id", OTHER_GAMES)
def test_a_seed_reproduces_the_games(
    game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = []
    for attempt in ("a", "b"):
        argv = ["selfplay", "--game", game_id, "--games", "1", "--seed", "3"]
        assert run(capsys, *argv, "--record", str(tmp_path / attempt))[0] == 0
        records.append(json.loads((tmp_path / attempt / "game-000003.json").read_text("utf-8")))
    assert records[0] == records[1]
    assert len(records[0]["actions"]) > 10


def test_an_unfinished_record_shows_the_standings_so_far(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = registry.get("kingdomino")
    argv = ["selfplay", "--game", "kingdomino", "--games", "1", "--seed", "5"]
    assert run(capsys, *argv, "--record", str(tmp_path))[0] == 0
    record: dict[str, Any] = json.loads((tmp_path / "game-000005.json").read_text("utf-8"))
    # the first half of the actions in table mode: the game waits for its next step
    record["actions"] = record["actions"][: len(record["actions"]) // 2]
    record["options"]["mode"] = "table"
    partial = core_record.replay(spec, record)
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(record), "utf-8")
    code, out, _ = run(capsys, "replay", str(path), "--json")
    assert code == 0
    result = json.loads(out)
    assert result["finished"] is False
    assert list(result["scores"].values()) == partial.returns()
    code, out, _ = run(capsys, "replay", str(path))
    assert out.startswith("Kingdomino, unfinished game, scores:")


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--edition", "1995"], "--edition"),
        (["--short", "--power-shift"], "--short, --power-shift"),
        (["--alternative", "veto"], "--alternative"),
    ],
)
def test_el_grande_flags_are_refused_for_another_game(
    extra: list[str], named: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "selfplay", "--game", "kingdomino", "--games", "1", *extra)
    assert (code, out) == (2, "")
    assert err == f"castillo: {named}: not options of Kingdomino\n"


def test_data_overrides_are_refused_for_a_game_without_data_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["selfplay", "--game", "elcaballero", "--games", "1", "--override", "x.toml"]
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert err == "castillo: --override is for a game's data files; El Caballero has none\n"


def test_a_player_count_the_game_does_not_have_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "selfplay", "--game", "elcaballero", "--players", "5")
    assert code == 2
    assert err == "castillo: El Caballero is for 2, 3 or 4 players, not 5\n"
    code, _, err = run(capsys, "selfplay", "--players", "6")
    assert code == 2
    assert err == "castillo: El Grande is for 2, 3, 4 or 5 players, not 6\n"


def test_an_unknown_game_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["selfplay", "--game", "chess"])
    assert exit_.value.code == 2
    assert "invalid choice: 'chess'" in capsys.readouterr().err
