"""Cubes falling through the chute, and the sensor trace they produce.

A *passage* is one interruption of the break-beam: usually one cube, a Grande (longer pulse,
bigger face), several cubes touching (one long pulse: merged), or a cube that sticks in the
chute (the beam stays blocked). ``Dropper`` makes passages; ``render`` turns them into trace
rows (see docs/trace-format.md) with the sensor model.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from host.tower.sim.sensor_model import INTEGRATION_US, CubeLook, SensorModel
from host.tower.sim.trace import TraceRow

SINGLE_PULSE_US = 11_400  # an 8 mm caballero at 0.7 m/s (hardware/README.md, chute design)
GRANDE_SIZE = 1.75  # a 14 mm Grande's pulse relative to a caballero's at the same speed
CUBE_MM = 8.0
BEAM2_BELOW_MM = 6.0  # the optional second beam (hardware/chute/params.json: beam2_below)
FALL_ACCEL = 0.00981  # mm/ms^2: the throat is a free fall (g)


@dataclass
class Passage:
    t_entry_us: int
    cubes: list[str]  # labels: "purple" or "grande:purple"; several = touching (merged)
    lengths_us: list[int]  # the time each cube interrupts the beam, in order
    stuck: bool = False
    beam2_us: tuple[int, int] | None = None  # when the group interrupts the second beam
    # when each cube of a touching group starts to interrupt the beam, after the group's entry;
    # empty: one right after the other. A cube may enter before the one ahead has left (they
    # fall slightly side by side): then both are in the beam for a while
    starts_us: list[int] = field(default_factory=list)

    def spans(self) -> list[tuple[int, int]]:
        """(start, end) of each cube's time in the beam, relative to the entry."""
        out: list[tuple[int, int]] = []
        t = 0
        for i, n in enumerate(self.lengths_us):
            s = self.starts_us[i] if self.starts_us else t
            out.append((s, s + n))
            t = s + n
        return out

    @property
    def duration_us(self) -> int:
        if not self.starts_us:
            return sum(self.lengths_us)
        return max(b for _, b in self.spans())

    @property
    def t_exit_us(self) -> int:
        return self.t_entry_us + self.duration_us

    @property
    def label(self) -> str:
        return "+".join(self.cubes)


def _time_to(x_mm: float, v: float, a: float) -> float:
    """Microseconds for a piece entering at ``v`` mm/ms with acceleration ``a`` to move ``x``."""
    if a <= 0:
        return 1000.0 * x_mm / v
    return 1000.0 * (math.sqrt(v * v + 2 * a * x_mm) - v) / a


SIMILAR = (("red", "orange"), ("purple", "blue"))  # the pairs a sensor confuses most easily


