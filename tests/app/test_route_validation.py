"""Every route checks its input before it acts: a bad request is 400 `bad_message` with a reason
naming the field (over HTTP), an `error` on a WebSocket that stays open, and it never reaches the
tower. The simulated tower's routes (`/api/sim/drop`, `/api/sim/gate`) were the gap: an unknown
colour was a server error (the sensor model's KeyError), a bad cube count 409 `not_simulated`,
and `{"open": "false"}` opened the gate."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from host.app.server import Access, create_app
from host.app.session import ActionError, Session
from host.app.store import Store
from host.app.towers import HOW, MAX_CUBES, BadDrop, TowerRuntime, check_drop, sim_colours
from tests.app.conftest import LoopbackClient, Table, count_tower_calls, new_game


class Sim:
    """The app on the simulated tower (the real firmware behind a pty), counting what reaches
    its chute and gate switch."""

    def __init__(self, db: Path) -> None:
        from host.tower.sim.launcher import SimTower
        from host.tower.sim_link import SimTowerLink

        self.tower = SimTower.start()
        self.store = Store(db)
        self.session = Session(self.store)
        link = SimTowerLink(self.tower, sink=self.session.sink)
        self.session.attach_tower(TowerRuntime("sim", link, self.tower))
        link.start()
        link.wait_connected(10.0)
        self.reached = count_tower_calls(self.tower)
        self.client = LoopbackClient(create_app(self.session, Access()))

    def close(self) -> None:
        self.session.close()
        self.tower.stop()
        self.store.close()


@pytest.fixture(scope="module")
def sim(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sim]:
    app = Sim(tmp_path_factory.mktemp("sim") / "castillo.db")
    with app.client:
        yield app
    app.close()


def _refused(answer: Any, field: str, status: int = 400) -> str:
    """The answer is `status` `bad_message` and its reason names `field`; the reason."""
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["error"] == "bad_message" and f"'{field}'" in body["reason"], body
    return str(body["reason"])


# ---------------------------------------------------------------------- the simulated tower
@pytest.mark.parametrize(
    "cubes", [["pink"], ["grande:purple"], ["Purple"], ["green", "x" * 600], ["  red"]]
)
def test_an_unknown_colour_is_400_naming_it_and_reaches_no_tower(
    sim: Sim, cubes: list[str]
) -> None:
    before = dict(sim.reached)
    reason = _refused(sim.client.post("/api/sim/drop", json={"cubes": cubes}), "cubes")
    assert repr(cubes[-1][:20]) in reason and "purple" in reason  # what was wrong, what is known
    assert len(reason) < 300  # a 600-character name is not echoed whole
    assert dict(sim.reached) == before


@pytest.mark.parametrize("count", [0, MAX_CUBES + 1, 1000])
def test_a_bad_cube_count_is_400_not_409(sim: Sim, count: int) -> None:
    before = dict(sim.reached)
    reason = _refused(sim.client.post("/api/sim/drop", json={"cubes": ["green"] * count}), "cubes")
    assert f"1 to {MAX_CUBES}" in reason
    assert dict(sim.reached) == before


DROP_TYPES = [
    ({}, "cubes"),
    ({"cubes": "green"}, "cubes"),
    ({"cubes": None}, "cubes"),
    ({"cubes": {"green": 1}}, "cubes"),
    ({"cubes": [1]}, "cubes"),
    ({"cubes": [["green"]]}, "cubes"),
    ({"cubes": ["green"], "how": 3}, "how"),
    ({"cubes": ["green"], "how": None}, "how"),
    ({"cubes": ["green"], "how": "sideways"}, "how"),
    ({"cubes": ["green"], "how": "Single"}, "how"),
]
GATE_TYPES = [{}, {"open": "false"}, {"open": "true"}, {"open": 1}, {"open": 0}, {"open": None}]


@pytest.mark.parametrize(("body", "field"), DROP_TYPES)
def test_a_drop_of_the_wrong_shape_is_400_naming_the_field(
    sim: Sim, body: dict[str, Any], field: str
) -> None:
    before = dict(sim.reached)
    _refused(sim.client.post("/api/sim/drop", json=body), field)
    assert dict(sim.reached) == before


@pytest.mark.parametrize("body", GATE_TYPES)
def test_a_gate_switch_that_is_not_a_boolean_is_400(sim: Sim, body: dict[str, Any]) -> None:
    before = dict(sim.reached)
    _refused(sim.client.post("/api/sim/gate", json=body), "open")
    assert dict(sim.reached) == before  # "false" (a true string) used to open the gate


def test_good_drops_and_gate_switches_still_reach_the_tower(sim: Sim) -> None:
    for how in HOW:
        before = sim.reached["play"]
        answer = sim.client.post("/api/sim/drop", json={"cubes": ["green", "blue"], "how": how})
        assert answer.status_code == 200 and answer.json() == {"ok": True}, answer.text
        assert sim.reached["play"] == before + 1
    answer = sim.client.post("/api/sim/drop", json={"cubes": ["white"] * MAX_CUBES})
    assert answer.status_code == 200, answer.text
    for is_open in (True, False):
        before = sim.reached["gate"]
        assert sim.client.post("/api/sim/gate", json={"open": is_open}).status_code == 200
        assert sim.reached["gate"] == before + 1


def test_bad_dropper_messages_on_the_websocket_get_an_error_and_the_socket_stays(
    sim: Sim,
) -> None:
    bad = [*(body for body, _ in DROP_TYPES), {"cubes": ["pink"]}, {"cubes": []}]
    messages = [{"type": "drop", **body} for body in bad]
    messages += [{"type": "gate", **body} for body in GATE_TYPES]
    before = dict(sim.reached)
    with sim.client.websocket_connect("/ws?role=table") as ws:
        for ref, message in enumerate(messages):
            ws.send_json({**message, "id": ref})
            while (reply := ws.receive_json())["type"] not in ("error", "ack"):
                pass
            assert reply["type"] == "error" and reply["ref"] == ref, (message, reply)
            assert reply["code"] == "bad_message" and reply["reason"], reply
        ws.send_json({"type": "drop", "cubes": ["red"], "id": "good"})
        while (reply := ws.receive_json())["type"] != "ack":
            assert reply["type"] != "error", reply
        assert reply["ref"] == "good"
    assert sim.reached["play"] == before.get("play", 0) + 1
    assert sim.reached["gate"] == before.get("gate", 0)


def test_the_session_refuses_a_bad_drop_as_bad_input(sim: Sim) -> None:
    """The check is the tower runtime's own too: a caller past the routes gets the same."""
    with pytest.raises(ActionError) as refused:
        sim.session.drop(["pink"], "single")
    assert refused.value.code == "bad_message" and "'cubes'" in refused.value.reason
    with pytest.raises(ActionError) as refused:
        sim.session.set_gate("yes")  # type: ignore[arg-type]
    assert refused.value.code == "bad_message"


