"""Which game records may be exported while the game is in play: the game says (issue 22, "the
export policy comes from the game"). El Grande's record would reveal undisclosed discs and the
castillo, El Caballero's the power cards in hand; everything a Kingdomino record holds is on the
table, unless the game is dealt from a seed, which would tell the dominoes still to come. A
finished game's record is always public."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from engine import registry

KD_PLAYERS = ["pink", "yellow"]


def _start(client: TestClient, **body: Any) -> int:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 200, answer.text
    return int(answer.json()["id"])


def _play(client: TestClient, moves: int) -> None:
    for _ in range(moves):
        legal = client.get("/api/state").json()["legal"]
        answer = client.post("/api/action", json={"text": legal[0]})
        assert answer.status_code == 200, answer.text


def test_a_kingdomino_game_in_play_is_exported_and_replays(client: TestClient) -> None:
    game_id = _start(client, game="kingdomino", players=KD_PLAYERS, mode="dealer")
    _play(client, 5)
    answer = client.get(f"/api/games/{game_id}/record")
    assert answer.status_code == 200, answer.text
    record = answer.json()
    assert record["options"]["seed"] is None and len(record["actions"]) > 5
    spec, state = registry.replay(record)
    assert spec.id == "kingdomino" and not state.is_terminal()
    table = client.get("/api/state").json()["game"]
    assert state.view(None) == table


def test_a_kingdomino_game_dealt_from_a_seed_is_not_exported_in_play(client: TestClient) -> None:
    game_id = _start(client, game="kingdomino", players=KD_PLAYERS, mode="dealer", seed=7)
    _play(client, 3)
    answer = client.get(f"/api/games/{game_id}/record")
    assert answer.status_code == 409
    assert answer.json()["error"] == "unfinished" and "seed" in answer.json()["reason"]


def test_el_grande_and_el_caballero_games_in_play_are_not_exported(client: TestClient) -> None:
    grande = _start(client, players=["purple", "green", "blue"], mode="dealer", short_game=True)
    answer = client.get(f"/api/games/{grande}/record")
    assert answer.status_code == 409 and "undisclosed discs" in answer.json()["reason"]
    body = {"game": "elcaballero", "players": ["red", "blue"], "mode": "dealer"}
    caballero = _start(client, **body, catalogue="synthetic")
    answer = client.get(f"/api/games/{caballero}/record")
    assert answer.status_code == 409 and "El Caballero" in answer.json()["reason"]
