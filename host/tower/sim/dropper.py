"""Cubes falling through the chute, and the sensor trace they produce.

A *passage* is one interruption of the break-beam: usually one cube, a Grande (longer pulse,
bigger face), several cubes touching (one long pulse: merged), or a cube that sticks in the
chute (the beam stays blocked). ``Dropper`` makes passages; ``render`` turns them into trace
rows (see docs/trace-format.md) with the sensor model.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from host.tower.sim.sensor_model import INTEGRATION_US, CubeLook, SensorModel
from host.tower.sim.trace import TraceRow

SINGLE_PULSE_US = 11_400  # an 8 mm caballero at 0.7 m/s (hardware/README.md, chute design)
GRANDE_SIZE = 1.75  # a 14 mm Grande's pulse relative to a caballero's at the same speed


@dataclass
class Passage:
    t_entry_us: int
    cubes: list[str]  # labels: "purple" or "grande:purple"; several = touching (merged)
    lengths_us: list[int]  # the time each cube interrupts the beam, in order
    stuck: bool = False

    @property
    def duration_us(self) -> int:
        return sum(self.lengths_us)

    @property
    def t_exit_us(self) -> int:
        return self.t_entry_us + self.duration_us

    @property
    def label(self) -> str:
        return "+".join(self.cubes)


@dataclass
class Dropper:
    colours: Sequence[str] = ("purple", "green", "blue", "orange", "red")
    seed: int = 1
    single_pulse_us: int = SINGLE_PULSE_US
    speed_sigma: float = 0.03  # cube-to-cube variation of the fall speed
    tilt_sigma: float = 0.03  # a tilted cube interrupts the beam a little longer
    passages: list[Passage] = field(default_factory=list)
    t_us: int = 50_000  # where the next passage may start

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def _speed(self) -> float:
        return max(0.5, 1.0 + self.rng.gauss(0.0, self.speed_sigma))

    def _length(self, size: float = 1.0, speed: float | None = None) -> int:
        tilt = 1.0 + abs(self.rng.gauss(0.0, self.tilt_sigma))
        return int(self.single_pulse_us * size * tilt / (speed or self._speed()))

    def _colour(self, colour: str | None) -> str:
        return colour if colour is not None else self.rng.choice(list(self.colours))

    def _add(self, cubes: list[str], lengths: list[int], gap_us: int, stuck: bool = False) -> None:
        p = Passage(self.t_us + gap_us, cubes, lengths, stuck)
        self.passages.append(p)
        self.t_us = p.t_exit_us

    def single(self, colour: str | None = None, gap_us: int = 200_000) -> None:
        self._add([self._colour(colour)], [self._length()], gap_us)

    def singles(self, n: int, rate_hz: float, colours: Sequence[str] | None = None) -> None:
        """``n`` cubes at about ``rate_hz`` (intervals vary +-40 %, at least 30 ms apart)."""
        for i in range(n):
            interval = 1e6 / rate_hz * self.rng.uniform(0.6, 1.4)
            gap = max(30_000, int(interval) - self.single_pulse_us)
            self.single(colours[i % len(colours)] if colours else None, gap)

    def grande(self, colour: str | None = None, gap_us: int = 200_000) -> None:
        c = self._colour(colour)
        self._add([f"grande:{c}"], [self._length(GRANDE_SIZE)], gap_us)

    def merged(self, colours: Sequence[str], gap_us: int = 200_000) -> None:
        """Cubes touching each other (so falling at one speed): one long pulse."""
        speed = self._speed()
        self._add(list(colours), [self._length(1.0, speed) for _ in colours], gap_us)

    def stuck(self, colour: str | None = None, hold_us: int = 1_500_000) -> None:
        """A cube that jams in front of the sensor for ``hold_us``, then falls."""
        self._add([self._colour(colour)], [hold_us], 200_000, stuck=True)

    def handful(self, k: int, gap_us: int = 300_000) -> None:
        """``k`` cubes thrown together: short random gaps; some arrive touching (merged)."""
        cubes = [self._colour(None) for _ in range(k)]
        group: list[str] = [cubes[0]]
        speed = self._speed()
        lengths = [self._length(1.0, speed)]
        first = True
        next_gap = gap_us
        for c in cubes[1:]:
            gap = int(self.rng.expovariate(1 / 22_000)) - 3_000
            if gap < 1_500:  # touching the previous cube: the beam never clears
                group.append(c)
                lengths.append(self._length(1.0, speed))
                continue
            self._add(group, lengths, gap_us if first else next_gap)
            first = False
            next_gap = gap
            speed = self._speed()
            group, lengths = [c], [self._length(1.0, speed)]
        self._add(group, lengths, gap_us if first else next_gap)

    def pause(self, us: int) -> None:
        self.t_us += us


def _segments(p: Passage) -> list[tuple[int, int, int]]:
    """(start, end, cube index) of each cube's time in view."""
    out = []
    t = p.t_entry_us
    for i, n in enumerate(p.lengths_us):
        out.append((t, t + n, i))
        t += n
    return out


def render(
    passages: Sequence[Passage],
    model: SensorModel,
    end_us: int | None = None,
    phase_us: int = 700,
) -> list[TraceRow]:
    """Trace rows: one per integration cycle end plus one at every beam edge."""
    last = passages[-1].t_exit_us if passages else 0
    end = end_us if end_us is not None else last + 100_000
    looks: list[list[CubeLook]] = []
    for p in passages:
        looks.append(
            [
                model.look(c.split(":")[-1], GRANDE_SIZE if c.startswith("grande:") else 1.0)
                for c in p.cubes
            ]
        )
    rows: list[TraceRow] = []
    reading = model.empty_reading(phase_us)
    pi = 0  # first passage that may still be in view
    edges: list[tuple[int, int, str]] = []
    for p in passages:
        edges.append((p.t_entry_us, 1, p.label))
        edges.append((p.t_exit_us, 0, ""))
    ei = 0
    t = phase_us
    while t <= end:
        while ei < len(edges) and edges[ei][0] < t:
            et, beam, label = edges[ei]
            rows.append(TraceRow(et, *reading, beam, label))
            ei += 1
        w0 = t - INTEGRATION_US
        while pi < len(passages) and passages[pi].t_exit_us <= w0:
            pi += 1
        in_view: list[tuple[float, CubeLook]] = []
        label = ""
        j = pi
        while j < len(passages) and passages[j].t_entry_us < t:
            p = passages[j]
            for s0, s1, i in _segments(p):
                overlap = min(s1, t) - max(s0, w0)
                if overlap > 0:
                    in_view.append((overlap / INTEGRATION_US, looks[j][i]))
                    label = p.label
            j += 1
        reading = model.reading(t, in_view)
        beam = 1 if any(p.t_entry_us <= t < p.t_exit_us for p in passages[pi:j]) else 0
        rows.append(TraceRow(t, *reading, beam, label if beam else ""))
        t += INTEGRATION_US
    return rows
