"""The tower's restart window at the table (issue 21): when the link reports that the firmware
was not counting for a while, a game with throw checks asks the table to check the castillo
(a cube thrown then may be missing from the tower's count). The question names the interval,
is logged (it survives a restart), blocks play until the table answers, and is asked once."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from host.app.server import Access, create_app
from tests.app.conftest import LoopbackClient, Table, new_game

STRINGS = Path(__file__).resolve().parents[2] / "host" / "app" / "static" / "i18n"
GAP = (1_700_000_100.0, 1_700_000_101.5)


def _issues(client: TestClient) -> list[dict[str, object]]:
    checks = client.get("/api/state").json()["checks"]
    return [issue for issue in checks["issues"] if issue["kind"] == "interrupted"]


def test_an_interruption_asks_the_table_to_check_the_castillo(
    client: TestClient, table: Table
) -> None:
    new_game(client)
    table.link.interrupted(*GAP)
    (issue,) = _issues(client)
    assert (issue["from"], issue["to"]) == GAP and issue["options"] == ["accept_game"]
    legal = client.get("/api/state").json()["legal"]
    answer = client.post("/api/action", json={"text": legal[0]})
    assert answer.status_code == 409 and answer.json()["error"] == "blocked"  # asked first
    table.link.interrupted(*GAP)  # the same interval reported again: asked once
    assert len(_issues(client)) == 1
    answer = client.post("/api/resolve", json={"issue": issue["id"], "how": "accept_game"})
    assert answer.status_code == 200, answer.text
    assert _issues(client) == []
    assert client.post("/api/action", json={"text": legal[0]}).status_code == 200


def test_an_unanswered_interruption_is_still_asked_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "castillo.db"
    first = Table(db)
    with LoopbackClient(create_app(first.session, Access())) as client:
        new_game(client)
        first.link.interrupted(*GAP)
        assert len(_issues(client)) == 1
    first.close()
    again = Table(db)
    try:
        again.session.restore_last()
        with LoopbackClient(create_app(again.session, Access())) as client:
            (issue,) = _issues(client)
            assert (issue["from"], issue["to"]) == GAP
    finally:
        again.close()


def test_an_interruption_before_the_game_is_not_asked_about(
    client: TestClient, table: Table
) -> None:
    table.link.gaps.append(GAP)  # the tower was interrupted while the lobby showed
    new_game(client)
    table.link.interrupted(GAP[1] + 10, GAP[1] + 11)
    assert [(i["from"], i["to"]) for i in _issues(client)] == [(GAP[1] + 10, GAP[1] + 11)]


def test_the_question_is_worded_in_every_language() -> None:
    for lang in ("en", "cs", "pl", "uk"):
        strings = json.loads((STRINGS / f"{lang}.json").read_text(encoding="utf-8"))
        assert strings["check.kind.interrupted"]
        assert "{from}" in strings["check.interrupted_detail"]
        assert "{to}" in strings["check.interrupted_detail"]
        assert strings["check.how.interrupted.accept_game"]
