"""The calibration steps (the ``cal`` command, and each cube while a colour is sampled) and the
diagnostic streams (``diag`` on): functions of the ``Tower`` (app.py) in their own module,
which app.py imports at the first use, so that their code stays out of the Pico's heap while
the tower only counts."""

from towerfw.app import CAL_FILE
from towerfw.calibration import add_colour_sample, cal_hash, canonical, empty

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any


def cmd_cal(tower: "Any", msg: "dict[str, Any]") -> "Any":
    step = msg.get("step")
    if step == "dark" or step == "white":
        if not tower.quiet():
            return "the chute is busy"
        mean = average(tower, int(msg.get("samples", 16)))
        if mean is None:
            return "sensor error"
        if step == "white" and mean[3] - tower.base[3] < 8 * tower.cfg["dead_count"] + 16:
            return "no white target in view"
        tower.cal[step] = mean
        tower.rebuild()
        return {"step": step, "raw": mean}
    if step == "sample":
        colour = msg.get("colour")
        if colour not in tower.colours:
            return "unknown colour " + repr(colour)
        tower.cal_colour = colour
        tower.cal_pulses = []
        return {"step": step, "colour": colour}
    if step == "end":
        tower.cal_colour = None
        return {"step": step}
    if step == "show":
        return {"step": step, "cal": tower.cal, "hash": cal_hash(tower.cal)}
    if step == "clear":
        tower.cal = empty()
        tower.cal_colour = None
        tower.rebuild()
        return {"step": step, "hash": cal_hash(tower.cal)}
    if step == "save":
        quiet_ms = tower.cfg["cal_save_quiet_ms"]
        if tower.cal_colour is not None:
            return "end colour sampling first"
        since = tower.hal.ticks_diff(tower.hal.ticks_us(), tower.last_edge)
        if not tower.quiet() or since < quiet_ms * 1000:
            return "the chute is busy: not writing flash during a drop"
        tower.hal.save_text(CAL_FILE, canonical(tower.cal))
        tower.cal_saved_hash = cal_hash(tower.cal)
        return {"step": step, "hash": tower.cal_saved_hash}
    return "unknown calibration step " + repr(step)


def average(tower: "Any", n: int) -> "Any":
    acc = [0.0, 0.0, 0.0, 0.0]
    integ = int(tower.cfg["integration_us"])
    for _ in range(n):
        tower.hal.sleep_us(integ)
        if not tower.read_sensor():
            tower.burst_fault = None
            return None
        for k in range(4):
            acc[k] += tower.sample[k]
    return [round(v / n, 2) for v in acc]


def calibration_cube(
    tower: "Any", mean: "Any", pulse: int, ratio: float, size: float, problem: "Any", why: "Any"
) -> None:
    colour = tower.cal_colour
    cfg = tower.cfg
    one = size <= cfg["single_max_size"] if size >= 0 else ratio <= cfg["single_max_ratio"]
    ok = problem is None and why != "dark" and one
    fields: dict[str, Any] = {"colour": colour, "pulse_us": pulse, "ok": ok}
    if ok:
        raw = [round(v, 1) for v in mean]
        fields["got"] = add_colour_sample(tower.cal, colour, raw)
        fields["raw"] = raw
        # the medians of the accepted cubes: the pulse of a caballero, and its length as the
        # second beam measures it (tilt makes it read a little long)
        raw_size = size * float(tower.cal.get("size") or 1.0) if size >= 0 else -1.0
        tower.cal_pulses.append((pulse, raw_size))
        ordered = sorted(tower.cal_pulses)
        tower.cal["pulse_us"] = ordered[len(ordered) // 2][0]
        sizes = sorted([p[1] for p in tower.cal_pulses if p[1] >= 0])
        if sizes:
            tower.cal["size"] = round(sizes[len(sizes) // 2], 3)
        tower.rebuild()
    else:
        fields["why"] = problem or why or "size"
    tower.emit("cal", fields)


def reading(tower: "Any", mean: "Any", lit: "Any") -> "Any":
    """The piece's reading from ``Burst.pick`` (what calibration records): the brightness of
    its best-covered samples, with the colour ratios of every well-lit sample (more samples,
    less shot noise in the ratios)."""
    base = tower.base
    if mean is None:
        return None
    if lit is None or lit[3] - base[3] <= 0:
        return mean
    k = (mean[3] - base[3]) / (lit[3] - base[3])
    return (
        base[0] + k * (lit[0] - base[0]),
        base[1] + k * (lit[1] - base[1]),
        base[2] + k * (lit[2] - base[2]),
        mean[3],
    )


def send_burst(tower: "Any") -> None:
    """Every sample of the piece that just passed, one diag frame each."""
    b = tower.burst
    for i in range(b.count):
        s = b.sample(i)
        frame = {"t": "diag", "us": b.t[i], "r": s[0], "g": s[1], "b": s[2], "c": s[3]}
        frame["beam"] = 1
        tower.send(frame)


def diag_frame(tower: "Any") -> "dict[str, Any]":
    """The latest reading, for the periodic diag stream."""
    s = tower.sample
    return {
        "t": "diag",
        "us": tower.hal.ticks_us(),
        "r": s[0],
        "g": s[1],
        "b": s[2],
        "c": s[3],
        "beam": tower.hal.beam.level(),
    }
