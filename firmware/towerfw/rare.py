"""The rarer pieces but touching cubes: a Grande, a length one beam cannot tell, two colours in
one pulse, a cube that was stuck in the chute.

Loaded through ``pieces.lazy`` once such a piece has passed and dropped after it: its code is
in the heap only while it works.
"""

from towerfw import pieces
from towerfw.app import IDLE
from towerfw.counter import UNCERTAIN

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any


def piece(
    tower: "Any",
    kind: str,
    pulse: int,
    size: float,
    ratio: float,
    problem: "Any",
    colour: "Any",
    best: "Any",
    d: float,
) -> None:
    """Count and report a Grande, or (``size``, ``one_or_two``) a length one beam cannot tell."""
    fields: dict[str, Any] = {"pulse_us": pulse}
    if size >= 0:
        fields["size"] = round(size, 2)  # only where it explains the verdict: small frames
    counts = tower.counts
    if kind == "grande":
        counts.add("grande:" + colour if colour is not None else UNCERTAIN)
        fields["c"] = colour if colour is not None else UNCERTAIN
        fields["best"] = best
        fields["d"] = round(d, 2)
        tower.emit("grande", fields)
    else:
        counts.add(UNCERTAIN)
        fields["best"] = colour if colour is not None else best
        fields["d"] = round(d, 2)
        fields["why"] = kind if kind == "one_or_two" else "size"
        tower.emit("uncertain", fields)


def two_colours(tower: "Any") -> bool:
    """True if the first and second halves of the pulse are clearly different colours."""
    hal = tower.hal
    integ = int(tower.cfg["integration_us"])
    half = hal.ticks_diff(tower.t_exit, tower.t_entry) // 2
    mid = hal.ticks_add(tower.t_entry, half + integ // 2)
    start = hal.ticks_add(tower.t_entry, integ)
    end = hal.ticks_add(tower.t_exit, integ)
    n = int(tower.cfg["best_samples"])
    first, used1 = tower.burst.best(n, start, mid, hal.ticks_diff, False)
    second, used2 = tower.burst.best(n, hal.ticks_add(mid, 1), end, hal.ticks_diff, False)
    if not used1 or not used2:
        return False
    c1 = tower.colour_from(pieces.features(tower, first, None), first)[0]
    c2 = tower.colour_from(pieces.features(tower, second, None), second)[0]
    return c1 is not None and c2 is not None and c1 != c2


def finish_stuck(tower: "Any") -> None:
    """A stuck cube finally passed: its colour may be clear but its count is not."""
    tower.state = IDLE
    pulse = tower.hal.ticks_diff(tower.t_exit, tower.t_entry)
    mean, _ = tower.burst.best(int(tower.cfg["best_samples"]), 0, 0, tower.hal.ticks_diff)
    best = None
    if mean is not None and tower.burst_problem() is None:
        _, best, _, _ = tower.colour_from(pieces.features(tower, mean, None), mean)
    if tower.cal_colour is not None:
        return
    tower.counts.add(UNCERTAIN)
    tower.emit("uncertain", {"best": best, "d": 0, "pulse_us": pulse, "why": "stuck"})