def test_check_drop_without_any_tower() -> None:
    assert check_drop(["green", "red"], "merged") == (["green", "red"], "merged")
    assert set(sim_colours()) >= {"purple", "green", "blue", "orange", "red"}
    for cubes, how in [(["pink"], "single"), ([], "single"), (["green"], "x"), ("green", "single")]:
        with pytest.raises(BadDrop):
            check_drop(cubes, how)
    with pytest.raises(BadDrop, match="'cubes'"):
        TowerRuntime("none").drop(["pink"])  # the request first, then "no simulated tower"


def test_the_spec_describes_the_dropper_bodies(sim: Sim) -> None:
    """A schema-driven fuzzer reaches past the checks only if the spec says what is valid."""
    paths = sim.client.get("/openapi.json").json()["paths"]

    def body(path: str) -> dict[str, Any]:
        schema: dict[str, Any] = paths[path]["post"]["requestBody"]["content"]["application/json"][
            "schema"
        ]
        return schema

    drop = body("/api/sim/drop")
    assert drop["required"] == ["cubes"]
    cubes = drop["properties"]["cubes"]
    assert cubes["items"]["enum"] == list(sim_colours())
    assert (cubes["minItems"], cubes["maxItems"]) == (1, MAX_CUBES)
    assert drop["properties"]["how"]["enum"] == list(HOW)
    gate = body("/api/sim/gate")
    assert gate["required"] == ["open"] and gate["properties"]["open"]["type"] == "boolean"
    assert "accept_game" in body("/api/resolve")["properties"]["how"]["enum"]


