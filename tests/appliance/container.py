"""A booted Debian container for the appliance tests (systemd-nspawn -b on a cached rootfs).

The root file system (tests/appliance/make_rootfs.sh, cached under build/appliance-rootfs) is the
read-only lower layer of an overlay: each container writes only to its own scratch folder, so
the cache stays a stock card. The container has its own network namespace: loopback only
(--private-network), or one the test made (a veth to a "phone" namespace, tests/app/netns.py):
the app it serves on port 8000 never meets the machine's own network.

systemd-nspawn needs --register=no --keep-unit here (the host's PID 1 is not systemd: no
machined, no scope units; docs/appliance.md "Tests").
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
ROOTFS = ROOT / "build" / "appliance-rootfs" / "bookworm-amd64"
MAKE_ROOTFS = Path(__file__).resolve().parent / "make_rootfs.sh"
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def why_not() -> str:
    """ "" when this machine can boot the test container; else why not (the tests skip)."""
    if os.geteuid() != 0:
        return "the container tests need root (systemd-nspawn, overlay mounts)"
    for tool in ("systemd-nspawn", "debootstrap", "nsenter", "dpkg-deb"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (make appliance-tools installs it)"
    if "overlay" not in Path("/proc/filesystems").read_text():
        return "the kernel has no overlay file system"
    return ""


def ensure_rootfs() -> float:
    """Make the cached root file system if needed; the seconds it took (0 when cached)."""
    started = time.monotonic()
    subprocess.run([str(MAKE_ROOTFS), str(ROOTFS)], check=True, timeout=1500)
    return time.monotonic() - started


class Container:
    def __init__(self, scratch: Path, netns: str | None = None) -> None:
        """`netns`: a network namespace (`ip netns`) the container joins, else its own with
        loopback only."""
        self.scratch = scratch
        self.netns = netns
        self.root = scratch / "root"
        self.nspawn: subprocess.Popen[bytes] | None = None
        self.leader = 0
        self.booted_at = 0.0
        for name in ("upper", "work", "root"):
            (scratch / name).mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                "mount",
                "-t",
                "overlay",
                "overlay",
                "-o",
                f"lowerdir={ROOTFS},upperdir={scratch / 'upper'},workdir={scratch / 'work'}",
                str(self.root),
            ],
            check=True,
        )

    # ------------------------------------------------------------------ life cycle
    def boot(self, timeout: float = 90) -> None:
        log = open(self.scratch / "nspawn.log", "ab")  # noqa: SIM115 (closed with the process)
        self.booted_at = time.monotonic()
        self.nspawn = subprocess.Popen(
            [
                "systemd-nspawn",
                "--quiet",
                "--register=no",
                "--keep-unit",
                f"--network-namespace-path=/run/netns/{self.netns}"
                if self.netns
                else "--private-network",
                "--console=passive",
                "-D",
                str(self.root),
                "-b",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while not self.leader:
            if self.nspawn.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the container did not start: {self.log_tail()}")
            self.leader = self._find_leader()
            time.sleep(0.1)
        while time.monotonic() < deadline:
            state = self.run("systemctl", "is-system-running", check=False).stdout.strip()
            if state in ("running", "degraded"):
                return
            time.sleep(0.3)
        raise RuntimeError(f"the container did not finish booting ({state}): {self.log_tail()}")

    def _find_leader(self) -> int:
        """The container's PID 1, seen from here: nspawn's descendant whose NSpid ends in 1."""
        assert self.nspawn is not None
        todo = [self.nspawn.pid]
        while todo:
            pid = todo.pop(0)
            try:
                status = Path(f"/proc/{pid}/status").read_text()
                children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            except OSError:
                continue
            for line in status.splitlines():
                fields = line.split()
                if fields[:1] == ["NSpid:"] and len(fields) > 2 and fields[-1] == "1":
                    return pid
            todo += [int(child) for child in children]
        return 0

    def shutdown(self, timeout: float = 30) -> None:
        if self.nspawn is None:
            return
        if self.nspawn.poll() is None:
            self.nspawn.send_signal(signal.SIGTERM)  # nspawn asks the container's init to halt
            try:
                self.nspawn.wait(timeout)
            except subprocess.TimeoutExpired:
                self.nspawn.kill()
                self.nspawn.wait()
        self.nspawn = None
        self.leader = 0

    def remove(self) -> None:
        self.shutdown()
        subprocess.run(["umount", "-l", str(self.root)], check=False)
        shutil.rmtree(self.scratch, ignore_errors=True)

    def log_tail(self) -> str:
        with contextlib.suppress(OSError):
            return " / ".join(
                (self.scratch / "nspawn.log").read_text(errors="replace").splitlines()[-8:]
            )
        return ""

    # ------------------------------------------------------------------ inside
    def run(
        self, *command: str, check: bool = True, timeout: float = 300, stdin: str | None = None
    ) -> subprocess.CompletedProcess[str]:
        """`command` inside the container (its namespaces), as root, with a clean environment."""
        done = subprocess.run(
            [
                "nsenter",
                "-t",
                str(self.leader),
                "-m",
                "-u",
                "-i",
                "-n",
                "-p",
                "-C",
                "--",
                "/usr/bin/env",
                "-i",
                f"PATH={PATH}",
                "LANG=C.UTF-8",
                "HOME=/root",
                *command,
            ],
            text=True,
            capture_output=True,
            timeout=timeout,
            check=False,
            input=stdin,
        )
        if check and done.returncode != 0:
            raise AssertionError(
                f"in the container: {' '.join(command)} exited {done.returncode}\n"
                f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
            )
        return done

    def put(self, source: Path, inside: str) -> None:
        """Copy a file or folder from here into the container."""
        target = self.root / inside.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, dirs_exist_ok=True)
        else:
            shutil.copy2(source, target)

    def http(
        self, path: str, body: Any = None, port: int = 8000, timeout: float = 10
    ) -> tuple[int, Any]:
        """An HTTP request to the container's loopback, from its network namespace."""
        script = (
            "import json,sys,urllib.request,urllib.error\n"
            "url,body=sys.argv[1],sys.argv[2]\n"
            "data=None if body=='' else body.encode()\n"
            "req=urllib.request.Request(url,data=data,headers={'Content-Type':'application/json'})\n"
            "try:\n"
            f"  r=urllib.request.urlopen(req,timeout={timeout})\n"
            "  print(r.status); print(r.read().decode())\n"
            "except urllib.error.HTTPError as e:\n"
            "  print(e.code); print(e.read().decode())\n"
            "except OSError as e:\n"
            "  print(0); print(json.dumps(str(e)))\n"
        )
        done = subprocess.run(
            [
                "nsenter",
                "-t",
                str(self.leader),
                "-n",
                "--",
                "python3",
                "-c",
                script,
                f"http://127.0.0.1:{port}{path}",
                "" if body is None else json.dumps(body),
            ],
            text=True,
            capture_output=True,
            timeout=timeout + 5,
            check=True,
        )
        status, _, text = done.stdout.partition("\n")
        try:
            return int(status), json.loads(text) if text.strip() else None
        except ValueError:
            return int(status), text

    def wait_serving(self, timeout: float = 60, port: int = 8000) -> float:
        """Seconds until /api/info answers as castillo; AssertionError after `timeout`."""
        started = time.monotonic()
        answer: Any = None
        while time.monotonic() - started < timeout:
            status, answer = self.http("/api/info", port=port, timeout=3)
            if status == 200 and isinstance(answer, dict) and answer.get("app") == "castillo":
                return time.monotonic() - started
            time.sleep(0.2)
        raise AssertionError(f"/api/info did not answer within {timeout} s: {answer}")

    def unit(self, name: str, *properties: str) -> dict[str, str]:
        out = self.run("systemctl", "show", name, *(f"--property={p}" for p in properties)).stdout
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def main_pid(container: Container) -> int:
    return int(container.unit("castillo.service", "MainPID")["MainPID"])


