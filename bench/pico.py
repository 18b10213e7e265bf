"""The tower firmware on the emulated Pico (rp2040js, stock MicroPython v1.28.0, 125 MHz).

Cycle counts on the emulator are deterministic, so these figures are exact for the code and a
lower bound for a real Pico (which adds flash-cache misses). Budgets (issue 14): idle main loop
<= 10 % CPU; CPU per cube (beam entry -> event on USB) <= 6 ms; event on USB <= 5 ms p99 after
the cube clears the beam; free heap >= 190 KB after 500 cubes (190 KiB = 194,560 B also shown).

`python -m bench pico --json` prints one JSON object: event_after_exit_ms_p99, cpu_ms_per_cube,
idle_cpu_pct, heap_free_min, cubes, correct.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from pathlib import Path

from tests.pico.emulator import EmulatedPico
from tests.pico.measure import heap_after_cubes, idle_cpu_pct, led_frame_us, p99, timed_cubes
from tests.pico.toolchain import find_inputs

TIMED_CUBES = 40
HEAP_CUBES = 500


def measure() -> dict[str, float | int]:
    with tempfile.TemporaryDirectory(prefix="bench-pico-") as work:
        pico = EmulatedPico.with_firmware(find_inputs(), Path(work))
        try:
            pico.boot()
            pico.run(500_000)
            idle = idle_cpu_pct(pico)
            timed = timed_cubes(pico, TIMED_CUBES)
            led_us = led_frame_us(pico)
            heap_min, counted, correct, wrong = heap_after_cubes(pico, HEAP_CUBES)
        finally:
            pico.close()
    return {
        "event_after_exit_ms_p99": round(p99(timed.after_exit_ms), 2),
        "event_after_exit_ms_mean": round(statistics.mean(timed.after_exit_ms), 2),
        "cpu_ms_per_cube": round(statistics.median(timed.cpu_ms), 2),
        "cpu_ms_per_cube_max": round(max(timed.cpu_ms), 2),
        "idle_cpu_pct": round(idle, 1),
        "heap_free_min": heap_min,
        "led_frame_ms": round(led_us / 1000, 3),
        "cubes": timed.cubes + HEAP_CUBES,
        "counted": len(timed.cpu_ms) + counted,
        "correct": timed.correct + correct,
        "wrong": timed.wrong + wrong,
    }


def _verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def main(*flags: str) -> None:
    figures = measure()
    if "--json" in flags:
        keys = (
            "event_after_exit_ms_p99",
            "cpu_ms_per_cube",
            "idle_cpu_pct",
            "heap_free_min",
            "cubes",
            "correct",
        )
        print(json.dumps({k: figures[k] for k in keys}))
        return
    idle_ok = _verdict(figures["idle_cpu_pct"] <= 10)
    print(f"  idle main loop          {figures['idle_cpu_pct']:6.1f} % CPU   (<= 10 %: {idle_ok})")
    print(
        f"  CPU per cube            {figures['cpu_ms_per_cube']:6.2f} ms median, "
        f"{figures['cpu_ms_per_cube_max']:.2f} max   "
        f"(budget <= 6 ms: {_verdict(figures['cpu_ms_per_cube'] <= 6)})"
    )
    print(
        f"  event after beam clear  {figures['event_after_exit_ms_p99']:6.2f} ms p99, "
        f"{figures['event_after_exit_ms_mean']:.2f} mean   "
        f"(budget <= 5 ms: {_verdict(figures['event_after_exit_ms_p99'] <= 5)})"
    )
    heap_kb = _verdict(figures["heap_free_min"] >= 190_000)
    heap_kib = _verdict(figures["heap_free_min"] >= 190 * 1024)
    print(
        f"  free heap, 500 cubes    {figures['heap_free_min']:6d} B min   "
        f"(>= 190 KB: {heap_kb}; >= 190 KiB = 194,560 B: {heap_kib})"
    )
    print(f"  LED frame (72 pixels)   {figures['led_frame_ms']:6.3f} ms on GP16")
    print(
        f"  cubes                   {figures['cubes']} dropped, {figures['counted']} counted, "
        f"{figures['correct']} right colour, {figures['wrong']} wrong"
    )


if __name__ == "__main__":
    main(*sys.argv[1:])
