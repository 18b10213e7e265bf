"""The table's own Wi-Fi (docs/table-app.md, "Its own Wi-Fi"): the access point an appliance
raises when no known network connects, and what the app shows while it runs.

Three files, all 0600:
- `wifi.json` in the app's data folder: the network's name and password, made once
  (`castillo wifi init`) and kept from then on; the address the access point has;
- the NetworkManager profile (a keyfile, `castillo-hotspot.nmconnection`) written from it;
- `own-network.json` in the data folder: written by `castillo wifi watch`, read by `castillo
  run`: whether the machine runs its own network now, and its address there. It never holds the
  password: the table page reads that from `wifi.json` (GET /api/wifi, the table only).

The password is a secret: it is never printed, logged, or sent to anyone but the table.
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import json
import os
import secrets
import stat
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CREDENTIALS_FILE = "wifi.json"
STATE_FILE = "own-network.json"
PROFILE_ID = "castillo-hotspot"
PROFILE_FILE = f"{PROFILE_ID}.nmconnection"
NM_DIR = Path("/etc/NetworkManager/system-connections")
DEFAULT_ADDRESS = "10.42.0.1/24"
SSID_PREFIX = "Castillo-"
# no look-alikes (0/O, 1/l/I): the name and password can be typed from the screen too
SSID_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
PASSWORD_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
SSID_SUFFIX = 4
PASSWORD_LENGTH = 20  # 57 symbols: about 117 bits
FILE_MODE = 0o600
MAX_FILE = 64 << 10  # a credentials or state file is a few hundred bytes
# the WIFI: payload's special characters (ZXing's format, as phones read it); segno's helper
# leaves `,` alone, so the escaping is done here
_WIFI_SPECIAL = frozenset('\\;,:"')
_HEX = frozenset("0123456789abcdefABCDEF")


class BadWifi(ValueError):
    """Credentials or a state file that cannot be used: the message says what to do."""


@dataclass(frozen=True)
class Credentials:
    """The access point's name, password and address (an interface: `10.42.0.1/24`), and
    the NetworkManager profile's uuid (kept: a new one would be a second profile)."""

    ssid: str
    password: str
    address: str = DEFAULT_ADDRESS
    uuid: str = ""

    @property
    def host(self) -> str:
        """The machine's own address on that network (what seat codes carry)."""
        return str(ipaddress.IPv4Interface(self.address).ip)

    def check(self) -> Credentials:
        """These credentials, or BadWifi (a hand-edited file, a bad `--ssid`)."""
        check_ssid(self.ssid)
        check_password(self.password)
        check_address(self.address)
        try:
            uuid.UUID(self.uuid)
        except ValueError:
            raise BadWifi(f"the profile's uuid {self.uuid!r} is not a uuid") from None
        return self

    def to_json(self) -> dict[str, str]:
        return {
            "ssid": self.ssid,
            "password": self.password,
            "address": self.address,
            "uuid": self.uuid,
        }

    def __repr__(self) -> str:  # never the password, even in a traceback
        return f"Credentials(ssid={self.ssid!r}, address={self.address!r})"


def check_ssid(ssid: str) -> None:
    """1-32 bytes of printable ASCII, no `;` (NetworkManager's keyfile would read
    `1;2;` as bytes), no space at either end."""
    if not isinstance(ssid, str) or not 1 <= len(ssid.encode()) <= 32:
        raise BadWifi("the network name must be 1-32 characters")
    if not all(" " <= c <= "~" for c in ssid) or ";" in ssid or ssid != ssid.strip():
        raise BadWifi(
            "the network name may hold printable ASCII only (no ';', no space at either end)"
        )


def check_password(password: str) -> None:
    """WPA2's passphrase: 8-63 printable ASCII characters."""
    if not isinstance(password, str) or not 8 <= len(password) <= 63:
        raise BadWifi("the Wi-Fi password must be 8-63 characters")
    if not all(" " <= c <= "~" for c in password):
        raise BadWifi("the Wi-Fi password may hold printable ASCII characters only")


def check_address(address: str) -> None:
    """A private IPv4 address with its prefix (/8 to /30), not the network's first or last."""
    try:
        interface = ipaddress.IPv4Interface(address)
    except ValueError:
        raise BadWifi(f"{address!r} is not an IPv4 address with a prefix (10.42.0.1/24)") from None
    network = interface.network
    if (
        not 8 <= network.prefixlen <= 30
        or not interface.ip.is_private
        or interface.ip.is_loopback
        or interface.ip in (network.network_address, network.broadcast_address)
    ):
        raise BadWifi(f"{address}: give a private address and prefix such as {DEFAULT_ADDRESS}")


