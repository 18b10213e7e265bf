"""Helpers: the firmware's Tower on the CPython fake HAL, fed by the sim's dropper."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from towerfw import codec
from towerfw.app import Tower
from towerfw.hal_fake import FakeHal

from host.paths import REPO_ROOT, hardware_dir
from host.tower.sim.dropper import Dropper, render
from host.tower.sim.sensor_model import SensorModel


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((REPO_ROOT / "firmware" / name).read_text())
    return data


class Rig:
    """A booted Tower on a FakeHal; ``drop`` plays dropper passages through it."""

    def __init__(self, cal_text: str | None = None, **hal_kwargs: Any) -> None:
        self.hal = FakeHal(**hal_kwargs)
        self.config = load("config.json")
        self.palette = load("palette.json")
        self.ledmap = json.loads((hardware_dir() / "ledmap.json").read_text())
        self.tower = Tower(self.hal, self.config, self.palette, self.ledmap, cal_text)
        self.tower.boot()
        self.decoder = codec.FrameDecoder()
        self.out: list[dict[str, Any]] = []
        self.seed = 7

    def run_us(self, us: int) -> None:
        end = self.hal.clock + us
        while self.hal.clock < end:
            self.tower.step()

    def run_until_idle(self, extra_us: int = 200_000) -> None:
        while self.hal.busy():
            self.tower.step()
        self.run_us(extra_us)

    def read(self) -> list[dict[str, Any]]:
        msgs = self.decoder.feed(bytes(self.hal.tx))
        self.hal.tx.clear()
        self.out.extend(msgs)
        return msgs

    def events(self) -> list[dict[str, Any]]:
        self.read()
        return [m for m in self.out if m.get("t") == "ev"]

    def cmd(self, name: str, **fields: Any) -> dict[str, Any]:
        msg: dict[str, Any] = {"t": "cmd", "c": name, "id": 99}
        msg.update(fields)
        self.hal.rx.extend(codec.encode(msg))
        for _ in range(2000):
            self.tower.step()
            for m in self.read():
                if m.get("t") in ("ok", "err") and m.get("id") == 99:
                    return m
        raise AssertionError(f"no answer to {name}")

    def drop(self, build: Callable[[Dropper], None], seed: int | None = None) -> None:
        self.seed += 1
        dropper = Dropper(seed=self.seed if seed is None else seed)
        build(dropper)
        rows = render(dropper.passages, SensorModel(seed=self.seed))
        self.hal.add_rows([r.raw() for r in rows], offset_us=1000)
        self.run_until_idle()


@pytest.fixture
def rig() -> Rig:
    return Rig()
