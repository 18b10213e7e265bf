"""Pairing with `--lan` (docs/threat-model.md): wrong codes lock out only the client that sent
them; across all clients each code may be tried at most CODE_BUDGET times; the host can replace
the code (SIGHUP or Enter on the terminal, or a restart)."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from host.app.access import CODE_BUDGET, PAIR_FAILURES, PAIR_LOCK_S, Access, client_key
from host.app.server import create_app
from tests.app.conftest import Clock, LoopbackClient, Table

CODE = "c0ffee12"


@pytest.fixture
def lan(table: Table) -> Iterator[tuple[Access, Clock]]:
    clock = Clock(1000.0)
    yield Access(lan=True, pairing_code=CODE, clock=clock), clock


def _client(table: Table, access: Access, address: str) -> TestClient:
    return LoopbackClient(create_app(table.session, access), client=(address, 40000))


def test_wrong_codes_lock_out_only_their_own_client(
    table: Table, lan: tuple[Access, Clock]
) -> None:
    access, clock = lan
    with _client(table, access, "192.168.1.66") as guest:
        for _ in range(PAIR_FAILURES):
            assert guest.post("/api/pair", json={"code": "wrong"}).status_code == 403
        assert guest.post("/api/pair", json={"code": CODE}).status_code == 429
    with _client(table, access, "192.168.1.7") as tablet:  # another device pairs at once
        answer = tablet.post("/api/pair", json={"code": CODE})
        assert answer.status_code == 200 and answer.json()["token"] == access.table_token
    clock.advance(PAIR_LOCK_S + 1)  # the lock ends
    with _client(table, access, "192.168.1.66") as guest:
        assert guest.post("/api/pair", json={"code": CODE}).status_code == 200


def test_an_ipv6_device_cannot_dodge_its_lock_by_changing_address() -> None:
    access = Access(lan=True, pairing_code=CODE, clock=Clock())
    for n in range(PAIR_FAILURES):
        with pytest.raises(Exception, match="wrong"):
            access.pair("wrong", f"2001:db8:0:1::{n + 1}")
    with pytest.raises(Exception, match="too many"):
        access.pair(CODE, "2001:db8:0:1::abcd")
    assert access.pair(CODE, "2001:db8:0:2::1") == access.table_token
    assert client_key("::ffff:10.0.0.9") == "10.0.0.9"


def test_the_code_is_replaced_once_its_budget_of_wrong_guesses_is_spent() -> None:
    shown: list[str] = []
    access = Access(lan=True, pairing_code=CODE, clock=Clock(), on_new_code=shown.append)
    for n in range(CODE_BUDGET):  # many addresses: none of them is locked
        with pytest.raises(Exception, match="wrong"):
            access.pair(f"{n:08x}", f"10.0.{n // 200}.{n % 200 + 1}")
    assert len(shown) == 1 and shown[0] != CODE and access.pairing_code == shown[0]
    with pytest.raises(Exception, match="wrong"):
        access.pair(CODE, "10.9.9.9")  # the old code is worthless now
    assert access.pair(shown[0], "10.9.9.9") == access.table_token


def test_the_host_replaces_the_code_with_sighup() -> None:
    from host.commands.run import _new_codes_on_request

    shown: list[str] = []
    access = Access(lan=True, pairing_code=CODE, on_new_code=shown.append)
    previous = signal.getsignal(signal.SIGHUP)
    try:
        _new_codes_on_request(access)
        os.kill(os.getpid(), signal.SIGHUP)
        deadline = time.monotonic() + 5
        while access.pairing_code == CODE and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        signal.signal(signal.SIGHUP, previous)
    # renewed, and not announced: under systemd the output is the journal (the host's screen
    # shows the code: GET /api/pairing)
    assert access.pairing_code != CODE and shown == []
    with pytest.raises(Exception, match="wrong"):
        access.pair(CODE, "10.0.0.1")
