"""The placement preview (engine.elcaballero.preview): what an area card would knock off, how the
islands it touches would rank, what courts would lose, and the map after it, all as the engine
then does it, worked out on copies: the game itself never changes and nothing is dealt."""

from __future__ import annotations

import random
import re

import pytest

from engine import registry
from engine.core.errors import NotationError
from engine.core.spec import NoPreview, PreviewError
from engine.elcaballero.cards import card_from_text
from engine.elcaballero.catalogue import load_synthetic
from engine.elcaballero.game import Game
from engine.elcaballero.options import Options
from engine.elcaballero.preview import preview
from engine.elcaballero.spec import SPEC
from tests.engine.elcaballero.helpers import put_caballero
from tests.engine.elcaballero.test_game import crowded_setup

LOST = re.compile(r"^(\w+) loses (\d+) caballeros \(court full\)$")


def _red_4() -> dict[str, object]:
    """The start island before: the start card and 0,-1, red's card showing it 4."""
    return {
        "cells": ["0,-1", "0,0"],
        "cards": 2,
        "gold": 0,
        "caballeros": {"red": 4},
        "ranking": [[["red"], 4]],
    }


def test_a_card_touching_land_on_two_sides_is_knocked_off() -> None:
    """Red's card at 1,0 faces the island west; the card at 1,-1 joins that island and touches
    red's card from the north: it goes (EC-9), and red's 4 leave the island."""
    game = crowded_setup(castillo=False)
    snapshot = game.snapshot()
    out = preview(game, 0, "area 1 1,-1N")
    assert game.snapshot() == snapshot  # nothing changed, not even the turn's counters
    assert out["legal"] is True and out["seat"] == "red"
    assert out["lost"] == ["1,0"]
    assert out["ghost"] == {"cell": "1,-1", "card": "LNESW", "id": "", "rotation": 0}
    (island,) = out["islands"]
    assert island["before"] == [_red_4()]
    assert island["after"] == {
        "cells": ["0,-1", "0,0", "1,-1"],
        "cards": 3,
        "gold": 0,
        "caballeros": {},
        "ranking": [],
    }
    assert out["courts"] == []  # no castillo: nothing comes back to the court
    assert [c["cell"] for c in out["map"]["caballeros"]] == []


def test_two_sides_on_one_island_keep_the_card_with_the_option_off() -> None:
    """remove_on_same_island off: both sides face one island, the card stays and counts 4 + 1."""
    game = crowded_setup(castillo=False)
    game.state.options = Options(players=game.options.players, remove_on_same_island=False)
    out = preview(game, 0, "area 1 1,-1N")
    assert out["lost"] == []
    (island,) = out["islands"]
    assert island["before"] == [_red_4()]
    assert island["after"]["caballeros"] == {"red": 5}  # W shows 4, N shows 1
    assert island["after"]["ranking"] == [[["red"], 5]]
    assert [c["cell"] for c in out["map"]["caballeros"]] == ["1,0"]


def test_two_islands_joined_rank_their_caballeros_together() -> None:
    """An island of its own at 1,-2 with blue's card east of it (4 towards it): the card at
    1,-1 joins it to the start island and knocks red's card off; the one island after holds
    blue's 4 only, made of the two before."""
    game = crowded_setup(castillo=False)
    game.state.board.place_area(card_from_text("LNESW"), 0, 1, -2)
    put_caballero(game, 1, 2, -2)  # front, unturned: W shows 4
    out = preview(game, 0, "area 1 1,-1N")
    assert out["lost"] == ["1,0"]
    (island,) = out["islands"]
    blue = {"cells": ["1,-2"], "cards": 1, "gold": 0, "caballeros": {"blue": 4}}
    assert island["before"] == [_red_4(), {**blue, "ranking": [[["blue"], 4]]}]
    assert island["after"]["cells"] == ["0,-1", "0,0", "1,-1", "1,-2"]
    assert island["after"]["ranking"] == [[["blue"], 4]]


