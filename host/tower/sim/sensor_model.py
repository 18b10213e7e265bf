"""A model of what the tower's TCS34725 reads while cubes fall past it.

A reading is the integral over one 2.4 ms integration window of what is in view:

    reading = sum(f_i * cube_i) + (1 - sum(f_i)) * background + ambient(t) + noise

- ``f_i``: the fraction of the window cube ``i`` was in view (it is in view while it interrupts
  the beam: the beam and the sensor look at the same height of the chute);
- ``cube_i``: the colour's mean reflection (spectra.json) x a per-cube brightness factor
  (distance and tilt: log-normal) mixed with a little specular white (tilt), all scaled by the
  LED's ageing (its output drops, blue first; ``led_ageing`` lets it fade during the run);
  a cube's rounded edges (``edge_fraction`` of its length at each end) reflect only
  ``edge_reflect`` of its face, so the seam between two touching cubes reads darker;
- ``ambient``: room light leaking into the chute, with steps (a lamp switched on) and mains
  flicker (100 Hz, averaged over the window);
- noise: shot noise (variance proportional to the count) plus read noise; counts are clipped
  at full scale (1024), so a flood of light saturates.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

SPECTRA_FILE = Path(__file__).resolve().parent / "spectra.json"
INTEGRATION_US = 2400

RGBC = tuple[float, float, float, float]


def load_spectra(path: Path = SPECTRA_FILE) -> dict[str, object]:
    data: dict[str, object] = json.loads(path.read_text())
    return data


def _vec(values: object) -> RGBC:
    assert isinstance(values, list) and len(values) == 4
    return (float(values[0]), float(values[1]), float(values[2]), float(values[3]))


@dataclass
class CubeLook:
    """How one particular cube looks to the sensor (fixed for its whole passage)."""

    rgbc: RGBC


InView = tuple[float, float, CubeLook] | tuple[float, CubeLook]


@dataclass
class SensorModel:
    seed: int = 1
    shot_noise: float = 0.25  # variance per count
    read_noise: float = 1.0  # counts (standard deviation)
    brightness_sigma: float = 0.07  # log-normal spread from distance and tilt
    specular_max: float = 0.06  # up to this fraction of white mixed in by tilt
    led_level: float = 1.0  # LED ageing: 1.0 new, 0.8 = 20 % dimmer (blue fades faster)
    ambient_level: float = 1.0  # multiplies the spectra file's ambient vector
    ambient_steps: list[tuple[int, float]] = field(default_factory=list)  # (t_us, level)
    flicker: float = 0.3  # mains flicker depth of the ambient light
    flicker_hz: float = 100.0
    led_ageing: float = 0.0  # the LED loses this fraction of its output linearly ...
    ageing_span_us: int = 0  # ... over this much trace time (0: no ageing during the run)
    edge_fraction: float = 0.06  # rounded edge at each end of a cube, as a share of its length
    edge_reflect: float = 0.35  # what an edge reflects towards the sensor, relative to the face
    colour_overrides: dict[str, list[float]] = field(default_factory=dict)
    spectra: dict[str, object] = field(default_factory=load_spectra)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        colours = self.spectra["colours"]
        assert isinstance(colours, dict)
        self.colours: dict[str, RGBC] = {k: _vec(v) for k, v in colours.items()}
        self.colours.update({k: _vec(v) for k, v in self.colour_overrides.items()})
        self.background = _vec(self.spectra["background"])
        self.white = _vec(self.spectra["white"])
        self.ambient_vec = _vec(self.spectra["ambient"])
        full = self.spectra.get("full_scale", 1024)
        assert isinstance(full, int)
        self.full_scale = full

    @classmethod
    def harder(cls, seed: int, span_us: int) -> SensorModel:
        """Issue 14's harder conditions over a run of ``span_us``: the 2023 red close to orange,
        a room lamp switched on (8x the ambient light, 100 Hz flicker) for the middle third, and
        the LED losing 12 % of its output from start to end."""
        variants = load_spectra()["variants"]
        assert isinstance(variants, dict)
        return cls(
            seed=seed,
            colour_overrides={"red": variants["red_near_orange"]},
            ambient_steps=[(span_us // 3, 8.0), (2 * span_us // 3, 1.0)],
            flicker=0.3,
            led_ageing=0.12,
            ageing_span_us=span_us,
        )

    def led_level_at(self, t_us: int) -> float:
        if self.ageing_span_us <= 0:
            return self.led_level
        done = min(1.0, max(0.0, t_us / self.ageing_span_us))
        return self.led_level * (1.0 - self.led_ageing * done)

    def _led(self, v: RGBC, k: float | None = None) -> RGBC:
        k = self.led_level if k is None else k
        kb = k**1.5
        b = v[2] * kb
        return (v[0] * k, v[1] * k, b, v[3] * k - v[2] * (k - kb) * 0.9)

    def look(self, colour: str, size: float = 1.0) -> CubeLook:
        """A random pose of a cube of ``colour`` (``size`` > 1 for a Grande: closer, brighter)."""
        base = self.colours[colour]
        bright = math.exp(self.rng.gauss(0.0, self.brightness_sigma)) * (1.0 + 0.25 * (size - 1))
        spec = self.rng.uniform(0.0, self.specular_max)
        white_k = spec * base[3] / self.white[3]
        mixed = tuple(bright * ((1 - spec) * base[i] + white_k * self.white[i]) for i in range(4))
        return CubeLook((mixed[0], mixed[1], mixed[2], mixed[3]))

    def ambient_at(self, t_end_us: int) -> RGBC:
        level = self.ambient_level
        for t, lv in self.ambient_steps:
            if t <= t_end_us:
                level = lv
        # mean of (1 + flicker * sin(2 pi f t)) over the integration window
        w = 2 * math.pi * self.flicker_hz
        t1 = t_end_us / 1e6
        t0 = t1 - INTEGRATION_US / 1e6
        mean_sin = (math.cos(w * t0) - math.cos(w * t1)) / (w * (t1 - t0))
        k = level * (1 + self.flicker * mean_sin)
        a = self.ambient_vec
        return (a[0] * k, a[1] * k, a[2] * k, a[3] * k)

    def reading(self, t_end_us: int, in_view: Sequence[InView]) -> tuple[int, int, int, int]:
        """Counts for the window ending at ``t_end_us``; ``in_view``: (covered, lit, cube): the
        fraction of the window the cube hid the background, and that weighted by how much of
        the cube's face was seen (its rounded edges reflect less); or (fraction, cube) for a
        cube seen evenly."""
        seen = [(v[0], v[0], v[1]) if len(v) == 2 else v for v in in_view]
        covered = min(1.0, sum(f for f, _, _ in seen))
        amb = self.ambient_at(t_end_us)
        lit: list[float] = [(1 - covered) * self.background[i] for i in range(4)]
        for _, f, cube in seen:
            for i in range(4):
                lit[i] += f * cube.rgbc[i]
        led = self._led((lit[0], lit[1], lit[2], lit[3]), self.led_level_at(t_end_us))
        out: list[int] = []
        for i in range(4):
            v = led[i] + amb[i]
            sigma = math.sqrt(self.shot_noise * max(v, 0.0) + self.read_noise**2)
            counts = round(v + self.rng.gauss(0.0, sigma))
            out.append(max(0, min(self.full_scale, counts)))
        return (out[0], out[1], out[2], out[3])

    def empty_reading(self, t_end_us: int) -> tuple[int, int, int, int]:
        return self.reading(t_end_us, ())
