"""El Caballero's computer seats and hints where the user stands: through the app's API.

The lobby offers El Caballero's levels; a game with a person and computer seats (the Monte
Carlo player and the greedy one) plays to its end through the API, across a restart of the
server in the middle (the computer seats come back with the game and go on playing), and the
stored record replays to the same scores; a seat's hint is one of its legal steps."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from engine import registry
from host.app.server import Access, create_app
from tests.app.conftest import (
    LoopbackClient,
    Table,
    assert_computer_levels,
    create_game,
    wait_for_state,
)

WAIT_S = 120.0  # a computer turn on a loaded machine (level 3: about 1 s a turn)


def _over(state: dict[str, Any]) -> bool:
    return bool(state["prompt"]["key"] == "over")


def _person_plays(
    client: TestClient, token: str, rng: random.Random, until: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """The person's seat plays random legal steps whenever it acts (the computers the rest)
    until `until(table state)` holds; the table state then."""
    steps = 0
    while True:
        state = wait_for_state(
            client, lambda s: _over(s) or until(s) or s["computer"] is None, WAIT_S
        )
        if _over(state) or until(state):
            return state
        mine = client.get(f"/api/seat/{token}/state").json()
        if not mine["legal"]:
            continue  # between a computer's step and the next
        legal = mine["legal"]
        text = "done" if "done" in legal and rng.random() < 0.5 else rng.choice(legal)
        answer = client.post(f"/api/seat/{token}/action", json={"text": text})
        assert answer.status_code == 200, answer.text
        steps += 1
        assert steps < 3000, "the game does not end"


def test_the_catalogue_offers_el_caballeros_computer_levels_and_hints(app: TestClient) -> None:
    games = {g["id"]: g for g in app.get("/api/catalogue").json()["games"]}
    assert_computer_levels(games["elcaballero"], default=3)


def test_bad_computer_levels_are_refused(app: TestClient) -> None:
    body = {"players": ["red", "blue"], "mode": "dealer", "catalogue": "synthetic"}
    answer = app.post("/api/games", json={"game": "elcaballero", **body, "computers": {"blue": 9}})
    assert answer.status_code == 400
    assert answer.json()["errors"]["computers"] == "levels are 1, 2, 3, 4, 5"


def test_a_game_with_computer_seats_plays_to_its_end_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "castillo.db"
    rng = random.Random(4)
    body = {
        "players": ["red", "blue", "green"],
        "mode": "dealer",
        "catalogue": "synthetic",
        "seed": 21,
        "computers": {"blue": 3, "green": 2},
    }
    first = Table(db)
    try:
        with LoopbackClient(create_app(first.session, Access())) as client:
            created = create_game(client, "elcaballero", **body)
            token = {s["colour"]: s["token"] for s in created["seats"]}["red"]
            seats = client.get("/api/state").json()["seats"]
            assert {"colour": "blue", "computer": 3, "claimed": True, "connected": True} in seats
            # to round 3, with the person to act: then the server stops
            state = _person_plays(
                client,
                token,
                rng,
                lambda s: s["game"]["round"] >= 3 and s["game"]["acting"] == ["red"],
            )
            assert not _over(state)
    finally:
        first.close()

    again = Table(db)  # a restart: the game and its computer seats come back from the store
    try:
        assert again.session.restore_last() == created["id"]
        with LoopbackClient(create_app(again.session, Access())) as client:
            state = client.get("/api/state").json()
            assert {"colour": "green", "computer": 2, "claimed": True, "connected": True} in state[
                "seats"
            ]
            assert state["game"]["round"] >= 3
            state = _person_plays(client, token, rng, lambda s: False)
            assert _over(state)
            record = client.get(f"/api/games/{created['id']}/record")
            assert record.status_code == 200, record.text
        stored = [r for r in again.store.log(created["id"]) if r.kind == "action"]
    finally:
        again.close()
    for colour in ("blue", "green"):  # the computers' steps are stored like a person's
        assert sum(1 for r in stored if r.actor == colour) > 14
    spec, replayed = registry.replay(record.json())
    assert spec.id == "elcaballero" and replayed.is_terminal()
    assert replayed.returns() == [state["game"]["players"][p]["score"] for p in range(3)]


def test_a_hint_is_one_of_the_acting_seats_legal_steps(app: TestClient) -> None:
    created = create_game(
        app, "elcaballero", players=["red", "blue"], mode="dealer", catalogue="synthetic", seed=5
    )
    tokens = {s["colour"]: s["token"] for s in created["seats"]}
    for _ in range(4):  # a power card, then steps of a turn (planned once, then followed)
        acting = app.get("/api/state").json()["game"]["acting"][0]
        answer = app.post(f"/api/seat/{tokens[acting]}/hint", json={})
        assert answer.status_code == 200, answer.text
        legal = app.get(f"/api/seat/{tokens[acting]}/state").json()["legal"]
        assert answer.json()["hint"] in legal
        taken = app.post(f"/api/seat/{tokens[acting]}/action", json={"text": answer.json()["hint"]})
        assert taken.status_code == 200, taken.text
    acting = app.get("/api/state").json()["game"]["acting"][0]
    waiting = "blue" if acting == "red" else "red"
    refused = app.post(f"/api/seat/{tokens[waiting]}/hint", json={})
    assert refused.status_code == 409 and refused.json()["error"] == "not_your_turn"
