"""The calibration record: empty-chute (dark) and white readings and a mean raw reading per colour.

It lives in RAM and reaches flash (``cal.json``) only on an explicit ``save`` command, because a
flash write stalls interrupts. Its hash (CRC-32 of a canonical JSON form) goes in every HELLO so
the host can tell which calibration a count was made with.
"""

import json
import math

from towerfw import codec

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any

VERSION = 1


def features(sample: "Any", base: "Any", white_c: float) -> "Any":
    """(r/c, g/c, b/c, ln(c/white)) of a raw sample minus the empty-chute ``base``; None if dark."""
    c = sample[3] - base[3]
    if c <= 0:
        return None
    r = max(sample[0] - base[0], 0.0)
    g = max(sample[1] - base[1], 0.0)
    b = max(sample[2] - base[2], 0.0)
    return (r / c, g / c, b / c, math.log(c / white_c))


def canonical(obj: "Any") -> str:
    """JSON with sorted keys and no spaces, identical on MicroPython and CPython."""
    if isinstance(obj, dict):
        parts = []
        for k in sorted(obj):
            parts.append(json.dumps(str(k)) + ":" + canonical(obj[k]))
        return "{" + ",".join(parts) + "}"
    if isinstance(obj, (list, tuple)):
        return "[" + ",".join([canonical(v) for v in obj]) + "]"
    if isinstance(obj, float):
        return json.dumps(round(obj, 3))
    return json.dumps(obj)


def empty() -> "dict[str, Any]":
    # size: a caballero's length as the second beam measures it (None: not measured)
    return {
        "v": VERSION,
        "dark": None,
        "white": None,
        "colours": {},
        "pulse_us": None,
        "size": None,
    }


def from_json(text: str) -> "Any":
    """A calibration record from JSON text, or None if it is not one."""
    try:
        obj = json.loads(text)
    except Exception:  # any parse failure means no usable calibration
        return None
    if not isinstance(obj, dict) or obj.get("v") != VERSION:
        return None
    cal = empty()
    for key in cal:
        if key in obj:
            cal[key] = obj[key]
    if not isinstance(cal["colours"], dict):
        return None
    return cal


def cal_hash(cal: "dict[str, Any]") -> str:
    return codec.hex8(codec.crc32(canonical(cal).encode()))


def mean(samples: "list[Any]") -> list[float]:
    acc = [0.0, 0.0, 0.0, 0.0]
    for s in samples:
        for k in range(4):
            acc[k] += s[k]
    n = len(samples)
    return [round(acc[k] / n, 2) for k in range(4)] if n else acc


def add_colour_sample(cal: "dict[str, Any]", colour: str, raw: "Any") -> int:
    """Fold one cube's raw reading into the colour's running mean. Returns the sample count."""
    entry = cal["colours"].get(colour)
    if entry is None:
        entry = {"raw": [0.0, 0.0, 0.0, 0.0], "n": 0}
    n = int(entry["n"])
    old = entry["raw"]
    new = [round((old[k] * n + raw[k]) / (n + 1), 2) for k in range(4)]
    cal["colours"][colour] = {"raw": new, "n": n + 1}
    return n + 1


def centroids(cal: "dict[str, Any]", palette: "dict[str, Any]") -> "dict[str, Any]":
    """Feature centroids per palette colour: calibrated if known, else the palette's nominal."""
    dark = cal["dark"] or [0, 0, 0, 0]
    white = cal["white"] or palette.get("white") or [0, 0, 0, 1024]
    white_c = max(white[3] - dark[3], 1)
    out: dict[str, Any] = {}
    for colour in palette["colours"]:
        entry = cal["colours"].get(colour)
        if entry is not None:
            f = features(entry["raw"], dark, white_c)
        else:
            nominal = palette.get("nominal", {}).get(colour)
            f = features(nominal, (0, 0, 0, 0), white_c) if nominal else None
        if f is not None:
            out[colour] = f
    return out
