"""The appliance package installed on a stock Debian bookworm card and booted (issue 26).

amd64 stands in for the Pi's arm64: the container installs the very `_all` package the Pi
installs (its installer picks the x86_64 wheelhouse here, aarch64 on the Pi; the same code,
units and layout; test_package.py checks the aarch64 wheel set resolves completely). The
container is systemd-nspawn -b on a debootstrap root file system (tests/appliance/container.py).
"""

from __future__ import annotations

import subprocess
import time

import pytest

from tests.app.netns import Wire
from tests.appliance import container as ct
from tests.appliance.conftest import FIGURES, version

pytestmark = pytest.mark.skipif(bool(ct.why_not()), reason=ct.why_not() or "-")


def test_install_layout(installed: ct.Container) -> None:
    """The version in its own folder behind an atomic `current` link; the system users; the
    data folder 0700 and the database 0600, both castillo's; the stock host name replaced."""
    box = installed
    assert box.run("readlink", "/opt/castillo/current").stdout.strip() == f"versions/{version()}"
    assert (
        box.run("test", "-x", f"/opt/castillo/versions/{version()}/venv/bin/castillo").returncode
        == 0
    )
    stat = box.run(
        "stat", "-c", "%a %U %G", "/var/lib/castillo", "/var/lib/castillo/castillo.db"
    ).stdout
    assert stat.split("\n")[:2] == ["700 castillo castillo", "600 castillo castillo"], stat
    # the Pi's own Wi-Fi, made at install: its password castillo's alone, the NetworkManager
    # access-point profile root's alone
    wifi = box.run(
        "stat",
        "-c",
        "%a %U %G %n",
        "/var/lib/castillo/wifi.json",
        "/etc/NetworkManager/system-connections/castillo-hotspot.nmconnection",
    ).stdout.splitlines()
    assert [line.rsplit(" ", 1)[0] for line in wifi] == [
        "600 castillo castillo",
        "600 root root",
    ], wifi
    # the code is root's: the app cannot change what it runs
    assert (
        box.run(
            "stat", "-c", "%U %a", f"/opt/castillo/versions/{version()}/venv/bin/castillo"
        ).stdout.split()[0]
        == "root"
    )
    passwd = box.run("getent", "passwd", "castillo").stdout
    assert passwd.split(":")[6].strip() == "/usr/sbin/nologin" and int(passwd.split(":")[2]) < 1000
    assert "dialout" in box.run("id", "-nG", "castillo").stdout.split()
    assert box.run("cat", "/etc/hostname").stdout.strip() == "castillo"
    for unit in ("castillo.service", "castillo-wifi.service", "castillo-kiosk.service"):
        assert box.run("systemctl", "is-enabled", unit).stdout.strip() == "enabled", unit
    # the app runs as castillo, from the current version
    pid = ct.main_pid(box)
    assert box.run("ps", "-o", "user=", "-p", str(pid)).stdout.strip() == "castillo"
    assert "/opt/castillo/current/venv/bin/castillo run" in box.run(
        "cat", f"/proc/{pid}/cmdline"
    ).stdout.replace("\0", " ")
    # the engine it runs: compiled when the package carries this CPU's compiled wheel (make
    # appliance on a machine with a C compiler), else the plain one (as on the Pi)
    compiled = box.run(
        "sh", "-c", "ls /usr/lib/castillo-appliance/wheelhouse/x86_64/castillo_kit-*", check=False
    )
    journal = box.run("journalctl", "-u", "castillo.service", "-o", "cat", "--no-pager").stdout
    expected = "engine: compiled with mypyc" if compiled.returncode == 0 else "engine: plain Python"
    assert expected in journal, journal[-2000:]
    # the kiosk has no screen (no tty1, no cage) in a container: skipped, not failed
    kiosk = box.unit("castillo-kiosk.service", "ActiveState", "ConditionResult")
    assert kiosk["ConditionResult"] == "no" and kiosk["ActiveState"] == "inactive", kiosk


