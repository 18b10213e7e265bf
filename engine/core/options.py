"""Game options: a frozen dataclass per game, read from JSON with one error per bad field.

`read_options(cls, raw)` checks each field against its declared type (str, int, bool, a
tuple of str, or `int | None`) and collects every problem into one `OptionsError`; the game
then checks the combination (its own rules).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from engine.core.errors import OptionsError

T = TypeVar("T")


def _check(name: str, kind: Any, value: Any) -> tuple[Any, str]:
    """The value converted to the field's type, or an error message."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        choices = typing.get_args(kind)
        if value is None and type(None) in choices:
            return None, ""
        kind = next(k for k in choices if k is not type(None))
        origin = typing.get_origin(kind)
    if kind is bool:
        return (value, "") if isinstance(value, bool) else (None, "must be true or false")
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            return None, "must be a whole number"
        return value, ""
    if kind is str:
        return (value, "") if isinstance(value, str) else (None, "must be text")
    if origin is tuple:
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            return None, "must be a list of names"
        return tuple(value), ""
    raise TypeError(f"option {name!r}: unsupported type {kind!r}")


def read_options(cls: type[T], raw: Mapping[str, Any]) -> T:
    """`cls(**raw)` with every field checked; OptionsError names each bad or unknown field."""
    if not isinstance(raw, Mapping):
        raise OptionsError({"options": "must be a JSON object"})
    hints = typing.get_type_hints(cls)
    known = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    errors: dict[str, str] = {}
    values: dict[str, Any] = {}
    for name, value in raw.items():
        if name not in known:
            errors[str(name)] = f"unknown option (known: {', '.join(sorted(known))})"
            continue
        converted, error = _check(name, hints[name], value)
        if error:
            errors[name] = error
        else:
            values[name] = converted
    if errors:
        raise OptionsError(errors)
    return cls(**values)
