"""Strict JSON from clients: what the table app accepts before any handler sees it.

`json.loads` alone takes `Infinity`, `NaN` and `1e400` (a float that is infinite), strings with
lone surrogates (valid JSON, but no UTF-8 encodes them, so the answer or the saved log that
echoes them cannot be written) and nesting deep enough to exhaust the stack. Every body and
WebSocket message goes through `parse`; `check_loggable` guards what enters the game log.
"""

from __future__ import annotations

import json
import math
from typing import Any

# One depth limit for what clients send and what the command line reads (32 levels; the
# deepest real message, a game record, nests 4).
from engine.core.userfiles import MAX_DEPTH as MAX_DEPTH

# Keys no client may give a value: the engine reads data override files from these paths
# (a record the app exported says `"overrides": []`, which names no file).
FORBIDDEN_KEYS = frozenset({"overrides"})


class BadInput(ValueError):
    """Input refused before it reaches the session; the message says why in plain English."""


def _refuse_constant(name: str) -> Any:
    raise BadInput(f"{name} is not a number here: send finite numbers")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadInput(f"{text[:20]} is out of range: send finite numbers")
    return value


def parse(raw: bytes | str) -> Any:
    """A client's JSON document, checked by `check_value`; BadInput when refused."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise BadInput("the body is not UTF-8") from None
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except BadInput:
        raise
    except RecursionError:
        raise BadInput(f"JSON nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:
        raise BadInput("the body is not JSON") from None
    check_value(value)
    return value


def check_value(value: Any) -> None:
    """Depth, text that UTF-8 can encode, and no key that names a server file."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            check_text(item)
        elif isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                raise BadInput(f"JSON nested deeper than {MAX_DEPTH} levels")
            if isinstance(item, dict):
                for key, inner in item.items():
                    check_text(key)
                    if key in FORBIDDEN_KEYS and inner not in ([], None):  # exports say []
                        raise BadInput(f"'{key}' is refused: no client may name a server file")
                    stack.append((inner, depth + 1))
            else:
                stack.extend((inner, depth + 1) for inner in item)


def check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise BadInput("text holds a lone surrogate (not valid Unicode)") from None


def check_loggable(payload: Any) -> None:
    """What enters the game log must round-trip through JSON and UTF-8."""
    try:
        json.dumps(payload, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except (ValueError, TypeError):  # UnicodeEncodeError is a ValueError
        raise BadInput("this cannot be saved: only finite numbers and valid Unicode text") from None


def safe_text(text: str) -> str:
    """A reason or echo that is sure to encode (lone surrogates shown as escapes)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
