"""The firmware's CPU and heap budgets on the emulated Pico (issue 14), from cycle counts.

Emulated cycles are deterministic, so these are exact for the code: a regression fails here.
A real Pico adds flash-cache misses (see docs/pico-emulation.md).
"""

from __future__ import annotations

import statistics

import pytest

from tests.pico.emulator import EmulatedPico
from tests.pico.measure import CubeFigures, heap_after_cubes, idle_cpu_pct, p99, timed_cubes

IDLE_CPU_PCT_MAX = 10.0  # the budget
# The budgets for a cube: 6 ms of CPU from the beam entry to its event on USB (median of
# the timed cubes, as `python -m bench pico` reports), and the event on USB within 5 ms of the
# beam clearing (p99). Timed over 40 cubes, as the bench does.
TIMED_CUBES = 40
CPU_MS_PER_CUBE_MAX = 6.0
EVENT_AFTER_EXIT_MS_P99_BUDGET = 5.0
# Bytes free after 500 cubes: the "190 KB" read as 190 KiB, the stricter reading (the
# reading moves by about 80 B from run to run, with when the host's ack and diag land between
# the firmware's passes). A leak of one object a cube costs thousands of bytes over 500 cubes.
HEAP_FREE_MIN = 190 * 1024


def test_the_idle_main_loop_uses_at_most_10_percent_of_the_cpu(pico: EmulatedPico) -> None:
    pico.run(1_000_000)  # boot-time collections and the first heartbeats are over
    assert idle_cpu_pct(pico, 2_000_000) <= IDLE_CPU_PCT_MAX


@pytest.fixture(scope="module")
def cubes(pico: EmulatedPico) -> CubeFigures:
    figures = timed_cubes(pico, TIMED_CUBES)
    assert len(figures.cpu_ms) == figures.cubes == TIMED_CUBES
    return figures


def test_cubes_are_counted_right_while_timed(cubes: CubeFigures) -> None:
    assert cubes.wrong == 0 and cubes.correct >= TIMED_CUBES - 2  # uncertain maybe, never wrong


def test_cpu_per_cube_is_at_most_6_ms(cubes: CubeFigures) -> None:
    assert statistics.median(cubes.cpu_ms) <= CPU_MS_PER_CUBE_MAX


def test_the_event_after_the_beam_clears_within_5_ms_p99(cubes: CubeFigures) -> None:
    assert p99(cubes.after_exit_ms) <= EVENT_AFTER_EXIT_MS_P99_BUDGET


def test_the_heap_holds_after_500_cubes(pico: EmulatedPico) -> None:
    heap_min, counted, correct, wrong = heap_after_cubes(pico, 500)
    assert counted == 500
    assert wrong == 0 and correct >= 480  # noise may leave a cube uncertain, never wrong or lost
    assert heap_min >= HEAP_FREE_MIN


def test_touching_groups_leave_no_code_in_the_heap(pico: EmulatedPico) -> None:
    """Issue 25: the code that splits a group is loaded for it and dropped after; 30 groups
    later the free heap is where it was (within the run-to-run spread)."""
    from host.tower.sim.dropper import Dropper
    from tests.pico.scenarios import play

    def free() -> int:
        return int(pico.command("diag", on=False)["mem_free"])

    warm = Dropper(seed=30, t_us=0, uniform=True, overlap_us=1500)
    warm.merged(["red", "orange"], gap_us=60_000)
    played = play(pico, warm, seed=30)
    pico.command("ack", seq=int(played.events[-1].msg["seq"]))
    before = free()
    dropper = Dropper(seed=31, t_us=0, uniform=True, overlap_us=1500)
    for i in range(30):
        dropper.merged(["purple", "blue", "green"][: 2 + i % 2], gap_us=60_000)
    played = play(pico, dropper, seed=31)
    assert len(played.events) == 30
    pico.command("ack", seq=int(played.events[-1].msg["seq"]))
    assert free() >= before - 200
