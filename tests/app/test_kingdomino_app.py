"""Kingdomino in the table app: its plugin's strings in every language, the end-of-game view,
computer seats (a platform feature: any game whose spec offers a computer player) and hints,
over the HTTP API."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engine import registry
from engine.kingdomino.game import Game
from engine.kingdomino.options import Options
from host.app.server import Access, create_app
from tests.app.conftest import LoopbackClient, Table, assert_computer_levels
from tests.engine.platform.nim import SPEC as NIM

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "host" / "games" / "kingdomino" / "static"
LANGUAGES = ("en", "cs", "pl", "uk")
WAIT_S = 60.0  # a computer move in a loaded CI machine; a pass takes well under a second


def _bundle(lang: str) -> dict[str, str]:
    """The plugin's and the scoring assistant's strings (the engine's: test_refusal_texts)."""
    texts: dict[str, str] = {}
    for name in ("ui.json", "score.json"):
        texts.update(json.loads((STATIC / "i18n" / lang / name).read_text("utf-8")))
    return texts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_plugin_string_is_in_each_language_with_the_same_placeholders(lang: str) -> None:
    english, texts = _bundle("en"), _bundle(lang)
    assert set(texts) == set(english)
    for key, text in english.items():
        assert set(re.findall(r"{(\w+)}", texts[key])) == set(re.findall(r"{(\w+)}", text)), key
        assert texts[key].strip(), key


def test_every_key_the_plugin_names_has_a_text() -> None:
    source = (STATIC / "plugin.js").read_text("utf-8") + (STATIC / "score.js").read_text("utf-8")
    english = _bundle("en")
    named = set(re.findall(r'"(kingdomino\.(?:ui|score)\.[a-z_.]+[a-z_])"', source))
    assert named and named <= set(english), named - set(english)
    # the keys the plugin builds from a value
    for prefix, values in (
        ("kingdomino.ui.line_", ("current", "next")),
        ("kingdomino.ui.dir.", ("n", "e", "s", "w")),
        ("kingdomino.ui.decided.", ("largest_territory", "crowns", "shared")),
    ):
        assert {prefix + v for v in values} <= set(english)


def test_the_finished_game_view_names_the_winners_and_what_decided() -> None:
    game = Game(Options(players=("pink", "blue"), mode="dealer", seed=4))
    assert "result" not in game.view()
    while not game.is_terminal():
        game.apply(game.legal_actions(game.current_players()[0])[0])
    view = game.view()
    totals = view["totals"]
    best = max(totals)
    assert view["result"]["winners"] == [
        c for c, t in zip(("pink", "blue"), totals, strict=True) if t == best
    ]
    assert view["result"]["decided_by"] in ("score", "largest_territory", "crowns", "shared")
    for seat in view["seats"]:
        assert sum(t["points"] for t in seat["territories"]) + seat["harmony"] == seat["score"]


# ---------------------------------------------------------------------- computer seats
@pytest.fixture
def app(table: Table) -> Any:
    with LoopbackClient(create_app(table.session, Access())) as client:
        yield client


def _wait(client: TestClient, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The table's state once `done(state)` holds (the computer thinks in its own thread)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        state: dict[str, Any] = client.get("/api/state").json()
        if done(state):
            return state
        assert time.monotonic() < deadline, f"waited {WAIT_S} s: {state['game']}"
        time.sleep(0.02)


def _create(client: TestClient, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/games", json={"game": "kingdomino", **body})
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def test_the_catalogue_offers_kingdominos_computer_levels_and_hints(app: TestClient) -> None:
    games = {g["id"]: g for g in app.get("/api/catalogue").json()["games"]}
    assert_computer_levels(games["kingdomino"], default=4)
    assert games["kingdomino"]["plugin"] == "/games/kingdomino/plugin.js"


@pytest.mark.parametrize(
    ("computers", "why"),
    [
        ({"red": 2}, "'red' is not a seat"),
        ({"blue": 9}, "levels are 1, 2, 3, 4, 5"),
        ({"blue": True}, "levels are"),
        (["blue"], "must map seats to levels"),
    ],
)
def test_bad_computer_seats_are_refused_by_field(app: TestClient, computers: Any, why: str) -> None:
    body = {"game": "kingdomino", "players": ["pink", "blue"], "computers": computers}
    answer = app.post("/api/games", json=body)
    assert answer.status_code == 400
    assert why in answer.json()["errors"]["computers"]


@pytest.fixture
def nim() -> Iterator[None]:
    """The test-only Nim (tests/engine/platform/nim.py): a game without a computer player."""
    registry.register(NIM)
    yield
    registry.unregister(NIM)


def test_a_game_without_a_computer_player_refuses_computer_seats(
    nim: None, app: TestClient
) -> None:
    games = {g["id"]: g for g in app.get("/api/catalogue").json()["games"]}
    assert games["nim"]["computer"] is None and games["nim"]["hint"] is False
    body = {"game": "nim", "computers": {"right": 1}}
    answer = app.post("/api/games", json=body)
    assert answer.status_code == 400
    assert answer.json()["errors"]["computers"] == "Nim has no computer player"


def test_a_computer_seat_plays_its_own_moves_through_the_durable_path(
    table: Table, app: TestClient
) -> None:
    created = _create(app, players=["pink", "blue"], mode="dealer", seed=7, computers={"blue": 2})
    tokens = {s["colour"]: s["token"] for s in created["seats"]}
    assert set(tokens) == {"pink"}  # a computer seat has no seat link
    state = app.get("/api/state").json()
    assert {"colour": "blue", "computer": 2, "claimed": True, "connected": True} in state["seats"]
    pink = tokens["pink"]
    while True:
        state = _wait(app, lambda s: s["game"]["step"] == "over" or s["computer"] is None)
        if state["game"]["step"] == "over":
            break
        mine = app.get(f"/api/seat/{pink}/state").json()
        answer = app.post(f"/api/seat/{pink}/action", json={"text": mine["legal"][0]})
        assert answer.status_code == 200, answer.text
    actors = [line["actor"] for line in state["log"] if line["kind"] == "action"]
    assert actors.count("blue") == actors.count("pink") > 0
    # each move of the computer is in the saved game's log like a player's
    stored = [r for r in table.store.log(created["id"]) if r.kind == "action"]
    assert sum(1 for r in stored if r.actor == "blue") == actors.count("blue")


def test_at_a_real_table_the_computer_shows_its_move_and_the_table_confirms_it(
    app: TestClient,
) -> None:
    _create(app, players=["pink", "blue"], mode="table", computers={"blue": 2})
    for text in ("draw 1", "draw 2", "draw 40", "draw 48", "king blue"):
        answer = app.post("/api/action", json={"text": text, "as": "chance"})
        assert answer.status_code == 200, answer.text
    state = _wait(app, lambda s: (s["computer"] or {}).get("proposal") is not None)
    proposal = state["computer"]["proposal"]
    assert state["computer"]["colour"] == "blue" and proposal.startswith("claim ")
    assert state["game"]["next_line"] == [
        {"domino": n, "faces": f, "king": "", "placed": False}
        for n, f in ((1, "W0 W0"), (2, "W0 W0"), (40, "M1 W0"), (48, "W0 M3"))
    ]  # nothing moved: the players put the king on the domino, then confirm
    answer = app.post("/api/action", json={"text": proposal, "as": "blue"})
    assert answer.status_code == 200, answer.text
    state = app.get("/api/state").json()
    claimed = [e for e in state["game"]["next_line"] if e["king"] == "blue-1"]
    assert [f"claim {e['domino']}" for e in claimed] == [proposal]
    assert state["computer"] is None and state["game"]["step"] == "king"


def test_the_public_log_gives_each_named_domino_its_faces(app: TestClient) -> None:
    """The adapter reads the dominoes from the game's state (`game.state.data`): every log line
    naming a domino carries its faces, the others none."""
    _create(app, players=["pink", "blue"], mode="table")
    steps = [("chance", t) for t in ("draw 1", "draw 2", "draw 40", "draw 48", "king blue")]
    for actor, text in [*steps, ("blue", "claim 40")]:
        answer = app.post("/api/action", json={"text": text, "as": actor})
        assert answer.status_code == 200, answer.text
    lines = {line["text"]: line for line in app.get("/api/state").json()["log"]}
    assert lines["draw 40"]["faces"] == "M1 W0" and lines["draw 48"]["faces"] == "W0 M3"
    assert lines["claim 40"]["faces"] == "M1 W0"
    assert "faces" not in lines["king blue"]


def test_a_hint_is_a_legal_move_for_the_acting_seat_only(app: TestClient) -> None:
    created = _create(app, players=["pink", "blue"], mode="dealer", seed=3)
    tokens = {s["colour"]: s["token"] for s in created["seats"]}
    acting = app.get("/api/state").json()["game"]["acting"][0]
    waiting = "blue" if acting == "pink" else "pink"
    answer = app.post(f"/api/seat/{tokens[acting]}/hint", json={})
    assert answer.status_code == 200, answer.text
    legal = app.get(f"/api/seat/{tokens[acting]}/state").json()["legal"]
    assert answer.json()["hint"] in legal
    refused = app.post(f"/api/seat/{tokens[waiting]}/hint", json={})
    assert refused.status_code == 409 and refused.json()["error"] == "not_your_turn"


def test_a_game_without_a_computer_player_gives_no_hint(nim: None, app: TestClient) -> None:
    answer = app.post("/api/games", json={"game": "nim"})
    assert answer.status_code == 200, answer.text
    refused = app.post("/api/hint", json={})
    assert refused.status_code == 409 and refused.json()["error"] == "no_hint"


def test_computer_seats_are_restored_with_the_game(tmp_path: Path) -> None:
    db = tmp_path / "castillo.db"
    table = Table(db)
    try:
        with LoopbackClient(create_app(table.session, Access())) as client:
            created = _create(client, players=["pink", "blue"], mode="table", computers={"blue": 1})
    finally:
        table.close()
    table = Table(db)
    try:
        assert table.session.restore_last() == created["id"]
        with LoopbackClient(create_app(table.session, Access())) as client:
            seats = client.get("/api/state").json()["seats"]
            assert {"colour": "blue", "computer": 1, "claimed": True, "connected": True} in seats
    finally:
        table.close()
