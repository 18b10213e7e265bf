"""A schema-driven fuzz of the table app's API: Hypothesis draws requests from the OpenAPI spec
the app serves (/openapi.json: every operation, its path and query parameters, the JSON body
schemas of host/app/api_bodies.py), mixes in hostile values (lone surrogates, Infinity, 1e400,
huge and negative numbers, deep nesting, non-ASCII tokens, wrong content types, foreign
origins, data override paths) and asserts that no request gets a server error and that a
refused request changes nothing. The WebSocket gets the same treatment: every message gets an
answer and the socket stays open.

Two apps are fuzzed: one on the fake tower (the whole state is compared around a refusal) and one
on the simulated tower (the real firmware behind a pty), where half the cases go to the dropper
routes (`/api/sim/drop`, `/api/sim/gate`): a refused one must not reach the tower, an accepted
one throws real cubes through the firmware. Every operation of the spec is reached.

Derandomized (the same cases on every run) and bounded (about half a minute for both apps); the
figures (cases, answers by class and by status, the dropper routes' statuses) are printed at the
end of each test (`pytest -s` shows them). CASTILLO_API_FUZZ_CASES=<n> sets the HTTP cases per
app (default 2000; the WebSocket runs get n/7 per role) for a longer run.
"""

from __future__ import annotations

import functools
import json
import os
import re
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host.app.server import Access, create_app
from host.app.session import Session
from host.app.store import Store
from host.app.towers import TowerRuntime
from tests.app.conftest import PLAYERS, LoopbackClient, Table, count_tower_calls

HTTP_CASES = int(os.environ.get("CASTILLO_API_FUZZ_CASES", "2000"))
WS_CASES = max(50, HTTP_CASES * 3 // 20)
SIM_ROUTES = ("/api/sim/drop", "/api/sim/gate")
FUZZ = settings(
    max_examples=HTTP_CASES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
DEEP = "[" * 600 + "]" * 600
NASTY_TEXT = [
    "\ud800",
    "a\udfffb",
    "žluťoučký kůň",
    "токен",
    "",
    " ",
    "x" * 600,
    "/etc/passwd",
    "../../pyproject.toml",
    "\x00",
    "power 99",
    "place Nowhere",
    "castillo",
    "grande:purple",
    "Purple",
    "yellow",
]
NASTY_NUMBERS = [0, -1, 1, 2**31, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**30]
RAW_BODIES = [
    b'{"issue": Infinity, "how": "accept_game"}',
    b'{"issue": NaN}',
    b'{"issue": 1e400, "check": -1e400}',
    DEEP.encode(),
    b'{"a": ' * 400 + b"1" + b"}" * 400,
    b"{",
    b"",
    b"null",
    b"[]",
    b'"text"',
    b"\xff\xfe\x00",
    b'{"text": "\\ud800"}',
    b'{"note": "\\udc00", "issue": 1, "how": "accept_game"}',
    b'{"options": {"overrides": ["/dev/zero"]}}',
    b'{"overrides": "/dev/ptmx"}',
    b'{"id": 1e999}',
]
WORDS = ["LEGAL", "accept_game", "rethrow", "not_a_cube", "done", "single", "chance", "cs", "en"]
WORDS += PLAYERS


@functools.cache
def _json_values() -> st.SearchStrategy[Any]:
    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.sampled_from(NASTY_NUMBERS),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=12),
        st.sampled_from(NASTY_TEXT + WORDS),
    )
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
        max_leaves=8,
    )


def _for_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    typed = _typed(schema)
    return st.one_of(typed, typed, typed, _json_values())  # mostly the declared type