MDNS_QUERY = """
import socket, struct, sys
name, source = sys.argv[1], sys.argv[2]
labels = b"".join(bytes([len(p)]) + p.encode() for p in name.split(".")) + b"\\0"
# one question, type A, class IN; from a port other than 5353: a legacy unicast query
# (RFC 6762 6.7), answered to this socket
query = struct.pack(">6H", 0x1234, 0, 1, 0, 0, 0) + labels + struct.pack(">2H", 1, 1)
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(source))
sock.bind((source, 0))
sock.settimeout(1.0)

def skip_name(data, at):
    while data[at]:
        if data[at] & 0xC0 == 0xC0:
            return at + 2
        at += data[at] + 1
    return at + 1

for _ in range(3):
    sock.sendto(query, ("224.0.0.251", 5353))
    try:
        data, _peer = sock.recvfrom(2048)
    except OSError:
        continue
    questions, answers = struct.unpack(">2H", data[4:8])
    at = 12
    for _ in range(questions):
        at = skip_name(data, at) + 4
    for _ in range(answers):
        at = skip_name(data, at)
        kind, _cls, _ttl, size = struct.unpack(">2HIH", data[at:at + 10])
        at += 10
        if kind == 1 and size == 4:
            print(socket.inet_ntoa(data[at:at + 4]))
            sys.exit(0)
        at += size
sys.exit(1)
"""


def mdns_resolve(namespace: str, name: str, source: str) -> str:
    """The IPv4 address `name` resolves to by an mDNS query from `namespace` (sent from
    `source`, an address there); "" when nothing answers."""
    done = subprocess.run(
        ["ip", "netns", "exec", namespace, "python3", "-c", MDNS_QUERY, name, source],
        capture_output=True,
        text=True,
        timeout=20,
        check=False,
    )
    return done.stdout.strip() if done.returncode == 0 else ""
