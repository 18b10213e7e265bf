"""Options from JSON: one error per bad field, and each game's schema matches its dataclass."""

from __future__ import annotations

import dataclasses
import os
import typing
from typing import Any

import pytest

from engine.core.errors import OptionsError
from engine.elgrande.options import OPTION_KINDS, Options
from tests.engine.platform import nim

SCHEMAS: list[tuple[type[Any], dict[str, str]]] = [
    (Options, OPTION_KINDS),
    (nim.NimOptions, nim.OPTION_KINDS),
]
KIND_OF_TYPE = {
    bool: "bool",
    int: "int",
    str: "str",
    tuple[str, ...]: "names",
    int | None: "int?",
}


@pytest.mark.parametrize(("cls", "schema"), SCHEMAS)
def test_the_schema_names_every_field(cls: type[Any], schema: dict[str, str]) -> None:
    assert list(schema) == [f.name for f in dataclasses.fields(cls)]


@pytest.mark.skipif(
    os.environ.get("CASTILLO_ENGINE") == "compiled",
    reason="the compiled engine keeps only plain classes as annotations",
)
@pytest.mark.parametrize(("cls", "schema"), SCHEMAS)
def test_the_schema_kinds_match_the_annotations(cls: type[Any], schema: dict[str, str]) -> None:
    hints = typing.get_type_hints(cls)
    assert {name: KIND_OF_TYPE[hint] for name, hint in hints.items()} == schema


def test_every_bad_field_is_named_with_its_reason() -> None:
    raw = {"players": "purple", "seed": "7", "short_game": 1, "mode": None, "colour": "x"}
    with pytest.raises(OptionsError) as info:
        Options.from_json(raw)
    assert info.value.errors == {
        "players": "must be a list of names",
        "seed": "must be a whole number",
        "short_game": "must be true or false",
        "mode": "must be text",
        "colour": info.value.errors["colour"],
    }
    assert info.value.errors["colour"].startswith("unknown option")


def test_good_options_round_trip() -> None:
    options = Options(players=("purple", "green"), seed=None, power_shift=True)
    assert Options.from_json(options.to_json()) == options
    assert Options.from_json({**options.to_json(), "seed": 5}).seed == 5


def test_a_games_own_rule_refuses_a_combination() -> None:
    with pytest.raises(OptionsError) as info:
        nim.SPEC.options_from_json({"players": ["a"], "heaps": 0})
    assert set(info.value.errors) == {"players", "heaps"}
