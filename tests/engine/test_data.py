"""The El Grande data files: both editions load, deck compositions, the board, the confidence
flags, and override files (a user's corrections without touching code)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from engine.core.errors import GameDataError
from engine.elgrande import data as gamedata
from engine.elgrande.data import load
from engine.elgrande.game import Game, Options
from engine.elgrande.position import score_position


def _deck_sizes(data: gamedata.GameData, *, base_only: bool) -> dict[int, int]:
    sizes: dict[int, int] = {}
    for card in data.cards.values():
        if base_only and (card.alternative or getattr(card, "regency", False)):
            continue
        sizes[card.deck] = sizes.get(card.deck, 0) + card.copies
    return dict(sorted(sizes.items()))


@pytest.mark.parametrize("edition", ["2023", "1995"])
def test_both_editions_load(edition: str) -> None:
    data = load(edition)
    assert data.edition == edition
    assert len(data.regions) == 9
    assert data.castillo_values == (5, 3, 1)
    assert data.power_caballeros == (6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0)
    assert [t.values for t in data.tiles] == [(8, 4, 0), (4, 0, 0)]
    assert (data.rounds, data.scoring_after) == (9, (3, 6, 9))


def test_1995_has_45_action_cards_with_2_vetoes() -> None:
    data = load("1995")
    assert _deck_sizes(data, base_only=False) == {1: 11, 2: 11, 3: 11, 4: 11, 5: 1}
    assert sum(card.copies for card in data.cards.values()) == 45
    vetoes = [c for c in data.cards.values() if any(s["op"] == "veto" for s in c.effect)]
    assert [(c.deck, c.copies) for c in vetoes] == [(2, 2)]
    assert data.caballeros_per_colour == 31
    # Caballeros placed = the deck number in 1995.
    assert all(card.place == card.deck for card in data.cards.values())


def test_2023_decks_1_to_4_have_10_base_cards_and_one_king_card() -> None:
    data = load("2023")
    sizes = _deck_sizes(data, base_only=True)
    assert sizes == {1: 10, 2: 10, 3: 10, 4: 10, 5: 1}
    king_cards = [
        c for c in data.cards.values() if c.king_card and not getattr(c, "regency", False)
    ]
    assert [(c.id, c.deck, c.place) for c in king_cards] == [("your-majesty", 5, 5)]
    assert data.caballeros_per_colour == 30


@pytest.mark.parametrize("edition", ["2023", "1995"])
def test_adjacency_is_symmetric_and_never_self(edition: str) -> None:
    regions = load(edition).regions
    for region in regions:
        assert region.index not in region.neighbours
        for other in region.neighbours:
            assert region.index in regions[other].neighbours, (region.name, other)


def test_rulebook_facts_about_the_board() -> None:
    data = load("2023")

    def names(indices: tuple[int, ...]) -> set[str]:
        return {data.regions[i].name for i in indices}

    assert names(data.region("Castilla").neighbours) == {"Galicia", "Navarra", "Aragón", "Toledo"}
    assert {"Valencia", "Granada"} <= names(data.region("Toledo").neighbours)
    printed = {r.name: r.values for r in data.regions}
    assert printed["Galicia"] == (4, 2, 0) and printed["Navarra"] == (5, 3, 1)
    assert printed["Sevilla"] == (4, 3, 1) and printed["Granada"] == (6, 3, 1)
    by_first = {r.name for r in data.regions if r.values[0] == 5}
    assert by_first == {"Aragón", "Navarra", "Valencia"}  # the Fiesta example
    assert {r.name for r in data.regions if r.values[0] == 4} == {"Galicia", "Cataluña", "Sevilla"}
    assert data.region("País Vasco").name == "Navarra"
    assert data.region("castilla la nueva").name == "Toledo"
    assert data.region("CATALUNA").name == "Cataluña"


@pytest.mark.parametrize("edition", ["2023", "1995"])
def test_every_scale_is_non_increasing(edition: str) -> None:
    # The monotonicity property of scoring relies on it (test_scoring_properties).
    data = load(edition)
    scales = [data.castillo_values, *(t.values for t in data.tiles)]
    scales += [r.values for r in data.regions] + [r.values_2_3_players for r in data.regions]
    for scale in scales:
        assert list(scale) == sorted(scale, reverse=True)
    assert all(len(r.values_2_3_players) == 2 for r in data.regions)


def test_every_low_confidence_value_is_flagged() -> None:
    # The L values of el-grande-data.md: the scoring order, borders, the 2-3 player side,
    # 2023 deck membership (except Fiesta, the King card and the alternative cards, whose decks
    # 1, 2, 2 and 4 the set-up example prints), copies, 1995 stand-ins, and the fourth
    # alternative card, whose face no rulebook shows.
    data = load("2023")
    assert "scoring_order" in data.unverified["board"]
    for region in data.regions:
        assert "values_2_3_players" in region.unverified, region.name
        if region.borders:
            assert "borders" in region.unverified, region.name
    for card in data.cards.values():
        if 1 <= card.deck <= 4 and card.id != "fiesta" and not card.alternative:
            assert "deck" in card.unverified, card.id
        if card.copies > 1:
            assert "copies" in card.unverified, card.id
        if card.source:
            assert "source" in card.unverified, card.id
    assert {"names", "text", "effect"} <= set(data.cards["veto-2"].unverified)


@pytest.mark.parametrize("edition", ["2023", "1995"])
def test_flags_name_real_fields(edition: str) -> None:
    data = load(edition)
    region_fields = {f.name for f in dataclasses.fields(gamedata.Region)}
    card_fields = {f.name for f in dataclasses.fields(gamedata.Card)}
    for region in data.regions:
        assert set(region.unverified) <= region_fields, region.name
    for card in data.cards.values():
        assert set(card.unverified) <= card_fields, card.id


# --------------------------------------------------------------------------- override files
OVERRIDE = """
[[region]]
name = "Toledo"
values = [8, 4, 2]

