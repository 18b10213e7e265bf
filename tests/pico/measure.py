"""Figures of the firmware on the emulated Pico, from deterministic cycle counts.

Emulated time and cycles are exact for the code (same inputs, same counts); a real Pico adds
flash-cache misses, so these are lower bounds for it. "Busy" is every cycle the core executes
instructions; time it sleeps in WFI/WFE is idle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from host.tower.sim.dropper import Dropper
from host.tower.sim.sensor_model import SensorModel
from tests.pico.emulator import CLOCK_HZ, CUBE_EVENTS, EmulatedPico

COLOURS = ("purple", "green", "blue", "orange", "red")


def ms(cycles: float) -> float:
    return 1000.0 * cycles / CLOCK_HZ


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]


def idle_cpu_pct(pico: EmulatedPico, window_us: int = 2_000_000) -> float:
    """Share of the CPU the idle main loop uses (no cube, no host traffic)."""
    pico.run(50_000)
    before = pico.stats.busy_cycles
    pico.run(window_us)
    return 100.0 * (pico.stats.busy_cycles - before) / (window_us * CLOCK_HZ / 1e6)


@dataclass
class CubeFigures:
    cubes: int = 0
    correct: int = 0
    wrong: int = 0  # reported with a colour that is not the cube's (uncertain is not wrong)
    cpu_ms: list[float] = field(default_factory=list)  # beam entry -> event on USB
    after_exit_ms: list[float] = field(default_factory=list)  # beam clear -> event on USB


def timed_cubes(pico: EmulatedPico, n: int, gap_us: int = 150_000, seed: int = 11) -> CubeFigures:
    """Drops ``n`` single cubes one by one and times each from the beam to its event on USB."""
    dropper = Dropper(seed=seed, t_us=0)
    for i in range(n):
        dropper.single(COLOURS[i % len(COLOURS)], gap_us=gap_us)
    start = pico.now_us
    pico.drop(dropper.passages, SensorModel(seed=seed))
    out = CubeFigures()
    for p in dropper.passages:
        entry = start + p.t_entry_us
        pico.run(entry - pico.now_us - 1)
        busy = pico.stats.busy_cycles
        mark = len(pico.link.frames)
        deadline = entry + 200_000
        while pico.now_us < deadline:
            pico.run(deadline - pico.now_us, until_line=True)
            cube = [f for f in pico.events(mark) if f.msg.get("k") in CUBE_EVENTS]
            if cube:
                out.cpu_ms.append(ms(pico.stats.busy_cycles - busy))
                out.after_exit_ms.append((cube[0].t_us - (start + p.t_exit_us)) / 1000)
                out.correct += cube[0].msg.get("c") == p.cubes[0]
                out.wrong += cube[0].msg["k"] == "drop" and cube[0].msg.get("c") != p.cubes[0]
                break
        out.cubes += 1
    pico.run(start + dropper.t_us + 50_000 - pico.now_us)
    return out


def heap_after_cubes(
    pico: EmulatedPico, n: int, gap_us: int = 10_000, seed: int = 12, every: int = 100
) -> tuple[int, int, int, int]:
    """(lowest free heap after a collection, cubes counted, correct, wrong) over ``n`` cubes dropped
    back to back (cheap timing: 10 ms apart); the host acknowledges the events and reads the
    free heap every ``every`` cubes."""
    free: list[int] = []
    counted = correct = wrong = 0
    done = 0
    while done < n:
        k = min(every, n - done)
        dropper = Dropper(seed=seed + done, t_us=0)
        for i in range(k):
            dropper.single(COLOURS[i % len(COLOURS)], gap_us=gap_us)
        mark = len(pico.link.frames)
        pico.drop(dropper.passages, SensorModel(seed=seed + done))
        pico.run(dropper.t_us + 60_000)
        events = [f for f in pico.events(mark) if f.msg.get("k") in CUBE_EVENTS]
        counted += len(events)
        truth = [p.cubes[0] for p in dropper.passages]
        for e, c in zip(events, truth, strict=False):
            correct += e.msg.get("c") == c
            wrong += e.msg["k"] == "drop" and e.msg.get("c") != c
        if events:  # as the host does: acknowledged events leave the replay ring
            pico.command("ack", seq=int(events[-1].msg["seq"]))
        free.append(int(pico.command("diag", on=False)["mem_free"]))
        done += k
    return min(free), counted, correct, wrong


def led_frame_us(pico: EmulatedPico) -> float:
    """Time the full chain's frame takes on GP16, from its first bit to its last."""
    mark = len(pico.link.leds)
    pico.command("scene", segs={"castillo": [255, 64, 0]})
    pico.run(20_000)
    frame = pico.link.leds[mark:][-1]
    return frame.end_us - frame.t_us
