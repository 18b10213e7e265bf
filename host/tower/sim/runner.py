"""Drive the simulated tower with traces: play, calibrate from labelled cubes, score.

Used by ``castillo tower-sim --trace``, the tests and bench/tower_accuracy.py.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from host.tower.sim.client import SimClient
from host.tower.sim.launcher import SimTower
from host.tower.sim.trace import Pulse, Score, TraceRow, pulses, score

MARGIN_US = 20_000  # rows kept around a pulse when it is cut out of a trace


def play_rows(
    tower: SimTower, client: SimClient, rows: Sequence[TraceRow], timeout: float = 600.0
) -> list[dict[str, Any]]:
    """Play rows (times made relative to the first) and return the events they caused."""
    if not rows:
        return []
    before = len(client.events)
    t0 = rows[0].t_us
    sid = tower.play([(r.t_us - t0, *r.raw()[1:]) for r in rows])
    deadline = time.monotonic() + timeout
    while not tower.played(sid):
        if time.monotonic() > deadline:
            raise TimeoutError("the trace did not finish playing")
        client.poll(0.02)
    client.cmd("ping")  # the main loop has passed the end of the trace
    client.poll(0.02)
    return client.events[before:]


def _window(rows: Sequence[TraceRow], p: Pulse) -> tuple[int, int]:
    lo = p.first_row
    while lo > 0 and rows[lo - 1].t_us >= p.t_entry_us - MARGIN_US:
        lo -= 1
    hi = p.last_row
    while hi + 1 < len(rows) and rows[hi + 1].t_us <= p.t_exit_us + MARGIN_US:
        hi += 1
    return lo, hi + 1


def calibration_pulses(trace: Sequence[Pulse], colours: Sequence[str], k: int) -> list[Pulse]:
    """The first ``k`` single-cube pulses of each colour."""
    picked: list[Pulse] = []
    per: dict[str, int] = dict.fromkeys(colours, 0)
    for p in trace:
        if len(p.cubes) == 1 and p.cubes[0] in per and per[p.cubes[0]] < k:
            per[p.cubes[0]] += 1
            picked.append(p)
    return picked


def empty_mean(rows: Sequence[TraceRow]) -> tuple[int, int, int, int]:
    empty = [r for r in rows if not r.beam and not r.label][:400]
    if not empty:
        return (0, 0, 0, 0)
    n = len(empty)
    return (
        round(sum(r.r for r in empty) / n),
        round(sum(r.g for r in empty) / n),
        round(sum(r.b for r in empty) / n),
        round(sum(r.c for r in empty) / n),
    )


def calibrate_from_trace(
    tower: SimTower, client: SimClient, rows: Sequence[TraceRow], k: int
) -> list[TraceRow]:
    """Calibrate with the first ``k`` cubes of each colour; returns the rows left to evaluate."""
    colours = list(client.wait_hello()["colours"])
    tower.set_idle_reading(*empty_mean(rows))
    tower.sync()
    time.sleep(0.1)
    client.cmd("cal", step="dark")
    trace = pulses(rows)
    cal = calibration_pulses(trace, colours, k)
    cut = [False] * len(rows)
    for colour in colours:
        mine = [p for p in cal if p.cubes[0] == colour]
        if not mine:
            continue
        client.cmd("cal", step="sample", colour=colour)
        segment: list[TraceRow] = []
        for p in mine:
            lo, hi = _window(rows, p)
            shift = (segment[-1].t_us + 1 - rows[lo].t_us) if segment else 0
            segment.extend(r._replace(t_us=r.t_us + shift) for r in rows[lo:hi])
            for i in range(lo, hi):
                cut[i] = True
        play_rows(tower, client, segment)
        client.cmd("cal", step="end")
    rest = [r for i, r in enumerate(rows) if not cut[i]]
    tower.set_idle_reading(*empty_mean(rows))
    return rest


def run_trace(
    rows: Sequence[TraceRow],
    calibrate_first: int = 0,
    tower_kwargs: dict[str, Any] | None = None,
    grande_possible: bool = False,
) -> Score:
    """Start a simulated tower, optionally calibrate from the trace, play the rest, score it.
    ``grande_possible``: the host says a Grande may fall in (a Tournament) for the whole run."""
    with SimTower.start(**(tower_kwargs or {})) as tower, SimClient(tower.port) as client:
        client.wait_hello()
        client.cmd("grande", on=grande_possible)
        rest = list(rows)
        if calibrate_first > 0:
            rest = calibrate_from_trace(tower, client, rows, calibrate_first)
        events = play_rows(tower, client, rest)
        return score(pulses(rest), events)