@dataclass
class Dropper:
    """Pieces fall through the sensing plane at ``speed`` (from the chute's design speed,
    ``speed_sigma`` relative spread, clipped to +-``speed_spread``; or with ``uniform`` spread
    evenly over +-``speed_spread``) accelerating at ``accel``; with ``beam2_mm`` a second beam
    that far below the first sees them too. The cubes of a touching group overlap in the beam
    by up to ``overlap_us`` (drawn evenly from 0 to it, at each contact)."""

    colours: Sequence[str] = ("purple", "green", "blue", "orange", "red")
    seed: int = 1
    single_pulse_us: int = SINGLE_PULSE_US
    speed_sigma: float = 0.03  # cube-to-cube variation of the fall speed
    speed_spread: float = 0.3  # the speed never leaves design * (1 +- this)
    tilt_sigma: float = 0.03  # a tilted cube interrupts the beam a little longer
    accel: float = FALL_ACCEL
    beam2_mm: float | None = BEAM2_BELOW_MM
    uniform: bool = False
    overlap_us: int = 0
    passages: list[Passage] = field(default_factory=list)
    t_us: int = 50_000  # where the next passage may start

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.design_speed = CUBE_MM * 1000.0 / self.single_pulse_us  # mm/ms

    def _speed(self) -> float:
        if self.uniform:
            return self.design_speed * self.rng.uniform(
                1 - self.speed_spread, 1 + self.speed_spread
            )
        k = 1.0 + self.rng.gauss(0.0, self.speed_sigma)
        k = min(1.0 + self.speed_spread, max(1.0 - self.speed_spread, k))
        return self.design_speed * k

    def _tilt(self) -> float:
        return 1.0 + abs(self.rng.gauss(0.0, self.tilt_sigma))

    def _colour(self, colour: str | None) -> str:
        return colour if colour is not None else self.rng.choice(list(self.colours))

    def _add(self, cubes: list[str], gap_us: int, speed: float | None = None) -> None:
        """A piece or a touching group entering the first beam ``gap_us`` after the last one."""
        v = speed if speed is not None else self._speed()
        sizes = [(GRANDE_SIZE if c.startswith("grande:") else 1.0) * self._tilt() for c in cubes]
        t0 = self.t_us + gap_us
        lengths: list[int] = []
        starts: list[int] = []
        x = 0.0  # where the next cube's front is, behind the group's front (mm)
        far = 0.0  # the group's extent so far (mm)
        for i, size in enumerate(sizes):
            if i and self.overlap_us > 0:
                # it entered before the one ahead left: this much earlier at the beam (mm)
                x -= v * self.rng.uniform(0.0, self.overlap_us) / 1000.0
            start = round(_time_to(x, v, self.accel)) if x > 0 else 0
            end = round(_time_to(x + size * CUBE_MM, v, self.accel))
            starts.append(start)
            lengths.append(end - start)
            x += size * CUBE_MM
            far = max(far, x)
        beam2 = None
        if self.beam2_mm is not None:
            b0 = round(_time_to(self.beam2_mm, v, self.accel))
            b1 = round(_time_to(self.beam2_mm + far, v, self.accel))
            beam2 = (t0 + b0, t0 + b1)
        overlapping = any(starts[i] < starts[i - 1] + lengths[i - 1] for i in range(1, len(starts)))
        p = Passage(t0, cubes, lengths, beam2_us=beam2, starts_us=starts if overlapping else [])
        self.passages.append(p)
        self.t_us = p.t_exit_us

    def single(self, colour: str | None = None, gap_us: int = 200_000) -> None:
        self._add([self._colour(colour)], gap_us)

    def singles(self, n: int, rate_hz: float, colours: Sequence[str] | None = None) -> None:
        """``n`` cubes at about ``rate_hz`` (intervals vary +-40 %, at least 30 ms apart)."""
        for i in range(n):
            self.single(colours[i % len(colours)] if colours else None, self._interval(rate_hz))

    def _interval(self, rate_hz: float) -> int:
        interval = 1e6 / rate_hz * self.rng.uniform(0.6, 1.4)
        return max(30_000, int(interval) - self.single_pulse_us)

    def grande(self, colour: str | None = None, gap_us: int = 200_000) -> None:
        self._add([f"grande:{self._colour(colour)}"], gap_us)

    def merged(
        self, colours: Sequence[str], gap_us: int = 200_000, speed: float | None = None
    ) -> None:
        """Cubes touching each other (so falling at one speed: ``speed`` times the design
        speed if given): one long pulse."""
        self._add(list(colours), gap_us, None if speed is None else speed * self.design_speed)

    def mixed(self, n: int, rate_hz: float, touching: float = 0.08, alike: bool = False) -> None:
        """``n`` pieces at about ``rate_hz``; a share ``touching`` of them pass as touching
        pairs (two in three) or triples, colours drawn independently; with ``alike`` a group is
        of one colour (a third), of two similar colours (red and orange, purple and blue: a
        third) or of colours drawn independently."""
        for _ in range(n):
            group = 1
            if self.rng.random() < touching:
                group = 2 if self.rng.random() < 2 / 3 else 3
            self._add(self._group(group, alike), self._interval(rate_hz))

    def _group(self, k: int, alike: bool) -> list[str]:
        if k == 1 or not alike:
            return [self._colour(None) for _ in range(k)]
        how = self.rng.random()
        if how < 1 / 3:
            return [self._colour(None)] * k
        pairs = [p for p in SIMILAR if p[0] in self.colours and p[1] in self.colours]
        if how < 2 / 3 and pairs:
            pair = self.rng.choice(pairs)
            out = [pair[0], pair[1]] + [self.rng.choice(pair) for _ in range(k - 2)]
            self.rng.shuffle(out)
            if len(set(out)) == 1:
                out[-1] = pair[0] if out[0] == pair[1] else pair[1]
            return out
        return [self._colour(None) for _ in range(k)]

    def stuck(self, colour: str | None = None, hold_us: int = 1_500_000) -> None:
        """A cube that jams in front of the sensor for ``hold_us``, then falls."""
        p = Passage(self.t_us + 200_000, [self._colour(colour)], [hold_us], stuck=True)
        if self.beam2_mm is not None:
            p.beam2_us = (p.t_exit_us + 2_000, p.t_exit_us + 12_000)
        self.passages.append(p)
        self.t_us = p.t_exit_us

    def handful(self, k: int, gap_us: int = 300_000) -> None:
        """``k`` cubes thrown together: short random gaps; some arrive touching (merged)."""
        cubes = [self._colour(None) for _ in range(k)]
        group: list[str] = [cubes[0]]
        first = True
        next_gap = gap_us
        for c in cubes[1:]:
            gap = int(self.rng.expovariate(1 / 22_000)) - 3_000
            if gap < 1_500:  # touching the previous cube: the beam never clears
                group.append(c)
                continue
            self._add(group, gap_us if first else next_gap)
            first = False
            next_gap = gap
            group = [c]
        self._add(group, gap_us if first else next_gap)

    def pause(self, us: int) -> None:
        self.t_us += us


