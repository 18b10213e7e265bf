"""Counting accuracy of the tower firmware on the simulated sensor.

The real firmware runs in the real MicroPython unix port (-X heapsize=128k) behind a pty; the
sensor model feeds it through the fake I2C register model and the fake break-beam pin, on a
virtual clock (so a 200 s drop sequence plays in seconds, with the firmware's own timing).

1. Singles at 5 cubes/s, >= 1,000 cubes: calibrated from 5 cubes per colour with a new LED,
   then counted with the LED 10 % dimmer, a lamp switched on and off, and mains flicker.
   Target: >= 99.5 % correct and no silent miscount (every error flagged uncertain).
2. Handfuls of 1 to 6 cubes: each handful exact or flagged (>= 99 %).
3. Sustained 10 cubes/s for 60 s: no missed and no double-counted cube.
4. Grandes (told apart by pulse length, and from two touching cubes by colour): none miscounted.
"""

from __future__ import annotations

import time
from typing import Any

from host.tower.sim.dropper import Dropper, render
from host.tower.sim.runner import run_trace
from host.tower.sim.sensor_model import SensorModel
from host.tower.sim.trace import Score, TraceRow

COLOURS = ("purple", "green", "blue", "orange", "red")
CAL_PER_COLOUR = 5


def _calibration_rows(seed: int) -> list[TraceRow]:
    d = Dropper(colours=COLOURS, seed=seed)
    d.singles(CAL_PER_COLOUR * len(COLOURS), 3.0, [c for c in COLOURS for _ in range(5)])
    return render(d.passages, SensorModel(seed=seed))


def _then(first: list[TraceRow], second: list[TraceRow], gap_us: int = 500_000) -> list[TraceRow]:
    shift = (first[-1].t_us + gap_us) if first else 0
    return first + [r._replace(t_us=r.t_us + shift) for r in second]


def _report(name: str, s: Score, seconds: float, virtual_s: float) -> None:
    pct = 100.0 * s.correct / s.cubes if s.cubes else 0.0
    print(
        f"{name}: {s.cubes} cubes, correct {s.correct} ({pct:.2f} %), uncertain {s.uncertain}, "
        f"wrong {s.wrong}, missed {s.missed}, extra {s.extra}; "
        f"{virtual_s:.0f} s of chute time in {seconds:.1f} s"
    )
    for line in s.details[:5]:
        print(f"    {line}")


def singles(cubes: int = 1200, seed: int = 11) -> Score:
    d = Dropper(colours=COLOURS, seed=seed)
    d.singles(cubes, 5.0)
    span = d.t_us
    model = SensorModel(
        seed=seed,
        led_level=0.9,
        ambient_steps=[(span // 3, 4.0), (2 * span // 3, 1.5)],
    )
    rows = _then(_calibration_rows(seed + 1), render(d.passages, model))
    t0 = time.perf_counter()
    s = run_trace(rows, CAL_PER_COLOUR)
    _report("singles at 5 cubes/s", s, time.perf_counter() - t0, span / 1e6)
    return s


def handfuls(count: int = 300, seed: int = 12) -> tuple[Score, float]:
    d = Dropper(colours=COLOURS, seed=seed)
    bounds: list[tuple[int, int]] = []
    for i in range(count):
        first = len(d.passages)
        d.handful(1 + i % 6, gap_us=600_000)
        bounds.append((first, len(d.passages)))
    rows = _then(_calibration_rows(seed + 1), render(d.passages, SensorModel(seed=seed)))
    t0 = time.perf_counter()
    s = run_trace(rows, CAL_PER_COLOUR)
    ok = sum(all(v in ("correct", "uncertain") for v in s.verdicts[a:b]) for a, b in bounds) - (
        1 if s.extra else 0
    )
    exact = sum(all(v == "correct" for v in s.verdicts[a:b]) for a, b in bounds)
    rate = 100.0 * ok / count
    _report("handfuls of 1-6", s, time.perf_counter() - t0, d.t_us / 1e6)
    print(f"    handfuls exact {exact}/{count}, exact or flagged {ok}/{count} ({rate:.2f} %)")
    return s, rate


def grandes(count: int = 200, seed: int = 14) -> Score:
    d = Dropper(colours=COLOURS, seed=seed)
    for i in range(count):
        d.grande(COLOURS[i % len(COLOURS)], gap_us=300_000)
    rows = _then(_calibration_rows(seed + 1), render(d.passages, SensorModel(seed=seed)))
    t0 = time.perf_counter()
    s = run_trace(rows, CAL_PER_COLOUR)
    _report("Grandes", s, time.perf_counter() - t0, d.t_us / 1e6)
    return s


def sustained(seconds: int = 60, rate_hz: float = 10.0, seed: int = 13) -> Score:
    d = Dropper(colours=COLOURS, seed=seed)
    d.singles(int(seconds * rate_hz), rate_hz)
    rows = _then(_calibration_rows(seed + 1), render(d.passages, SensorModel(seed=seed)))
    t0 = time.perf_counter()
    s = run_trace(rows, CAL_PER_COLOUR)
    _report(f"sustained {rate_hz:.0f} cubes/s", s, time.perf_counter() - t0, d.t_us / 1e6)
    return s


def main() -> dict[str, Any]:
    s1 = singles()
    s2, handful_rate = handfuls()
    s3 = sustained()
    s4 = grandes()
    pct = 100.0 * s1.correct / s1.cubes
    verdict = {
        "singles >= 99.5 % correct": pct >= 99.5,
        "no silent miscount (singles, handfuls, sustained, Grandes)": s1.wrong
        + s2.wrong
        + s3.wrong
        + s4.wrong
        == 0,
        "handfuls exact or flagged >= 99 %": handful_rate >= 99.0,
        "sustained: no missed or double count": s3.missed == 0 and s3.extra == 0,
    }
    for name, ok in verdict.items():
        print(f"  [{'PASS' if ok else 'FAIL'}] {name}")
    return {"singles_pct": pct, "handful_pct": handful_rate, "verdict": verdict}


if __name__ == "__main__":
    main()
