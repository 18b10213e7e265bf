"""Where the table app can be reached (docs/table-app.md, "Phones and tablets").

`castillo run` serves the network when the machine has an address besides loopback (phones
scan seat codes that carry that address), else this machine only. The addresses come from the
interfaces themselves (Linux: one ioctl per interface; elsewhere the address the default route
uses); no packet is sent.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct
import sys
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

Mode = Literal["lan", "local", "none"]  # the network; --local; no address but loopback

_SIOCGIFFLAGS = 0x8913
_SIOCGIFADDR = 0x8915
_IFF_UP = 0x1
_IFF_LOOPBACK = 0x8


@dataclass(frozen=True)
class LanAddress:
    interface: str
    address: str  # IPv4, dotted


def _route_address() -> str | None:
    """The address the default route would use (a routing lookup: nothing is sent)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1
        return str(probe.getsockname()[0])
    return None


def _interface_addresses() -> list[LanAddress]:
    """Each up interface's IPv4 address (Linux ioctls)."""
    import fcntl

    found: list[LanAddress] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _index, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                flags = struct.unpack_from("H", fcntl.ioctl(probe, _SIOCGIFFLAGS, request), 16)[0]
                if not flags & _IFF_UP or flags & _IFF_LOOPBACK:
                    continue
                reply = fcntl.ioctl(probe, _SIOCGIFADDR, request)
            except OSError:  # no IPv4 address on it
                continue
            found.append(LanAddress(name, socket.inet_ntoa(reply[20:24])))
    return found


def lan_addresses() -> list[LanAddress]:
    """Every IPv4 address besides loopback a device on the network can use, the one of the
    default route first."""
    if sys.platform.startswith("linux"):
        found = _interface_addresses()
    else:
        routed = _route_address()
        found = [LanAddress("", routed)] if routed else []
    found = [a for a in found if not ipaddress.ip_address(a.address).is_loopback]
    primary = _route_address()
    found.sort(key=lambda a: a.address != primary)
    return found


class BadPublicUrl(ValueError):
    pass


def public_base(url: str) -> str:
    """`--public-url`, checked: http(s), a host, no path, query or fragment; no trailing /."""
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError as exc:
        raise BadPublicUrl(f"--public-url {url!r}: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadPublicUrl(f"--public-url {url!r}: give http://NAME[:PORT] or https://…")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise BadPublicUrl(f"--public-url {url!r}: the app is served at the root: no path")
    return f"{parts.scheme}://{parts.netloc}"


@dataclass(frozen=True)
class Reach:
    """How devices reach this server: its mode, addresses, and the base URL seat codes carry
    (None: the page's own address, this machine only)."""

    mode: Mode = "local"
    addresses: tuple[LanAddress, ...] = ()
    public_url: str | None = None

    @property
    def bind_host(self) -> str:
        return "0.0.0.0" if self.mode == "lan" else "127.0.0.1"

    def host_names(self) -> list[str]:
        """The names besides loopback the server answers to (the guard's allow-list)."""
        names = [a.address for a in self.addresses]
        if self.public_url:
            names.append(urlsplit(self.public_url).hostname or "")
        return list(dict.fromkeys(names))

    def public(self) -> dict[str, object]:
        return {"mode": self.mode, "public_url": self.public_url}


def decide(
    port: int,
    local: bool = False,
    public_url: str | None = None,
    addresses: list[LanAddress] | None = None,
) -> Reach:
    """The network when there is one (or a public URL), else this machine only."""
    base = public_base(public_url) if public_url else None
    if local:
        return Reach("local", (), base)
    found = tuple(lan_addresses() if addresses is None else addresses)
    if not found and base is None:
        return Reach("none")
    if base is None:
        base = f"http://{found[0].address}:{port}"
    return Reach("lan", found, base)
