"""Where devices find the table app (host/app/network.py, `castillo run`, `make run`): the
address listing, the serving decision, what the terminal prints, seat links that carry the
address phones use, the host's own screen without pairing, and the Makefile's passthrough.
The real interfaces path runs in tests/app/test_lan_netns.py (network namespaces)."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

import pytest
import segno

from host.app import network
from host.app.access import Access, is_loopback
from host.app.network import BadPublicUrl, LanAddress, Reach, decide, public_base
from host.app.server import create_app
from host.cli import build_parser
from host.commands.run import reach_lines
from tests.app.conftest import PLAYERS, LoopbackClient, Table

REPO = Path(__file__).resolve().parents[2]
WIFI = LanAddress("wlan0", "192.168.1.20")
WIRED = LanAddress("eth0", "10.0.0.5")


def test_the_listing_skips_loopback_and_puts_the_routed_address_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    found = [WIRED, LanAddress("lo2", "127.0.0.2"), WIFI]
    monkeypatch.setattr(network, "_interface_addresses", lambda: found)
    monkeypatch.setattr(network, "_route_address", lambda: "192.168.1.20")
    monkeypatch.setattr(network.sys, "platform", "linux")
    assert network.lan_addresses() == [WIFI, WIRED]


def test_the_network_is_served_when_there_is_one_else_this_machine_only() -> None:
    lan = decide(8000, addresses=[WIFI, WIRED])
    assert (lan.mode, lan.bind_host, lan.public_url) == (
        "lan",
        "0.0.0.0",
        "http://192.168.1.20:8000",
    )
    assert lan.host_names() == ["192.168.1.20", "10.0.0.5"]
    alone = decide(8000, addresses=[])  # no address yet: every address is listened on all the
    assert (alone.mode, alone.bind_host, alone.public_url) == ("none", "0.0.0.0", None)  # same
    local = decide(8000, local=True, addresses=[WIFI])
    assert (local.mode, local.bind_host, local.public_url) == ("local", "127.0.0.1", None)


def test_a_public_url_is_what_seat_codes_carry() -> None:
    reach = decide(8000, public_url="http://Castillo.local:8100/", addresses=[WIFI])
    assert reach.public_url == "http://Castillo.local:8100"
    assert "castillo.local" in reach.host_names()
    assert decide(8000, public_url="https://t.example", addresses=[]).mode == "lan"
    for bad in ("ftp://x", "castillo.local", "http://x/table", "http://x:99999", "http://x/?a=1"):
        with pytest.raises(BadPublicUrl):
            public_base(bad)


def test_the_terminal_lists_every_address_a_device_can_use() -> None:
    lines = reach_lines(decide(8000, addresses=[WIFI, WIRED]), 8000)
    text = "\n".join(lines)
    assert "http://192.168.1.20:8000/  (wlan0)" in text and "http://10.0.0.5:8000/  (eth0)" in text
    assert "http://127.0.0.1:8000/  (this machine: no pairing needed)" in text
    assert not any(line.startswith("listening on") for line in lines)
    alone = reach_lines(decide(8000, addresses=[]), 8000)
    assert "no network yet" in alone[0] and "no restart needed" in alone[0]
    assert alone[-1] == "  http://127.0.0.1:8000/  (this machine: no pairing needed)"
    local = reach_lines(decide(8000, local=True), 8000)
    assert "--local" in local[0] and local[-1] == "listening on http://127.0.0.1:8000/"


def test_the_command_line_takes_local_lan_and_a_public_url() -> None:
    args = build_parser().parse_args(
        ["run", "--local", "--public-url", "http://t:1", "--port", "9"]
    )
    assert args.local and not args.lan and args.public_url == "http://t:1" and args.port == 9
    with pytest.raises(SystemExit):
        build_parser().parse_args(["run", "--local", "--lan"])


def test_loopback_addresses() -> None:
    assert all(map(is_loopback, ["127.0.0.1", "127.8.0.1", "::1", "::ffff:127.0.0.1"]))
    assert not any(map(is_loopback, ["192.168.1.7", "10.231.0.2", "testclient", "", "::2"]))


def test_the_hosts_own_screen_needs_no_pairing_a_device_does(table: Table) -> None:
    access = Access(lan=True, pairing_code="c0ffee12")
    reach = decide(8000, addresses=[WIFI])
    app = create_app(table.session, access, reach=reach)
    with LoopbackClient(app, client=("127.0.0.1", 50000)) as host:
        info = host.get("/api/info").json()
        assert info["pairing_required"] is False
        assert info["network"] == {"mode": "lan", "public_url": "http://192.168.1.20:8000"}
        assert host.get("/api/games").status_code == 200
        with host.websocket_connect("/ws?role=table") as ws:
            assert ws.receive_json()["role"] == "table"
    with LoopbackClient(app, client=("192.168.1.7", 50000)) as tablet:
        assert tablet.get("/api/info").json()["pairing_required"] is True
        assert tablet.get("/api/games").status_code == 403
        token = tablet.post("/api/pair", json={"code": "c0ffee12"}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        assert tablet.get("/api/games", headers=auth).status_code == 200


def test_seat_links_and_codes_carry_the_address_phones_use(table: Table) -> None:
    reach = Reach("lan", (WIFI,), "http://192.168.1.20:8000")
    app = create_app(table.session, Access(lan=True, pairing_code="c0ffee12"), reach=reach)
    with LoopbackClient(app, client=("127.0.0.1", 50000)) as host:  # the host's screen
        body = {"players": PLAYERS, "mode": "dealer", "seed": 5}
        created = host.post("/api/games", json=body).json()
        for seat in created["seats"]:
            assert seat["url"] == f"http://192.168.1.20:8000/seat/{seat['token']}"
        listed = host.get("/api/seats").json()["seats"]
        assert all(s["url"].startswith("http://192.168.1.20:8000/seat/") for s in listed)
        again = host.post("/api/seats/purple/reissue", json={}).json()
        assert again["url"] == f"http://192.168.1.20:8000/seat/{again['token']}"
        assert host.get("/api/seats/purple/qr.svg").content == qr_svg(again["url"])


def qr_svg(url: str) -> bytes:
    """The code the server draws for `url` (same encoder and settings): equal SVGs mean equal
    payloads."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, border=2)
    return out.getvalue()


def _make_n(*assignments: str) -> str:
    result = subprocess.run(
        ["make", "-n", "run", *assignments], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return next(line for line in result.stdout.splitlines() if "castillo run" in line)


def test_make_run_passes_the_port_and_the_other_options_through() -> None:
    assert _make_n().split("castillo run", 1)[1].strip() == ""
    assert _make_n("PORT=8100").endswith("castillo run --port '8100'")
    line = _make_n(
        "PORT=8100",
        "LOCAL=1",
        "PUBLIC_URL=http://castillo.local:8100",
        "ALLOW_HOST=a.local b.local",
        "SIM=1",
        "DATA_DIR=/tmp/games",
        "RUN_ARGS=--no-tower",
    )
    wanted = (
        "castillo run --port '8100' --local --public-url 'http://castillo.local:8100' "
        "--allow-host 'a.local' --allow-host 'b.local' --sim --data-dir '/tmp/games' --no-tower"
    )
    assert line.endswith(wanted), line
