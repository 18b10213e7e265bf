"""One piece in the chute: its reading, its length (second beam) and what it is.

Functions of the ``Tower`` (app.py) kept in their own module: they run once per piece, after it
has left the beam (never in the sampling loop).
"""

import math

from towerfw import const
from towerfw.sampler import TICKS_MASK

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any

FALL_ACCEL = 0.00981  # mm/ms^2: below the lip a piece falls freely past both beams
SEAM_DEPTH = 0.8  # a seam reads at most this share of the brighter samples around it
LIT_SHARE = 0.5  # samples at least this bright (of the brightest) give the colour ratios
LOOK_RATIO = 1.2  # one beam: a longer pulse may be two fast cubes, so look for a seam
# a piece's front takes this long from the first beam to the second (6 mm below) at 2.5 and at
# 0.4 times the design speed: outside, an edge is not a piece's (integers: no float a cube)
_GAP_MIN_US = const(3000)
_GAP_MAX_US = const(22000)


def features(tower: "Any", mean: "Any", lit: "Any") -> "Any":
    """``classifier.features`` of ``calsteps.reading(tower, mean, lit)``, straight from the
    two: the reading's colour ratios are the lit samples' ratios and its brightness the best
    samples' (a third of the float operations: each one allocates on the Pico). With ``lit``
    None, the features of ``mean`` itself."""
    base = tower.base
    c = mean[3] - base[3]
    if c <= 0:
        return None
    src = mean
    lc = c
    if lit is not None:
        lit_c = lit[3] - base[3]
        if lit_c > 0:
            src = lit
            lc = lit_c
    r = src[0] - base[0]
    g = src[1] - base[1]
    b = src[2] - base[2]
    return (
        r / lc if r > 0 else 0.0,
        g / lc if g > 0 else 0.0,
        b / lc if b > 0 else 0.0,
        math.log(c / tower.white_c),
    )


def colour_in_steps(tower: "Any", t_from: int, t_to: int) -> "Any":
    """``tower.colour_from(features(tower, mean, lit), mean)[:3]`` for the common cube: two
    best samples, and every sample since the entry held and read in [t_from, t_to] (then the
    two brightest are the ones ``Burst.add`` kept); worked out from the burst's integer sums
    in the classifier's integer steps. (colour, colour, distance) when that settles a colour,
    else None (another case, dark, no lit sample, or near a threshold: then the exact path
    decides). No tuple for the mean, the lit mean or the features and no exact distance: on
    the Pico each float result is an allocation."""
    burst = tower.burst
    count = burst.count
    if tower.best_samples != 2 or not count or burst.total != count:
        return None
    span = tower.hal.ticks_diff(t_to, t_from)
    times = burst.t
    # the samples are in time order: the first and the last tell (ticks wrap at 2**30, so a
    # sample before t_from lands far above span)
    if (times[0] - t_from) & TICKS_MASK > span or (times[count - 1] - t_from) & TICKS_MASK > span:
        return None
    base = tower.base
    floor = base[3]
    peak = burst.peak
    c = (peak if burst.i_second < 0 else (peak + burst.second) / 2) - floor  # the mean's clear
    if c < tower.min_signal:
        return None  # dark: colour_from says so
    used = burst.lit_sums(peak - floor, floor, LIT_SHARE, False)
    if not used:
        return None
    s = burst.sums
    # features(): the lit mean's ratios, (s_x / used - base_x) / (s_c / used - base_c)
    lc = s[3] - used * floor
    if lc <= 0:
        return None
    return tower.classifier.in_steps(
        s[0] - used * base[0],
        s[1] - used * base[1],
        s[2] - used * base[2],
        lc,
        math.log(c / tower.white_c),
    )


