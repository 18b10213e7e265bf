"""Where the table app can be reached (docs/table-app.md, "Phones and tablets").

`castillo run` listens on every address unless `--local`; phones scan seat codes that carry the
machine's network address. The addresses come from the interfaces themselves (Linux: one ioctl
per interface, /proc/net/if_inet6 for IPv6; elsewhere the address the default route uses); no
packet is sent. They are read again while the app runs (`LiveReach`): an address that appears
or changes later is served, printed and carried by the seat codes without a restart.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

Mode = Literal["lan", "local", "none"]  # the network; --local; no address but loopback

WATCH_S = 2.0  # the interfaces are read again this often by the watcher (prints, pushes) …
REREAD_S = 5.0  # … and for a request when the last read is older (no watcher: tests)
MISS_REREAD_S = 0.25  # … or this often when a request names an address not seen yet
_IF_INET6 = Path("/proc/net/if_inet6")
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


def _up_interfaces(probe: socket.socket) -> list[str]:
    """The names of the interfaces that are up, loopback aside (Linux ioctls)."""
    import fcntl

    names: list[str] = []
    for _index, name in socket.if_nameindex():
        request = struct.pack("256s", name.encode()[:15])
        try:
            flags = struct.unpack_from("H", fcntl.ioctl(probe, _SIOCGIFFLAGS, request), 16)[0]
        except OSError:
            continue
        if flags & _IFF_UP and not flags & _IFF_LOOPBACK:
            names.append(name)
    return names


def _interface_addresses() -> list[LanAddress]:
    """Each up interface's IPv4 address (Linux ioctls)."""
    import fcntl

    found: list[LanAddress] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for name in _up_interfaces(probe):
            request = struct.pack("256s", name.encode()[:15])
            try:
                reply = fcntl.ioctl(probe, _SIOCGIFADDR, request)
            except OSError:  # no IPv4 address on it
                continue
            found.append(LanAddress(name, socket.inet_ntoa(reply[20:24])))
    return found


def ipv6_addresses() -> list[str]:
    """The IPv6 addresses of the up interfaces, loopback aside (Linux; elsewhere none)."""
    try:
        table = _IF_INET6.read_text()
    except OSError:
        return []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        up = set(_up_interfaces(probe))
    found: list[str] = []
    for row in table.splitlines():
        fields = row.split()
        if len(fields) == 6 and fields[5] in up and len(fields[0]) == 32:
            with contextlib.suppress(ValueError):
                found.append(str(ipaddress.IPv6Address(bytes.fromhex(fields[0]))))
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
    own_address: str | None = None  # the machine's address on its own Wi-Fi, while it runs one

    @property
    def bind_host(self) -> str:
        """Every address unless `--local`: one that appears later is served too."""
        return "127.0.0.1" if self.mode == "local" else "0.0.0.0"

    def host_names(self) -> list[str]:
        """The names besides loopback the server answers to (the guard's allow-list)."""
        names = [a.address for a in self.addresses]
        if self.public_url:
            names.append(urlsplit(self.public_url).hostname or "")
        return list(dict.fromkeys(names))

    def public(self) -> dict[str, object]:
        answer: dict[str, object] = {"mode": self.mode, "public_url": self.public_url}
        if self.own_address is not None:
            answer["own_network"] = True  # the table page shows the Wi-Fi card (GET /api/wifi)
        return answer


def decide(
    port: int,
    local: bool = False,
    public_url: str | None = None,
    addresses: list[LanAddress] | None = None,
    own_address: str | None = None,
) -> Reach:
    """The network when there is one (or a public URL), else this machine only. While the
    machine runs its own Wi-Fi (`own_address`: its address there), seat codes carry that
    address: phones on it may not resolve a `.local` name, and have no other network."""
    base = public_base(public_url) if public_url else None
    if local:
        return Reach("local", (), base)
    found = tuple(lan_addresses() if addresses is None else addresses)
    if own_address is not None:
        return Reach("lan", found, f"http://{own_address}:{port}", own_address)
    if not found and base is None:
        return Reach("none")
    if base is None:
        base = f"http://{found[0].address}:{port}"
    return Reach("lan", found, base)


Listener = Callable[[Reach], None]


class LiveReach:
    """The reach as it is now, for a server that listens on every address: the interfaces are
    read again at most every `REREAD_S` when asked (`now`, `serves`), at once (at most every
    `MISS_REREAD_S`) for an address not seen yet, and every `WATCH_S` by `watch`'s thread.
    Listeners hear each change (an address appears, changes or goes, the machine's own Wi-Fi
    comes up or goes: `own`), from the thread that saw it. `--local` is fixed: nothing is read."""

    def __init__(
        self,
        port: int,
        local: bool = False,
        public_url: str | None = None,
        read: Callable[[], tuple[list[LanAddress], list[str]]] | None = None,
        clock: Callable[[], float] = time.monotonic,
        own: Callable[[], str | None] | None = None,
    ) -> None:
        self.port = port
        self.own = own  # the address on the machine's own Wi-Fi now (own_network.OwnNetwork)
        self.local = local
        self.base = public_base(public_url) if public_url else None
        self.read = read or (lambda: (lan_addresses(), ipv6_addresses()))
        self.clock = clock
        self.listeners: list[Listener] = []
        self._lock = threading.Lock()
        self._reach = Reach("local", (), self.base)
        self._names = frozenset(self._reach.host_names())
        self._read_at = float("-inf")
        if not local:
            self.refresh()

    @property
    def mode(self) -> Mode:
        return self.now().mode

    @property
    def public_url(self) -> str | None:
        return self.now().public_url

    def public(self) -> dict[str, object]:
        return self.now().public()

    def now(self) -> Reach:
        if not self.local and self.clock() - self._read_at >= REREAD_S:
            return self.refresh()
        return self._reach

    def serves(self, name: str) -> bool:
        """Whether `name` is the public URL's host or one of the machine's addresses now."""
        if not self.local:
            self.now()
            if name not in self._names and self.clock() - self._read_at >= MISS_REREAD_S:
                self.refresh()
        return name in self._names

    def refresh(self) -> Reach:
        """Read the interfaces now; listeners hear it if the reach changed."""
        if self.local:
            return self._reach
        with self._lock:  # one read at a time: an older read never replaces a newer one
            v4, v6 = self.read()
            own = self.own() if self.own is not None else None
            reach = decide(self.port, public_url=self.base, addresses=v4, own_address=own)
            names = frozenset([*reach.host_names(), *(a.lower() for a in v6)])
            self._read_at = self.clock()
            changed = reach != self._reach
            self._reach, self._names = reach, names
        if changed:
            for listener in list(self.listeners):
                listener(reach)
        return reach

    def watch(self, every_s: float = WATCH_S) -> threading.Event:
        """Read the interfaces every `every_s` in a daemon thread; set the event to stop."""
        stop = threading.Event()

        def loop() -> None:
            while not stop.wait(every_s):
                with contextlib.suppress(OSError):
                    self.refresh()

        if not self.local:
            threading.Thread(target=loop, name="network-watch", daemon=True).start()
        return stop
