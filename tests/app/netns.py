"""Private networks for the LAN tests: two network namespaces joined by a veth pair with
addresses in 10.231.0.0/16 that exist inside the namespaces only (the machine's own interfaces,
routes and addresses are never touched or used), or one namespace with loopback alone (a
machine without a network). Made and removed by the test itself, also on failure.

`ip netns` needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN); where it is not permitted the tests
skip and say why.
"""

from __future__ import annotations

import contextlib
import os
import resource
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from queue import Empty, Queue
from typing import Any

import pytest

from tests.app.ui_browser import CHROMIUM_ARGS, stop_process

REPO = Path(__file__).resolve().parents[2]
IP = shutil.which("ip") or "/usr/sbin/ip"


def _ip(*args: str) -> None:
    subprocess.run([IP, *args], check=True, capture_output=True, text=True, timeout=20)


def netns_missing() -> str | None:
    """Why namespaces cannot be made here, or None."""
    if not Path(IP).exists():
        return "the `ip` command (iproute2) is not installed"
    name = f"castillo-probe-{os.getpid()}"
    try:
        _ip("netns", "add", name)
    except subprocess.CalledProcessError as exc:
        return f"`ip netns add` is not permitted here ({exc.stderr.strip()}): run as root"
    _ip("netns", "del", name)
    return None


NETNS_MISSING = netns_missing()
needs_netns = pytest.mark.skipif(
    NETNS_MISSING is not None, reason=f"no network namespaces: {NETNS_MISSING}"
)


@dataclass(frozen=True)
class Wire:
    """Two namespaces on one private subnet: the server's end and the client's (`client_ips`:
    every address of the client's end, `client_ip` the first)."""

    server_ns: str
    client_ns: str
    server_ip: str
    client_ip: str
    client_ips: tuple[str, ...] = ()
    prefix: int = 30

    def connect(self) -> None:
        """Give both ends their addresses and bring the link up (`wire(up=False)` made it
        without them: a machine not on the network yet)."""
        _ip(
            "-n",
            self.server_ns,
            "addr",
            "add",
            f"{self.server_ip}/{self.prefix}",
            "dev",
            "veth-table",
        )
        for address in self.client_ips or (self.client_ip,):
            _ip(
                "-n", self.client_ns, "addr", "add", f"{address}/{self.prefix}", "dev", "veth-phone"
            )
        _ip("-n", self.server_ns, "link", "set", "veth-table", "up")
        _ip("-n", self.client_ns, "link", "set", "veth-phone", "up")


@contextlib.contextmanager
def namespaces(*names: str) -> Iterator[None]:
    made: list[str] = []
    try:
        for name in names:
            _ip("netns", "add", name)
            made.append(name)
            _ip("-n", name, "link", "set", "lo", "up")
        yield
    finally:
        for name in made:
            subprocess.run([IP, "netns", "del", name], capture_output=True, timeout=20)


@contextlib.contextmanager
def wire(clients: int = 1, up: bool = True) -> Iterator[Wire]:
    """Server and client namespaces joined by a veth pair; both ends are made inside the
    namespaces (`ip -n`), so nothing appears in the machine's own network, even briefly.
    `clients`: how many addresses the client's end has (one device each); `up=False`: the link
    is down and has no address until `Wire.connect()`."""
    tag = secrets.token_hex(3)
    octet = int(tag[:2], 16)
    server, client = f"castillo-s{tag}", f"castillo-c{tag}"
    prefix = 30 if clients == 1 else 24
    clients_at = tuple(f"10.231.{octet}.{2 + i}" for i in range(clients))
    made = Wire(server, client, f"10.231.{octet}.1", clients_at[0], clients_at, prefix)
    with namespaces(server, client):
        peer = ["peer", "name", "veth-phone", "netns", client]
        _ip("-n", server, "link", "add", "veth-table", "type", "veth", *peer)
        # no IPv6 link-local addresses: each one's duplicate-address check ends ~1 s after
        # the link comes up, and Chromium reads that address change as a network change that
        # aborts a page's loads in flight (net::ERR_NETWORK_CHANGED)
        _ip("-n", server, "link", "set", "veth-table", "addrgenmode", "none")
        _ip("-n", client, "link", "set", "veth-phone", "addrgenmode", "none")
        if up:
            made.connect()
        yield made


@contextlib.contextmanager
def lone_namespace() -> Iterator[str]:
    """A namespace with loopback only: a machine without a network."""
    name = f"castillo-n{secrets.token_hex(3)}"
    with namespaces(name):
        yield name


