"""The area-card description (reference §9.1): reading, validation with specific errors, the
one-word notation, rotations, and the catalogue files (the user's and the synthetic one)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.core.errors import GameDataError
from engine.elcaballero.cards import CardError, card_from_mapping, card_from_text
from engine.elcaballero.catalogue import SYNTHETIC_FILE, load_catalogue, load_synthetic

BRIDGE = {
    "id": "EC-A17",
    "count": 1,
    "edges": "LSLS",
    "regions": [
        {"type": "land", "edges": ["N", "S"], "gold": 1},
        {"type": "sea", "edges": ["E"], "fish": 0},
        {"type": "sea", "edges": ["W"], "fish": 1},
    ],
}


def test_the_reference_example_entry_reads() -> None:
    card = card_from_mapping(BRIDGE)
    assert card.id == "EC-A17" and card.edges == "LSLS"
    assert card.gold() == 1 and card.fish() == 1
    assert card.text == "LNSg1+SE+SWf1"
    assert not card.start_ok


def test_text_and_table_forms_agree() -> None:
    assert card_from_text("LNSg1+SE+SWf1").to_json() == {
        k: v for k, v in BRIDGE.items() if k not in ("id", "count")
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("LN+SES", "edge W belongs to no region"),
        ("LNS+SSEW", "edge S belongs to more than one region"),
        ("LNS+SEW", "would cross"),
        ("LNf1+SESW", "gold (gN) on land"),
        ("LN+SESWg1", "fish (fN) on sea"),
        ("LNN+SESW", "listed twice"),
        ("XN+SESW", "starts with L (land) or S (sea)"),
        ("", "not a card description"),
    ],
)
def test_bad_descriptions_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(CardError, match=re.escape(message)):
        card_from_text(text)


def test_a_table_entry_with_edges_contradicting_its_regions_is_refused() -> None:
    with pytest.raises(CardError, match="edge E is land in edges but its region is sea"):
        card_from_mapping({**BRIDGE, "edges": "LLLS"})


def test_fish_on_land_in_a_table_entry_is_refused() -> None:
    bad = {"regions": [{"type": "land", "edges": ["N", "E", "S", "W"], "fish": 1}]}
    with pytest.raises(CardError, match="fish only on a sea region"):
        card_from_mapping(bad)


def test_closed_regions_and_start_cards() -> None:
    islet = card_from_text("SNESW+Lg1")
    assert islet.regions[1].edge_mask == 0 and islet.edges == "SSSS"
    ring = card_from_text("LNESW+S")
    assert ring.start_ok  # land, no gold, no fish
    assert not card_from_text("SNESW").start_ok  # EC-4: the start card shows land


def test_a_card_is_the_same_card_in_every_rotation() -> None:
    corner = card_from_text("LNE+SSW")
    assert corner.same_card(card_from_text("LES+SNW"))
    assert not corner.same_card(card_from_text("LN+LE+SSW"))


def test_the_synthetic_catalogue_says_it_is_not_the_real_cards() -> None:
    catalogue = load_synthetic()
    assert catalogue.synthetic and catalogue.total == 48
    assert "not the real cards" in catalogue.label
    assert "NOT-THE-REAL-CARDS" in SYNTHETIC_FILE.name
    assert "NOT THE REAL CARDS" in SYNTHETIC_FILE.read_text(encoding="utf-8")
    assert any(card.start_ok for card in catalogue.cards.values())
    assert len(catalogue.deck()) == 48


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "el-caballero-cards.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_user_catalogue_must_hold_48_cards(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        '[[card]]\nid = "A"\ncount = 47\nregions = [{type = "land", edges = ["N","E","S","W"]}]\n',
    )
    with pytest.raises(GameDataError, match="add up to 47 cards, not the 48"):
        load_catalogue(path)


def test_a_user_catalogue_names_the_bad_entry(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        '[[card]]\nid = "A"\ncount = 47\nregions = [{type = "land", edges = ["N","E","S","W"]}]\n'
        '[[card]]\nid = "B7"\nregions = [{type = "land", edges = ["N"]}]\n',
    )
    with pytest.raises(GameDataError, match=r"card #2 \(B7\): edge E belongs to no region"):
        load_catalogue(path)


def test_a_user_catalogue_needs_a_start_card(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        '[[card]]\nid = "A"\ncount = 48\nregions = [{type = "sea", edges = ["N","E","S","W"]}]\n',
    )
    with pytest.raises(GameDataError, match="no card can be the start card"):
        load_catalogue(path)


def test_a_user_catalogue_loads(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        'label = "my box"\n[[card]]\nid = "A"\ncount = 40\n'
        'regions = [{type = "land", edges = ["N","E","S","W"]}]\n'
        '[[card]]\nid = "B"\ncount = 8\nedges = "LSSS"\n'
        'regions = [{type = "land", edges = ["N"], gold = 1}, '
        '{type = "sea", edges = ["E","S","W"], fish = 2}]\n',
    )
    catalogue = load_catalogue(path)
    assert not catalogue.synthetic and catalogue.label == "my box" and catalogue.total == 48
    assert catalogue.cards["B"].text == "LNg1+SESWf2"
