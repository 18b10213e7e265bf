"""The preview route (host/app/routes/preview.py): what an area card's placement would do, from
the engine, for the table and a seat; the game unchanged, nothing secret in the answer, and a
clear 4xx for every bad request."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi.testclient import TestClient

from engine.elcaballero.game import Game
from tests.app.conftest import Table

PLAYERS = ["red", "blue"]
# what no preview may hold: hands, the pile's cards, the dealer's seed, the log
SECRET = {"hand", "hands", "pile_cards", "pile", "seed", "market", "log", "events", "can_undo"}


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def _dealer_game(client: TestClient) -> dict[str, str]:
    """A dealer game at its first turn: the seats' tokens."""
    created = client.post(
        "/api/games",
        json={
            "game": "elcaballero",
            "players": PLAYERS,
            "mode": "dealer",
            "catalogue": "synthetic",
            "seed": 4,
        },
    ).json()
    tokens = {seat["colour"]: seat["token"] for seat in created["seats"]}
    while client.get("/api/state").json()["game"]["phase"] == "power":
        actor = client.get("/api/state").json()["game"]["acting"][0]
        legal = client.get(f"/api/seat/{tokens[actor]}/state").json()["legal"]
        answer = client.post(f"/api/seat/{tokens[actor]}/action", json={"text": legal[0]})
        assert answer.status_code == 200, answer.text
    return tokens


def _get(client: TestClient, path: str, action: str) -> Any:
    return client.get(path, params={"action": action})


def test_a_legal_placement_is_previewed_for_the_seat_and_the_table(
    client: TestClient, table: Table
) -> None:
    tokens = _dealer_game(client)
    state = client.get("/api/state").json()
    acting = state["game"]["acting"][0]
    legal = client.get(f"/api/seat/{tokens[acting]}/state").json()["legal"]
    text = next(t for t in legal if t.startswith("area "))
    assert table.session.active is not None
    game = table.session.active.game
    assert isinstance(game, Game)
    snapshot = game.snapshot()
    seat = _get(client, f"/api/seat/{tokens[acting]}/preview", text)
    assert seat.status_code == 200, seat.text
    answer = seat.json()
    assert answer["ok"] is True and answer["legal"] is True and answer["seat"] == acting
    assert answer["action"] == text and answer["ghost"]["cell"] == text.split()[2][:-1]
    assert {"lost", "islands", "courts", "map"} <= set(answer)
    assert not SECRET & set(_keys(answer)), SECRET & set(_keys(answer))
    # the table asks for the player acting now: the same answer
    assert _get(client, "/api/preview", text).json() == answer
    # nothing changed: the engine state (the pile's order too) and the revision
    assert game.snapshot() == snapshot
    assert client.get("/api/state").json()["rev"] == state["rev"]
    # what the preview drew is what the placement then makes
    client.post(f"/api/seat/{tokens[acting]}/action", json={"text": text})
    after = client.get("/api/state").json()["game"]
    assert answer["map"] == {k: after[k] for k in ("areas", "caballeros", "regions")}


def test_an_illegal_placement_answers_the_engines_refusal(client: TestClient) -> None:
    tokens = _dealer_game(client)
    acting = client.get("/api/state").json()["game"]["acting"][0]
    other = next(c for c in PLAYERS if c != acting)
    far = _get(client, f"/api/seat/{tokens[acting]}/preview", "area 1 40,40N").json()
    assert far["legal"] is False and far["refusal"]["key"] == "elcaballero.refuse.no_contact"
    assert "lost" not in far and "map" not in far
    early = _get(client, f"/api/seat/{tokens[other]}/preview", "area 1 0,-1N").json()
    assert early["refusal"]["key"] == "elcaballero.refuse.not_your_turn"
    assert early["refusal"]["params"] == {"who": acting}


def test_bad_requests_get_a_4xx_with_a_message(client: TestClient) -> None:
    tokens = _dealer_game(client)
    token = next(iter(tokens.values()))
    cases = [
        ("/api/preview", "area one 0,-1N", 400, "notation"),
        ("/api/preview", "area 1 0,-1Q", 400, "notation"),
        ("/api/preview", "done", 400, "bad_message"),  # only a placement is previewed
        ("/api/preview", "x" * 201, 400, "bad_message"),
        ("/api/preview", "", 400, "bad_message"),
        ("/api/seat/nobody/preview", "area 1 0,-1N", 403, "forbidden"),
        (f"/api/seat/{token}/preview", "\x00", 400, "notation"),
    ]
    for path, action, status, code in cases:
        answer = _get(client, path, action)
        assert answer.status_code == status, (path, action, answer.text)
        assert answer.json()["error"] == code and answer.json()["reason"], answer.json()
    missing = client.get("/api/preview")
    assert missing.status_code == 400 and missing.json()["error"] == "bad_message"


def test_no_game_another_game_and_a_game_not_started(client: TestClient) -> None:
    none = _get(client, "/api/preview", "area 1 0,-1N")
    assert none.status_code == 404 and none.json()["error"] == "no_game"
    answer = client.post("/api/games", json={"game": "kingdomino", "players": ["pink", "blue"]})
    assert answer.status_code == 200, answer.text
    other = _get(client, "/api/preview", "area 1 0,-1N")
    assert other.status_code == 409 and other.json()["error"] == "no_preview"
    assert "Kingdomino" in other.json()["reason"]
    # a table game whose start card is not entered yet: nobody places a card
    body = {"game": "elcaballero", "players": PLAYERS, "mode": "table"}
    assert client.post("/api/games", json=body).status_code == 200
    early = _get(client, "/api/preview", "area 1 0,-1N")
    assert early.status_code == 200
    assert early.json()["legal"] is False
    assert early.json()["refusal"]["key"] == "elcaballero.refuse.not_your_turn"