[[card]]
id = "census"
deck = 3
place = 3
names = { en = "Census" }
text = "Score every region."
effect = [{ op = "score", select = "all" }]
"""


def test_an_override_changes_a_value_and_adds_a_card(tmp_path: Path) -> None:
    path = tmp_path / "my-copy.toml"
    path.write_text(OVERRIDE, encoding="utf-8")
    data = load("2023", [path])
    assert data.region("Toledo").values == (8, 4, 2)
    assert data.region("Toledo").values_2_3_players == (7, 4)  # untouched fields stay
    assert data.cards["census"].name() == "Census"
    assert "census" in data.deck_cards(3)
    assert load("2023").region("Toledo").values == (7, 4, 2)  # the shipped data is unchanged
    game = Game(Options(), data)  # override files reach a game only as loaded data
    assert game.state.values_of(game.state.area("Toledo")) == (8, 4, 2)
    scored = score_position(
        {
            "players": ["purple", "green", "blue", "orange"],
            "king": "Galicia",
            "regions": {"Toledo": {"blue": 1}},
            "scoring": "census",
        },
        overrides=[path],
    )
    assert len(scored["areas"]) == 9 and scored["totals"]["blue"] == 8


MALFORMED = {
    "toml-syntax": ("[[region]\nname = ", "my.toml"),
    "unknown-op": (
        '[[card]]\nid = "x"\ndeck = 3\nplace = 3\neffect = [{ op = "teleport" }]',
        "card x: unknown effect step",
    ),
    "op-key": (
        '[[card]]\nid = "x"\ndeck = 3\nplace = 3\n'
        'effect = [{ op = "score", select = "all", n = 1 }]',
        "card x: op 'score' takes no ['n']",
    ),
    "deck-range": ('[[card]]\nid = "x"\ndeck = 7\nplace = 3', "card x: deck must be 1..5"),
    "asymmetric": (
        '[[region]]\nname = "Sevilla"\nneighbours = ["Toledo", "Granada", "Galicia"]',
        "adjacency is not symmetric: Sevilla lists Galicia",
    ),
    "unknown-neighbour": (
        '[[region]]\nname = "Sevilla"\nneighbours = ["Atlantis"]',
        "region Sevilla: unknown neighbour 'Atlantis'",
    ),
    "values-text": ('[[region]]\nname = "Toledo"\nvalues = [7, "4", 2]', "region Toledo.values"),
    "castillo-values": ("[castillo]\nvalues = 5", "castillo.values"),
    "new-region": ('[[region]]\nname = "Atlantis"\nvalues = [1]', "scoring_order"),
    "border": ('[[region]]\nname = "Toledo"\nborders = ["Andorra"]', "unknown border 'Andorra'"),
    "tile-values": ('[[tile]]\nid = "2-1-0"', "'values'"),
    "place-text": ('[[card]]\nid = "x"\ndeck = 3\nplace = "three"', "card x: place must be"),
    "no-deck": ('[[card]]\nid = "x"\nplace = 3', "card x: deck must be 1..5"),
    "copies-text": ('[[card]]\nid = "x"\ndeck = 3\nplace = 3\ncopies = "two"', "malformed"),
    "region-not-array": ("region = 5", "my.toml: region, card, tile and grey sections must be"),
    "card-not-table": ("card = [5]", "my.toml: region, card, tile and grey sections must be"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_override_gives_a_clear_error(case: str, tmp_path: Path) -> None:
    text, expected = MALFORMED[case]
    path = tmp_path / "my.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(GameDataError) as caught:
        load("2023", [path])
    assert expected in str(caught.value)


def test_missing_override_file_and_unknown_edition(tmp_path: Path) -> None:
    with pytest.raises(GameDataError, match="no such data file"):
        load("2023", [tmp_path / "absent.toml"])
    with pytest.raises(GameDataError, match="unknown edition '2000'"):
        load("2000")
