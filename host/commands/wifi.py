"""`castillo wifi`: the table's own Wi-Fi for an appliance with no known network (docs/table-app.md,
"Its own Wi-Fi").

- `castillo wifi init` (at install, as root): the network's name (`Castillo-XXXX`) and a strong
  password, made once and kept in the data folder (`wifi.json`, 0600); the NetworkManager
  access-point profile written from them (0600). A second run keeps both.
- `castillo wifi watch` (a service, after NetworkManager): waits for a known network (about
  30 s); when none connects it raises the access point and tells `castillo run`
  (`own-network.json`), which then shows the Wi-Fi QR code on the table and puts its address
  there in seat codes. It goes on watching: an access point that goes down is raised again
  after the wait (`--once`: stop once decided).

The password is never printed: the table's screen shows it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from host.app import own_network
from host.app.own_network import BadWifi, OwnNetworkState

WAIT_S = 30.0  # how long `watch` waits for a known network (CASTILLO_WIFI_WAIT overrides)
POLL_S = 1.0  # how often NetworkManager is asked
NMCLI_TIMEOUT_S = 60.0  # bringing an access point up can take a while
# connection types that mean "a network the family's phones are on too"
KNOWN_TYPES = frozenset(
    {"802-11-wireless", "wifi", "802-3-ethernet", "ethernet", "gsm", "cdma", "pppoe", "bluetooth"}
)


def _data_dir(args: argparse.Namespace) -> Path:
    from host.commands.run import default_db

    return Path(args.data_dir) if args.data_dir else default_db().parent


def register(subparsers: Any) -> None:
    wifi = subparsers.add_parser(
        "wifi", help="the table's own Wi-Fi when there is no known network (an appliance)"
    )
    steps = wifi.add_subparsers(dest="wifi_command", required=True, metavar="STEP")
    data_help = "the app's data folder, as `castillo run --data-dir` (default: its default's)"

    init = steps.add_parser(
        "init", help="make the network's name and password once; write the access-point profile"
    )
    init.add_argument("--data-dir", type=Path, help=data_help)
    init.add_argument(
        "--profile-dir",
        type=Path,
        default=own_network.NM_DIR,
        help=f"where NetworkManager's profiles are (default {own_network.NM_DIR})",
    )
    init.add_argument(
        "--address",
        default=own_network.DEFAULT_ADDRESS,
        help=f"the table's address on its own network, with its prefix (default "
        f"{own_network.DEFAULT_ADDRESS}); kept from the first run",
    )
    init.add_argument("--ssid", help="the network's name (default: Castillo- and 4 characters)")
    init.add_argument("--interface", help="the Wi-Fi interface (default: any, e.g. wlan0)")
    init.set_defaults(handler=wifi_init)

    watch = steps.add_parser(
        "watch", help="wait for a known network; raise the access point when none connects"
    )
    watch.add_argument("--data-dir", type=Path, help=data_help)
    watch.add_argument(
        "--profile-dir",
        type=Path,
        default=own_network.NM_DIR,
        help=f"where the access-point profile is (default {own_network.NM_DIR})",
    )
    watch.add_argument(
        "--wait",
        type=float,
        default=None,
        metavar="SECONDS",
        help=f"how long to wait for a known network (default {WAIT_S:g}; "
        "or the CASTILLO_WIFI_WAIT environment variable)",
    )
    watch.add_argument("--nmcli", default="nmcli", help="the nmcli program (default: on PATH)")
    watch.add_argument(
        "--once",
        action="store_true",
        help="stop once decided (a known network, or the access point up); "
        "default: keep watching until stopped",
    )
    watch.set_defaults(handler=wifi_watch)


def _fail(message: str, code: int = 2) -> int:
    print(f"castillo wifi: {message}", file=sys.stderr)
    return code


def wifi_init(args: argparse.Namespace) -> int:
    folder = _data_dir(args)
    try:
        credentials, made = own_network.ensure_credentials(folder, args.address, args.ssid)
    except BadWifi as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"cannot write the credentials in {folder}: {exc.strerror}")
    if args.interface is not None and not _interface_name(args.interface):
        return _fail(f"--interface {args.interface!r}: give an interface name such as wlan0")
    profile_dir: Path = args.profile_dir
    if profile_dir == own_network.NM_DIR and not profile_dir.parent.is_dir():
        return _fail(
            f"NetworkManager is not installed here ({profile_dir.parent} is missing): install "
            "network-manager, or give --profile-dir"
        )
    profile = profile_dir / own_network.PROFILE_FILE
    try:
        written = own_network.write_keyfile(
            profile, own_network.keyfile(credentials, args.interface)
        )
    except OSError as exc:
        return _fail(f"cannot write {profile}: {exc.strerror} (run as root)")
    print(
        f"Wi-Fi access point: network {credentials.ssid!r} at {credentials.host} "
        f"({'made now' if made else 'kept'}); its password is in "
        f"{folder / own_network.CREDENTIALS_FILE} (0600) and on the table's screen"
    )
    print(f"NetworkManager profile: {profile} ({'written' if written else 'unchanged'})")
    return 0


def _interface_name(name: str) -> bool:
    return 0 < len(name) <= 15 and all(c.isalnum() or c in "-_." for c in name)


class NmcliError(Exception):
    pass


def _nmcli(nmcli: str, *args: str) -> str:
    try:
        done = subprocess.run(
            [nmcli, *args], capture_output=True, text=True, timeout=NMCLI_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise NmcliError(f"{nmcli} {' '.join(args)}: {exc}") from None
    if done.returncode != 0:
        why = (done.stderr or done.stdout).strip().splitlines()
        raise NmcliError(f"{nmcli} {' '.join(args)} failed: {why[-1] if why else done.returncode}")
    return done.stdout


def _terse_fields(line: str) -> list[str]:
    """One line of `nmcli -t`: fields split at `:`, with `\\:` and `\\\\` unescaped."""
    fields, current, escaped = [], "", False
    for char in line:
        if escaped:
            current += char
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == ":":
            fields.append(current)
            current = ""
        else:
            current += char
    return [*fields, current]


def network_status(nmcli: str) -> tuple[str | None, bool]:
    """(the name of an active connection to a known network: Wi-Fi, Ethernet, mobile; whether
    the table's own access point is up) from NetworkManager's active connections."""
    out = _nmcli(nmcli, "-t", "-f", "NAME,TYPE,DEVICE,STATE", "connection", "show", "--active")
    known, own = None, False
    for line in out.splitlines():
        fields = _terse_fields(line)
        if len(fields) != 4 or fields[3] != "activated":
            continue
        name, kind = fields[0], fields[1]
        if name == own_network.PROFILE_ID:
            own = True
        elif kind in KNOWN_TYPES and known is None:
            known = name
    return known, own


def _wait_s(args: argparse.Namespace) -> float | None:
    if args.wait is not None:
        return float(args.wait)
    raw = os.environ.get("CASTILLO_WIFI_WAIT")
    if raw is None:
        return WAIT_S
    try:
        return float(raw)
    except ValueError:
        return None


def wifi_watch(args: argparse.Namespace) -> int:
    """Until stopped (or, with `--once`, until it has decided): the access point comes up when
    no known network has been connected for the wait, and `own-network.json` follows what
    NetworkManager says. Once up, the access point stays up while phones may be on it, even if
    a known network (a cable) appears; if it goes down, the wait starts again."""
    folder = _data_dir(args)
    wait_s = _wait_s(args)
    if wait_s is None or not 0 <= wait_s <= 3600:
        return _fail("the wait (--wait or CASTILLO_WIFI_WAIT) must be 0-3600 seconds")
    nmcli = shutil.which(args.nmcli)
    if nmcli is None:
        return _fail(f"{args.nmcli} is not installed: install network-manager")
    try:
        credentials = own_network.load_credentials(folder)
    except BadWifi as exc:
        return _fail(str(exc))
    if credentials is None:
        return _fail(f"no Wi-Fi credentials in {folder}: run `castillo wifi init` first")
    told: bool | None = None

    def tell(active: bool) -> None:
        nonlocal told
        if told is not active:
            off = OwnNetworkState(False)
            on = OwnNetworkState(True, credentials.host, credentials.ssid)
            own_network.write_state(folder, on if active else off)
            told = active

    try:  # deciding: the table shows no Wi-Fi card meanwhile (a state from the last boot)
        tell(False)
    except OSError as exc:
        return _fail(f"cannot write {folder / own_network.STATE_FILE}: {exc.strerror}")
    profile = args.profile_dir / own_network.PROFILE_FILE
    since = time.monotonic()  # no known network since then
    problem = ""
    last_known: str | None = None  # said once per connection
    while True:
        try:
            known, own = network_status(nmcli)
            problem = ""
        except NmcliError as exc:  # NetworkManager (re)starting: ask again, change nothing
            known, own, problem = None, bool(told), str(exc)
        now = time.monotonic()
        if own:
            if told is not True:
                print(
                    f"the table runs its own Wi-Fi {credentials.ssid!r} at {credentials.host}",
                    flush=True,
                )
            tell(True)
            if args.once:
                return 0
        elif known is not None:
            if known != last_known:
                print(f"a known network is connected ({known}): no access point", flush=True)
            tell(False)
            since = now
            if args.once:
                return 0
        elif told:  # the access point went down: wait again before raising it
            print("the access point went down", flush=True)
            tell(False)
            since = now
        elif now - since >= wait_s:
            if problem:
                print(f"castillo wifi: NetworkManager did not answer: {problem}", file=sys.stderr)
            try:
                if profile.exists():  # NetworkManager reads a profile written since it started
                    _nmcli(nmcli, "connection", "load", str(profile))
                _nmcli(nmcli, "connection", "up", own_network.PROFILE_ID)
            except NmcliError as exc:
                return _fail(f"the access point could not be raised: {exc}", 1)
            tell(True)
            print(
                f"no known network within {wait_s:g} s: the table runs its own Wi-Fi "
                f"{credentials.ssid!r} at {credentials.host}",
                flush=True,
            )
            if args.once:
                return 0
        last_known = None if own else known
        time.sleep(POLL_S)
