"""What the app does with its own Wi-Fi and the machine's names, in process: the password goes
to the table only (the host's screen, a paired device), never to a seat, an unpaired client or
a log line; seat codes carry the machine's address on its own network; `castillo.local` and the
machine's host name are served, foreign names and pages are still refused; the host's screen
reads the pairing code, nobody else does."""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from host.app import own_network
from host.app.access import Access
from host.app.guard import WebPolicy, machine_names
from host.app.network import LanAddress, LiveReach
from host.app.own_network import OwnNetwork, OwnNetworkState
from host.app.server import create_app
from tests.app.conftest import LoopbackClient, Table, new_game

CODE = "c0ffee12"
PORT = 8000
LAN = "192.168.1.20"  # the machine's address on a home network (a test value: nothing listens)


@dataclass
class Appliance:
    table: Table
    folder: Path
    access: Access
    reach: LiveReach
    own: OwnNetwork
    password: str

    def app(self, policy: WebPolicy | None = None) -> Any:
        policy = policy or WebPolicy.serving([], live=self.reach.serves)
        return create_app(
            self.table.session, self.access, policy=policy, reach=self.reach, own=self.own
        )

    def client(self, address: str = "127.0.0.1", **kwargs: Any) -> TestClient:
        return LoopbackClient(self.app(), client=(address, 40000), **kwargs)

    def run_own_network(self, active: bool = True) -> None:
        state = OwnNetworkState(active, "10.42.0.1" if active else None, "Castillo-T3ST")
        own_network.write_state(self.folder, state)
        self.reach.refresh()


@pytest.fixture
def appliance(tmp_path: Path) -> Iterator[Appliance]:
    table = Table(tmp_path / "castillo.db")
    made, _ = own_network.ensure_credentials(tmp_path)
    own = OwnNetwork(tmp_path)
    # the machine: a home network address, and the access point's once it is up
    reach = LiveReach(
        PORT,
        read=lambda: ([LanAddress("wlan0", LAN)], []),
        own=own.address,
    )
    try:
        yield Appliance(
            table, tmp_path, Access(lan=True, pairing_code=CODE), reach, own, made.password
        )
    finally:
        table.close()


def test_only_the_table_gets_the_wifi_password(appliance: Appliance) -> None:
    appliance.run_own_network()
    with appliance.client() as screen:  # the host's own screen (loopback)
        card = screen.get("/api/wifi").json()
        assert card["password"] == appliance.password and card["ssid"].startswith("Castillo-")
        assert card["qr"] == f"WIFI:T:WPA;S:{card['ssid']};P:{appliance.password};;"
        svg = screen.get("/api/wifi/qr.svg")
        assert svg.status_code == 200 and svg.headers["content-type"] == "image/svg+xml"
        assert svg.headers["cache-control"] == "no-store"
    host = {"Host": f"{LAN}:{PORT}"}
    with appliance.client("192.168.1.66", headers=host) as guest:  # on the network, unpaired
        for path in ("/api/wifi", "/api/wifi/qr.svg"):
            refused = guest.get(path)
            assert refused.status_code == 403 and appliance.password not in refused.text
        info = guest.get("/api/info")
        assert info.status_code == 200 and info.json()["network"]["own_network"] is True
        assert appliance.password not in info.text
        token = guest.post("/api/pair", json={"code": CODE}).json()["token"]
        paired = guest.get("/api/wifi", headers={"Authorization": f"Bearer {token}"})
        assert paired.json()["password"] == appliance.password  # a paired table device


def test_no_card_and_no_code_while_a_home_network_is_used(appliance: Appliance) -> None:
    with appliance.client() as screen:
        assert screen.get("/api/wifi").json() == {"own_network": False}
        missing = screen.get("/api/wifi/qr.svg")
        assert missing.status_code == 404 and missing.json()["error"] == "no_wifi"
        assert "own_network" not in screen.get("/api/info").json()["network"]
    appliance.run_own_network()
    appliance.run_own_network(active=False)  # a known network came back
    with appliance.client() as screen:
        assert screen.get("/api/wifi").json() == {"own_network": False}


