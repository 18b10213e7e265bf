"""Drives the emulated Pico (``harness.mjs`` under Node) from Python.

``EmulatedPico`` starts the harness with the firmware image, the boot ROM and a littlefs image of
the tower firmware, and speaks its line protocol: run emulated time, send host bytes, schedule the
beam and gate, give the sensor its readings per integration window, read counters. The link's
frames come back with the emulated time their last byte reached the host.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from towerfw import codec

from host.tower.sim.dropper import GRANDE_SIZE, Passage
from host.tower.sim.sensor_model import INTEGRATION_US, CubeLook, SensorModel
from tests.pico.filesystem import build_image
from tests.pico.toolchain import PicoInputs

HERE = Path(__file__).resolve().parent
HARNESS = HERE / "harness.mjs"
BEAM_PIN = 14
BEAM2_PIN = 13  # the standard build's second beam, 6 mm below the first (hardware/pinmap.json)
GATE_PIN = 15
CLOCK_HZ = 125_000_000
CUBE_EVENTS = ("drop", "uncertain", "merged", "grande")


@dataclass
class Frame:
    t_us: float  # emulated time the frame's newline reached the host
    msg: dict[str, Any]


@dataclass
class LedFrame:
    t_us: float
    end_us: float
    bits: int
    grb: bytes

    def rgb(self) -> bytes:
        """The frame in logical r, g, b order (the chain takes g, r, b)."""
        out = bytearray(len(self.grb))
        for i in range(0, len(self.grb) - 2, 3):
            out[i], out[i + 1], out[i + 2] = self.grb[i + 1], self.grb[i], self.grb[i + 2]
        return bytes(out)


@dataclass
class Stats:
    now_us: float
    busy_cycles: int
    idle_us: float
    wdt_feeds: int
    wdt_bites: int
    flash_erases: float
    flash_programs: int
    flash_stall_us: float
    sensor_enabled_us: float
    sensor_cycle_us: float
    sensor_block_reads: int

    @classmethod
    def of(cls, reply: dict[str, Any]) -> Stats:
        return cls(**{k: reply[k] for k in cls.__dataclass_fields__})


@dataclass
class Link:
    """What the host side of USB has seen: frames, other text lines, LED frames."""

    frames: list[Frame] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    leds: list[LedFrame] = field(default_factory=list)
    raw: bytearray = field(default_factory=bytearray)
    _partial: bytearray = field(default_factory=bytearray)

    def take(self, t_us: float, data: bytes) -> None:
        self.raw.extend(data)
        self._partial.extend(data)
        while (nl := self._partial.find(b"\n")) >= 0:
            line = bytes(self._partial[:nl])
            del self._partial[: nl + 1]
            msg = codec.decode_line(line) if line.strip() else None
            if msg is not None:
                self.frames.append(Frame(t_us, msg))
            elif line.strip():
                self.text.append(line.decode("utf-8", "replace"))


class HarnessError(RuntimeError):
    """The harness rejected a request or died."""


class EmulatedPico:
    def __init__(
        self,
        inputs: PicoInputs,
        fs_image: bytes,
        work: Path | None = None,
        flash_uid: str | None = None,
    ) -> None:
        """``flash_uid``: the flash chip's 64-bit unique ID in hex (None: the harness' own)."""
        self.work = work or Path(tempfile.mkdtemp(prefix="castillo-pico-"))
        fs_path = self.work / "littlefs.bin"
        fs_path.write_bytes(fs_image)
        uid_args = ["--flash-uid", flash_uid] if flash_uid is not None else []
        self.proc = subprocess.Popen(
            [
                "node",
                str(HARNESS),
                "--bootrom",
                str(inputs.bootrom),
                "--firmware",
                str(inputs.firmware),
                "--fs",
                str(fs_path),
                *uid_args,
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.link = Link()
        self.stats = Stats(0, 0, 0, 0, 0, 0, 0, 0, -1, 2400, 0)
        self._next_id = 1

    @classmethod
    def with_firmware(
        cls, inputs: PicoInputs, work: Path, extra: dict[str, bytes] | None = None
    ) -> EmulatedPico:
        return cls(inputs, build_image(work / "build", extra), work)

    # ---------------------------------------------------------------- protocol
    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"op": op, **fields}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise HarnessError(f"harness exited ({self.proc.poll()}) during {op}")
        reply: dict[str, Any] = json.loads(line)
        if "error" in reply:
            raise HarnessError(reply["error"])
        return reply

    def close(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(HarnessError, OSError, ValueError):
                self.request("quit")
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    # ---------------------------------------------------------------- time
    @property
    def now_us(self) -> float:
        return self.stats.now_us

    def run(self, us: float, until_line: bool = False) -> None:
        reply = self.request("run", us=us, until_line=until_line)
        for t_us, data in reply["usb"]:
            self.link.take(t_us, bytes.fromhex(data))
        for led in reply["leds"]:
            self.link.leds.append(
                LedFrame(led["t_us"], led["end_us"], led["bits"], bytes.fromhex(led["grb"]))
            )
        self.stats = Stats.of(reply)

    def run_until(self, done: Callable[[], bool], max_us: float, step_us: float = 20_000) -> bool:
        """Runs in steps until ``done()``; False if ``max_us`` of emulated time passed first."""
        end = self.now_us + max_us
        while not done():
            if self.now_us >= end:
                return False
            self.run(min(step_us, end - self.now_us))
        return True

    # ---------------------------------------------------------------- link
    def send(self, data: bytes) -> None:
        self.request("send", hex=data.hex())

    def frames(self, kind: str | None = None, since: int = 0) -> list[Frame]:
        return [f for f in self.link.frames[since:] if kind is None or f.msg.get("t") == kind]

    def events(self, since: int = 0) -> list[Frame]:
        return self.frames("ev", since)

    def command(self, name: str, max_us: float = 2_000_000, **args: Any) -> dict[str, Any]:
        """Sends a command frame and runs until its answer (``ok`` or ``err``) arrives."""
        cid = self._next_id
        self._next_id += 1
        mark = len(self.link.frames)
        self.send(codec.encode({"t": "cmd", "id": cid, "c": name, **args}))

        def answered() -> bool:
            return any(
                f.msg.get("id") == cid and f.msg.get("t") in ("ok", "err")
                for f in self.link.frames[mark:]
            )

        if not self.run_until(answered, max_us, 5_000):
            raise HarnessError(f"no answer to {name} in {max_us / 1000:.0f} ms")
        return next(
            f.msg
            for f in self.link.frames[mark:]
            if f.msg.get("id") == cid and f.msg.get("t") in ("ok", "err")
        )

    def boot(self, max_us: float = 1_500_000) -> dict[str, Any]:
        """Runs until the firmware's ``hello``; returns it."""
        mark = len(self.link.frames)
        if not self.run_until(lambda: bool(self.frames("hello", mark)), max_us, 100_000):
            raise HarnessError(f"no hello after {max_us / 1000:.0f} ms: {self.link.text[-5:]}")
        return self.frames("hello", mark)[0].msg

    def flash_uid(self) -> str:
        """The unique ID the emulated flash chip answers Read Unique ID (0x4B) with, in hex."""
        return str(self.request("flash_uid")["hex"])

    def power_cycle(self) -> None:
        """Power off and on: flash keeps its contents, everything else starts over."""
        self.request("power_cycle")
        self.link = Link()
        self.stats = Stats(0, 0, 0, 0, 0, 0, 0, 0, -1, 2400, 0)

    # ---------------------------------------------------------------- devices
    def set_inputs(self, edges: Sequence[tuple[float, int, int]]) -> None:
        self.request("inputs", edges=[[t, pin, level] for t, pin, level in edges])

    def set_gate(self, open_: bool, at_us: float | None = None) -> None:
        self.set_inputs([(self.now_us if at_us is None else at_us, GATE_PIN, int(open_))])

    def drop(
        self, passages: Sequence[Passage], model: SensorModel, margin_us: int = 50_000
    ) -> None:
        """Schedules the passages (times relative to now) on the beam and the sensor."""
        base = int(self.now_us)
        moved = [
            Passage(
                p.t_entry_us + base,
                list(p.cubes),
                list(p.lengths_us),
                p.stuck,
                None if p.beam2_us is None else (p.beam2_us[0] + base, p.beam2_us[1] + base),
                list(p.starts_us),
            )
            for p in passages
        ]
        edges: list[tuple[float, int, int]] = []
        for p in moved:
            edges.append((p.t_entry_us, BEAM_PIN, 1))
            edges.append((p.t_exit_us, BEAM_PIN, 0))
            if p.beam2_us is not None:  # (a Dropper with beam2_mm=None: a one-beam tower)
                edges.append((p.beam2_us[0], BEAM2_PIN, 1))
                edges.append((p.beam2_us[1], BEAM2_PIN, 0))
        edges.sort()
        self.set_inputs(edges)
        end = (moved[-1].t_exit_us if moved else base) + margin_us
        self.feed_sensor(looks_of(moved, model), model, base, end)

    def feed_sensor(
        self, seen: Sequence[Seen], model: SensorModel, start_us: int, end_us: int
    ) -> None:
        """Readings of every integration window ending in [start_us, end_us]."""
        enabled = self.stats.sensor_enabled_us
        if enabled < 0:
            raise HarnessError("the sensor is not integrating yet")
        cycle = int(self.stats.sensor_cycle_us)
        first = max(1, int((start_us - enabled) // cycle))
        last = int((end_us - enabled) // cycle) + 1
        values = [
            list(model.reading(int(t), in_view(seen, int(t), cycle)))
            for t in (enabled + n * cycle for n in range(first, last + 1))
        ]
        self.request("readings", first=first, values=values)


Seen = tuple[Passage, list[CubeLook]]  # a passage and how each of its cubes looks


def looks_of(passages: Sequence[Passage], model: SensorModel) -> list[Seen]:
    return [
        (
            p,
            [
                model.look(c.split(":")[-1], GRANDE_SIZE if c.startswith("grande:") else 1.0)
                for c in p.cubes
            ],
        )
        for p in passages
    ]


def in_view(
    seen: Sequence[Seen], t_end: int, window: int = INTEGRATION_US
) -> list[tuple[float, CubeLook]]:
    """(fraction of the window, look) of each cube in view during the window ending at t_end."""
    out: list[tuple[float, CubeLook]] = []
    w0 = t_end - window
    for p, looks in seen:
        if p.t_exit_us <= w0 or p.t_entry_us >= t_end:
            continue
        t = p.t_entry_us
        for look, (a, b) in zip(looks, p.spans(), strict=True):
            overlap = min(t + b, t_end) - max(t + a, w0)
            if overlap > 0:
                out.append((overlap / window, look))
    return out
