"""Records written by earlier versions replay to the same result.

`fixtures/records_v1/` holds records made by the engine at 6ca1cf6 (format version 1) and, beside
each, the summary and the full snapshot (options left out) that engine computed. Every later
version must replay them to exactly that (their cards too: game version 1's card set, "v1").
One deliberate change: the 2-player dummy is no longer in the summary's scores and standings
(issue 11: "the dummy is no player").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.elgrande.record import from_record, summary, to_record
from host.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "records_v1"
NAMES = sorted(
    p.name.removesuffix(".json") for p in FIXTURES.glob("*.json") if ".expected" not in p.name
)


def _read(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


# Presentation fields added to each scored area after the fixtures were made (its ASCII token
# and the reasons as translation keys): the result itself is compared field by field.
ADDED_AREA_FIELDS = ("token", "why")
# Public facts added to the view after the fixtures were made (issue 11, what Board Game Arena
# players expect): the action cards taken this round and the revealed discs.
ADDED_VIEW_FIELDS = ("taken", "disc_reveals")


def _as_made_then(value: Any) -> Any:
    """`value` without the area fields the fixtures predate."""
    if isinstance(value, dict):
        drop = ADDED_AREA_FIELDS if "area" in value and "counts" in value else ()
        return {k: _as_made_then(v) for k, v in value.items() if k not in drop}
    if isinstance(value, list):
        return [_as_made_then(v) for v in value]
    return value


def test_there_are_fixtures() -> None:
    assert len(NAMES) >= 4


@pytest.mark.parametrize("name", NAMES)
def test_a_version_1_record_replays_to_the_same_result(name: str) -> None:
    record = _read(FIXTURES / f"{name}.json")
    expected = _read(FIXTURES / f"{name}.expected.json")
    game = from_record(record)
    assert _as_made_then(json.loads(json.dumps(summary(game)))) == expected["summary"]
    snapshot = game.snapshot()
    snapshot.pop("options", None)
    for key in ADDED_VIEW_FIELDS:
        snapshot.pop(key, None)
    assert _as_made_then(json.loads(json.dumps(snapshot))) == expected["snapshot"]


@pytest.mark.parametrize("name", NAMES)
def test_castillo_replay_reads_a_version_1_record(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(FIXTURES / f"{name}.json"), "--json"]) == 0
    expected = _read(FIXTURES / f"{name}.expected.json")
    assert _as_made_then(json.loads(capsys.readouterr().out)) == expected["summary"]


def test_a_version_1_record_rewritten_as_version_2_replays_the_same() -> None:
    name = NAMES[0]
    game = from_record(_read(FIXTURES / f"{name}.json"))
    record = to_record(game)
    assert record["version"] == 2 and record["game"] == "elgrande"
    assert "overrides" not in record["options"]
    again = from_record(json.loads(json.dumps(record)))
    assert again.snapshot() == game.snapshot()
