"""A test double for link unit tests: an in-process fake tower speaking protocol v1 over a pty.

It is NOT a simulator (no firmware, no sensor model): it answers commands and emits events on
demand so the link layer can be tested in isolation and fast. HIL tests (tests/hil/) run the
real firmware in MicroPython via host.tower.sim instead.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import select
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from towerfw.codec import FrameDecoder, encode

from host.tower.ledger import LedgerEntry, MemorySink


class FakeTower:
    """Answers commands on a pty; the port is a symlink so `replug()` can swap the pty."""

    def __init__(self, directory: Path, heartbeat_s: float = 0.5) -> None:
        self.path = directory / "tower"
        self.heartbeat_s = heartbeat_s
        self.uid = "e6614103e7452d2f"
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self.silent = False  # stop answering and heartbeating (a hung device)
        self.hello_on_boot = True
        self.acks: list[int] = []
        self.commands: list[dict[str, Any]] = []
        self.on_ack: Callable[[int], None] | None = None
        self.ring_size = 64
        self._new_boot()
        self._open_pty()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    # --- device state ------------------------------------------------------------------
    def _new_boot(self) -> None:
        self.boot = secrets.token_hex(4)
        self.started = time.monotonic()
        self.seq = 0
        self.counts: dict[str, int] = {}
        self.ring: list[dict[str, Any]] = []

    def _up_ms(self) -> int:
        return int((time.monotonic() - self.started) * 1000)

    def _open_pty(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        tmp = self.path.with_suffix(".new")
        if tmp.exists() or tmp.is_symlink():
            tmp.unlink()
        tmp.symlink_to(os.ttyname(self.slave))
        tmp.replace(self.path)

    def send(self, message: dict[str, Any]) -> None:
        self.raw(encode(message))

    def raw(self, data: bytes) -> None:
        with self._lock:
            os.write(self.master, data)

    def hello_frame(self, reset: str = "power") -> dict[str, Any]:
        return {
            "t": "hello",
            "proto": 1,
            "fw": "fake",
            "uid": self.uid,
            "boot": self.boot,
            "up_ms": self._up_ms(),
            "reset": reset,
            "cal": "00000000",
            "seq": self.seq,
        }

    def event(self, kind: str, colour: str | None = None, send: bool = True, **extra: Any) -> int:
        """Emit one event; `colour` adds to the counts. Returns its sequence number."""
        with self._lock:
            if colour is not None:
                self.counts[colour] = self.counts.get(colour, 0) + 1
            if kind == "reset":
                self.counts = {}
            self.seq += 1
            frame = {"t": "ev", "seq": self.seq, "k": kind, "ms": self._up_ms()}
            frame["n"] = dict(self.counts)
            frame.update(extra)
            if colour is not None and kind in ("drop", "grande"):
                frame["c"] = colour
            self.ring.append(frame)
            del self.ring[: max(0, len(self.ring) - self.ring_size)]
            if send:
                self.send(frame)
            return self.seq

    def drop(self, colour: str, send: bool = True) -> int:
        return self.event("drop", colour, send=send, d=0.1, pulse_us=9000)

    def reboot(self, reset: str = "power") -> None:
        with self._lock:
            self._new_boot()
            if self.hello_on_boot:
                self.send(self.hello_frame(reset))

    def replug(self, reboot: bool = True) -> None:
        """The USB device goes away and comes back (a new pty under the same path)."""
        with self._lock:
            os.close(self.master)
            os.close(self.slave)
            if reboot:
                self._new_boot()
            self._open_pty()

    def unplug(self) -> None:
        """The USB device disappears (the port path is gone) until `plug()`."""
        with self._lock:
            os.close(self.master)
            os.close(self.slave)
            self.path.unlink()
            self.master, self.slave = os.openpty()  # a placeholder nobody else opens

    def plug(self, reboot: bool = True) -> None:
        with self._lock:
            os.close(self.master)
            os.close(self.slave)
            if reboot:
                self._new_boot()
            self._open_pty()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)

    # --- the device loop -----------------------------------------------------------------
    def _run(self) -> None:
        decoder = FrameDecoder()
        next_hb = time.monotonic() + self.heartbeat_s
        while not self._stop.is_set():
            with self._lock:
                master = self.master
            try:
                ready, _, _ = select.select([master], [], [], 0.02)
                data = os.read(master, 4096) if ready else b""
            except OSError:
                time.sleep(0.01)  # mid-replug
                continue
            if b"\x03" in data:
                decoder.reset()
            for message in decoder.feed(data):
                if message.get("t") == "cmd" and not self.silent:
                    self._answer(message)
            if time.monotonic() >= next_hb:
                next_hb += self.heartbeat_s
                if not self.silent:
                    with self._lock:
                        hb = {"t": "hb", "up_ms": self._up_ms(), "seq": self.seq}
                        hb["unacked"] = len(self.ring)
                    with contextlib.suppress(OSError):
                        self.send(hb)

    def _answer(self, cmd: dict[str, Any]) -> None:
        name, ident = cmd.get("c"), cmd.get("id")
        with self._lock:
            self.commands.append(cmd)
            ok: dict[str, Any] = {"t": "ok", "id": ident}
            if name == "hello":
                self.send(self.hello_frame("soft"))
            elif name == "ping":
                ok["up_ms"] = self._up_ms()
            elif name == "ack":
                seq = int(cmd["seq"])
                if self.on_ack is not None:
                    self.on_ack(seq)
                self.acks.append(seq)
                self.ring = [ev for ev in self.ring if ev["seq"] > seq]
                ok["unacked"] = len(self.ring)
            elif name == "snap":
                ok.update(n=dict(self.counts), seq=self.seq, gate="closed", unacked=len(self.ring))
            elif name == "replay":
                sent = [ev for ev in self.ring if ev["seq"] > int(cmd["from"])]
                for ev in sent:
                    self.send(ev)
                ok["count"] = len(sent)
            elif name == "reset":
                self.event("reset", why="command")
                ok["n"] = {}
            elif name == "scene":
                ok["ma"] = 42
            elif name == "cal":
                if cmd.get("step") not in ("dark", "white", "sample", "save", "show", "clear"):
                    self.send({"t": "err", "id": ident, "why": "unknown step"})
                    return
                ok["step"] = cmd.get("step")
            elif name == "diag":
                pass
            else:
                self.send({"t": "err", "id": ident, "why": f"unknown command {name}"})
                return
            self.send(ok)


class RecordingSink(MemorySink):
    """A MemorySink that can be watched from another thread."""

    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()

    def append(self, entry: LedgerEntry) -> None:
        with self.lock:
            super().append(entry)

    def event_seqs(self, boot: str | None = None) -> list[int]:
        with self.lock:
            return [
                e.seq
                for e in self.entries
                if e.kind == "event" and (boot is None or e.boot == boot)
            ]


@pytest.fixture
def fake_tower(tmp_path: Path) -> Iterator[FakeTower]:
    tower = FakeTower(tmp_path)
    yield tower
    tower.close()


def wait_for(predicate: Callable[[], bool], timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return predicate()