def kind(tower: "Any", pulse: int, ratio: float, size: float, problem: "Any") -> str:
    """single, grande, merged, size (not sure whether a caballero or a Grande) or one_or_two
    (one beam: one slow cube or two fast ones touching).

    With the second beam the piece's length is known (``size``, in caballeros) whatever its
    speed; without it only the pulse ``ratio`` is, and the chute's speed spread bounds what
    one caballero can give. A seam (a dark dip inside the pulse) or two colours mean several
    cubes; a Grande only while the host says one may come (New Regency's Tournament).
    """
    cfg = tower.cfg
    measured = size >= 0
    x = size if measured else ratio
    # one beam: from pair_min_us on (two cubes touching at the fastest speed the chute allows,
    # overlapping as much as they may), or pair_min_ratio of the calibrated pulse if that is
    # shorter (a chute faster than designed), the pulse may be two fast cubes touching as well
    # as one slow one: never counted as one cube without a flag
    maybe2 = not measured and (x >= cfg["pair_min_ratio"] or pulse >= cfg["pair_min_us"])
    # literal keys: building one ("single_max" + unit) makes a new str, which MicroPython
    # checks against every interned string (~0.1 ms on the Pico)
    if x <= (cfg["single_max_size"] if measured else cfg["single_max_ratio"]):
        look = not measured and x > LOOK_RATIO and problem is None
        if look and (seams(tower) or lazy("rare", "two_colours", tower)):
            return "merged"
        if tower.grande_ok and not measured and x >= cfg["grande_min_ratio"]:
            return "size"  # one beam: a slow caballero or a fast Grande (or two)
        return "one_or_two" if maybe2 else "single"
    found = seams(tower) if problem is None else 0
    if measured:
        in_range = cfg["grande_min_size"] <= x <= cfg["grande_max_size"]
    else:
        in_range = cfg["grande_min_ratio"] <= x <= cfg["grande_max_ratio"]
    # a Grande has no seam and one colour end to end
    if (
        tower.grande_ok
        and in_range
        and problem is None
        and found == 0
        and not lazy("rare", "two_colours", tower)
    ):
        return "grande"
    if found > 0 or x >= (cfg["merged_min_size"] if measured else cfg["merged_min_ratio"]):
        return "merged"
    return "one_or_two" if maybe2 and not tower.grande_ok else "size"


def length(tower: "Any", pulse: int) -> float:
    """The piece's length in caballeros from the second beam (the time its front took from
    the first beam to the second gives its speed; it falls freely, so the speed grows),
    scaled by the calibrated length of one caballero; -1 without a usable second beam."""
    if tower.t_rise2 < 0:
        return -1.0
    cfg = tower.cfg
    gap = tower.hal.ticks_diff(tower.t_rise2, tower.t_entry)
    if not _GAP_MIN_US < gap < _GAP_MAX_US:
        return -1.0  # not a piece's timing (a stray edge): fall back to the pulse length
    gap_ms = gap / 1000.0
    speed = cfg["beam2_below_mm"] / gap_ms - FALL_ACCEL * gap_ms / 2
    p_ms = pulse / 1000.0
    mm = speed * p_ms + FALL_ACCEL * p_ms * p_ms / 2
    return mm / cfg["cube_mm"] / float(tower.cal.get("size") or 1.0)


def seams(tower: "Any") -> int:
    """Dark seams inside the pulse (rounded edges of touching cubes meeting)."""
    hal = tower.hal
    integ = int(tower.cfg["integration_us"])
    t_from = hal.ticks_add(tower.t_entry, integ)
    return tower.burst.dips(t_from, tower.t_exit, hal.ticks_diff, tower.base[3], SEAM_DEPTH)


def lazy(module: str, name: str, *args: "Any") -> "Any":
    """``towerfw.<module>.<name>(*args)``: that module (``group``: touching cubes; ``rare``: a
    Grande, a stuck cube, two colours in one pulse, a length one beam cannot tell) is loaded
    when such a piece has passed and dropped again, so its code stays out of the heap while the
    tower counts single cubes."""
    import sys

    import towerfw

    __import__("towerfw." + module)
    try:
        return getattr(getattr(towerfw, module), name)(*args)
    finally:
        sys.modules.pop("towerfw." + module, None)
        if hasattr(towerfw, module):
            delattr(towerfw, module)
