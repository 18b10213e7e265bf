"""Every game option through the table app's API (docs/table-api.md, docs/variants.md): the
2-player game with the dummy, 3 players with decks 2+3 merged, New Regency, alternative action
cards and Power Shift, each created, played through its first round and restored from the
database; invalid requests get a specific 400.

Power Shift in table mode deals each player's 3 modifier cards on that player's own page: the
test enters them from the seats' WebSockets and checks that no other client learns them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engine.elgrande import data as gamedata
from engine.elgrande.game import Game, Options
from host.app.session import Role, Session
from host.app.store import Store
from host.games.elgrande.prompts import prompt_for
from tests.app.conftest import Table
from tests.app.ui_strings import page_strings

MAX_STEPS = 600


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def seat_tokens(created: dict[str, Any]) -> dict[str, str]:
    return {s["colour"]: s["token"] for s in created["seats"]}


def play_http(
    client: TestClient,
    tokens: dict[str, str],
    until: Callable[[dict[str, Any]], bool],
    seed: int = 1,
) -> dict[str, Any]:
    """Play random legal steps as the players would: the table enters chance steps and public
    steps (half of them; the other half on the player's page), each seat its secret ones."""
    rng = random.Random(seed)
    verbs: set[str] = set()
    for _ in range(MAX_STEPS):
        state = client.get("/api/state").json()
        if until(state):
            state["verbs"] = sorted(verbs)
            return state
        legal = [t for t in state["legal"] if t != "place castillo"] or state["legal"]
        acting = [c for c in state["game"]["acting"] if c != "chance"]
        if legal and (state["acting_as"] == "chance" or rng.random() < 0.5):
            text = rng.choice(legal)
            answer = client.post("/api/action", json={"text": text})
        else:
            colour = rng.choice(acting)
            mine = client.get(f"/api/seat/{tokens[colour]}/state").json()["legal"]
            assert mine, f"{colour} acts but has no choices: {state['prompt']}"
            text = rng.choice([t for t in mine if t != "place castillo"] or mine)
            answer = client.post(f"/api/seat/{tokens[colour]}/action", json={"text": text})
        assert answer.status_code == 200, (text, answer.text)
        verbs.add(text.split()[0])
    raise AssertionError(f"not reached in {MAX_STEPS} steps")


def in_round(n: int) -> Callable[[dict[str, Any]], bool]:
    return lambda state: state["game"]["round"] >= n and state["game"]["phase"] == "power"


def restored_state(db: Path) -> dict[str, Any]:
    """The table's state as a restarted app restores it from the database."""
    store = Store(db)
    try:
        again = Session(store)
        assert again.restore_last() is not None
        state = again.state_for(Role.table())
        assert again.active is not None
        state["snapshot"] = again.active.game.snapshot()
        return state
    finally:
        store.close()


def test_gamedata_lists_what_the_lobby_offers(client: TestClient) -> None:
    data = client.get("/api/gamedata", params={"edition": "2023"}).json()
    assert data["alternatives"] == ["delegation", "veto", "veto-2", "rivalry"]
    assert all(data["cards"][c]["alternative"] for c in data["alternatives"])
    assert data["new_regency"] is True and data["power_shift"] is True
    assert data["cards"]["viceroy"]["regency"] is True
    assert data["modifiers"]["g+1-court"]["names"]["cs"] == "+1 dvůr"
    old = client.get("/api/gamedata", params={"edition": "1995"}).json()
    assert old["alternatives"] == [] and old["modifiers"] == {}
    assert old["new_regency"] is False and old["power_shift"] is False
    assert old["colours"][:2] == ["yellow", "red"]


def test_two_players_with_the_dummy(client: TestClient, table: Table) -> None:
    automatic = create(client, players=["green", "blue"], mode="dealer", seed=3)
    options = client.get("/api/state").json()["options"]
    assert options["dummy"] == "purple" and options["merge_decks_2_3"] is True
    assert [s["colour"] for s in automatic["seats"]] == ["green", "blue"]

    created = create(client, players=["purple", "green"], dummy="red", short_game=True)
    tokens = seat_tokens(created)
    assert set(tokens) == {"purple", "green"}  # the dummy has no seat page
    state = play_http(client, tokens, in_round(3))  # two whole rounds, entered at the table
    assert {"dummycard", "dummypower", "first", "home", "kingcard", "reveal"} <= set(state["verbs"])
    game = state["game"]
    assert game["dummy"] == "red" and game["players"] == ["purple", "green"]
    assert sum(game["board"][r].get("red", 0) for r in game["board"]) > 0
    assert state["options"]["dummy"] == "red" and state["options"]["short_game"] is True
    restored = restored_state(table.db)
    assert restored["options"] == state["options"]
    assert restored["snapshot"] == table.session.active.game.snapshot()  # type: ignore[union-attr]


def test_three_players_with_decks_2_and_3_merged(client: TestClient, table: Table) -> None:
    created = create(
        client, players=["purple", "green", "blue"], merge_decks_2_3=True, mode="dealer", seed=8
    )
    state = client.get("/api/state").json()
    assert state["options"]["merge_decks_2_3"] is True
    assert set(state["game"]["deck_sizes"]) == {"1", "2", "4"}  # deck 3 shuffled into deck 2
    state = play_http(client, seat_tokens(created), in_round(2))
    assert len(state["game"]["face_up"]) == 4  # 3 decks and the King card
    assert restored_state(table.db)["options"]["merge_decks_2_3"] is True


def test_new_regency_in_table_mode(client: TestClient, table: Table) -> None:
    created = create(client, players=["purple", "green", "blue"], new_regency=True)
    decks: set[int] = set()

    def note_deck(state: dict[str, Any]) -> bool:
        if state["prompt"]["key"] == "reveal":
            decks.add(state["prompt"]["params"]["deck"])
        return in_round(2)(state)

    state = play_http(client, seat_tokens(created), note_deck)
    assert decks == {1, 2, 3, 4, 5}  # deck 5: the New Regency King cards
    regency = {c for c, card in client.get("/api/gamedata").json()["cards"].items()
               if card["regency"]}  # fmt: skip
    assert regency & set(state["game"]["face_up"])
    assert "your-majesty" not in state["game"]["face_up"]
    assert state["options"]["new_regency"] is True
    assert restored_state(table.db)["options"]["new_regency"] is True


def test_alternative_cards_are_set_up_at_the_table(client: TestClient, table: Table) -> None:
    created = create(
        client, players=["purple", "green", "blue", "orange"], alternatives=["veto", "delegation"]
    )
    prompts: list[dict[str, Any]] = []

    def note_prompt(state: dict[str, Any]) -> bool:
        if state["prompt"]["key"] == "setup.remove":
            prompts.append(state["prompt"]["params"])
            unseen = [t for t in state["legal"] if t.endswith(" ?")]
            assert unseen == [f"remove {state['prompt']['params']['deck']} ?"]
        return in_round(2)(state)

    state = play_http(client, seat_tokens(created), note_prompt)
    assert {(p["deck"], p["card"]) for p in prompts} == {(2, "veto"), (1, "delegation")}
    assert state["options"]["alternatives"] == ["veto", "delegation"]
    snapshot = restored_state(table.db)["snapshot"]
    cards = [c for deck in snapshot["decks"].values() for c in deck] + snapshot["used_cards"]
    cards += snapshot["face_up"]
    assert "veto" in cards and "delegation" in cards


def test_the_dealer_sets_cards_aside_unseen(client: TestClient, table: Table) -> None:
    create(client, players=["purple", "green", "blue"], alternatives=["veto"], mode="dealer")
    game = table.session.active.game  # type: ignore[union-attr]
    removed = [str(a) for p, a in game.history if a.kind == "remove"]
    assert len(removed) == 1 and removed[0].startswith("remove 2 ")
    state = client.get("/api/state").json()
    assert ["chance", "remove 2 ?"] in state["game"]["log"]
    assert removed[0] not in json.dumps(state)


def test_a_card_set_aside_at_the_table_is_logged_without_its_name(client: TestClient) -> None:
    create(client, players=["purple", "green", "blue"], alternatives=["veto"])
    client.post("/api/action", json={"text": "first purple"})
    state = client.get("/api/state").json()
    assert state["prompt"]["key"] == "setup.remove"
    named = next(t for t in state["legal"] if not t.endswith("?"))  # somebody saw it
    assert client.post("/api/action", json={"text": named}).status_code == 200
    state = client.get("/api/state").json()
    assert state["log"][-1]["text"] == "remove 2 ?" and named not in json.dumps(state)


@pytest.mark.parametrize(
    "options",
    [
        Options(players=("purple", "green"), new_regency=True, power_shift=True,
                alternatives=("delegation", "veto", "veto-2", "rivalry")),
        Options(players=("purple", "green", "blue"), merge_decks_2_3=True, new_regency=True,
                power_shift=True, alternatives=("veto",)),
        Options(players=("yellow", "red", "black"), edition="1995", merge_decks_2_3=True),
    ],
)  # fmt: skip
def test_the_ui_translates_every_prompt_and_phase_of_the_variants(options: Options) -> None:
    english = page_strings("en")
    seen: set[str] = set()
    for seed in range(4):
        rng = random.Random(seed)
        game = Game(options)
        while not game.is_terminal():
            seen.update((f"prompt.{prompt_for(game, None).key}", f"phase.{game.state.phase}"))
            player = rng.choice(game.current_players())
            game.apply(rng.choice(game.legal_actions(player)), player)
    assert len(seen) > 20
    assert sorted(seen - set(english)) == []


BAD_REQUESTS = [
    (
        {"players": ["purple", "green", "blue", "orange", "red"], "merge_decks_2_3": True},
        "decks 2 and 3 are merged only in games of 2 or 3 players",
    ),
    (
        {"players": ["purple", "green", "blue"], "alternatives": ["jester"]},
        "'jester' is not an alternative action card of this edition",
    ),
    (
        {"players": ["purple", "green", "blue"], "alternatives": ["veto", "veto"]},
        "each alternative action card can be added once",
    ),
    ({"players": ["yellow", "red"], "edition": "1995", "new_regency": True}, "New Regency"),
    ({"players": ["yellow", "red"], "edition": "1995", "power_shift": True}, "Power Shift"),
    ({"players": ["purple", "green", "blue"], "dummy": "red"}, "only used with 2 players"),
    ({"players": ["purple", "green"], "dummy": "green"}, "different colour"),
    ({"players": ["purple"]}, "2 to 5 players"),
    ({"players": ["purple", "yellow"]}, "unknown colour(s) yellow"),
    ({"players": "purple green"}, "'players': must be a list"),
    ({"players": ["purple", "green"], "short_game": "yes"}, "'short_game': must be true or false"),
    ({"players": ["purple", "green"], "edition": "2000"}, "'edition': must be one of 2023, 1995"),
    ({"players": ["purple", "green"], "mode": "bot"}, "'mode': must be table or dealer"),
    ({"players": ["purple", "green"], "seed": -1}, "'seed': must be a whole number"),
]


@pytest.mark.parametrize(("body", "reason"), BAD_REQUESTS)
def test_invalid_options_are_refused_specifically(
    client: TestClient, body: dict[str, Any], reason: str
) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400
    assert answer.json()["error"] == "bad_options"
    assert reason in answer.json()["reason"]
    assert client.get("/api/info").json()["active_game"] is None  # nothing was created


# ---------------------------------------------------------------------- Power Shift at the table
class Conn:
    """One WebSocket client; every message it got is kept for the audit."""

    def __init__(self, name: str, ws: Any) -> None:
        self.name, self.ws = name, ws
        self.rev = -1
        self.state: dict[str, Any] = {}
        self.messages: list[dict[str, Any]] = []

    def read(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        self.messages.append(message)
        if message["type"] == "state" and message["rev"] > self.rev:
            self.rev, self.state = message["rev"], message["state"]
        return message

    def drain_to(self, rev: int) -> dict[str, Any]:
        while self.rev < rev:
            self.read()
        return self.state

    def request(self, text: str) -> dict[str, Any]:
        ident = random.randrange(10**9)
        self.ws.send_json({"type": "action", "text": text, "id": ident})
        while True:
            message = self.read()
            if message["type"] in ("ack", "error") and message.get("ref") == ident:
                return message


def _strip(value: Any, keys: set[str]) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v, keys) for k, v in value.items() if k not in keys}
    if isinstance(value, list):
        return [_strip(v, keys) for v in value]
    return value