def test_a_castillo_brings_back_caballeros_beyond_the_court() -> None:
    """Red's last card off the map (a castillo on it, 4 towards the island) is knocked off:
    7 + 4 at a court of 8 (last_card_empties_court off: one card's 8 at most): 3 lost, as the
    engine then takes; without the court's capacity nothing is lost."""
    for capacity, lost in ((True, [{"colour": "red", "lost": 3}]), (False, [])):
        game = crowded_setup(castillo=True)
        game.state.options = Options(
            players=game.options.players,
            last_card_empties_court=False,
            court_capacity=capacity,
        )
        game.state.stack[0] = 0
        game.state.court[0] = 7
        out = preview(game, 0, "area 1 1,-1N")
        assert out["lost"] == ["1,0"] and out["courts"] == lost
        game.apply("area 1 1,-1N")
        assert game.state.court[0] == (8 if capacity else 11)


def test_an_illegal_placement_answers_the_engines_refusal() -> None:
    game = crowded_setup(castillo=False)
    snapshot = game.snapshot()
    far = preview(game, 0, "area 1 5,5N")
    assert far["legal"] is False and "lost" not in far
    assert far["refusal"]["key"] == "elcaballero.refuse.no_contact"
    slot = preview(game, 0, "area 9 1,-1N")
    assert slot["refusal"]["key"] == "elcaballero.refuse.market_slot"
    assert slot["refusal"]["params"] == {"count": 5}
    other = preview(game, 1, "area 1 1,-1N")  # blue does not act now
    assert other["refusal"]["key"] == "elcaballero.refuse.not_your_turn"
    sea = preview(game, 0, "area 4 1,-1N")  # a sea card where land meets it
    assert sea["refusal"]["key"] == "elcaballero.refuse.land_sea"
    assert game.snapshot() == snapshot


def test_only_a_placement_is_previewed() -> None:
    game = crowded_setup(castillo=False)
    with pytest.raises(PreviewError):
        preview(game, 0, "done")
    with pytest.raises(NotationError):
        preview(game, 0, "area one 1,-1N")
    with pytest.raises(NotationError):
        preview(game, 0, "area 1 1,-1Q")
    other = registry.get("kingdomino")
    with pytest.raises(NoPreview):  # a game without previews
        other.preview(other.new_state(other.test_options(2)[0]), 0, "x")


def _engine_losses(game: Game, player: int, text: str) -> tuple[dict[str, int], Game]:
    after = game.clone()
    before = len(after.state.log)
    after.apply(text, player)
    out: dict[str, int] = {}
    for line in after.state.log[before:]:
        match = LOST.match(line)
        if match:
            out[match[1]] = out.get(match[1], 0) + int(match[2])
    return out, after


@pytest.mark.parametrize(
    "extra",
    [{}, {"remove_on_same_island": False}, {"last_card_empties_court": False}, {"extended": True}],
)
def test_the_preview_is_what_the_engine_does(extra: dict[str, object]) -> None:
    """Over a dealer game played to its end (many caballero cards, so cards get knocked off),
    each area card offered: the preview's knocked-off cards, court losses and map are what
    applying it does; the game (its pile of future cards too) is unchanged by the preview."""
    rng = random.Random(7)
    options = Options(
        players=("red", "blue"),
        mode="dealer",
        seed=5,
        catalogue="synthetic",
        **extra,  # type: ignore[arg-type]
    )
    game = Game(options, load_synthetic())
    seen = knocked = 0
    while not game.is_terminal():
        player = game.current_players()[0]
        legal = [str(a) for a in game.legal_actions(player)]
        areas = [t for t in legal if t.startswith("area ")]
        for text in rng.sample(areas, min(4, len(areas))):
            snapshot = game.snapshot()
            out = SPEC.preview(game, player, text)
            assert game.snapshot() == snapshot
            assert out["legal"] is True
            losses, after = _engine_losses(game, player, text)
            view = after.view(None)
            assert out["map"] == {k: view[k] for k in ("areas", "caballeros", "regions")}
            assert {c["colour"]: c["lost"] for c in out["courts"]} == losses
            gone = {c["cell"] for c in game.view(None)["caballeros"]} - {
                c["cell"] for c in view["caballeros"]
            }
            assert set(out["lost"]) == gone
            seen += 1
            knocked += bool(gone)
        kinds = ("knight", "area", "done") if rng.random() < 0.8 else ()
        choice = next((t for k in kinds for t in legal if t.startswith(k)), rng.choice(legal))
        game.apply(choice, player)
    assert seen > 20 and knocked > 0, (seen, knocked)
