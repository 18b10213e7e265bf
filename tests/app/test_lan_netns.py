"""The network path for real: `castillo run` (no option: the default of `make run`) in one network
namespace, the phone and the second tablet in another, joined by a veth pair with private
addresses that exist inside the namespaces only (tests/app/netns.py). Nothing is sent to the
machine's own interfaces or to any other host.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.app.netns import (
    NETNS_MISSING,
    REPO,
    Served,
    Wire,
    castillo_run,
    in_ns,
    lone_namespace,
    served_on_wire,
)
from tests.app.netns import needs_netns as netns
from tests.app.test_lan_reach import qr_svg

if NETNS_MISSING:
    print(f"\n[test_lan_netns] SKIPPING: {NETNS_MISSING}")


@pytest.fixture(scope="module")
def lan() -> Iterator[tuple[Wire, Served]]:
    with served_on_wire() as both:
        yield both


def _python_in(ns: str, *args: str) -> str:
    result = subprocess.run(
        in_ns(ns, sys.executable, *args), cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@netns
def test_the_server_prints_the_address_devices_use_and_a_pairing_link(
    lan: tuple[Wire, Served],
) -> None:
    wire, served = lan
    port = next(u for u in served.urls() if "127.0.0.1" in u).rstrip("/").rsplit(":", 1)[1]
    network_url = f"http://{wire.server_ip}:{port}"
    assert f"  {network_url}/  (veth-table)" in served.lines
    assert not any(line.startswith("listening on http://127.0.0.1") for line in served.lines)
    assert f"seat codes carry {network_url}/" in served.lines
    assert f"a tablet pairs by opening {network_url}/?pair={served.pairing_code}" in served.lines
    assert len(served.pairing_code) == 8


@netns
def test_a_tablet_pairs_and_starts_a_phone_joins_by_its_code(lan: tuple[Wire, Served]) -> None:
    wire, served = lan
    base = next(u for u in served.urls() if wire.server_ip in u and "?pair=" not in u)
    client = ("-m", "tests.app.lan_client", base, served.pairing_code)
    report = json.loads(_python_in(wire.client_ns, *client))
    public = base.rstrip("/")
    assert report["info"]["pairing_required"] is True
    assert report["info"]["network"] == {"mode": "lan", "public_url": public}
    assert report["wrong_code"] == 403  # a wrong code is refused
    assert report["start_unpaired"] == 403  # and nothing starts without pairing
    assert (report["pair"], report["start"], report["games"]) == (200, 200, 200)
    purple = next(s for s in report["seats"] if s["colour"] == "purple")
    assert purple["url"] == f"{public}/seat/{purple['token']}"
    # the QR code the table shows carries exactly that URL
    assert report["qr_status"] == 200 and report["qr_svg"].encode() == qr_svg(purple["url"])
    phone = report["phone"]
    assert phone["page"] == 200 and phone["page_type"].startswith("text/html")
    assert phone["hello"] == {"type": "hello", "role": "seat", "seat": "purple", "lang": "en"}
    assert phone["seat"] == "purple" and phone["hand"] == list(range(1, 14))  # its private hand


@netns
def test_the_hosts_own_screen_needs_no_pairing(lan: tuple[Wire, Served]) -> None:
    wire, served = lan
    here = next(u for u in served.urls() if "127.0.0.1" in u)
    script = (
        "import httpx, sys; b = sys.argv[1]; "
        "print(httpx.get(b + 'api/info').json()['pairing_required'], "
        "httpx.get(b + 'api/games').status_code)"
    )
    assert _python_in(wire.server_ns, "-c", script, here).split() == ["False", "200"]


@netns
def test_without_a_network_the_app_says_so() -> None:
    with lone_namespace() as ns, castillo_run(ns) as running:
        assert any(line.startswith("no network yet: ") for line in running.lines)
        assert not any("a tablet pairs by opening" in line for line in running.lines)
        here = next(u for u in running.urls() if "127.0.0.1" in u)
        script = "import httpx, sys; print(httpx.get(sys.argv[1] + 'api/info').text)"
        info = json.loads(_python_in(ns, "-c", script, here))
        assert info["network"] == {"mode": "none", "public_url": None}
        # it listens on every address all the same (tests/app/test_late_network.py): a device
        # that comes later will have to pair; the host's own screen never does
        assert info["lan"] is True and info["pairing_required"] is False
