"""Cube scenarios played on the emulated Pico, and how their events are judged."""

from __future__ import annotations

from dataclasses import dataclass

from host.tower.sim.dropper import Dropper
from host.tower.sim.sensor_model import SensorModel
from tests.pico.emulator import CUBE_EVENTS, EmulatedPico, Frame


@dataclass
class Played:
    dropper: Dropper
    start_us: float  # emulated time the scenario's t=0 maps to
    events: list[Frame]  # cube events, in order

    def cubes_counted(self) -> int:
        return sum(int(e.msg.get("est", 1)) if e.msg["k"] == "merged" else 1 for e in self.events)

    def exit_us(self, i: int) -> float:
        return self.start_us + self.dropper.passages[i].t_exit_us

    def entry_us(self, i: int) -> float:
        return self.start_us + self.dropper.passages[i].t_entry_us


def play(pico: EmulatedPico, dropper: Dropper, seed: int = 1, settle_us: int = 60_000) -> Played:
    """Drops the dropper's passages (its times start at 0 = now) and runs until they are counted."""
    start = pico.now_us
    mark = len(pico.link.frames)
    pico.drop(dropper.passages, SensorModel(seed=seed))
    end = dropper.passages[-1].t_exit_us + settle_us
    pico.run(end)
    events = [f for f in pico.events(mark) if f.msg.get("k") in CUBE_EVENTS]
    return Played(dropper, start, events)


def singles(colours: list[str], gap_us: int, seed: int = 1) -> Dropper:
    dropper = Dropper(seed=seed, t_us=0)
    for colour in colours:
        dropper.single(colour, gap_us=gap_us)
    return dropper