def _own_log_params(message: Any, seat: str) -> Any:
    """The message without the params of its log's lines of the seat's own secret steps: the
    card dealt to it (`deal`), the one it passed (`pass`); every other line's as the public's."""

    def own(line: Any) -> bool:
        if not isinstance(line, dict):
            return False  # the engine view's [actor, text] pairs: the public's
        params = line.get("params") or {}
        return (line.get("key") == "deal" and params.get("colour") == seat) or (
            line.get("key") == "pass" and line.get("actor") == seat
        )

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            if isinstance(value.get("log"), list):
                log = [{**ln, "params": {}} if own(ln) else ln for ln in value["log"]]
                value = {**value, "log": log}
            return {k: strip(v) for k, v in value.items()}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip(message)


def test_power_shift_deals_on_the_seat_pages_and_leaks_nothing(
    client: TestClient, table: Table
) -> None:
    rng = random.Random(7)
    players = ["purple", "green", "blue"]
    tokens = seat_tokens(create(client, players=players, power_shift=True))
    session = table.session
    game = session.active.game  # type: ignore[union-attr]
    modifiers = list(gamedata.load("2023").grey_cards)
    dealt: dict[str, list[str]] = {c: [] for c in players}
    with (
        client.websocket_connect("/ws?role=table") as ws_t,
        client.websocket_connect(f"/ws?seat={tokens['purple']}") as ws_p,
        client.websocket_connect(f"/ws?seat={tokens['green']}") as ws_g,
        client.websocket_connect(f"/ws?seat={tokens['blue']}") as ws_b,
    ):
        seats = {c: Conn(c, ws) for c, ws in zip(players, (ws_p, ws_g, ws_b), strict=True)}
        table_conn = Conn("table", ws_t)
        conns = [table_conn, *seats.values()]

        def settle() -> dict[str, Any]:
            for conn in conns:
                conn.drain_to(session.rev)
            return table_conn.state

        state = settle()
        while state["prompt"]["key"] != "setup.deal":  # first player, King, homes: the table
            assert state["acting_as"] == "chance"
            assert table_conn.request(rng.choice(state["legal"]))["type"] == "ack"
            state = settle()
        assert state["legal"] == [] and state["game"]["acting"] == ["chance"]

        while game.state.phase == "setup_deal":
            colour = state["prompt"]["params"]["colour"]
            assert state["prompt"]["params"]["dealt"] == len(dealt[colour])
            card = rng.choice(game.state.grey_deck)  # the card the player really drew
            other = next(c for c in players if c != colour)
            refusals = [
                (table_conn, f"deal {colour} {card}", "forbidden"),  # the table never sees it
                (seats[other], f"deal {colour} {card}", "forbidden"),  # nor another seat
                (seats[other], f"deal {other} {card}", "not_your_turn"),
            ]
            for conn, text, code in refusals:
                answer = conn.request(text)
                assert (answer["type"], answer["code"]) == ("error", code), (text, answer)
            mine = seats[colour].drain_to(session.rev)
            # every modifier card is offered, not only those left: no hint of the others' cards
            assert mine["legal"] == [f"deal {colour} {m}" for m in modifiers]
            # the seat's own prompt (the server's): which of its three cards it enters now
            assert mine["prompt"]["key"] == "seat.deal" and mine["acting_as"] == colour
            assert mine["prompt"]["params"] == {"n": len(dealt[colour]) + 1}
            for name, conn in seats.items():
                if name != colour:
                    assert conn.state["legal"] == []
            assert seats[colour].request(f"deal {colour} {card}")["type"] == "ack"
            dealt[colour].append(card)
            state = settle()
            assert state["log"][-1]["text"] == f"deal {colour} ?"

        assert state["prompt"]["key"] == "pass"
        for colour, conn in seats.items():
            assert sorted(conn.state["game"]["modifier_hand"]) == sorted(dealt[colour])
        answer = table_conn.request(f"pass {dealt['purple'][0]}")
        assert (answer["type"], answer["code"]) == ("error", "forbidden")
        passed = {}
        for colour, conn in seats.items():
            passed[colour] = rng.choice(dealt[colour])
            assert conn.request(f"pass {passed[colour]}")["type"] == "ack"
        state = settle()
        assert state["prompt"]["key"] == "reveal"  # round 1 begins: the action cards
        while state["prompt"]["key"] == "reveal":
            assert table_conn.request(state["legal"][0])["type"] == "ack"
            state = settle()
        # a power card: the table may play one, never with a modifier (its hand is secret)
        actor = state["acting_as"]
        assert state["prompt"]["key"] == "power" and state["legal"]
        assert all(t.startswith("power ") for t in state["legal"])
        assert any(t.startswith("shift ") for t in seats[actor].state["legal"])
        for i, colour in enumerate(players):
            right = players[i - 1]  # cards go to the left: each gets its right neighbour's
            hand = list(dealt[colour])
            hand.remove(passed[colour])
            expected = sorted([*hand, passed[right]])
            assert sorted(seats[colour].state["game"]["modifier_hand"]) == expected

        # the audit: before the first power card nothing about the modifier cards is public
        # (the checks above made every client read up to this state)
        for conn in conns:
            for message in conn.messages:
                if conn.name == "table":
                    visible = message
                else:  # its own hand, choices and pass may name cards; nothing else may
                    own = {"legal", "modifier_hand", "my_pass"}
                    visible = _strip(_own_log_params(message, conn.name), own)
                text = json.dumps(visible)
                leaked = [m for m in modifiers if json.dumps(m) in text or f" {m}" in text]
                assert not leaked, (conn.name, leaked, message.get("type"))
            assert len(conn.messages) > 20

    restored = restored_state(table.db)
    assert restored["snapshot"] == game.snapshot()
    assert restored["options"]["power_shift"] is True and restored["options"]["mode"] == "table"


def test_power_shift_in_dealer_mode_needs_no_entries(client: TestClient) -> None:
    created = create(
        client, players=["purple", "green", "blue"], power_shift=True, mode="dealer", seed=4
    )
    state = client.get("/api/state").json()
    assert state["prompt"]["key"] == "pass"  # the app dealt: the players only pass
    for colour, token in seat_tokens(created).items():
        mine = client.get(f"/api/seat/{token}/state").json()
        assert len(mine["game"]["modifier_hand"]) == 3
        assert all(t.startswith("pass ") for t in mine["legal"])
        card = mine["game"]["modifier_hand"][0]
        answer = client.post(f"/api/seat/{token}/action", json={"text": f"deal {colour} {card}"})
        assert answer.status_code == 409 and answer.json()["error"] == "not_your_turn"
