"""Small helpers for JSON-like data (dicts, lists and immutable leaves)."""

from __future__ import annotations

from typing import Any


def copied(value: Any) -> Any:
    """A deep copy of JSON-like data: what a view hands out must not share a list or a dict
    with the live state. Much cheaper than copy.deepcopy (no memo; the leaves are immutable).

    >>> state = {"a": [1, {"b": 2}]}
    >>> copy = copied(state)
    >>> copy == state and copy["a"] is not state["a"] and copy["a"][1] is not state["a"][1]
    True
    """
    if isinstance(value, dict):
        return {key: copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copied(item) for item in value]
    return value
