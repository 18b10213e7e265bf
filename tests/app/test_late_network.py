"""The network that comes after the app: `castillo run` (no option) starts in a namespace whose
link is down and has no address, the link then comes up with one, and a tablet and a phone in
the other namespace join without a restart; the terminal, `/api/info`, the seat links, the QR
codes and the table page's WebSocket all carry the new address, and again when it changes. The
host's own screen (Chromium) shows no seat codes while there is no network, and the codes of
the new address once it comes. Private namespaces joined by a veth pair (tests/app/netns.py):
nothing else is contacted.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from host.app import network
from host.app.network import LanAddress, LiveReach, Reach
from tests.app.netns import IP, REPO, Served, castillo_run, chromium_in, in_ns, wire
from tests.app.netns import needs_netns as netns
from tests.app.test_lan_reach import qr_svg
from tests.app.ui_browser import browser_context, chromium_missing, watch_errors

MISSING = chromium_missing()
browser = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")

# the table's own screen: its WebSocket, until a `network` message comes (or 20 s pass)
TABLE_SOCKET = """
import json, sys
from websockets.sync.client import connect
with connect(sys.argv[1], open_timeout=10) as ws:
    print(json.dumps(json.loads(ws.recv(timeout=10))), flush=True)  # hello: it is connected
    while True:
        message = json.loads(ws.recv(timeout=20))
        if message.get("type") == "network":
            print(json.dumps(message), flush=True)
            break