def generate(address: str = DEFAULT_ADDRESS, ssid: str | None = None) -> Credentials:
    """New credentials: `Castillo-XXXX` (unless `ssid`) and a random 20-character password
    from the `secrets` module (never all hex digits: a reader could take it for a raw key)."""
    if ssid is None:
        ssid = SSID_PREFIX + "".join(secrets.choice(SSID_ALPHABET) for _ in range(SSID_SUFFIX))
    while True:
        password = "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(PASSWORD_LENGTH))
        if not set(password) <= _HEX:
            break
    return Credentials(ssid, password, address, str(uuid.uuid4())).check()


def _private_write(path: Path, text: str) -> None:
    """Write `text` to `path` atomically (a new file, then a rename), mode 0600 from the start;
    owned like its folder when root writes it (the app's user reads it under systemd). Every
    change is made through the open file: nothing put in its place meanwhile is touched."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, FILE_MODE)
    try:
        os.fchmod(fd, FILE_MODE)  # O_CREAT's mode is filtered by the umask
        folder = path.parent.stat()
        if os.geteuid() == 0 and folder.st_uid != 0:
            os.fchown(fd, folder.st_uid, folder.st_gid)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            fd = -1
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def _read_private(path: Path, tighten: bool = False) -> Any:
    """The JSON in `path` (None when there is no such file), read through one open file that
    is not a symbolic link; made 0600 first when `tighten`. BadWifi when it cannot be used."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        return None
    except OSError as exc:
        why = "it is a symbolic link" if exc.errno == errno.ELOOP else exc.strerror
        raise BadWifi(f"{path} cannot be read: {why}") from None
    with os.fdopen(fd, "rb") as source:
        info = os.fstat(source.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise BadWifi(f"{path} is not a file")
        if tighten and stat.S_IMODE(info.st_mode) != FILE_MODE:
            try:
                os.fchmod(source.fileno(), FILE_MODE)
            except OSError as exc:
                raise BadWifi(f"{path} is open to others and cannot be made 0600: {exc}") from None
        data = source.read(MAX_FILE + 1)
    if len(data) > MAX_FILE:
        raise BadWifi(f"{path} is larger than {MAX_FILE} bytes")
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadWifi(f"{path} cannot be read: {exc}") from None


def load_credentials(folder: Path) -> Credentials | None:
    """The stored credentials, None when there are none yet, BadWifi when the file is not
    usable. A file open to others is tightened to 0600 first."""
    path = folder / CREDENTIALS_FILE
    raw = _read_private(path, tighten=True)
    if raw is None:
        return None
    if not isinstance(raw, dict) or not all(
        isinstance(raw.get(k), str) for k in ("ssid", "password", "address", "uuid")
    ):
        raise BadWifi(f"{path} must hold ssid, password, address and uuid as text")
    return Credentials(raw["ssid"], raw["password"], raw["address"], raw["uuid"]).check()


def ensure_credentials(
    folder: Path, address: str = DEFAULT_ADDRESS, ssid: str | None = None
) -> tuple[Credentials, bool]:
    """The stored credentials, made and stored (0600) when there are none: (them, made now).
    A second run keeps them whatever `address` and `ssid` say (BadWifi if they differ)."""
    from host.paths import private_dir

    check_address(address)
    if ssid is not None:
        check_ssid(ssid)
    private_dir(folder)
    found = load_credentials(folder)
    if found is not None:
        if ssid is not None and ssid != found.ssid:
            raise BadWifi(
                f"the network is already named {found.ssid!r}: remove "
                f"{folder / CREDENTIALS_FILE} to make new credentials"
            )
        return found, False
    made = generate(address, ssid)
    _private_write(folder / CREDENTIALS_FILE, json.dumps(made.to_json(), indent=2) + "\n")
    return made, True


def _wifi_escape(text: str) -> str:
    return "".join("\\" + c if c in _WIFI_SPECIAL else c for c in text)


def wifi_payload(credentials: Credentials) -> str:
    """What the Wi-Fi QR code holds: `WIFI:T:WPA;S:<ssid>;P:<password>;;`, with `\\ ; , : "`
    escaped by a backslash."""
    ssid, password = _wifi_escape(credentials.ssid), _wifi_escape(credentials.password)
    return f"WIFI:T:WPA;S:{ssid};P:{password};;"


def _keyfile_value(text: str) -> str:
    """A value as GLib's key files write it (a backslash doubled, a leading space as `\\s`)."""
    text = text.replace("\\", "\\\\")
    return "\\s" + text[1:] if text.startswith(" ") else text


def keyfile(credentials: Credentials, interface: str | None = None) -> str:
    """The NetworkManager profile of the access point: WPA2-PSK (CCMP), 2.4 GHz (every
    phone), `ipv4.method=shared` (NetworkManager's DHCP and DNS for the phones) at the fixed
    address, no IPv6, never raised by NetworkManager itself (`castillo wifi watch` does)."""
    lines = [
        "[connection]",
        f"id={PROFILE_ID}",
        f"uuid={credentials.uuid}",
        "type=wifi",
        "autoconnect=false",
    ]
    if interface:
        lines.append(f"interface-name={interface}")
    lines += [
        "",
        "[wifi]",
        "mode=ap",
        "band=bg",
        f"ssid={_keyfile_value(credentials.ssid)}",
        "",
        "[wifi-security]",
        "key-mgmt=wpa-psk",
        "proto=rsn;",
        "pairwise=ccmp;",
        "group=ccmp;",
        f"psk={_keyfile_value(credentials.password)}",
        "",
        "[ipv4]",
        "method=shared",
        f"address1={credentials.address}",
        "",
        "[ipv6]",
        "method=disabled",
        "",
    ]
    return "\n".join(lines)


def write_keyfile(path: Path, text: str) -> bool:
    """Write the profile (0600, as NetworkManager requires); False when it was already so."""
    with contextlib.suppress(OSError):
        if path.read_text(encoding="utf-8") == text and stat.S_IMODE(path.stat().st_mode) == 0o600:
            return False
    path.parent.mkdir(parents=True, exist_ok=True)
    _private_write(path, text)
    return True


@dataclass(frozen=True)
class OwnNetworkState:
    """What `castillo wifi watch` found: the machine runs its own network (at `address`),
    or a known network connected (`active` false)."""

    active: bool
    address: str | None = None
    ssid: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"own_network": self.active, "address": self.address, "ssid": self.ssid}


