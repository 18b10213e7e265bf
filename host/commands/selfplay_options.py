"""`castillo selfplay --option NAME=VALUE` and `--list-options`: any game's options.

The names, kinds and defaults are the game's own, from its spec's schema
(`GameSpec.options_schema()`, the schema the lobby builds its form from); nothing is restated
here. This module only turns the command line's text into a value of the field's kind, and the
game's own check (`options_from_json`) says which values it takes (e.g. El Caballero's
`lake_ship`: "one of buy, none"). A game's own flags (`host/games/<id>/cli.py`,
`SELFPLAY_ALIASES`: flag attribute -> option name) are shorthands for its options.
"""

from __future__ import annotations

import argparse
import json
import textwrap
from collections.abc import Iterable, Mapping
from typing import Any

from engine.core.errors import OptionsError
from engine.core.spec import GameSpec

# The options self-play sets itself (refused with --option): name -> what sets it.
RESERVED = {"players": "--players", "mode": "dealer mode: the engine deals", "seed": "--seed"}
TRUE = ("true", "yes", "on", "1")
FALSE = ("false", "no", "off", "0")
NULLS = ("null", "none", "")
# How a value of each kind is written on the command line.
KIND_TEXT = {
    "bool": "true or false",
    "int": "a whole number",
    "int?": "a whole number, or null",
    "str": "text",
    "names": "names separated by commas",
}


class BadOption(ValueError):
    """An --option (or a game's flag) refused: the message says which and why."""


def settable(spec: GameSpec) -> list[dict[str, Any]]:
    """The schema's fields --option may set (players, mode and seed are self-play's)."""
    return [field for field in spec.options_schema() if field["name"] not in RESERVED]


def names_text(spec: GameSpec) -> str:
    names = [field["name"] for field in settable(spec)]
    return ", ".join(names) if names else "none"


def parse_value(kind: str, text: str) -> Any:
    """The command line's text as a JSON value of the schema's kind (BadOption if it is not)."""
    word = text.strip()
    if kind == "bool":
        if word.lower() in TRUE:
            return True
        if word.lower() in FALSE:
            return False
    elif kind in ("int", "int?"):
        if kind == "int?" and word.lower() in NULLS:
            return None
        try:
            return int(word)
        except ValueError:
            pass
    elif kind == "str":
        return text
    elif kind == "names":
        return [name.strip() for name in text.split(",") if name.strip()]
    raise BadOption(f"must be {KIND_TEXT.get(kind, kind)}")


def read_options(
    spec: GameSpec, given: Iterable[str], flags: Mapping[str, tuple[str, Any]]
) -> dict[str, Any]:
    """The options chosen on the command line: each `--option NAME=VALUE` (NAME a field of the
    game's schema, VALUE of its kind), then the game's own flags (`flags`: option -> (flag,
    value)); BadOption names the problem and the valid names or values."""
    schema = {field["name"]: field["kind"] for field in settable(spec)}
    listing = f"castillo selfplay --game {spec.id} --list-options"
    chosen: dict[str, Any] = {}
    for item in given:
        name, equals, text = item.partition("=")
        name = name.strip()
        if not equals or not name:
            raise BadOption(f"--option {item}: give NAME=VALUE (see {listing})")
        if name in RESERVED:
            raise BadOption(f"--option {name}: set by self-play ({RESERVED[name]})")
        kind = schema.get(name)
        if kind is None:
            raise BadOption(
                f"--option {name}: not an option of {spec.title} (its options: "
                f"{names_text(spec)}; see {listing})"
            )
        if name in chosen:
            raise BadOption(f"--option {name}: given twice")
        try:
            chosen[name] = parse_value(kind, text)
        except BadOption as bad:
            raise BadOption(f"--option {name}={text}: {bad}") from None
    for name, (flag, value) in flags.items():
        if name in chosen and chosen[name] != value:
            raise BadOption(f"--option {name}: {flag} (a shorthand for it) says otherwise")
        chosen[name] = value
    return chosen


def shorthands(module: Any) -> dict[str, str]:
    """A game's own flags that are shorthands for its options: option -> flag (its
    `SELFPLAY_ALIASES`, attribute -> option, and `SELFPLAY_FLAGS`, attribute -> flag)."""
    flag_of = dict(getattr(module, "SELFPLAY_FLAGS", ()))
    aliases: dict[str, str] = getattr(module, "SELFPLAY_ALIASES", {})
    return {name: flag_of.get(attribute, attribute) for attribute, name in aliases.items()}


def flag_options(module: Any, args: argparse.Namespace) -> dict[str, tuple[str, Any]]:
    """The options a game's own flags set: option -> (flag, value); unset flags set none."""
    flag_of = dict(getattr(module, "SELFPLAY_FLAGS", ()))
    out: dict[str, tuple[str, Any]] = {}
    for attribute, name in getattr(module, "SELFPLAY_ALIASES", {}).items():
        value = getattr(args, attribute, None)
        if value not in (None, False, [], ()):
            value = list(value) if isinstance(value, list | tuple) else value
            out[name] = (flag_of.get(attribute, attribute), value)
    return out


def options_for(spec: GameSpec, players: int, seed: int | None, chosen: Mapping[str, Any]) -> Any:
    """The game's self-play options with the chosen ones in place; BadOption names each option
    the game refuses (its own check says which values it takes)."""
    base = spec.options_to_json(spec.selfplay_options(players, seed))
    try:
        return spec.options_from_json({**base, **chosen})
    except OptionsError as refused:
        problems = [
            f"{'--option ' if name in chosen else ''}{name}: {reason}"
            for name, reason in refused.errors.items()
        ]
        raise BadOption("; ".join(problems)) from None


def list_options(
    spec: GameSpec, players: int, flags: Mapping[str, str], as_json: bool
) -> dict[str, Any] | str:
    """A game's options as `--list-options` shows them: each name, kind, the value self-play
    uses unless told otherwise, the game's default (a new game in the lobby) and the flag that
    is a shorthand for it (`flags`: option -> flag)."""
    used = spec.options_to_json(spec.selfplay_options(players, None))
    fields = [
        {**field, "selfplay": used.get(field["name"]), **_flag(flags, field["name"])}
        for field in settable(spec)
    ]
    if as_json:
        return {"game": spec.id, "options": fields, "set_by_selfplay": RESERVED}
    lines = [
        f"{spec.title}'s options (castillo selfplay --game {spec.id} --option NAME=VALUE):",
        f"  {'NAME':28} {'VALUE':26} {'SELF-PLAY':12} DEFAULT",
    ]
    for field in fields:
        shorthand = f"  (also {field['flag']})" if "flag" in field else ""
        lines.append(
            f"  {field['name']:28} {KIND_TEXT.get(field['kind'], field['kind']):26} "
            f"{json.dumps(field['selfplay']):12} {json.dumps(field['default'])}{shorthand}"
        )
    lines.append("Set by self-play: " + "; ".join(f"{n} ({w})" for n, w in RESERVED.items()))
    return "\n".join(lines)


def _flag(flags: Mapping[str, str], name: str) -> dict[str, str]:
    return {"flag": flags[name]} if name in flags else {}


def epilog(specs: Iterable[GameSpec]) -> str:
    """`castillo selfplay --help`'s list of each game's options."""
    lines = ["each game's options (--option NAME=VALUE; kinds, defaults: --list-options):"]
    for spec in specs:
        wrapped = textwrap.wrap(
            names_text(spec), width=76, initial_indent="    ", subsequent_indent="    "
        )
        lines += [f"  --game {spec.id}:", *wrapped]
    return "\n".join(lines)
