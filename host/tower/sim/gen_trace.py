"""Synthetic labelled traces from the sensor model (for tests, demos and the benchmark)."""

from __future__ import annotations

from collections.abc import Sequence

from host.tower.sim.dropper import Dropper, render
from host.tower.sim.sensor_model import SensorModel
from host.tower.sim.trace import TraceRow

DEFAULT_COLOURS = ("purple", "green", "blue", "orange", "red")


def synthetic_trace(
    cubes: int = 100,
    rate_hz: float = 5.0,
    seed: int = 1,
    colours: Sequence[str] = DEFAULT_COLOURS,
    handfuls: int = 0,
    grandes: int = 0,
    model: SensorModel | None = None,
) -> list[TraceRow]:
    """``cubes`` singles in colour rotation (shuffled), then ``grandes`` and ``handfuls`` of 6."""
    dropper = Dropper(colours=colours, seed=seed)
    dropper.singles(cubes, rate_hz)
    for i in range(grandes):
        dropper.grande(colours[i % len(colours)])
    for _ in range(handfuls):
        dropper.handful(6)
    return render(dropper.passages, model or SensorModel(seed=seed))
