"""El Grande's computer seats and hints where the user stands: through the app's API.

The lobby offers El Grande's levels and hints; a 4-player game with two people and two
computer seats (random and greedy: the search's own tests are in tests/engine) plays to its end
through the API, secret discs included (where several seats choose at once, a computer seat
chooses at once too), across a restart of the server in the middle, and the stored record
replays to the same scores; a seat's hint is one of its legal steps, at a secret-disc step too,
while the shared screen gets no hint of a secret choice (it would show it); at a real table
(table mode) a computer's power card waits as a proposal for the table to confirm, while a
secret step (a disc) is classed to be made at once, never shown as a proposal."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from engine import registry
from engine.core.protocol import CHANCE
from host.app.server import Access, create_app
from host.app.session import Session, _secret
from host.app.store import Store
from tests.app.conftest import LoopbackClient, assert_computer_levels, create_game, wait_for_state

WAIT_S = 120.0  # a computer step on a loaded machine
PEOPLE = ("purple", "blue")


def _over(state: dict[str, Any]) -> bool:
    return bool(state["game"]["phase"] == "over")


def _people_play(
    client: TestClient,
    tokens: dict[str, str],
    rng: random.Random,
    until: Callable[[dict[str, Any]], bool],
) -> dict[str, Any]:
    """The people's seats play random legal steps on their pages whenever one acts (the
    computers the rest) until `until(table state)` holds; the table state then, read before
    any person acts on it (a computer seat's step can change it at any moment)."""
    steps = 0

    def people_act(s: dict[str, Any]) -> bool:
        return any(c in PEOPLE for c in s["game"]["acting"])

    while True:
        state = wait_for_state(client, lambda s: _over(s) or until(s) or people_act(s), WAIT_S)
        if _over(state) or until(state):
            return state
        for colour in PEOPLE:
            mine = client.get(f"/api/seat/{tokens[colour]}/state").json()
            legal = mine["legal"]
            if not legal:
                continue
            # a computer may have moved the game on since the wait: the table's state read
            # after this seat's steps tells whether `until` holds before a person acts on it
            now = client.get("/api/state").json()
            if _over(now) or until(now):
                return now
            text = "done" if "done" in legal and rng.random() < 0.5 else rng.choice(legal)
            answer = client.post(f"/api/seat/{tokens[colour]}/action", json={"text": text})
            assert answer.status_code in (200, 409), answer.text  # 409: the step moved on
            steps += 1
        assert steps < 5000, "the game does not end"


def test_the_catalogue_offers_el_grandes_computer_levels_and_hints(app: TestClient) -> None:
    games = {g["id"]: g for g in app.get("/api/catalogue").json()["games"]}
    assert_computer_levels(games["elgrande"], default=4)


class _NoTower:
    """A table without the tower (its throw checks off: nobody drops the cubes here)."""

    def __init__(self, db: Path) -> None:
        self.store = Store(db)
        self.session = Session(self.store, checks_enabled=False)

    def close(self) -> None:
        self.session.close()
        self.store.close()


def test_a_game_with_computer_seats_plays_to_its_end_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "castillo.db"
    rng = random.Random(4)
    body = {
        "players": ["purple", "green", "blue", "orange"],
        "mode": "dealer",
        "seed": 21,
        "short_game": True,
        "computers": {"green": 1, "orange": 2},
    }
    discs_seen = 0
    first = _NoTower(db)
    try:
        with LoopbackClient(create_app(first.session, Access())) as client:
            created = create_game(client, "elgrande", **body)
            tokens = {s["colour"]: s["token"] for s in created["seats"]}
            assert set(tokens) == set(PEOPLE)  # a computer seat has no seat link
            seats = client.get("/api/state").json()["seats"]
            assert {"colour": "orange", "computer": 2, "claimed": True, "connected": True} in seats
            # to the first general scoring's discs (several seats choose at once): a person's
            # hint there is one of its discs
            state = _people_play(
                client,
                tokens,
                rng,
                lambda s: (
                    (s["game"]["step"] or {}).get("step") == "disc"
                    and "purple" in s["game"]["acting"]
                ),
            )
            assert not _over(state)
            hint = client.post(f"/api/seat/{tokens['purple']}/hint", json={})
            assert hint.status_code == 200, hint.text
            mine = client.get(f"/api/seat/{tokens['purple']}/state").json()
            assert hint.json()["hint"] in mine["legal"] and hint.json()["hint"].startswith("disc")
            # the shared screen gets no hint of a secret choice, one seat's or several's
            refused = client.post("/api/hint", json={})
            assert refused.status_code == 409 and refused.json()["error"] == "no_hint"
            assert "blue" in state["game"]["acting"]  # the other person has not chosen yet
            taken = client.post(
                f"/api/seat/{tokens['purple']}/action", json={"text": hint.json()["hint"]}
            )
            assert taken.status_code == 200, taken.text
            alone = wait_for_state(client, lambda s: s["game"]["acting"] == ["blue"], WAIT_S)
            assert not _over(alone)
            refused = client.post("/api/hint", json={})
            assert refused.status_code == 409, refused.text
            assert "secret" in refused.json()["reason"], refused.json()
            discs_seen += 1
    finally:
        first.close()

    again = _NoTower(db)  # a restart: the game and its computer seats come back from the store
    try:
        assert again.session.restore_last() == created["id"]
        with LoopbackClient(create_app(again.session, Access())) as client:
            state = client.get("/api/state").json()
            assert {"colour": "green", "computer": 1, "claimed": True, "connected": True} in state[
                "seats"
            ]
            state = _people_play(client, tokens, rng, lambda s: False)
            assert _over(state)
            record = client.get(f"/api/games/{created['id']}/record")
            assert record.status_code == 200, record.text
        stored = [r for r in again.store.log(created["id"]) if r.kind == "action"]
    finally:
        again.close()
    assert discs_seen == 1
    for colour in ("green", "orange"):  # the computers' steps are stored like a person's
        assert sum(1 for r in stored if r.actor == colour) > 20
        assert any(r.actor == colour and "disc" in str(r.payload) for r in stored)
    spec, replayed = registry.replay(record.json())
    assert spec.id == "elgrande" and replayed.is_terminal()
    scores = {c: s for c, s in zip(replayed.seat_names(), replayed.returns(), strict=True)}
    assert scores == {c: state["game"]["scores"][c] for c in body["players"]}


def test_at_a_real_table_a_computers_power_card_is_proposed(app: TestClient) -> None:
    """Table mode: the computer's power card waits for the table to confirm it (a proposal:
    a person lays the card); a secret step (a disc) is never proposed, it would be shown."""
    body = {"players": ["purple", "green", "blue"], "mode": "table"}
    create_game(app, "elgrande", **body, computers={"green": 2})
    spec = registry.get("elgrande")
    mirror = spec.replay_start(spec.options_from_json(body))  # to know what may be entered
    while mirror.current_players() == (CHANCE,):
        outcome = mirror.chance_outcomes()[0][0]
        if outcome.kind == "first":
            outcome = mirror.parse("first purple")
        mirror.apply(outcome, CHANCE)
        answer = app.post("/api/action", json={"text": str(outcome), "as": "chance"})
        assert answer.status_code == 200, answer.text
    state = app.get("/api/state").json()
    assert state["game"]["acting"] == ["purple"]
    answer = app.post("/api/action", json={"text": "power 13", "as": "purple"})
    assert answer.status_code == 200, answer.text
    state = wait_for_state(app, lambda s: (s["computer"] or {}).get("proposal") is not None, WAIT_S)
    proposal = state["computer"]["proposal"]
    assert state["computer"]["colour"] == "green" and proposal.startswith("power ")
    assert state["game"]["acting"] == ["green"]  # nothing played until the table confirms
    answer = app.post("/api/action", json={"text": proposal, "as": "green"})
    assert answer.status_code == 200, answer.text
    assert app.get("/api/state").json()["game"]["played"]["green"] == int(proposal.split()[1])
    active = app.app.state.session.active
    assert _secret(active, "disc Castilla") and not _secret(active, "power 3")


def test_a_hint_is_one_of_the_acting_seats_legal_steps(app: TestClient) -> None:
    created = create_game(
        app, "elgrande", players=["purple", "green", "blue"], mode="dealer", seed=5
    )
    tokens = {s["colour"]: s["token"] for s in created["seats"]}
    acting = app.get("/api/state").json()["game"]["acting"][0]
    answer = app.post(f"/api/seat/{tokens[acting]}/hint", json={})
    assert answer.status_code == 200, answer.text
    legal = app.get(f"/api/seat/{tokens[acting]}/state").json()["legal"]
    assert answer.json()["hint"] in legal
    waiting = next(c for c in tokens if c != acting)
    refused = app.post(f"/api/seat/{tokens[waiting]}/hint", json={})
    assert refused.status_code == 409 and refused.json()["error"] == "not_your_turn"
