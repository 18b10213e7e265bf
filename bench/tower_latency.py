"""Tower link latency over the real path: the firmware in MicroPython behind a pty, pyserial,
the host link with its durable JSON-lines ledger (fsync before ack).

1. cube leaves the sensor -> the typed event reaches the host application (target p99 <= 50 ms);
2. host LED command sent -> the frame is written to the fake NeoPixel (target p99 <= 20 ms);
3. device reset (interpreter restarted) -> the host reports DEVICE_RESET (target <= 2 s).

The simulated tower runs at real time (speed 1.0). Its clock is virtual, so the moment a cube
leaves the beam (an exact virtual time: the trace row that clears the beam) is mapped to host
time with a SYNC taken just before each batch: host time is read BEFORE the sync request, so
the mapping errs late and latencies err high (conservative). A batch whose virtual clock drifted
from real time by more than DRIFT_MS between two syncs (the simulator fell behind on a busy
machine) is discarded and counted. Virtual time advances in steps of at most one sensor
integration (2.4 ms), which bounds the remaining error.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from bench._sim_clock import percentile, timed_batch
from host.tower.events import Drop, Grande, LinkState, LinkStatus, Merged, TowerEvent, Uncertain
from host.tower.ledger import JsonLinesSink
from host.tower.link import LinkMessage
from host.tower.sim.dropper import Dropper
from host.tower.sim.launcher import LedFrame, SimTower
from host.tower.sim.sensor_model import SensorModel
from host.tower.sim_link import SimTowerLink

DROP_TARGET_P99_MS = 50.0
LED_TARGET_P99_MS = 20.0
RESET_TARGET_MS = 2000.0
RESETS = 10
BATCHES = 12
CUBES_PER_BATCH = 10
RATE_HZ = 4.0
LED_COMMANDS = 150
COLOURS = ("purple", "green", "blue", "orange", "red")
CUBE_EVENTS = (Drop, Uncertain, Merged, Grande)
TOLEDO_FIRST_PIXEL = 54  # hardware/ledmap.json


def summary(name: str, values: list[float], target: float) -> str:
    if not values:
        return f"{name}: NO SAMPLES - target p99 <= {target:.0f} ms NOT CHECKED"
    p50, p99 = statistics.median(values), percentile(values, 99)
    verdict = "met" if p99 <= target else "MISSED"
    return (
        f"{name}: n={len(values)} p50={p50:.1f} ms p99={p99:.1f} ms max={max(values):.1f} ms"
        f" -> target p99 <= {target:.0f} ms {verdict}"
    )


class Stamps:
    """Host arrival times of cube events (taken by a link listener on the I/O thread)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.items: list[tuple[float, TowerEvent]] = []

    def __call__(self, message: LinkMessage) -> None:
        if isinstance(message, CUBE_EVENTS):
            with self.lock:
                self.items.append((time.perf_counter(), message))

    def take(self) -> list[tuple[float, TowerEvent]]:
        with self.lock:
            items, self.items = self.items, []
        return items


def drop_latencies(
    sim: SimTower, link: SimTowerLink, stamps: Stamps
) -> tuple[list[float], list[str]]:
    latencies: list[float] = []
    discarded: list[str] = []
    model = SensorModel(seed=11)
    for batch in range(BATCHES):
        dropper = Dropper(seed=100 + batch)
        dropper.singles(CUBES_PER_BATCH, RATE_HZ, COLOURS)
        result = timed_batch(
            sim, dropper, model, lambda: [t for t, _event in stamps.take()], 0.1, "cube events"
        )
        if isinstance(result, str):
            discarded.append(f"batch {batch}: {result}")
        else:
            latencies.extend(result)
    return latencies, discarded


def led_latencies(sim: SimTower, link: SimTowerLink) -> list[float]:
    latencies: list[float] = []
    rng = random.Random(5)
    for i in range(LED_COMMANDS):
        colour = (10 + i % 200, 3, 5)
        last = sim.frames()[-1].t_us if sim.frames() else -1

        def shows(frame: LedFrame, colour: tuple[int, int, int] = colour, last: int = last) -> bool:
            return frame.t_us > last and frame.pixel(TOLEDO_FIRST_PIXEL) == colour

        sender = threading.Thread(target=link.scene, args=({"Toledo": colour},))
        started = time.perf_counter()
        sender.start()
        sim.wait_frame(shows, timeout=2.0)
        latencies.append((time.perf_counter() - started) * 1000)
        sender.join()
        time.sleep(rng.uniform(0.0, 0.05))  # commands at random phases of the firmware loop
    return latencies


def reset_detections(sim: SimTower, link: SimTowerLink) -> list[float]:
    """Device reset (the interpreter restarted, as a watchdog reset would) -> the host reports
    DEVICE_RESET. Target: within 2 s."""
    noticed = threading.Event()

    def watch(message: LinkMessage) -> None:
        if isinstance(message, LinkStatus) and message.state is LinkState.DEVICE_RESET:
            noticed.set()

    link.add_listener(watch)
    latencies: list[float] = []
    try:
        for _ in range(RESETS):
            link.wait_connected(10.0)
            noticed.clear()
            started = time.perf_counter()
            sim.reset_device("watchdog")
            if noticed.wait(10.0):
                latencies.append((time.perf_counter() - started) * 1000)
    finally:
        link.remove_listener(watch)
    return latencies


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        sim = SimTower.start(speed=1.0)
        sink = JsonLinesSink(Path(folder) / "ledger.jsonl")
        link = SimTowerLink(sim, sink=sink)
        stamps = Stamps()
        link.add_listener(stamps)
        try:
            link.start()
            link.wait_connected(10.0)
            drops, discarded = drop_latencies(sim, link, stamps)
            leds = led_latencies(sim, link)
            resets = reset_detections(sim, link)
        finally:
            link.close()
            sink.close()
            sim.stop()
    print(summary("cube leaves sensor -> event on host", drops, DROP_TARGET_P99_MS))
    for reason in discarded:
        print(f"  discarded {reason}")
    print(summary("LED command -> NeoPixel frame", leds, LED_TARGET_P99_MS))
    print(summary("device reset -> DEVICE_RESET on host", resets, RESET_TARGET_MS))
    if len(resets) < RESETS:
        print(f"  {RESETS - len(resets)} of {RESETS} resets were NOT noticed within 10 s")


if __name__ == "__main__":
    main()