def write_state(folder: Path, state: OwnNetworkState) -> None:
    _private_write(folder / STATE_FILE, json.dumps(state.to_json()) + "\n")


def read_state(folder: Path) -> OwnNetworkState | None:
    """The state `castillo wifi watch` left, None when there is none; BadWifi when it cannot
    be used (not JSON, an address that is not an IPv4 address)."""
    path = folder / STATE_FILE
    raw = _read_private(path)
    if raw is None:
        return None
    if not isinstance(raw, dict) or not isinstance(raw.get("own_network"), bool):
        raise BadWifi(f"{path} must say own_network: true or false")
    if not raw["own_network"]:
        return OwnNetworkState(False)
    address, ssid = raw.get("address"), raw.get("ssid")
    try:
        ip = ipaddress.IPv4Address(address if isinstance(address, str) else "")
    except ValueError:
        raise BadWifi(f"{path}: {address!r} is not an IPv4 address") from None
    return OwnNetworkState(True, str(ip), ssid if isinstance(ssid, str) else None)


class OwnNetwork:
    """What `castillo run` knows of its own network, from the files in its data folder (read
    again when asked: `castillo wifi watch` writes them while the app runs). A file that cannot
    be used counts as no own network; the problem is kept in `problem` (no secret in it)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.problem: str | None = None

    def address(self) -> str | None:
        """The machine's address on its own network while it runs one, else None."""
        try:
            state = read_state(self.folder)
        except BadWifi as exc:
            self.problem = str(exc)
            return None
        return state.address if state is not None and state.active else None

    def card(self) -> dict[str, Any]:
        """What the table's Wi-Fi card shows (the password included: the table only)."""
        address = self.address()
        if address is None:
            return {"own_network": False}
        try:
            credentials = load_credentials(self.folder)
        except BadWifi as exc:
            self.problem = str(exc)
            credentials = None
        if credentials is None:
            return {"own_network": True, "address": address, "ssid": None}
        return {
            "own_network": True,
            "address": address,
            "ssid": credentials.ssid,
            "password": credentials.password,
            "qr": wifi_payload(credentials),
        }
