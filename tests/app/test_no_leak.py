"""No secret leaves the host: a whole random short game played through the WebSocket API, with a
fake tower throwing every announced cube, and EVERY message to EVERY client checked.

Secrets (docs/table-api.md): another seat's hand and power discards, undisclosed disc choices,
the castillo's per-colour contents (`open_castillo` is off) and the tower's counts (the fake
tower's count vectors carry a sentinel that must never appear), and the seat tokens (once a
seat has claimed its page).
"""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

from fastapi.testclient import TestClient

from engine.elgrande.frames import DiscFrame
from engine.elgrande.game import CHANCE, Game
from host.games.elgrande.prompts import SECRET_KINDS
from tests.app.conftest import SENTINEL_KEY, SENTINEL_VALUE, Table, new_game

OWN_KEYS = {"hand", "power_discards", "modifier_hand", "modifier_discards"}
OWN_STEP_KEYS = {"my_disc", "my_pass"}
NEVER_KEYS = {"contents", "hands", "decks", "used_cards", "ops", "history", "device_counts"}
MAX_STEPS = 2000


class Conn:
    def __init__(self, name: str, ws: Any) -> None:
        self.name = name  # "table" or a colour
        self.ws = ws
        self.rev = -1
        self.messages: list[dict[str, Any]] = []
        self.answers: list[dict[str, Any]] = []
        self.audited = 0

    def read(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        self.messages.append(message)
        if message["type"] == "state":
            self.rev = max(self.rev, message["rev"])
        if message["type"] in ("ack", "error"):
            self.answers.append(message)
        return message

    def drain_to(self, rev: int) -> list[dict[str, Any]]:
        """Read up to a state of `rev`; every message not returned before (also those read
        while waiting for an ack)."""
        while self.rev < rev:
            self.read()
        fresh = self.messages[self.audited :]
        self.audited = len(self.messages)
        return fresh

    def request(self, payload: dict[str, Any]) -> dict[str, Any]:
        self.ws.send_json(payload)
        while True:
            message = self.read()
            if message["type"] in ("ack", "error") and message.get("ref") == payload["id"]:
                return message


def walk(value: Any, path: tuple[str, ...] = ()) -> Any:
    """Every (path, key) of a JSON value."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (path, key)
            yield from walk(inner, (*path, key))
    elif isinstance(value, list):
        for inner in value:
            yield from walk(inner, path)


def without_legal(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_legal(v) for k, v in value.items() if k != "legal"}
    if isinstance(value, list):
        return [without_legal(v) for v in value]
    return value


class Audit:
    """Checks every message against what its receiver may know."""

    def __init__(self, tokens: dict[str, str]) -> None:
        self.tokens = tokens
        self.checked = 0

    def check(
        self, receiver: str, message: dict[str, Any], undisclosed: dict[str, str], game: Game
    ) -> None:
        self.checked += 1
        text = json.dumps(message)
        assert SENTINEL_KEY not in text and str(SENTINEL_VALUE) not in text, "tower counts leaked"
        for token in self.tokens.values():
            assert token not in text, f"a seat token reached {receiver}"
        for path, key in walk(message):
            assert key not in NEVER_KEYS, f"{key} at {path} reached {receiver}"
            if key in OWN_KEYS:
                assert receiver != "table" and path == ("state", "game"), f"{key} at {path}"
            if key in OWN_STEP_KEYS:
                assert receiver != "table" and path == ("state", "game", "step"), key
        if message["type"] == "state":
            state = message["state"]
            if receiver == "table":
                assert state["role"] == "table" and state["game"]["viewer"] is None
            else:
                assert state["seat"] == receiver and state["game"]["viewer"] == receiver
                step = state["game"].get("step") or {}
                if "my_disc" in step:
                    assert step["my_disc"] == undisclosed.get(receiver, step["my_disc"])
            for action in state.get("legal", []):
                if receiver == "table":
                    assert action.split()[0] not in SECRET_KINDS
        public = json.dumps(without_legal(message))
        for colour, region in undisclosed.items():
            if colour != receiver:
                # revealed discs are public (the log names them): the same choice made earlier
                # may be shown, the undisclosed one may not
                line = json.dumps([colour, f"disc {region}"])
                seat = game.state.colour(colour)
                made = sum(1 for p, a in game.history if p == seat and str(a) == f"disc {region}")
                shown = public.count(line)
                assert shown < made, f"{colour}'s disc reached {receiver}"


def castillo_delta(before: dict[str, int], game: Game) -> list[str]:
    after: dict[str, int] = {}
    for throw in game.state.throws:
        colour = game.state.colours[throw.colour]
        after[colour] = after.get(colour, 0) + throw.count
    out: list[str] = []
    for colour, count in after.items():
        out += [colour] * (count - before.get(colour, 0))
    return out


def throw_counts(game: Game) -> dict[str, int]:
    counts: dict[str, int] = {}
    for throw in game.state.throws:
        colour = game.state.colours[throw.colour]
        counts[colour] = counts.get(colour, 0) + throw.count
    return counts


def test_a_whole_game_leaks_nothing(client: TestClient, table: Table) -> None:
    rng = random.Random(20260)
    created = new_game(client, seed=rng.randrange(10_000))
    tokens = {s["colour"]: s["token"] for s in created["seats"]}
    audit = Audit(tokens)
    session = table.session
    active = session.active
    assert active is not None
    game = active.game
    undisclosed: dict[str, str] = {}
    with contextlib.ExitStack() as stack:
        seats = {
            c: Conn(c, stack.enter_context(client.websocket_connect(f"/ws?seat={tokens[c]}")))
            for c in ("purple", "green", "blue", "orange")
        }
        # a seat is claimed just after its socket is accepted, before its hello: until then the
        # table's state rightly carries its token (for the QR code), so the table connects once
        # every seat has its hello
        for conn in seats.values():
            assert conn.read()["type"] == "hello"
        ws_t = stack.enter_context(client.websocket_connect("/ws?role=table"))
        conns = [*seats.values(), Conn("table", ws_t)]
        table_conn = conns[-1]

        def settle() -> None:
            rev = session.rev
            for conn in conns:
                for message in conn.drain_to(rev):
                    audit.check(conn.name, message, undisclosed, game)

        settle()
        uncertain_thrown = 0
        for _ in range(MAX_STEPS):
            if game.is_terminal():
                break
            if active.checks.issues:
                resolve_issue(table, table_conn, game, rng)
                settle()
                continue
            actors = game.current_players()
            player = rng.choice(actors)
            assert player != CHANCE  # dealer mode
            colour = game.state.colours[player]
            legal = game.legal_actions(player)
            into_castillo = [a for a in legal if a.arg == "castillo" and a.kind in ("place", "to")]
            if into_castillo and rng.random() < 0.5:
                legal = into_castillo  # play the castillo often: it is what is checked
            action = rng.choice(legal)
            secret = action.kind in SECRET_KINDS
            by_table = not secret and rng.random() < 0.5
            conn = table_conn if by_table else seats[colour]
            before = throw_counts(game)
            payload = {"type": "action", "text": str(action), "id": rng.randrange(10**9)}
            answer = conn.request(payload)
            assert answer["type"] == "ack", answer
            # the discs set and not yet revealed (revealed discs are public: a set completed
            # may be followed at once by the discs of a general scoring)
            undisclosed.clear()
            if isinstance(game.state.frame, DiscFrame):
                undisclosed.update(
                    {
                        game.state.colours[p]: game.state.tok[r]
                        for p, r in game.state.frame.chosen.items()
                    }
                )
            for cube in castillo_delta(before, game):
                if uncertain_thrown < 3 and rng.random() < 0.3:
                    uncertain_thrown += 1
                    table.link.emit("uncertain", best=cube, d=3.0, pulse_us=11000)
                else:
                    table.link.drop(cube)
            settle()
        assert game.is_terminal(), "the random game did not finish"
        assert [i.kind for i in active.checks.issues] == ["empty"]  # after the last scoring
        table.link.lift_castillo()
        settle()
        assert uncertain_thrown > 0
        assert sum(throw_counts(game).values()) >= 10
        # the HTTP views obey the same rules
        for colour, token in tokens.items():
            state = client.get(f"/api/seat/{token}/state").json()
            audit.check(colour, {"type": "state", "state": state}, {}, game)
        audit.check("table", {"type": "state", "state": client.get("/api/state").json()}, {}, game)
        audit.check("table", {"type": "games", **client.get("/api/games").json()}, {}, game)
    assert audit.checked > 1000
    assert not active.checks.issues
    assert sum(c.audited for c in conns) == audit.checked - 6


def resolve_issue(table: Table, conn: Conn, game: Game, rng: random.Random) -> None:
    """What the players at the table would do about the first open throw issue."""
    issue = table.session.active.checks.issues[0]  # type: ignore[union-attr]
    ident = rng.randrange(10**9)
    if issue.kind == "confirm":
        colours = [issue.best] if issue.best else ["purple"]
        payload = {"type": "confirm", "check": issue.id, "colours": colours, "id": ident}
        answer = conn.request(payload)
    elif issue.kind == "empty":
        table.link.lift_castillo()
        return
    elif issue.kind == "recount":
        table.link.lift_castillo()
        for p, count in enumerate(game.state.pieces[game.state.CASTILLO]):
            table.link.drop(*([game.state.colours[p]] * count))
        return
    else:
        payload = {"type": "resolve", "issue": issue.id, "how": issue.options[-1], "id": ident}
        answer = conn.request(payload)
    assert answer["type"] == "ack", answer
