"""`castillo wifi init` and `castillo wifi watch` as the appliance's units run them, with a fake
`nmcli` on PATH (no NetworkManager, no radio here): the credentials and the profile are made
once; with a known network the access point stays down, without one it is raised and the app
is told; the password never reaches the output."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from host.app import own_network

REPO = Path(__file__).resolve().parents[2]

FAKE_NMCLI = """#!{python}
# a stand-in for nmcli: logs its arguments; `connection show --active` lists a known network
# from the Nth call on (FAKE_NM_KNOWN_AT) or while the file `known` exists, and the access
# point while the file `ap` exists (`connection up` makes it); `connection up` fails when
# FAKE_NM_UP_FAILS is set
import os, sys
folder = os.environ["FAKE_NM_DIR"]
with open(os.path.join(folder, "calls"), "a") as log:
    log.write(" ".join(sys.argv[1:]) + "\\n")
args = sys.argv[1:]
if args[-3:] == ["connection", "show", "--active"]:
    count_file = os.path.join(folder, "count")
    count = int(open(count_file).read()) + 1 if os.path.exists(count_file) else 1
    open(count_file, "w").write(str(count))
    print("lo:loopback:lo:activated")
    print("Wired connection 1:802-3-ethernet:eth0:activating")
    known_at = os.environ.get("FAKE_NM_KNOWN_AT")
    if os.path.exists(os.path.join(folder, "known")) or (
        known_at is not None and count >= int(known_at)
    ):
        print("Home\\\\: upstairs:802-11-wireless:wlan0:activated")
    if os.path.exists(os.path.join(folder, "ap")):
        print("castillo-hotspot:802-11-wireless:wlan0:activated")
elif args[:2] == ["connection", "up"]:
    if os.environ.get("FAKE_NM_UP_FAILS"):
        print("Error: Connection activation failed: No suitable device found.", file=sys.stderr)
        sys.exit(4)
    open(os.path.join(folder, "ap"), "w").close()
"""


def _castillo(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "host.cli", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


@pytest.fixture
def fake_nm(tmp_path: Path) -> dict[str, str]:
    """A fake nmcli first on PATH; its calls are logged in FAKE_NM_DIR/calls."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    nmcli = bin_dir / "nmcli"
    nmcli.write_text(FAKE_NMCLI.format(python=sys.executable))
    nmcli.chmod(0o755)
    return {"PATH": f"{bin_dir}:{os.environ['PATH']}", "FAKE_NM_DIR": str(tmp_path)}


def _init(tmp_path: Path) -> tuple[Path, Path, own_network.Credentials]:
    data, profiles = tmp_path / "data", tmp_path / "nm"
    done = _castillo("wifi", "init", "--data-dir", str(data), "--profile-dir", str(profiles))
    assert done.returncode == 0, done.stderr
    made = own_network.load_credentials(data)
    assert made is not None and made.password not in done.stdout + done.stderr
    return data, profiles, made


def _calls(tmp_path: Path) -> list[str]:
    path = tmp_path / "calls"
    return path.read_text().splitlines() if path.exists() else []