def in_ns(ns: str, *cmd: str) -> list[str]:
    return [IP, "netns", "exec", ns, *cmd]


@dataclass
class Served:
    """`castillo run` in a namespace: what it printed until it was ready."""

    lines: list[str]
    pairing_code: str
    proc: subprocess.Popen[str]
    data_dir: Path  # where its database is (castillo.db): the tower ledger a test may read
    output: Queue[str] | None = None  # what it prints from then on

    def more_lines(self, wait_s: float = 0.0) -> list[str]:
        """The lines printed since the last call (waiting up to `wait_s` for a first one)."""
        got: list[str] = []
        if self.output is None:
            return got
        with contextlib.suppress(Empty):
            got.append(self.output.get(timeout=wait_s) if wait_s else self.output.get_nowait())
            while True:
                got.append(self.output.get_nowait())
        return [line.rstrip("\n") for line in got]

    def urls(self) -> list[str]:
        return [word for line in self.lines for word in line.split() if word.startswith("http")]

    def printed(self, prefix: str) -> str:
        """The last word of the first line that starts with `prefix` (e.g. an address)."""
        line = next((line for line in self.lines if line.startswith(prefix)), None)
        if line is None:
            raise AssertionError(
                f"castillo run printed no {prefix!r} line:\n" + "\n".join(self.lines)
            )
        return line.split()[-1]


def _pump(stream: object, lines: Queue[str]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        lines.put(line)


@contextlib.contextmanager
def castillo_run(
    ns: str, *extra: str, timeout_s: float = 60.0, open_files: tuple[int, int] | None = None
) -> Iterator[Served]:
    """`castillo run --sim --port 0` inside `ns`, until it is ready (its pairing line, or
    `listening on` when it serves this machine only); stopped and cleaned up after.
    `open_files`: its RLIMIT_NOFILE (soft, hard) at start."""
    data_dir = tempfile.mkdtemp(prefix="castillo-netns-")
    cmd = [sys.executable, "-m", "host.cli", "run", "--sim", "--port", "0", "--data-dir", data_dir]

    def limit() -> None:
        if open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, open_files)

    proc = subprocess.Popen(
        in_ns(ns, *cmd, *extra),
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=limit if open_files is not None else None,
    )
    lines: Queue[str] = Queue()
    threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True).start()
    seen: list[str] = []
    code = ""
    deadline = time.monotonic() + timeout_s
    try:
        while True:
            if time.monotonic() > deadline or (proc.poll() is not None and lines.empty()):
                raise RuntimeError("castillo run did not start:\n" + "".join(seen))
            try:
                line = lines.get(timeout=0.5)
            except Empty:
                continue
            seen.append(line)
            if line.startswith("pairing code: "):
                code = line.split()[-1]
            if line.startswith(("a new pairing code", "listening on ")):
                break
        yield Served([s.rstrip("\n") for s in seen], code, proc, Path(data_dir), lines)
    finally:
        stop_process(proc)
        shutil.rmtree(data_dir, ignore_errors=True)


@contextlib.contextmanager
def served_on_wire() -> Iterator[tuple[Wire, Served]]:
    """`castillo run` (no option) in the server's namespace of a fresh wire."""
    with wire() as made, castillo_run(made.server_ns) as running:
        yield made, running


def chromium_in(ns: str, folder: Path) -> Path:
    """An executable that starts Debian's Chromium inside `ns` (Playwright talks to it over
    pipes, which cross namespaces)."""
    wrapper = folder / "chromium-in-netns"
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    wrapper.write_text(f'#!/bin/sh\nexec {IP} netns exec {ns} {chromium} "$@"\n')
    wrapper.chmod(0o755)
    return wrapper


@contextlib.contextmanager
def browsers_in(*names: str) -> Iterator[list[Any]]:
    """One headless Chromium per namespace (Playwright `Browser`s, in the order given): each
    page of a browser is a client of that namespace's network; a browser makes as many separate
    contexts (devices: their own storage and cookies) as a test needs."""
    from playwright.sync_api import sync_playwright

    with (
        tempfile.TemporaryDirectory(prefix="castillo-wrappers-") as folder,
        sync_playwright() as pw,
    ):
        browsers: list[Any] = []
        try:
            for i, ns in enumerate(names):
                own = Path(folder) / str(i)
                own.mkdir()
                executable = str(chromium_in(ns, own))
                browsers.append(
                    pw.chromium.launch(
                        executable_path=executable, headless=True, args=CHROMIUM_ARGS
                    )
                )
            yield browsers
        finally:
            for made in browsers:
                with contextlib.suppress(Exception):
                    made.close()
