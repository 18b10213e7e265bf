"""GET /api/games names the game on the table (`active`) beside the saved games, so the lobby can
mark it; a finished game's summary carries its scores (docs/table-api.md)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.app.conftest import PLAYERS, new_game


def test_the_list_names_the_active_game_and_finished_scores(client: TestClient) -> None:
    listed = client.get("/api/games").json()
    assert listed["games"] == [] and listed["active"] is None
    first = new_game(client)["id"]
    assert client.get("/api/games").json()["active"] == first
    from engine.elgrande.bots import random_game
    from engine.elgrande.game import Options
    from engine.elgrande.record import to_record

    done = random_game(Options(players=tuple(PLAYERS), mode="dealer", seed=11, short_game=True))
    imported = client.post("/api/games/import", json=to_record(done)).json()["id"]
    listed = client.get("/api/games").json()
    # an import is not made active; the game on the table stays the first one
    assert listed["active"] == first
    saved = {g["id"]: g for g in listed["games"]}
    assert saved[imported]["finished"] is True
    assert saved[imported]["scores"] == dict(zip(PLAYERS, done.state.scores, strict=True))
    assert isinstance(saved[imported]["updated"], float)
    second = new_game(client)["id"]
    assert client.get("/api/games").json()["active"] == second
    assert client.post(f"/api/games/{first}/continue", json={}).status_code == 200
    assert client.get("/api/games").json()["active"] == first