def _segments(p: Passage) -> list[tuple[int, int, int]]:
    """(start, end, cube index) of each cube's time in view."""
    t = p.t_entry_us
    return [(t + a, t + b, i) for i, (a, b) in enumerate(p.spans())]


def _shared(segments: list[tuple[int, int, int]], i: int, w0: int, w1: int) -> int:
    """How long in [w0, w1] cube ``i`` was in the beam together with another of its group (they
    share the view then: each hides half of what it would alone)."""
    s0, s1, _ = segments[i]
    both = 0
    for j, (o0, o1, _) in enumerate(segments):
        if j != i:
            both += max(0, min(s1, o1, w1) - max(s0, o0, w0))
    return both


def _seen(s0: int, s1: int, w0: int, w1: int, edge: int, reflect: float) -> tuple[float, float]:
    """(covered, lit) share of the window [w0, w1] for a cube in view over [s0, s1] whose
    first and last ``edge`` us are its rounded edges."""
    overlap = min(s1, w1) - max(s0, w0)
    if overlap <= 0:
        return 0.0, 0.0
    dark = 0
    for e0, e1 in ((s0, s0 + edge), (s1 - edge, s1)):
        dark += max(0, min(e1, w1) - max(e0, w0))
    dark = min(dark, overlap)
    return overlap / INTEGRATION_US, (overlap - dark + reflect * dark) / INTEGRATION_US


def _union(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping intervals joined (a faster piece caught up with the one ahead)."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _level(starts: list[int], spans: list[tuple[int, int]], t: int) -> int:
    i = bisect.bisect_right(starts, t) - 1
    return 1 if i >= 0 and spans[i][0] <= t < spans[i][1] else 0


def render(
    passages: Sequence[Passage],
    model: SensorModel,
    end_us: int | None = None,
    phase_us: int = 700,
) -> list[TraceRow]:
    """Trace rows: one per integration cycle end plus one at every edge of either beam."""
    last = max((p.t_exit_us for p in passages), default=0)
    last2 = max((p.beam2_us[1] for p in passages if p.beam2_us), default=0)
    end = end_us if end_us is not None else max(last, last2) + 100_000
    looks: list[list[CubeLook]] = []
    for p in passages:
        looks.append(
            [
                model.look(c.split(":")[-1], GRANDE_SIZE if c.startswith("grande:") else 1.0)
                for c in p.cubes
            ]
        )
    spans1 = [(p.t_entry_us, p.t_exit_us) for p in passages]
    starts1 = [a for a, _ in spans1]
    spans2 = _union([p.beam2_us for p in passages if p.beam2_us is not None])
    starts2 = [a for a, _ in spans2]
    edge_times = sorted({t for span in spans1 + spans2 for t in span})
    rows: list[TraceRow] = []
    reading = model.empty_reading(phase_us)
    pi = 0  # first passage that may still be in view
    ei = 0
    t = phase_us
    while t <= end:
        while ei < len(edge_times) and edge_times[ei] < t:
            et = edge_times[ei]
            beam = _level(starts1, spans1, et)
            label = passages[bisect.bisect_right(starts1, et) - 1].label if beam else ""
            rows.append(TraceRow(et, *reading, beam, label, _level(starts2, spans2, et)))
            ei += 1
        w0 = t - INTEGRATION_US
        while pi < len(passages) and passages[pi].t_exit_us <= w0:
            pi += 1
        in_view: list[tuple[float, float, CubeLook]] = []
        j = pi
        while j < len(passages) and passages[j].t_entry_us < t:
            p = passages[j]
            segments = _segments(p)
            for s0, s1, i in segments:
                edge = round(model.edge_fraction * (s1 - s0))
                covered, lit = _seen(s0, s1, w0, t, edge, model.edge_reflect)
                if covered > 0 and p.starts_us:
                    both = _shared(segments, i, w0, t) / INTEGRATION_US
                    if both > 0:
                        k = 1 - 0.5 * both / covered
                        covered *= k
                        lit *= k
                if covered > 0:
                    in_view.append((covered, lit, looks[j][i]))
            j += 1
        reading = model.reading(t, in_view)
        beam = _level(starts1, spans1, t)
        label = passages[bisect.bisect_right(starts1, t) - 1].label if beam else ""
        rows.append(TraceRow(t, *reading, beam, label, _level(starts2, spans2, t)))
        t += INTEGRATION_US
    return rows
