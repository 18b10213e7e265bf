"""A minimal synchronous protocol client for the simulated tower's tools, tests and benchmarks.

It speaks docs/protocol.md over pyserial with the shared codec and acks every event. (The
host's real link, with reconnects and a durable ledger, is ``host.tower.link``.)
"""

from __future__ import annotations

import time
from typing import Any

import serial
from towerfw import codec


class TowerError(RuntimeError):
    """The tower answered a command with ``err``."""


class SimClient:
    def __init__(self, port: str, *, auto_ack: bool = True) -> None:
        self.serial = serial.Serial(port, timeout=0.05)
        self.decoder = codec.FrameDecoder()
        self.auto_ack = auto_ack
        self.events: list[dict[str, Any]] = []
        self.frames: list[dict[str, Any]] = []  # every decoded frame, in order
        self._answers: dict[int, dict[str, Any]] = {}
        self._next_id = 0
        self._seen_seq = 0
        self.hello: dict[str, Any] | None = None

    def close(self) -> None:
        self.serial.close()

    def __enter__(self) -> SimClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def poll(self, timeout: float = 0.05) -> list[dict[str, Any]]:
        """Read what is there (waiting up to ``timeout`` for the first bytes)."""
        self.serial.timeout = timeout
        data = self.serial.read(max(1, self.serial.in_waiting))
        if self.serial.in_waiting:
            data += self.serial.read(self.serial.in_waiting)
        got = self.decoder.feed(data)
        acks: list[int] = []
        for msg in got:
            self.frames.append(msg)
            t = msg.get("t")
            if t == "ev":
                seq = int(msg["seq"])
                if seq > self._seen_seq:
                    self._seen_seq = seq
                    self.events.append(msg)
                    acks.append(seq)
            elif t in ("ok", "err") and isinstance(msg.get("id"), int):
                self._answers[msg["id"]] = msg
            elif t == "hello":
                self.hello = msg
                if int(msg.get("seq", 0)) < self._seen_seq:
                    self._seen_seq = 0  # a new boot numbers its events from 1 again
        if acks and self.auto_ack:
            self.send("ack", seq=max(acks))
        return got

    def send(self, name: str, **fields: Any) -> int:
        self._next_id += 1
        msg: dict[str, Any] = {"t": "cmd", "c": name, "id": self._next_id}
        msg.update(fields)
        self.serial.write(codec.encode(msg))
        return self._next_id

    def cmd(self, name: str, timeout: float = 5.0, **fields: Any) -> dict[str, Any]:
        """Send a command and wait for its answer; raises TowerError on ``err``."""
        cid = self.send(name, **fields)
        deadline = time.monotonic() + timeout
        while cid not in self._answers:
            if time.monotonic() > deadline:
                raise TimeoutError(f"no answer to {name}")
            self.poll()
        answer = self._answers.pop(cid)
        if answer["t"] == "err":
            raise TowerError(str(answer.get("why")))
        return answer

    def wait_hello(self, timeout: float = 5.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while self.hello is None:
            if time.monotonic() > deadline:
                raise TimeoutError("no hello from the tower")
            self.poll()
        return self.hello

    def wait_events(self, count: int, timeout: float = 10.0) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while len(self.events) < count:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{len(self.events)} of {count} events")
            self.poll()
        return self.events

    def drain(self, quiet: float = 0.2) -> None:
        """Read until nothing arrives for ``quiet`` seconds."""
        last = time.monotonic()
        while time.monotonic() - last < quiet:
            if self.poll():
                last = time.monotonic()
