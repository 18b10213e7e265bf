"""Game options: a frozen dataclass per game, with a schema of field kinds, read from JSON with
one error per bad field.

The schema says each field's kind: "bool", "int", "int?" (a whole number or null), "str" or
"names" (a list of names, kept as a tuple). It is explicit (not read from the annotations,
which the compiled engine does not keep in full) and can be shown to clients to build a form.
`read_options(cls, schema, raw)` checks each field and collects every problem into one
`OptionsError`; the game then checks the combination (its own rules).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Example:
...     players: tuple[str, ...] = ()
...     rounds: int = 3
>>> read_options(Example, {"players": "names", "rounds": "int"}, {"players": ["a", "b"]})
Example(players=('a', 'b'), rounds=3)
>>> try:
...     read_options(Example, {"players": "names", "rounds": "int"}, {"rounds": "x", "c": 1})
... except OptionsError as error:
...     print(error.errors)
{'rounds': 'must be a whole number', 'c': 'unknown option (known: players, rounds)'}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar

from engine.core.errors import OptionsError

T = TypeVar("T")
KINDS = ("bool", "int", "int?", "str", "names")
# Where a new-game form shows a field: with the others ("main", the default), folded under
# "rule details" (a rulebook gap's reading, kept at the reference's suggestion), or nowhere
# ("hidden": set by tests, self-play and records, e.g. a dealer's shuffle seed), or only by a game
# record's reader ("record": a new game refuses it from a client, e.g. an upgraded record's cards).
SECTIONS = ("main", "details", "hidden", "record")
RECORD_ONLY = "record"


def check_value(kind: str, value: Any) -> tuple[Any, str]:
    """The value converted for a field of that kind, or an error message."""
    if kind == "int?" and value is None:
        return None, ""
    if kind == "bool":
        return (value, "") if isinstance(value, bool) else (None, "must be true or false")
    if kind in ("int", "int?"):
        if isinstance(value, bool) or not isinstance(value, int):
            return None, "must be a whole number"
        return value, ""
    if kind == "str":
        return (value, "") if isinstance(value, str) else (None, "must be text")
    if kind == "names":
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            return None, "must be a list of names"
        return tuple(value), ""
    raise ValueError(f"unknown option kind {kind!r} (known: {', '.join(KINDS)})")


def options_json(options: Any) -> dict[str, Any]:
    """A game's options dataclass as JSON: every field, tuples as lists."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def read_options(cls: type[T], schema: Mapping[str, str], raw: Mapping[str, Any]) -> T:
    """`cls(**raw)` with every field checked against `schema` (field -> kind); OptionsError
    names each bad or unknown field."""
    if not isinstance(raw, Mapping):
        raise OptionsError({"options": "must be a JSON object"})
    errors: dict[str, str] = {}
    values: dict[str, Any] = {}
    for name, value in raw.items():
        kind = schema.get(name)
        if kind is None:
            errors[str(name)] = f"unknown option (known: {', '.join(schema)})"
            continue
        converted, error = check_value(kind, value)
        if error:
            errors[name] = error
        else:
            values[name] = converted
    if errors:
        raise OptionsError(errors)
    return cls(**values)


def describe(
    cls: type, schema: Mapping[str, str], sections: Mapping[str, str] | None = None
) -> list[dict[str, Any]]:
    """The options as a form can show them: each field's name, kind, default (JSON) and
    section (`SECTIONS`; "main" unless `sections` says otherwise)."""
    sections = sections or {}
    unknown = set(sections) - set(schema)
    if unknown:
        raise ValueError(f"sections of unknown options: {', '.join(sorted(unknown))}")
    bad = {name: section for name, section in sections.items() if section not in SECTIONS}
    if bad:
        raise ValueError(f"unknown option sections {bad} (known: {', '.join(SECTIONS)})")
    defaults: dict[str, Any] = {}
    for spec_field in dataclasses.fields(cls):
        if spec_field.default is not dataclasses.MISSING:
            defaults[spec_field.name] = spec_field.default
        elif spec_field.default_factory is not dataclasses.MISSING:
            defaults[spec_field.name] = spec_field.default_factory()
    out: list[dict[str, Any]] = []
    for name, kind in schema.items():
        default = defaults.get(name)
        if isinstance(default, tuple):
            default = list(default)
        section = sections.get(name, "main")
        out.append({"name": name, "kind": kind, "default": default, "section": section})
    return out
