"""Who may be the table (docs/threat-model.md): the host's own screen (a loopback client), and
on the network whoever paired with the code shown on the host's terminal.

Wrong codes are counted per client (an IPv4 address, an IPv6 /64: one device's range), so a
guest guessing codes locks out only itself: five wrong codes lock that client for 30 s. The
brute-force bound across all clients is a budget of wrong codes per code: once it is spent the
code is replaced (the host's terminal shows the new one), so no code is ever tried more than
`CODE_BUDGET` times. The host replaces the code at will too (Enter on the terminal, SIGHUP:
`systemctl reload` on the appliance, or a restart). The host's own screen reads the code
(GET /api/pairing, loopback only): an appliance has no terminal.
"""

from __future__ import annotations

import ipaddress
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from host.app.session import ActionError

PAIR_FAILURES = 5  # wrong pairing codes from one client before it is locked
PAIR_LOCK_S = 30.0
CODE_BUDGET = 100  # wrong codes, from all clients together, before the code is replaced
CODE_BYTES = 4  # 8 hex digits: 2^32 codes, of which at most CODE_BUDGET are tried


def new_code() -> str:
    return secrets.token_hex(CODE_BYTES)


def client_key(address: str) -> str:
    """The unit a lock applies to: the address, or its /64 for IPv6 (a device picks freely
    among the 2^64 addresses of its network)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def is_loopback(address: str) -> bool:
    """A client on this machine (127.0.0.0/8, ::1, or an IPv4-mapped loopback address)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def _same(given: str, expected: str) -> bool:
    return bool(given) and given.isascii() and secrets.compare_digest(given, expected)


@dataclass
class Access:
    """The table token and pairing. `on_new_code` is told each replaced code (the terminal)."""

    lan: bool = False
    pairing_code: str = ""
    table_token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    on_new_code: Callable[[str], None] | None = None
    clock: Callable[[], float] = time.monotonic
    failures: dict[str, int] = field(default_factory=dict)
    locked_until: dict[str, float] = field(default_factory=dict)
    wrong_codes: int = 0  # since the code was made
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def table_ok(self, token: str | None, client: str = "") -> bool:
        """The table role: always when the app serves this machine only, else for the host's
        own screen and for a paired device's token."""
        if not self.lan or is_loopback(client):
            return True
        return _same(str(token or ""), self.table_token)

    def pairing_required(self, client: str) -> bool:
        return self.lan and not is_loopback(client)

    def pair(self, code: str, client: str = "") -> str:
        """The table token for the right code; ActionError `locked` or `forbidden`."""
        if not self.lan:
            return ""
        key = client_key(client)
        with self._lock:
            now = self.clock()
            if now < self.locked_until.get(key, 0.0):
                raise ActionError("locked", "too many wrong codes: wait half a minute")
            if _same(code.strip(), self.pairing_code):
                self.failures.pop(key, None)
                return self.table_token
            self.failures[key] = self.failures.get(key, 0) + 1
            if self.failures[key] >= PAIR_FAILURES:
                del self.failures[key]
                self.locked_until[key] = now + PAIR_LOCK_S
            self.wrong_codes += 1
            replaced = self.wrong_codes >= CODE_BUDGET
        if replaced:
            self.new_code()
        raise ActionError("forbidden", "wrong pairing code")

    def host_screen(self, client: str) -> bool:
        """Whether `client` is the host's own screen (a loopback client of a server on the
        network): the one that may read the pairing code (GET /api/pairing)."""
        return self.lan and is_loopback(client)

    def new_code(self, announce: bool = True) -> str:
        """Replace the pairing code (the old one stops working); tell the terminal unless
        `announce` is false (SIGHUP under a service manager: the log must not hold the code,
        the host's screen shows it). Paired devices keep their table token."""
        with self._lock:
            self.pairing_code = new_code()
            self.wrong_codes = 0
            self.failures.clear()
            now = self.clock()
            self.locked_until = {k: t for k, t in self.locked_until.items() if t > now}
            code = self.pairing_code
        if announce and self.on_new_code is not None:
            self.on_new_code(code)
        return code