def test_units_verify(installed: ct.Container) -> None:
    """systemd-analyze verify finds nothing to say about the installed units (any output
    fails: some mistakes only warn). cage is stubbed for the check only."""
    box = installed
    box.run("sh", "-c", "printf '#!/bin/sh\\n' >/usr/bin/cage && chmod 755 /usr/bin/cage")
    try:
        done = box.run(
            "systemd-analyze",
            "verify",
            "--man=no",
            "castillo.service",
            "castillo-kiosk.service",
            "castillo-wifi.service",
            check=False,
        )
    finally:
        box.run("rm", "-f", "/usr/bin/cage")
    assert done.returncode == 0 and not done.stdout.strip() and not done.stderr.strip(), done.stderr


def test_kill9_restarts_five_times(installed: ct.Container) -> None:
    """After kill -9 a new process serves within 10 s, five times in a row."""
    box = installed
    took = []
    for _ in range(5):
        before = ct.main_pid(box)
        box.run("kill", "-9", str(before))
        started = time.monotonic()
        while ct.main_pid(box) in (before, 0):
            assert time.monotonic() - started < 10, "no new process within 10 s"
            time.sleep(0.1)
        took.append(
            time.monotonic() - started + box.wait_serving(10 - (time.monotonic() - started))
        )
    FIGURES["kill -9 to serving (5 runs)"] = " ".join(f"{t:.1f}" for t in took) + " s"


def test_reload_renews_pairing_code(installed: ct.Container) -> None:
    """systemctl reload castillo (SIGHUP) gives a new pairing code (read, as the Pi's own screen
    does, from GET /api/pairing on loopback); the process stays, and the renewed code is not
    written to the journal."""
    box = installed

    def code() -> str:
        status, answer = box.http("/api/pairing")
        assert status == 200 and answer["code"], answer
        return str(answer["code"])

    before, pid = code(), ct.main_pid(box)
    box.run("systemctl", "reload", "castillo.service")
    deadline = time.monotonic() + 10
    while code() == before:
        assert time.monotonic() < deadline, "no new pairing code after reload"
        time.sleep(0.2)
    assert ct.main_pid(box) == pid
    journal = box.run("journalctl", "-u", "castillo.service", "-o", "cat", "--no-pager").stdout
    assert code() not in journal


PHONE_GET = """
import sys, urllib.request, urllib.error
request = urllib.request.Request(sys.argv[1], headers={"Host": sys.argv[2]})
try:
    print(urllib.request.urlopen(request, timeout=10).status)
except urllib.error.HTTPError as exc:
    print(exc.code)
"""


def phone_get(network: Wire, url: str, host: str) -> int:
    done = subprocess.run(
        ["ip", "netns", "exec", network.client_ns, "python3", "-c", PHONE_GET, url, host],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return int(done.stdout)


def test_castillo_local_from_a_phone(installed: ct.Container, network: Wire) -> None:
    """From another network namespace over a veth: castillo.local resolves (mDNS, avahi in the
    container) to the Pi's address, another name does not, and the table answers for that
    name while a foreign host name is refused."""
    deadline = time.monotonic() + 20
    while not (found := ct.mdns_resolve(network.client_ns, "castillo.local", network.client_ip)):
        assert time.monotonic() < deadline, "castillo.local did not resolve over mDNS"
    assert found == network.server_ip
    assert ct.mdns_resolve(network.client_ns, "nosuchbox.local", network.client_ip) == ""
    url = f"http://{found}:8000/api/info"
    assert phone_get(network, url, "castillo.local:8000") == 200
    assert phone_get(network, url, "evil.example:8000") == 421


def test_boot_to_serving(installed: ct.Container) -> None:
    """A reboot of the card: the table serves within 60 s of the container starting, with
    the saved game still there."""
    box = installed
    status, game = box.http(
        "/api/games",
        {
            "players": ["purple", "green", "blue", "orange"],
            "mode": "dealer",
            "seed": 5,
            "short_game": True,
        },
    )
    assert status == 200, game
    box.shutdown()
    box.boot()
    took = time.monotonic() - box.booted_at
    took += box.wait_serving(60 - took)
    FIGURES["boot to serving"] = f"{took:.1f} s"
    status, games = box.http("/api/games")
    assert status == 200 and games["active"] == game["id"], games
