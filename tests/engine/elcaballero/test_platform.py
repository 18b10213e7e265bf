"""El Caballero on the platform: the conformance checks are not vacuous for it, records replay
in table and dealer mode, and the options are read with one error per field."""

from __future__ import annotations

import json
import random

import pytest

from engine import registry
from engine.core import record as core_record
from engine.core.errors import OptionsError, RecordError
from engine.elcaballero.spec import SPEC
from tests.engine.elcaballero.helpers import LAND, SEA, powers, table_game
from tests.engine.platform.test_conformance import Checker


def test_el_caballero_is_registered_for_2_to_4_players() -> None:
    assert registry.get("elcaballero") is SPEC and registry.get("el-caballero") is SPEC
    assert SPEC.player_counts == (2, 3, 4)


def test_undo_and_refusals_are_exercised_by_the_conformance_checks() -> None:
    checker = Checker(SPEC, random.Random(7))
    checker.play(SPEC.new_state(SPEC.test_options(4)[0]))
    assert checker.undos > 0 and checker.refusals > 0


def test_a_table_mode_game_with_described_cards_replays_from_its_record() -> None:
    game = table_game(market=(LAND, "LNESWg1", LAND, SEA, "SNESWf1"))
    powers(game, 13, 9, 2)
    game.apply("knight 0,-1S 3")
    game.apply("area 2 1,0N")
    game.apply("done")
    record = json.loads(json.dumps(core_record.to_record(SPEC, game)))
    assert record["actions"][1] == ["chance", "reveal LNESW"]
    spec, again = registry.replay(record)
    assert spec is SPEC and again.snapshot() == game.snapshot()


def test_a_record_with_a_bad_card_names_the_action() -> None:
    game = table_game()
    record = core_record.to_record(SPEC, game)
    record["actions"][2] = ["chance", "reveal LNS+SEW"]
    with pytest.raises(RecordError, match=r"action #2 .* would cross"):
        registry.replay(record)


def test_options_are_checked_field_by_field() -> None:
    with pytest.raises(OptionsError) as caught:
        SPEC.options_from_json({"players": ["red"], "mode": "robot", "colour": 1})
    assert set(caught.value.errors) == {"colour"}
    with pytest.raises(OptionsError) as caught:
        SPEC.options_from_json({"players": ["red"], "mode": "robot"})
    assert set(caught.value.errors) == {"players", "mode"}


def test_dealer_mode_needs_a_catalogue_and_says_the_synthetic_one_is_not_real() -> None:
    with pytest.raises(ValueError, match="synthetic one \\(not the real cards\\)"):
        SPEC.new_state(SPEC.options_from_json({"players": ["red", "blue"], "mode": "dealer"}))
    game = SPEC.new_state(SPEC.test_options(2)[0])
    assert "not the real cards" in game.view(None)["catalogue"]