# ---------------------------------------------------------------------- without the simulation
def test_a_bad_drop_is_400_without_the_simulated_tower_too(client: TestClient) -> None:
    _refused(client.post("/api/sim/drop", json={"cubes": ["pink"]}), "cubes")
    _refused(client.post("/api/sim/drop", json={"cubes": []}), "cubes")
    _refused(client.post("/api/sim/gate", json={"open": "yes"}), "open")
    # a good request is still "not possible here": the tower is not simulated
    for path, body in [("/api/sim/drop", {"cubes": ["green"]}), ("/api/sim/gate", {"open": True})]:
        answer = client.post(path, json=body)
        assert answer.status_code == 409 and answer.json()["error"] == "not_simulated"


def _extra_cube_issue(client: TestClient, table: Table) -> int:
    """A blocking issue: a cube the tower saw that nobody announced."""
    new_game(client)
    table.link.drop("green")
    table.clock.advance(10)
    assert table.session.run_due()
    issues = client.get("/api/state").json()["checks"]["issues"]
    assert issues and issues[0]["kind"] == "extra"
    return int(issues[0]["id"])


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"how": "sideways"}, "how"),
        ({"how": 5}, "how"),
        ({"how": ["accept_game"]}, "how"),
        ({"how": "accept_game", "note": 5}, "note"),
        ({"how": "accept_game", "note": {"text": "x"}}, "note"),
        ({"how": "accept_game", "issue": "one"}, "issue"),
        ({"how": "accept_game", "issue": -1}, "issue"),
    ],
)
def test_a_bad_resolve_is_400_naming_the_field_and_leaves_the_issue_open(
    client: TestClient, table: Table, body: dict[str, Any], field: str
) -> None:
    issue = _extra_cube_issue(client, table)
    rev = client.get("/api/state").json()["rev"]
    _refused(client.post("/api/resolve", json={"issue": issue, **body}), field)
    state = client.get("/api/state").json()
    assert state["rev"] == rev and [i["id"] for i in state["checks"]["issues"]] == [issue]


def test_a_confirm_names_its_bad_id(client: TestClient) -> None:
    new_game(client)
    _refused(client.post("/api/confirm", json={"check": "x", "colours": ["green"]}), "check")
    _refused(client.post("/api/confirm", json={"issue": True, "colours": ["green"]}), "check")


def test_a_pairing_code_must_be_text(table: Table) -> None:
    access = Access(lan=True, pairing_code="123456")
    with LoopbackClient(create_app(table.session, access)) as lan:
        for code in (123456, ["123456"], None):
            _refused(lan.post("/api/pair", json={"code": code}), "code")


def test_a_language_must_be_one_of_the_four(client: TestClient, table: Table) -> None:
    new_game(client)
    with client.websocket_connect("/ws?role=table") as ws:
        for ref, lang in enumerate([5, None, ["cs"], "de", "CS"]):
            ws.send_json({"type": "language", "lang": lang, "id": ref})
            while (reply := ws.receive_json())["type"] != "error":
                assert reply["type"] != "ack", reply
            assert reply["ref"] == ref and "'lang'" in reply["reason"], reply
        ws.send_json({"type": "language", "lang": "cs", "id": "ok"})
        while (reply := ws.receive_json())["type"] != "ack":
            pass
    assert table.session.table_lang == "cs"