def test_init_makes_the_credentials_and_profile_once(tmp_path: Path) -> None:
    data, profiles, made = _init(tmp_path)
    profile = profiles / own_network.PROFILE_FILE
    assert stat.S_IMODE((data / own_network.CREDENTIALS_FILE).stat().st_mode) == 0o600
    assert stat.S_IMODE(profile.stat().st_mode) == 0o600
    assert profile.read_text() == own_network.keyfile(made)
    again = _castillo("wifi", "init", "--data-dir", str(data), "--profile-dir", str(profiles))
    assert again.returncode == 0 and "(kept)" in again.stdout and "(unchanged)" in again.stdout
    assert own_network.load_credentials(data) == made and made.password not in again.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--address", "10.42.0.1"), "private address and prefix"),
        (("--ssid", "bad;name"), "no ';'"),
        (("--interface", "wlan0; rm"), "--interface"),
    ],
)
def test_init_refuses_bad_input_with_a_message(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    done = _castillo(
        "wifi", "init", "--data-dir", str(tmp_path / "d"), "--profile-dir", str(tmp_path), *args
    )
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_watch_leaves_the_access_point_down_when_a_known_network_connects(
    tmp_path: Path, fake_nm: dict[str, str]
) -> None:
    data, profiles, made = _init(tmp_path)
    own_network.write_state(data, own_network.OwnNetworkState(True, "10.42.0.1"))  # last boot's
    env = {**fake_nm, "FAKE_NM_KNOWN_AT": "3"}  # the home Wi-Fi connects on the third look
    done = _castillo(
        "wifi",
        "watch",
        "--data-dir",
        str(data),
        "--profile-dir",
        str(profiles),
        "--wait",
        "20",
        "--once",
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "a known network is connected (Home: upstairs)" in done.stdout
    calls = _calls(tmp_path)
    assert len(calls) == 3 and not any("up" in call.split() for call in calls), calls
    assert own_network.read_state(data) == own_network.OwnNetworkState(False)
    assert made.password not in done.stdout + done.stderr


def test_watch_raises_the_access_point_when_no_known_network_connects(
    tmp_path: Path, fake_nm: dict[str, str]
) -> None:
    data, profiles, made = _init(tmp_path)
    started = time.monotonic()
    done = _castillo(
        "wifi",
        "watch",
        "--data-dir",
        str(data),
        "--profile-dir",
        str(profiles),
        "--once",
        env={**fake_nm, "CASTILLO_WIFI_WAIT": "2"},  # the test's short wait (30 s at boot)
    )
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - started >= 2  # it waited
    calls = _calls(tmp_path)
    profile = profiles / own_network.PROFILE_FILE
    assert calls[-2:] == [f"connection load {profile}", "connection up castillo-hotspot"]
    assert len(calls) >= 3  # it looked more than once before giving up
    state = own_network.read_state(data)
    assert state == own_network.OwnNetworkState(True, "10.42.0.1", made.ssid)
    assert made.password not in (data / own_network.STATE_FILE).read_text()
    assert f"runs its own Wi-Fi '{made.ssid}' at 10.42.0.1" in done.stdout
    assert made.password not in done.stdout + done.stderr


def test_watch_says_why_when_the_access_point_cannot_come_up(
    tmp_path: Path, fake_nm: dict[str, str]
) -> None:
    data, profiles, made = _init(tmp_path)
    done = _castillo(
        "wifi",
        "watch",
        "--data-dir",
        str(data),
        "--profile-dir",
        str(profiles),
        "--wait",
        "0",
        "--once",
        env={**fake_nm, "FAKE_NM_UP_FAILS": "1"},
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "the access point could not be raised" in done.stderr
    assert "No suitable device found" in done.stderr
    assert own_network.read_state(data) == own_network.OwnNetworkState(False)
    assert made.password not in done.stdout + done.stderr


def _state_becomes(data: Path, wanted: own_network.OwnNetworkState, wait_s: float = 20) -> None:
    deadline = time.monotonic() + wait_s
    while own_network.read_state(data) != wanted:
        assert time.monotonic() < deadline, f"the state is {own_network.read_state(data)}"
        time.sleep(0.1)


def test_watch_goes_on_watching_as_a_service(tmp_path: Path, fake_nm: dict[str, str]) -> None:
    """As castillo-wifi.service runs it (no --once): up after the wait; when the access point
    goes down and a known network is there, the card goes; when that network goes too, the
    access point comes up again after the wait; stopped by SIGTERM."""
    data, profiles, made = _init(tmp_path)
    up = own_network.OwnNetworkState(True, "10.42.0.1", made.ssid)
    down = own_network.OwnNetworkState(False)
    cmd = [sys.executable, "-m", "host.cli", "wifi", "watch", "--data-dir", str(data)]
    cmd += ["--profile-dir", str(profiles), "--wait", "1"]
    proc = subprocess.Popen(
        cmd,
        cwd=REPO,
        env={**os.environ, **fake_nm},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _state_becomes(data, up)
        (tmp_path / "known").touch()  # the home Wi-Fi is back: the access point stays …
        time.sleep(2.5)
        assert own_network.read_state(data) == up
        (tmp_path / "ap").unlink()  # … until NetworkManager drops it
        _state_becomes(data, down)
        ups = [c for c in _calls(tmp_path) if c == "connection up castillo-hotspot"]
        assert len(ups) == 1
        (tmp_path / "known").unlink()  # the home Wi-Fi goes: up again after the wait
        _state_becomes(data, up)
        ups = [c for c in _calls(tmp_path) if c == "connection up castillo-hotspot"]
        assert len(ups) == 2
        assert proc.poll() is None
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=20)
    assert "a known network is connected (Home: upstairs)" in out
    assert made.password not in out + err


def test_watch_refuses_to_run_before_init_or_with_a_bad_wait(
    tmp_path: Path, fake_nm: dict[str, str]
) -> None:
    done = _castillo("wifi", "watch", "--data-dir", str(tmp_path / "empty"), env=fake_nm)
    assert done.returncode == 2 and "run `castillo wifi init` first" in done.stderr
    bad = _castillo(
        "wifi", "watch", "--data-dir", str(tmp_path), env={**fake_nm, "CASTILLO_WIFI_WAIT": "x"}
    )
    assert bad.returncode == 2 and "0-3600 seconds" in bad.stderr
    gone = _castillo("wifi", "watch", "--data-dir", str(tmp_path), "--nmcli", "no-such-nmcli")
    assert gone.returncode == 2 and "install network-manager" in gone.stderr
    assert json.dumps([done.stderr, bad.stderr]).count("Traceback") == 0
