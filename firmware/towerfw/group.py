"""Touching cubes: how many, and with the second beam each cube's colour from its own samples.

The second beam gives the group's speed, so where in the pulse each cube passed (they fall
together, accelerating: the later ones pass a little faster). A sample counts for a cube only
if at least ``PURE`` of its integration window saw that cube, whatever the sensor's phase (a
read returns the last finished window, which may have ended up to one integration before it):
samples across a boundary are mixed and left out. A cube gets a colour when its samples'
mean is clearly one colour; otherwise it is left to the table (None).

Loaded through ``pieces.lazy`` once a group has passed and dropped after it: its code is in the
heap only while it works (kept small: loading it is most of a group's time on the Pico).
"""

import math

from towerfw import pieces
from towerfw.counter import UNCERTAIN
from towerfw.sampler import TICKS_MASK

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any

PURE = 0.75  # least share of a sample's window that must have seen the cube
MARGIN_US = 600  # a boundary between two cubes may be this far off (overlap, speed)
MAX_CUBES = 4  # longer groups: every cube is left to the table
FIT = 0.3  # the measured length within this of a whole number of cubes, or no split


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
    """Count and report a group of touching cubes: ``est`` of them (the second beam's length,
    else the pulse's; at least one more than its seams); with the second beam each cube's
    colour (``cs``, null for a cube left to the table) and each counted under it."""
    fields: dict[str, Any] = {"pulse_us": pulse}
    if size >= 0:
        fields["size"] = round(size, 2)
    if best is not None:
        fields["best"] = best
    seams = pieces.seams(tower) if problem is None else 0
    est = max(2, int((size if size >= 0 else ratio) + 0.5), seams + 1)
    fields["est"] = est
    counts = tower.counts
    cs = None
    if size >= 0 and problem is None:
        cs = colours(tower, est, pulse, size)
        cfg = tower.cfg
        # as long as a Grande, one colour and no seam: perhaps a Grande (a Tournament's, or
        # one thrown by mistake), never named as two cubes
        alike = cs is not None and seams == 0 and est == 2 and cs[0] == cs[1]
        if alike and cfg["grande_min_size"] <= size <= cfg["grande_max_size"]:
            cs = None
    if cs is None:
        counts.add(UNCERTAIN, est)
    else:
        for c in cs:
            counts.add(c if c is not None else UNCERTAIN)
        fields["cs"] = cs
    tower.emit("merged", fields)


def colours(tower: "Any", est: int, pulse: int, size: float) -> "Any":
    """The colour (or None) of each of the ``est`` cubes in the pulse, in the order they fell;
    None when the group cannot be split (no speed, too many cubes, a length between two counts)."""
    if est > MAX_CUBES or abs(size - est) > FIT:
        return None
    cfg = tower.cfg
    gap_ms = tower.hal.ticks_diff(tower.t_rise2, tower.t_entry) / 1000.0
    a = pieces.FALL_ACCEL
    speed = cfg["beam2_below_mm"] / gap_ms - a * gap_ms / 2  # as pieces.length() has it
    p_ms = pulse / 1000.0
    mm = speed * p_ms + a * p_ms * p_ms / 2  # the group's length
    # where (us after the entry) the front had moved k cubes' share of it, scaled to the pulse
    # (the last boundary is the exit)
    bounds = [0] * (est + 1)
    for k in range(1, est + 1):
        x = mm * k / est
        bounds[k] = 1000.0 * (math.sqrt(speed * speed + 2 * a * x) - speed) / a
    scale = pulse / bounds[est]
    integ = tower._integration_us
    lag = tower.read_us  # a sample's stamp follows the end of its read
    early = (1 + PURE) * integ + lag  # a sample stamped this long after a cube's start ...
    late = (1 - PURE) * integ + lag  # ... up to this long after its end is pure enough
    burst = tower.burst
    times = burst.t
    r = burst.rgbc
    entry = tower.t_entry
    out: list[Any] = []
    for k in range(est):
        lo = bounds[k] * scale + (MARGIN_US if k else 0)  # the group's own edges are exact
        hi = bounds[k + 1] * scale - (MARGIN_US if k < est - 1 else 0)
        lo += early
        hi += late
        n = s0 = s1 = s2 = s3 = 0
        for i in range(burst.count):
            d = (times[i] - entry) & TICKS_MASK
            if lo <= d <= hi:
                j = 4 * i
                s0 += r[j]
                s1 += r[j + 1]
                s2 += r[j + 2]
                s3 += r[j + 3]
                n += 1
        colour = None
        if n:
            mean = (s0 / n, s1 / n, s2 / n, s3 / n)
            colour = tower.colour_from(pieces.features(tower, mean, None), mean)[0]
        out.append(colour)
    return out
