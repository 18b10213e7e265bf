"""Shared by the latency benchmarks: time cubes thrown through the simulated tower.

The simulator runs the firmware on a virtual clock; a SYNC before and after a batch maps it to
host time. A batch is discarded (with the reason) when the two clocks drifted apart by more than
DRIFT_MS, or when the number of arrivals does not match the cubes thrown.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from host.tower.sim.dropper import Dropper, render
from host.tower.sim.launcher import SimTower
from host.tower.sim.sensor_model import SensorModel

DRIFT_MS = 3.0


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


def timed_batch(
    sim: SimTower,
    dropper: Dropper,
    model: SensorModel,
    take: Callable[[], list[float]],
    settle_s: float,
    what: str,
) -> list[float] | str:
    """Play the dropper's cubes; return each cube's latency (ms) from leaving the sensor to its
    host timestamp from `take()`, or why the batch was discarded."""
    exits = [p.t_exit_us for p in dropper.passages]
    rows = render(dropper.passages, model, end_us=exits[-1] + 150_000)
    take()
    host_0 = time.perf_counter()
    virt_0 = sim.sync()
    sid = sim.play([row.raw() for row in rows])
    virt_idle = sim.wait_idle(sid, timeout=30.0)
    time.sleep(settle_s)
    host_1 = time.perf_counter()
    virt_1 = sim.sync()
    drift_ms = abs((virt_1 - virt_0) / 1000 - (host_1 - host_0) * 1000)
    arrived = take()
    if drift_ms > DRIFT_MS:
        return f"the simulator's clock drifted {drift_ms:.1f} ms"
    if len(arrived) != len(exits):
        return f"{len(arrived)} {what} for {len(exits)} cubes"
    virt_start = virt_idle - rows[-1].t_us
    return [
        (host_t - (host_0 + (virt_start + exit_us - virt_0) / 1e6)) * 1000
        for host_t, exit_us in zip(arrived, exits, strict=True)
    ]
