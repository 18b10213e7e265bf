"""A record is checked where records are read (engine/core/record.py), so `castillo replay`,
POST /api/games/import and a saved game's restore all refuse the same records: players that do
not match the options, and a format or game version that is not a whole number this kit reads
(10**30, -1, true, 1.0). The API answers 400 `bad_record` with the reason."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engine import registry
from engine.core import record as core_record
from engine.core.errors import RecordError
from host.cli import main

GAMES = ("elgrande", "kingdomino", "elcaballero")


def short_record(game_id: str, players: int = 3, steps: int = 30) -> dict[str, Any]:
    """A dealer game of `players` seats, `steps` random legal actions in, as a record."""
    spec = registry.get(game_id)
    state = spec.new_state(spec.selfplay_options(players, 7))
    rng = random.Random(7)
    for _ in range(steps):
        if state.is_terminal():
            break
        player = rng.choice(state.current_players())
        legal = state.legal_actions(player)
        state.apply(legal[rng.randrange(len(legal))], player)
    return core_record.to_record(spec, state)


def with_players(record: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The record with a top-level "players" list (El Grande's records have one)."""
    bad = copy.deepcopy(record)
    bad["players"] = names
    return bad


def imported(client: TestClient, record: Any) -> tuple[int, dict[str, Any]]:
    answer = client.post("/api/games/import", json=record)
    return answer.status_code, answer.json()


def test_a_good_record_still_imports(client: TestClient) -> None:
    for game_id in GAMES:
        code, body = imported(client, short_record(game_id))
        assert code == 200, body


def test_import_refuses_players_that_do_not_match_the_options(client: TestClient) -> None:
    """The options say 4 players, the record lists 3 names: before, the top-level list won
    silently (El Grande) or was ignored (the other games)."""
    record = short_record("elgrande", players=4)
    three = record["options"]["players"][:3]
    code, body = imported(client, with_players(record, three))
    assert code == 400 and body["error"] == "bad_record", body
    assert "not the players of its options" in body["reason"]
    for game_id in ("kingdomino", "elcaballero"):
        record = short_record(game_id)
        code, body = imported(client, with_players(record, ["someone", "else"]))
        assert code == 400 and body["error"] == "bad_record", body
        assert "not the players of its options" in body["reason"]


def test_import_refuses_names_that_are_not_the_games(client: TestClient) -> None:
    record = short_record("elgrande")
    names = ["purple", "green", "zebra"]
    bad = with_players(record, names)
    bad["options"]["players"] = names
    code, body = imported(client, bad)
    assert code == 400 and body["error"] == "bad_record" and "zebra" in body["reason"], body


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("version", [10**30, 99, 0, -1, True, 1.0, "1", None])
def test_import_refuses_a_game_version_that_is_not_sane(
    client: TestClient, game_id: str, version: Any
) -> None:
    record = dict(short_record(game_id), game_version=version)
    code, body = imported(client, record)
    assert code == 400 and body["error"] == "bad_record", body
    assert "version" in body["reason"] and len(body["reason"]) < 200, body


@pytest.mark.parametrize("version", [2.0, True, 10**30])
def test_the_format_version_is_a_whole_number(client: TestClient, version: Any) -> None:
    record = dict(short_record("kingdomino"), version=version)
    code, body = imported(client, record)
    assert code == 400 and body["error"] == "bad_record", body
    assert "unsupported record version" in body["reason"]


def test_the_engine_refuses_them_on_every_path() -> None:
    """The same checks for `registry.replay` (the API, the CLI) and `core_record.replay` (a
    saved game restored)."""
    record = short_record("elgrande", players=4)
    bad = with_players(record, record["options"]["players"][:3])
    with pytest.raises(RecordError, match="not the players of its options"):
        registry.replay(bad)
    spec, current = registry.spec_of_record(dict(record, game_version=10**30))
    with pytest.raises(RecordError, match="version 1000"):
        core_record.replay(spec, current)


def test_castillo_replay_refuses_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = short_record("kingdomino")
    for bad in (with_players(record, ["pink"]), dict(record, game_version=-1)):
        path = tmp_path / "record.json"
        path.write_text(json.dumps(bad), encoding="utf-8")
        assert main(["replay", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err, err
