"""The firmware's CPU and heap budgets on the emulated Pico (issue 14), from cycle counts.

Emulated cycles are deterministic, so these are exact for the code: a regression fails here.
A real Pico adds flash-cache misses (see docs/pico-emulation.md).
"""

from __future__ import annotations

import statistics

from tests.pico.emulator import EmulatedPico
from tests.pico.measure import heap_after_cubes, idle_cpu_pct, p99, timed_cubes

IDLE_CPU_PCT_MAX = 10.0  # the budget
# Bytes free after 500 cubes. The budget "190 KB" is NOT held reliably: the reading
# moves by about 80 B from run to run (when the host's ack and diag land between the firmware's
# passes), and fresh-clone runs gave 190,048 and 189,968 B (190 KiB = 194,560 B is further
# off; docs/pico-emulation.md; `make bench` prints the verdicts). This floor holds the ground
# won and catches a leak (a leak of one object a cube costs thousands of bytes over 500 cubes).
HEAP_FREE_MIN = 189_500
# The budgets are 6 ms of CPU per cube and the event on USB <= 5 ms (p99) after the
# beam clears; the firmware does not meet them yet (docs/pico-emulation.md has the figures and
# where the time goes). These ceilings hold the ground won (20.4 -> 12.7 -> 9.14 -> 7.99 ms
# median, 12.2 -> 8.52 -> 6.79 -> 5.77 ms p99) with a small margin, until the budgets are met.
CPU_MS_PER_CUBE_MAX = 8.3
EVENT_AFTER_EXIT_MS_P99_MAX = 6.0


def test_the_idle_main_loop_uses_at_most_10_percent_of_the_cpu(pico: EmulatedPico) -> None:
    pico.run(1_000_000)  # boot-time collections and the first heartbeats are over
    assert idle_cpu_pct(pico, 2_000_000) <= IDLE_CPU_PCT_MAX


def test_cpu_per_cube_and_the_event_after_the_beam_clears(pico: EmulatedPico) -> None:
    figures = timed_cubes(pico, 12)
    assert len(figures.cpu_ms) == figures.cubes == 12
    assert figures.wrong == 0 and figures.correct >= 10  # a cube may be uncertain, never wrong
    assert statistics.median(figures.cpu_ms) <= CPU_MS_PER_CUBE_MAX
    assert p99(figures.after_exit_ms) <= EVENT_AFTER_EXIT_MS_P99_MAX


def test_the_heap_holds_after_500_cubes(pico: EmulatedPico) -> None:
    heap_min, counted, correct, wrong = heap_after_cubes(pico, 500)
    assert counted == 500
    assert wrong == 0 and correct >= 480  # noise may leave a cube uncertain, never wrong or lost
    assert heap_min >= HEAP_FREE_MIN
