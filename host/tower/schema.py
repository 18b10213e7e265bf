"""What a device frame may hold (docs/protocol.md): one schema per frame type and event kind.

The link checks every frame that passed the CRC against its schema before anything reads it:
types (a JSON `true` is not a number, `1.0` is not an integer), ranges, finite numbers (Python's
json reads `1e999` as infinity), and short names; all text must survive JSON and UTF-8 (a lone
surrogate such as `"\\ud800"` does not). A frame that breaks its schema never reaches the
ledger; `frame_problem` says which field is wrong without echoing its value (counts are
secret). Fields a schema does not name are ignored, as the protocol says, and so are frame
types the host does not know.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

MAX_INT = 2**53  # beyond this a JSON number is not an exact integer outside Python
MAX_COUNT = 1_000_000  # cubes of one key since a reset
MAX_PULSE_US = 600_000_000  # ten minutes in the beam: anything longer is not a reading
MAX_ESTIMATE = 1000  # cubes in one merged pulse
MAX_TEXT = 400  # characters of a human-readable text (`why` of an `err`)
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_:.\-]{0,31}")  # colours, kinds, reasons, ids
_HEX = re.compile(r"[0-9a-fA-F]{1,32}")

Check = Callable[[Any], bool]


def _integer(lo: int = 0, hi: int = MAX_INT) -> Check:
    return lambda value: type(value) is int and lo <= value <= hi


def _number(lo: float = 0.0, hi: float = 1e12) -> Check:
    def check(value: Any) -> bool:
        if type(value) not in (int, float):
            return False
        return math.isfinite(value) and lo <= value <= hi

    return check


def _boolean(value: Any) -> bool:
    return type(value) is bool


def _is_name(value: Any) -> bool:
    return isinstance(value, str) and _NAME.fullmatch(value) is not None


def _is_hex(value: Any) -> bool:
    return isinstance(value, str) and _HEX.fullmatch(value) is not None


def _is_text(value: Any) -> bool:
    """Text that encodes to UTF-8 (no lone surrogates). It may quote what the host sent (an
    `err` names the segment it refused), so control characters are allowed: whoever shows it
    escapes it."""
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _name_or_null(value: Any) -> bool:
    return value is None or _is_name(value)


def _id_or_null(value: Any) -> bool:
    return value is None or _integer(0, MAX_INT)(value)


def is_counts(value: Any) -> bool:
    """A count vector `n`: names -> integers 0..MAX_COUNT."""
    if not isinstance(value, dict) or len(value) > 64:
        return False
    count = _integer(0, MAX_COUNT)
    return all(_is_name(key) and count(n) for key, n in value.items())


def _names(value: Any) -> bool:
    return isinstance(value, list) and len(value) <= 32 and all(_is_name(v) for v in value)


def _cube_colours(value: Any) -> bool:
    """A touching group's colours, one per cube in the order they fell: names, or null for a
    cube the tower leaves to the table."""
    return (
        isinstance(value, list) and 2 <= len(value) <= 32 and all(_name_or_null(v) for v in value)
    )


def _readings(value: Any) -> bool:
    finite = _number(-1e9, 1e9)
    return isinstance(value, list) and len(value) <= 8 and all(finite(v) for v in value)


@dataclass(frozen=True)
class Rule:
    check: Check
    expect: str  # what the field must be, for the message
    required: bool = True


def _optional(rule: Rule) -> Rule:
    return Rule(rule.check, rule.expect, required=False)


SEQ = Rule(_integer(1), "an integer 1..2^53")
COUNT_SEQ = Rule(_integer(0), "an integer 0..2^53")
UPTIME = Rule(_integer(0), "an integer 0..2^53 (ms)")
NAME = Rule(_is_name, "a short name")
NAME_OR_NULL = Rule(_name_or_null, "a short name or null")
PULSE = Rule(_integer(0, MAX_PULSE_US), f"an integer 0..{MAX_PULSE_US} (us)")
DISTANCE = Rule(_number(0.0, 1e9), "a finite number >= 0")
SIZE = Rule(_number(0.0, 1000.0), "a finite number 0..1000 (caballeros)")  # second beam
FLAG = Rule(_boolean, "true or false")
COUNTS = Rule(is_counts, f"a count vector (names -> integers 0..{MAX_COUNT})")

# one schema per frame type `t` (an `ev` also follows the schema of its kind `k`)
FRAME_SCHEMAS: dict[str, dict[str, Rule]] = {
    "hello": {
        "proto": Rule(_integer(0, 1000), "an integer 0..1000"),
        "fw": Rule(_is_text, "text"),
        "uid": Rule(_is_hex, "hexadecimal"),
        "boot": Rule(_is_hex, "hexadecimal"),
        "up_ms": UPTIME,
        "reset": NAME,
        "cal": Rule(_is_hex, "hexadecimal"),
        "seq": COUNT_SEQ,
        "unacked": _optional(COUNT_SEQ),
        "colours": _optional(Rule(_names, "a list of colour names")),
    },
    "hb": {"up_ms": UPTIME, "seq": COUNT_SEQ, "unacked": COUNT_SEQ},
    "ev": {"seq": SEQ, "k": NAME, "ms": UPTIME, "n": COUNTS},
    "ok": {"id": Rule(_id_or_null, "an integer or null")},
    "err": {
        "id": Rule(_id_or_null, "an integer or null"),
        "why": _optional(Rule(_is_text, "text")),
    },
    "diag": {
        "us": Rule(_integer(-MAX_INT), "an integer"),
        **{channel: Rule(_number(0.0, 1e9), "a finite number >= 0") for channel in "rgbc"},
        "beam": Rule(lambda v: type(v) is bool or v in (0, 1), "0, 1, true or false"),
    },
}

EVENT_SCHEMAS: dict[str, dict[str, Rule]] = {
    "drop": {"c": NAME, "d": DISTANCE, "pulse_us": PULSE},
    "uncertain": {
        "best": NAME_OR_NULL,
        "d": _optional(DISTANCE),
        "pulse_us": PULSE,
        "why": _optional(NAME),
        "size": _optional(SIZE),
    },
    "merged": {
        "pulse_us": PULSE,
        "est": Rule(_integer(2, MAX_ESTIMATE), f"an integer 2..{MAX_ESTIMATE}"),
        "best": _optional(NAME_OR_NULL),
        "size": _optional(SIZE),
        # each cube's colour (second beam), as many as `est`: checked in frame_problem
        "cs": _optional(Rule(_cube_colours, "a list of 2..32 colour names or nulls")),
    },
    "grande": {
        "c": NAME,
        "pulse_us": PULSE,
        "best": _optional(NAME_OR_NULL),
        "d": _optional(DISTANCE),
        "size": _optional(SIZE),
    },
    "stuck": {"since_ms": UPTIME},
    "unstuck": {},
    "sensor": {"why": NAME},
    "gate": {"open": FLAG},
    "reset": {"why": NAME},
    "cal": {
        "colour": NAME,
        "ok": FLAG,
        "got": _optional(COUNT_SEQ),
        "raw": _optional(Rule(_readings, "a list of finite numbers")),
        "pulse_us": _optional(PULSE),
        "why": _optional(NAME),
    },
}


def _broken(fields: Mapping[str, Any], schema: Mapping[str, Rule]) -> str | None:
    for key, rule in schema.items():
        if key not in fields:
            if rule.required:
                return f"`{key}` is missing"
            continue
        if not rule.check(fields[key]):
            return f"`{key}` is not {rule.expect}"
    return None


def frame_problem(frame: Mapping[str, Any]) -> str | None:
    """Why `frame` breaks the protocol (None when it does not). Unknown types and event kinds
    pass with only their common fields checked (a newer firmware may send them)."""
    kind = frame.get("t")
    if not _is_name(kind):
        return "`t` is not a frame type"
    schema = FRAME_SCHEMAS.get(str(kind))
    if schema is None:
        return None
    problem = _broken(frame, schema)
    if problem is None and kind == "ev":
        problem = _broken(frame, EVENT_SCHEMAS.get(str(frame["k"]), {}))
    merged = problem is None and kind == "ev" and frame["k"] == "merged"
    if merged and "cs" in frame and len(frame["cs"]) != frame["est"]:
        problem = "`cs` does not name `est` cubes"
    if problem is None:
        return None
    what = f"{frame['k']} event" if kind == "ev" and _is_name(frame.get("k")) else f"{kind} frame"
    return f"{what}: {problem}"


def valid_seq(value: Any) -> bool:
    """A usable event sequence number (even when the rest of its frame is broken)."""
    return bool(SEQ.check(value))