def _typed(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """The declared type (hostile values of it too); arrays' items may be of any type."""
    kind = schema.get("type")
    if "enum" in schema:
        typed: st.SearchStrategy[Any] = st.sampled_from(schema["enum"])
    elif kind == "string":
        typed = st.sampled_from(NASTY_TEXT + WORDS) | st.text(max_size=16)
    elif kind == "integer":
        typed = st.integers(0, 12) | st.sampled_from(NASTY_NUMBERS)
    elif kind == "boolean":
        typed = st.booleans()
    elif kind == "array":
        items = _for_schema(schema.get("items", {}))
        typed = st.lists(items, max_size=6)
        if "maxItems" in schema:  # sometimes a few too many
            most = schema["maxItems"]
            typed |= st.lists(items, min_size=most - 1, max_size=most + 3)
    else:
        typed = _json_values()
    return typed


def _conforming(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """A value of the declared type only (enums, list lengths), so that well-formed requests
    reach past the checks often (lists at most 4 long: valid cubes are really thrown)."""
    kind = schema.get("type")
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if kind == "array":
        least = schema.get("minItems", 0)
        return st.lists(_conforming(schema.get("items", {})), min_size=least, max_size=4)
    if kind == "object":
        return st.just({})
    return _typed(schema)


def _body(schema: dict[str, Any] | None) -> st.SearchStrategy[bytes]:
    properties = (schema or {}).get("properties", {})
    required = (schema or {}).get("required", [])
    objects = st.fixed_dictionaries(
        {}, optional={name: _for_schema(sub) for name, sub in properties.items()}
    )
    conforming = st.fixed_dictionaries(
        {name: _conforming(properties[name]) for name in required},
        optional={
            name: _conforming(sub) for name, sub in properties.items() if name not in required
        },
    )
    with_extra = st.tuples(
        objects, st.dictionaries(st.text(max_size=8), _json_values(), max_size=2)
    )
    documents = st.one_of(
        objects,
        objects,
        conforming,
        conforming,
        with_extra.map(lambda pair: {**pair[1], **pair[0]}),
        _json_values(),
    )
    # json.dumps escapes lone surrogates as \udXXX: valid JSON the server must refuse
    return st.one_of(
        documents.map(lambda doc: json.dumps(doc).encode()), st.sampled_from(RAW_BODIES)
    )


def _path_value(name: str, schema: dict[str, Any]) -> st.SearchStrategy[str]:
    if name == "token":
        values = st.sampled_from(["SEAT", "SEAT", "stale-token"]) | st.text(min_size=1, max_size=30)
    elif schema.get("type") == "integer":
        values = st.integers(-3, 8).map(str) | st.sampled_from(NASTY_NUMBERS).map(str)
        values |= st.sampled_from(["1.5", "1e3", "Infinity", "٣", "0x10"])
    else:
        values = st.sampled_from([*PLAYERS, "pink", "red"]) | st.text(min_size=1, max_size=12)
    return values


def _operations(spec: dict[str, Any]) -> list[dict[str, Any]]:
    operations = []
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            params = {p["name"]: p for p in op.get("parameters", [])}
            for name in re.findall(r"\{(\w+)\}", path):  # routes that read the request directly
                params.setdefault(name, {"name": name, "in": "path", "schema": {"type": "string"}})
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            operations.append(
                {"path": path, "method": method.upper(), "params": params, "body": body}
            )
    return operations


def _request(operation: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    path_params = {
        name: _path_value(name, p.get("schema", {}))
        for name, p in operation["params"].items()
        if p["in"] == "path"
    }
    query = {
        name: st.sampled_from(["2023", "1995", "2000", "\u017e"]) | st.text(max_size=8)
        for name, p in operation["params"].items()
        if p["in"] == "query"
    }
    headers = st.sampled_from(
        [{}, {}, {}, {"Origin": "http://localhost:8301"}, {"Referer": "http://evil.example/"}]
    )
    content_type = st.sampled_from(
        ["application/json"] * 6 + ["text/plain", "application/json; charset=utf-8", ""]
    )
    body = _body(operation["body"].get("schema")) if operation["method"] == "POST" else st.none()
    return st.fixed_dictionaries(
        {
            "operation": st.just(operation),
            "path": st.fixed_dictionaries(path_params),
            "query": st.fixed_dictionaries(query),
            "headers": headers,
            "content_type": content_type,
            "body": body,
        }
    )


class SimTable:
    """A session on the simulated tower (the real firmware in MicroPython behind a pty) that
    counts what reaches the simulated chute and gate."""

    def __init__(self, db: Path) -> None:
        from host.tower.sim.launcher import SimTower
        from host.tower.sim_link import SimTowerLink

        self.sim = SimTower.start()
        self.store = Store(db)
        self.session = Session(self.store)
        self.link = SimTowerLink(self.sim, sink=self.session.sink)
        self.session.attach_tower(TowerRuntime("sim", self.link, self.sim))
        self.link.start()
        self.link.wait_connected(10.0)
        self.reached = count_tower_calls(self.sim)  # what reached the tower

    def close(self) -> None:
        self.session.close()
        self.sim.stop()
        self.store.close()


class Target:
    """The app under test (on the fake or the simulated tower), its session, and the fuzz's
    figures."""

    def __init__(self, db: Path, tower: str) -> None:
        self.tower = tower
        self.table: Table | SimTable = SimTable(db) if tower == "sim" else Table(db)
        self.client = LoopbackClient(create_app(self.table.session, Access()))
        self.client.__enter__()
        body = {"players": PLAYERS, "mode": "table", "short_game": True}
        assert self.client.post("/api/games", json=body).status_code == 200
        self.spec: dict[str, Any] = self.client.get("/openapi.json").json()
        self.figures: Counter[str] = Counter()
        self.statuses: Counter[int] = Counter()
        self.routes: Counter[tuple[str, int]] = Counter()  # (method path, status)

    def close(self) -> None:
        self.client.__exit__(None, None, None)
        self.table.close()

    def snapshot(self) -> tuple[Any, ...]:
        """Everything a request could change: revision, games, seats, log, language; on the
        simulated tower what reached it (its events change the revision and the log at any
        time: those two are left out there)."""
        session = self.table.session
        with session.lock:
            active = session.active
            seats = tuple(
                (s.colour, s.token, s.claimed, s.lang)
                for s in (active.seats if active else {}).values()
            )
            moving = (session.rev, active.logged if active else 0)
            if isinstance(self.table, SimTable):
                moving = tuple(sorted(self.table.reached.items()))
            return (
                *moving,
                active.id if active else None,
                len(active.game.history) if active else 0,
                seats,
                session.table_lang,
                tuple(g["id"] for g in self.table.store.list_games()),
            )

    def seat_token(self) -> str:
        active = self.table.session.active
        return next(iter(active.seats.values())).token if active else "none"

    def legal(self) -> str:
        legal = self.client.get("/api/state").json()["legal"]
        return str(legal[0]) if legal else "done"


@pytest.fixture(scope="module", params=["fake", "sim"])
def target(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[Target]:
    fuzzed = Target(tmp_path_factory.mktemp("fuzz") / "castillo.db", request.param)
    yield fuzzed
    fuzzed.close()


def _send(target: Target, case: dict[str, Any]) -> Any:
    operation = case["operation"]
    path = operation["path"]
    for name, value in case["path"].items():
        value = target.seat_token() if value == "SEAT" else value
        path = path.replace("{" + name + "}", quote(value, safe=""))
    headers = dict(case["headers"])
    body = case["body"]
    if body is not None:
        if b'"LEGAL"' in body:  # a legal action now: the fuzz also moves the game on
            body = body.replace(b'"LEGAL"', json.dumps(target.legal()).encode())
        if case["content_type"]:
            headers["Content-Type"] = case["content_type"]
    return target.client.request(
        operation["method"], path, params=case["query"], headers=headers, content=body
    )


def test_fuzzed_requests_never_get_a_server_error_and_refusals_change_nothing(
    target: Target,
) -> None:
    operations = _operations(target.spec)
    assert len(operations) >= 20  # every route of docs/table-api.md is in the spec
    assert {"/api/sim/drop", "/api/sim/gate"} <= {op["path"] for op in operations}
    requests = st.one_of([_request(operation) for operation in operations])
    if target.tower == "sim":  # half the cases for the dropper routes
        dropper = st.one_of([_request(op) for op in operations if op["path"] in SIM_ROUTES])
        anywhere = requests
        requests = st.booleans().flatmap(lambda sim: dropper if sim else anywhere)

    @FUZZ
    @given(case=requests)
    def fuzz(case: dict[str, Any]) -> None:
        before = target.snapshot()
        answer = _send(target, case)
        target.figures["cases"] += 1
        target.figures[f"{answer.status_code // 100}xx"] += 1
        target.statuses[answer.status_code] += 1
        route = f"{case['operation']['method']} {case['operation']['path']}"
        target.routes[(route, answer.status_code)] += 1
        where = f"{route}: {case}"
        assert answer.status_code < 500, f"{answer.status_code} for {where}: {answer.text[:300]}"
        if answer.status_code >= 400:
            assert target.snapshot() == before, f"a refused request changed the state: {where}"
            said = answer.json()  # ours: "reason"; Starlette's for no such path: "detail"
            assert said.get("reason") or said.get("detail"), f"a refusal without a reason: {where}"

    fuzz()
    label = f"HTTP, {target.tower} tower"
    print(f"\nAPI fuzz ({label}): {dict(sorted(target.figures.items()))}")
    print(f"API fuzz ({label}) by status: {dict(sorted(target.statuses.items()))}")
    for path in SIM_ROUTES:
        seen = {status: n for (route, status), n in sorted(target.routes.items()) if path in route}
        print(f"API fuzz ({label}) POST {path}: {seen}")
    assert target.figures["5xx"] == 0 and target.figures["cases"] >= HTTP_CASES // 2
    assert target.figures["4xx"] > 0 and target.figures["2xx"] > 0  # both kinds were reached
    reached = {route for route, _ in target.routes}
    assert reached == {f"{op['method']} {op['path']}" for op in operations}  # every operation
    if isinstance(target.table, SimTable):  # the dropper's checks were reached on both sides
        drops = {status for (route, status) in target.routes if route == "POST /api/sim/drop"}
        gates = {status for (route, status) in target.routes if route == "POST /api/sim/gate"}
        assert {200, 400} <= drops and {200, 400} <= gates
        assert target.table.reached["play"] > 0 and target.table.reached["gate"] > 0
        _wait_for(lambda: target.table.session.tower_status()["state"] == "connected")
        assert target.table.link.health()["invalid_frames"] == 0


def _wait_for(condition: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _ws_message(spec: dict[str, Any]) -> st.SearchStrategy[tuple[str, Any]]:
    types = ["action", "undo", "confirm", "resolve", "drop", "gate", "language", "ping", "x"]
    fields = {
        "text": _for_schema({"type": "string"}),
        "as": _for_schema({"type": "string"}),
        "issue": _for_schema({"type": "integer"}),
        "check": _for_schema({"type": "integer"}),
        "colours": _for_schema({"type": "array", "items": {"type": "string"}}),
        "how": _for_schema({"type": "string"}),
        "note": _for_schema({"type": "string"}),
        "lang": _for_schema({"type": "string"}),
        "id": _json_values(),
        "cubes": _for_schema(_property(spec, "/api/sim/drop", "cubes")),
        "open": _for_schema({"type": "boolean"}),
    }
    objects = st.fixed_dictionaries({"type": st.sampled_from(types)}, optional=fields)
    return st.one_of(
        objects.map(lambda doc: ("text", json.dumps(doc))),
        st.sampled_from(RAW_BODIES).map(lambda raw: ("text", raw.decode("utf-8", "replace"))),
        st.binary(max_size=40).map(lambda raw: ("bytes", raw)),
        _json_values().map(lambda doc: ("text", json.dumps(doc))),
    )


@pytest.mark.parametrize("role", ["table", "seat"])
def test_fuzzed_websocket_messages_are_answered_and_the_socket_stays(
    target: Target, role: str
) -> None:
    query = "role=table" if role == "table" else f"seat={target.seat_token()}"
    figures: Counter[str] = Counter()
    with target.client.websocket_connect(f"/ws?{query}") as ws:
        assert ws.receive_json()["type"] == "hello"

        @settings(FUZZ, max_examples=WS_CASES)
        @given(message=_ws_message(target.spec))
        def fuzz(message: tuple[str, Any]) -> None:
            kind, payload = message
            if kind == "bytes":
                ws.send_bytes(payload)
            else:
                if '"LEGAL"' in payload:
                    payload = payload.replace('"LEGAL"', json.dumps(target.legal()))
                ws.send_text(payload)
            ws.send_text('{"type": "ping", "id": "fuzz-ping"}')
            while True:  # the socket answers (a closed socket raises here)
                reply = ws.receive_json()
                if reply["type"] in ("error", "ack"):
                    figures[reply["type"]] += 1
                    assert reply.get("code") not in ("internal", "server_error"), reply
                if reply["type"] == "pong" and reply["ref"] == "fuzz-ping":
                    break
            figures["cases"] += 1

        fuzz()
    print(f"\nAPI fuzz (WebSocket, {role}, {target.tower} tower): {dict(sorted(figures.items()))}")
    assert figures["cases"] >= WS_CASES // 2 and figures["error"] > 0


def _property(spec: dict[str, Any], path: str, name: str) -> dict[str, Any]:
    """The schema of one field of a POST body in the served spec."""
    body = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    return dict(body["schema"]["properties"][name])
