"""The table's own Wi-Fi, unit by unit (host/app/own_network.py): the credentials file (0600,
made once, strong), the NetworkManager profile (read back by configparser and, where it is
installed, by `nmcli --offline`), the Wi-Fi QR payload's escaping, the state file."""

from __future__ import annotations

import configparser
import json
import math
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from host.app import own_network
from host.app.own_network import BadWifi, Credentials, OwnNetwork, OwnNetworkState

NMCLI = shutil.which("nmcli")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_credentials_are_made_once_0600_and_kept(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    old = os.umask(0)  # the mode must not depend on the umask
    try:
        made, created = own_network.ensure_credentials(folder)
    finally:
        os.umask(old)
    path = folder / own_network.CREDENTIALS_FILE
    assert created and _mode(path) == 0o600 and _mode(folder) == 0o700
    again, created_again = own_network.ensure_credentials(folder)
    assert not created_again and again == made  # a second run keeps them
    assert json.loads(path.read_text())["password"] == made.password
    assert [p.name for p in folder.iterdir()] == [own_network.CREDENTIALS_FILE]  # no temp left


def test_a_credentials_file_open_to_others_is_tightened(tmp_path: Path) -> None:
    made, _ = own_network.ensure_credentials(tmp_path)
    path = tmp_path / own_network.CREDENTIALS_FILE
    path.chmod(0o644)
    assert own_network.load_credentials(tmp_path) == made and _mode(path) == 0o600


def test_the_password_is_strong_and_the_name_as_promised() -> None:
    made = [own_network.generate() for _ in range(300)]
    alphabet = set(own_network.PASSWORD_ALPHABET)
    for one in made:
        assert len(one.password) == own_network.PASSWORD_LENGTH == 20
        assert set(one.password) <= alphabet and not set(one.password) <= set(
            "0123456789abcdefABCDEF"
        )
        assert one.ssid.startswith("Castillo-") and len(one.ssid) == len("Castillo-") + 4
        assert one.address == "10.42.0.1/24" and one.host == "10.42.0.1"
    assert len({one.password for one in made}) == len(made)
    assert own_network.PASSWORD_LENGTH * math.log2(len(alphabet)) > 110  # bits
    assert not alphabet & set("0O1lI")  # nothing to misread when typed from the screen
    # every symbol is drawn: 300 x 20 draws miss none of the 57
    assert {c for one in made for c in one.password} == alphabet


def test_repr_never_shows_the_password() -> None:
    made = own_network.generate()
    assert made.password not in repr(made) and made.password not in str(made)


@pytest.mark.parametrize(
    ("ssid", "password", "address", "why"),
    [
        ("", "longenough", "10.42.0.1/24", "1-32"),
        ("x" * 33, "longenough", "10.42.0.1/24", "1-32"),
        ("semi;colon", "longenough", "10.42.0.1/24", "no ';'"),
        (" lead", "longenough", "10.42.0.1/24", "either end"),
        ("ok", "short", "10.42.0.1/24", "8-63"),
        ("ok", "x" * 64, "10.42.0.1/24", "8-63"),
        ("ok", "tab\there", "10.42.0.1/24", "printable"),
        ("ok", "longenough", "10.42.0.1", "private address and prefix"),
        ("ok", "longenough", "8.8.8.1/24", "private"),
        ("ok", "longenough", "10.42.0.0/24", "private"),
        ("ok", "longenough", "nonsense", "not an IPv4"),
    ],
)
def test_unusable_credentials_are_refused(ssid: str, password: str, address: str, why: str) -> None:
    with pytest.raises(BadWifi, match=why):
        Credentials(ssid, password, address, "34a0d409-0638-4b8d-844b-e01008bf81b6").check()


def test_a_broken_credentials_file_is_refused_with_its_path(tmp_path: Path) -> None:
    path = tmp_path / own_network.CREDENTIALS_FILE
    path.write_text("{not json")
    with pytest.raises(BadWifi, match="cannot be read"):
        own_network.load_credentials(tmp_path)
    path.write_text(json.dumps({"ssid": "x"}))
    with pytest.raises(BadWifi, match="must hold ssid, password"):
        own_network.ensure_credentials(tmp_path)


def test_a_second_init_with_another_name_is_refused(tmp_path: Path) -> None:
    own_network.ensure_credentials(tmp_path, ssid="Family-Table")
    with pytest.raises(BadWifi, match="already named 'Family-Table'"):
        own_network.ensure_credentials(tmp_path, ssid="Other")


def _creds(ssid: str = "Castillo-AB2C", password: str = 'pw;with,all:\\of"them') -> Credentials:
    return Credentials(ssid, password, "10.42.0.1/24", "34a0d409-0638-4b8d-844b-e01008bf81b6")


def test_the_qr_payload_escapes_what_the_wifi_format_reserves() -> None:
    plain = _creds(password="Ab3dEf7hJk")
    assert own_network.wifi_payload(plain) == "WIFI:T:WPA;S:Castillo-AB2C;P:Ab3dEf7hJk;;"
    tricky = _creds(ssid='my;net,"x":\\', password='p;a,s:s\\"w0rd')
    assert own_network.wifi_payload(tricky) == (
        'WIFI:T:WPA;S:my\\;net\\,\\"x\\"\\:\\\\;P:p\\;a\\,s\\:s\\\\\\"w0rd;;'
    )


def _parse(text: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    parser.read_string(text)
    return parser


def test_the_profile_is_a_wpa2_access_point_with_a_fixed_address() -> None:
    made = own_network.generate()
    profile = _parse(own_network.keyfile(made, interface="wlan0"))
    assert profile.sections() == ["connection", "wifi", "wifi-security", "ipv4", "ipv6"]
    assert dict(profile["connection"]) == {
        "id": "castillo-hotspot",
        "uuid": made.uuid,
        "type": "wifi",
        "autoconnect": "false",
        "interface-name": "wlan0",
    }
    assert dict(profile["wifi"]) == {"mode": "ap", "band": "bg", "ssid": made.ssid}
    security = profile["wifi-security"]
    assert security["key-mgmt"] == "wpa-psk" and security["proto"] == "rsn;"
    assert security["pairwise"] == security["group"] == "ccmp;"
    assert security["psk"] == made.password
    assert dict(profile["ipv4"]) == {"method": "shared", "address1": "10.42.0.1/24"}
    assert "interface-name" not in _parse(own_network.keyfile(made))["connection"]


def test_the_profile_escapes_a_backslash_as_key_files_do() -> None:
    profile = _parse(own_network.keyfile(_creds(password=" a\\b cdefg")))
    assert profile["wifi-security"]["psk"] == "\\sa\\\\b cdefg"


def test_the_profile_file_is_0600_and_rewritten_only_when_it_changes(tmp_path: Path) -> None:
    path = tmp_path / "nm" / own_network.PROFILE_FILE
    text = own_network.keyfile(own_network.generate())
    assert own_network.write_keyfile(path, text) and _mode(path) == 0o600
    assert not own_network.write_keyfile(path, text)
    path.chmod(0o644)  # NetworkManager ignores a profile others can read: written again
    assert own_network.write_keyfile(path, text) and _mode(path) == 0o600


def _nmcli_reads(text: str) -> subprocess.CompletedProcess[str]:
    assert NMCLI is not None
    return subprocess.run(
        [NMCLI, "--offline", "connection", "modify", "connection.id", own_network.PROFILE_ID],
        input=text,
        capture_output=True,
        text=True,
        timeout=30,
    )


@pytest.mark.skipif(NMCLI is None, reason="nmcli is not installed (`make nmcli`)")
def test_networkmanager_reads_the_profile_offline() -> None:
    made = own_network.generate()
    read = _nmcli_reads(own_network.keyfile(made, interface="wlan0"))
    assert read.returncode == 0, read.stderr
    back = _parse(read.stdout)  # NetworkManager's own normalised keyfile
    assert back["wifi"]["mode"] == "ap" and back["wifi"]["ssid"] == made.ssid
    assert back["wifi-security"]["psk"] == made.password
    assert back["ipv4"]["method"] == "shared" and back["ipv4"]["address1"] == "10.42.0.1/24"
    assert back["connection"]["autoconnect"] == "false"
    # the check can fail: a profile NetworkManager cannot use is refused
    broken = own_network.keyfile(made).replace("mode=ap", "mode=hotspot")
    assert _nmcli_reads(broken).returncode != 0


def test_the_state_file_says_whether_the_table_runs_its_own_network(tmp_path: Path) -> None:
    seen = OwnNetwork(tmp_path)
    assert seen.address() is None and seen.card() == {"own_network": False}
    own_network.write_state(tmp_path, OwnNetworkState(True, "10.42.0.1", "Castillo-AB2C"))
    assert _mode(tmp_path / own_network.STATE_FILE) == 0o600
    assert seen.address() == "10.42.0.1"
    # no credentials file: the card says so, without a password
    assert seen.card() == {"own_network": True, "address": "10.42.0.1", "ssid": None}
    made, _ = own_network.ensure_credentials(tmp_path)
    card = seen.card()
    assert card["password"] == made.password and card["qr"] == own_network.wifi_payload(made)
    assert made.password not in (tmp_path / own_network.STATE_FILE).read_text()
    own_network.write_state(tmp_path, OwnNetworkState(False))
    assert seen.address() is None


@pytest.mark.parametrize(
    ("content", "why"),
    [("nope", "cannot be read"), ("{}", "own_network"), ('{"own_network": true}', "IPv4")],
)
def test_a_bad_state_file_means_no_own_network(tmp_path: Path, content: str, why: str) -> None:
    (tmp_path / own_network.STATE_FILE).write_text(content)
    seen = OwnNetwork(tmp_path)
    assert seen.address() is None and seen.problem is not None and why in seen.problem


def test_a_symbolic_link_is_never_followed(tmp_path: Path) -> None:
    """Root runs `castillo wifi init` in the app's folder: a link put there by the app's user
    must not make root read or change another file."""
    target = tmp_path / "elsewhere"
    target.write_text('{"ssid": "x"}')
    target.chmod(0o644)
    folder = tmp_path / "data"
    folder.mkdir(mode=0o700)
    (folder / own_network.CREDENTIALS_FILE).symlink_to(target)
    with pytest.raises(BadWifi, match="symbolic link"):
        own_network.ensure_credentials(folder)
    assert _mode(target) == 0o644  # not tightened through the link
    (folder / own_network.STATE_FILE).symlink_to(target)
    assert OwnNetwork(folder).address() is None


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root (chown)")
def test_written_by_root_the_files_belong_to_the_folders_owner(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir(mode=0o700)
    os.chown(folder, 4321, 4321)  # the app's user (StateDirectory=castillo)
    own_network.ensure_credentials(folder)
    own_network.write_state(folder, OwnNetworkState(True, "10.42.0.1", "x"))
    for name in (own_network.CREDENTIALS_FILE, own_network.STATE_FILE):
        info = (folder / name).stat()
        assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (4321, 4321, 0o600)
    profile = tmp_path / "nm" / own_network.PROFILE_FILE  # NetworkManager's folder: root's
    own_network.write_keyfile(profile, own_network.keyfile(own_network.generate()))
    assert profile.stat().st_uid == 0