def _all_text(messages: list[Any]) -> str:
    return json.dumps(messages)


def test_no_seat_view_and_no_log_line_holds_the_password(
    appliance: Appliance, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    appliance.run_own_network()
    seen: list[Any] = []
    with appliance.client() as screen:
        seats = new_game(screen)["seats"]
        seen.append(screen.get("/api/wifi").json())  # the table asked: the secret is out there
        for seat in seats:
            token = seat["token"]
            seen_by_seat = [screen.get(f"/api/seat/{token}/state").json()]
            seen_by_seat.append(screen.get(f"/seat/{token}").text)
            with screen.websocket_connect(f"/ws?seat={token}") as ws:
                seen_by_seat += [ws.receive_json(), ws.receive_json()]
            assert appliance.password not in _all_text(seen_by_seat), seat["colour"]
    assert appliance.password in _all_text(seen)  # the check can fail: it was sent to the table
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert appliance.password not in logged and appliance.password not in caplog.text


def test_seat_codes_carry_the_address_on_the_own_network(appliance: Appliance) -> None:
    with appliance.client() as screen:
        home = new_game(screen)["seats"][0]["url"]
        assert home.startswith(f"http://{LAN}:{PORT}/seat/")
        appliance.run_own_network()
        own = screen.get("/api/seats").json()["seats"][0]["url"]
        assert own.startswith(f"http://10.42.0.1:{PORT}/seat/")
        assert screen.get("/api/info").json()["network"] == {
            "mode": "lan",
            "public_url": f"http://10.42.0.1:{PORT}",
            "own_network": True,
        }


def test_the_machine_names_are_served_and_foreign_ones_refused(appliance: Appliance) -> None:
    names = machine_names("castillo")
    assert names == {"castillo.local", "castillo"}
    assert machine_names("my_box") == {"castillo.local"}  # not a DNS name: nothing added
    assert machine_names("kitchen-pi.lan") == {
        "castillo.local",
        "kitchen-pi.lan",
        "kitchen-pi.local",
    }
    own = socket.gethostname().lower()
    with appliance.client() as client:
        for host in ("castillo.local", "castillo.local:8000", "Castillo.Local.", *machine_names()):
            assert client.get("/api/info", headers={"Host": host}).status_code == 200, host
        for host in ("evil.example", "castillo.local.evil.example", "castillo.example"):
            refused = client.get("/api/info", headers={"Host": host})
            assert refused.status_code == 421 and refused.json()["error"] == "bad_host", host
        # our own page may talk to the server; another site's page may not
        mine = {"Host": "castillo.local:8000", "Origin": "http://castillo.local:8000"}
        assert client.post("/api/games", json={"players": []}, headers=mine).status_code != 403
        for origin in ("http://evil.example", "http://castillo.local:9999", "null"):
            foreign = {"Host": "castillo.local:8000", "Origin": origin}
            answer = client.post("/api/games", json={"players": []}, headers=foreign)
            assert answer.status_code == 403, origin
    assert own  # the machine has a host name (served when it is a DNS name)


def test_only_the_hosts_screen_reads_the_pairing_code(appliance: Appliance) -> None:
    with appliance.client() as screen:
        answer = screen.get("/api/pairing").json()
        assert answer == {"code": CODE, "url": f"http://{LAN}:{PORT}/?pair={CODE}"}
    host = {"Host": f"{LAN}:{PORT}"}
    with appliance.client("192.168.1.66", headers=host) as guest:
        refused = guest.get("/api/pairing")
        assert refused.status_code == 403 and CODE not in refused.text
        token = guest.post("/api/pair", json={"code": CODE}).json()["token"]
        paired = guest.get("/api/pairing", headers={"Authorization": f"Bearer {token}"})
        assert paired.status_code == 403  # a paired device is the table, not the host's screen
    local = create_app(appliance.table.session, Access())  # --local: no pairing at all
    with LoopbackClient(local) as screen:
        assert screen.get("/api/pairing").json() == {"code": None, "url": None}