"""
INFO = "import httpx, sys; print(httpx.get(sys.argv[1] + '/api/info', timeout=10).text)"


def _python_in(ns: str, *args: str) -> str:
    result = subprocess.run(
        in_ns(ns, sys.executable, *args), cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def _printed_until(served: Served, wanted: str, wait_s: float = 15.0) -> list[str]:
    """What the app prints until a line that starts with `wanted`."""
    seen: list[str] = []
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        seen += served.more_lines(wait_s=0.5)
        if any(line.startswith(wanted) for line in seen):
            return seen
    raise AssertionError(f"no {wanted!r} line within {wait_s} s:\n" + "\n".join(seen))


@netns
def test_a_network_that_comes_later_is_served_without_a_restart() -> None:
    with wire(clients=2, up=False) as made, castillo_run(made.server_ns) as served:
        here = next(u for u in served.urls() if "127.0.0.1" in u).rstrip("/")
        port = here.rsplit(":", 1)[1]
        assert any(line.startswith("no network yet: ") for line in served.lines)
        info = json.loads(_python_in(made.server_ns, "-c", INFO, here))
        assert info["network"] == {"mode": "none", "public_url": None}
        socket_url = f"ws://127.0.0.1:{port}/ws?role=table"
        table = subprocess.Popen(
            in_ns(made.server_ns, sys.executable, "-c", TABLE_SOCKET, socket_url),
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert table.stdout is not None
            assert json.loads(table.stdout.readline())["type"] == "hello"
            made.connect()  # the link comes up with an address
            printed = _printed_until(served, "a tablet pairs by opening")
            pushed, errors = table.communicate(timeout=30)
        finally:
            table.kill()
        public = f"http://{made.server_ip}:{port}"
        assert "the network changed:" in printed
        assert f"  {public}/  (veth-table)" in printed
        assert f"seat codes carry {public}/" in printed
        assert f"a tablet pairs by opening {public}/?pair={served.pairing_code}" in printed
        # the table page hears it on its WebSocket (it redraws the seat codes)
        assert json.loads(pushed)["network"] == {"mode": "lan", "public_url": public}, errors

        # a tablet pairs and starts a game, a phone joins by its seat code: no restart
        client = ("-m", "tests.app.lan_client", public + "/", served.pairing_code)
        report = json.loads(_python_in(made.client_ns, *client))
        assert report["info"]["network"] == {"mode": "lan", "public_url": public}
        assert (report["pair"], report["start"]) == (200, 200)
        purple = next(s for s in report["seats"] if s["colour"] == "purple")
        assert purple["url"] == f"{public}/seat/{purple['token']}"
        assert report["qr_status"] == 200 and report["qr_svg"].encode() == qr_svg(purple["url"])
        assert report["phone"]["page"] == 200 and report["phone"]["seat"] == "purple"

        # the address changes: printed again, and what devices are told follows it
        moved = made.server_ip.rsplit(".", 1)[0] + ".200"
        for change in (["del", f"{made.server_ip}/24"], ["add", f"{moved}/24"]):
            address = [IP, "-n", made.server_ns, "addr", *change, "dev", "veth-table"]
            subprocess.run(address, check=True, timeout=20)
        printed = _printed_until(served, "a tablet pairs by opening")
        assert f"  http://{moved}:{port}/  (veth-table)" in printed
        assert f"seat codes carry http://{moved}:{port}/" in printed
        info = json.loads(_python_in(made.client_ns, "-c", INFO, f"http://{moved}:{port}"))
        assert info["network"] == {"mode": "lan", "public_url": f"http://{moved}:{port}"}


@browser
@netns
def test_the_hosts_screen_shows_the_seat_codes_once_the_network_comes() -> None:
    with (
        wire(up=False) as made,
        castillo_run(made.server_ns) as served,
        tempfile.TemporaryDirectory(prefix="castillo-wrapper-") as folder,
        browser_context(executable=str(chromium_in(made.server_ns, Path(folder)))) as context,
    ):
        here = next(u for u in served.urls() if "127.0.0.1" in u)
        port = here.rstrip("/").rsplit(":", 1)[1]
        errors: list[str] = []
        page = context.new_page()
        watch_errors(page, errors)
        page.goto(here)  # the host's own screen: no pairing
        page.wait_for_selector("#new-game")
        page.locator("#start-game").click()
        page.wait_for_selector("#reach-note[data-reach='none']")  # the Seats tab: no codes
        assert page.locator(".seat-card .qr").count() == 0
        made.connect()
        public = f"http://{made.server_ip}:{port}"
        page.wait_for_selector(".seat-card .qr", timeout=20_000)
        assert page.locator("#reach-note").count() == 0
        links = [a.get_attribute("href") for a in page.locator("a[data-seat-link]").all()]
        assert links and all(str(link).startswith(f"{public}/seat/") for link in links), links
        # what a phone on the network gets from such a link: its seat page
        phone = "import httpx, sys; print(httpx.get(sys.argv[1], timeout=10).status_code)"
        assert _python_in(made.client_ns, "-c", phone, str(links[0])).strip() == "200"
        assert not errors, errors


def test_the_reach_follows_the_interfaces_and_tells_its_listeners() -> None:
    """`LiveReach` without namespaces: a settable clock and interface listing."""
    now = [0.0]
    found: list[tuple[list[LanAddress], list[str]]] = [([], [])]
    reads: list[float] = []

    def read() -> tuple[list[LanAddress], list[str]]:
        reads.append(now[0])
        return found[0]

    reach = LiveReach(8000, read=read, clock=lambda: now[0])
    heard: list[Reach] = []
    reach.listeners.append(heard.append)
    assert reach.public() == {"mode": "none", "public_url": None}
    wifi = LanAddress("wlan0", "192.168.1.20")
    found[0] = ([wifi], ["fd00::20", "fe80::1"])
    now[0] = 0.1
    assert reach.public_url is None  # read at most every REREAD_S for a request …
    assert not reach.serves("10.9.9.9") and reads == [0.0]  # … a miss too early: no new read
    now[0] = 0.3
    assert reach.serves("192.168.1.20") and reads == [0.0, 0.3]  # a miss reads again at once
    assert heard == [Reach("lan", (wifi,), "http://192.168.1.20:8000")]
    assert reach.serves("fd00::20") and reach.public_url == "http://192.168.1.20:8000"
    reach.refresh()  # nothing changed: nothing heard
    assert len(heard) == 1
    found[0] = ([], [])
    now[0] = 0.3 + network.REREAD_S
    assert reach.mode == "none" and len(heard) == 2  # the address went
    assert not reach.serves("192.168.1.20")
    # --local reads nothing and serves only --public-url's host
    local = LiveReach(8000, local=True, public_url="http://Castillo.local:8000", read=read)
    assert local.serves("castillo.local") and not local.serves("192.168.1.20")
    assert local.public() == {"mode": "local", "public_url": "http://Castillo.local:8000"}


def test_it_listens_on_every_address_unless_local() -> None:
    from host.app.connections import ListeningSocket
    from host.commands.run import listen

    local = listen(True, 0)
    try:
        assert [s.getsockname()[0] for s in local] == ["127.0.0.1"]
    finally:
        for sock in local:
            sock.close()
    every = listen(False, 0)
    try:
        names = [s.getsockname()[:2] for s in every]
        port = names[0][1]
        assert names[0] == ("0.0.0.0", port)
        assert names[1:] in ([], [("::", port)])  # :: where the machine has IPv6, same port
        assert all(isinstance(s, ListeningSocket) for s in every)  # they refuse over a cap
    finally:
        for sock in every:
            sock.close()


def test_a_port_out_of_range_is_refused_with_a_message(tmp_path: Path) -> None:
    run = [sys.executable, "-m", "host.cli", "run", "--local", "--no-tower", "--port", "99999"]
    result = subprocess.run(
        [*run, "--data-dir", str(tmp_path)], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert result.stderr.strip() == "castillo run: --port 99999: give 0-65535 (0: any free port)"
