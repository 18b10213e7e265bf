"""A catalogue file at the table (issue 23, "a real box can be played"): a refused file names
the line and the problem; the file's set is kept in the game's options, so that its record
replays (and a saved game restarts) without the file; in table mode each card turned up is
counted against the catalogue, and dealer mode deals exactly the file's set."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from engine import registry
from engine.core import record as core_record
from engine.core.actions import Action
from engine.core.errors import IllegalAction, OptionsError
from engine.core.protocol import CHANCE
from engine.elcaballero.catalogue import (
    CatalogueError,
    from_entries,
    load_catalogue,
    load_synthetic,
    parse_catalogue,
    to_entries,
)
from engine.elcaballero.spec import SPEC

# a set of our own: 40 plain islands, 7 corners with gold and fish, 1 strait
GOOD = """\
label = "Our box"

[[card]]
id = "ISLAND"
count = 40
regions = [{ type = "land", edges = ["N", "E", "S", "W"] }]

[[card]]
id = "CORNER"
count = 7
edges = "LSSS"
regions = [
  { type = "land", edges = ["N"], gold = 1 },
  { type = "sea", edges = ["E", "S", "W"], fish = 2 },
]

[[card]]
id = "STRAIT"
count = 1
regions = [
  { type = "land", edges = ["N"] },
  { type = "sea", edges = ["E", "W"] },
  { type = "land", edges = ["S"] },
]
"""


def write(tmp_path: Path, text: str, name: str = "cards.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def refusal(tmp_path: Path, text: str) -> CatalogueError:
    with pytest.raises(CatalogueError) as refused:
        load_catalogue(write(tmp_path, text), source="cards.toml")
    return refused.value


def line_of(text: str, needle: str, nth: int = 0) -> int:
    """The 1-based number of the nth line of `text` containing `needle`."""
    found = [n + 1 for n, line in enumerate(text.splitlines()) if needle in line]
    return found[nth]


def test_a_good_file_loads() -> None:
    catalogue = parse_catalogue(GOOD, "cards.toml")
    assert catalogue.label == "Our box" and catalogue.total == 48 and not catalogue.synthetic
    assert catalogue.cards["STRAIT"].text == "LN+SEW+LS"


@pytest.mark.parametrize(
    ("old", "new", "needle", "nth", "problem"),
    [
        # a field of a card: the line of that field
        ("count = 7", "count = 0", "count = 0", 0, "card #2 (CORNER): count must be"),
        ('edges = "LSSS"', 'edges = "LSSL"', 'edges = "LSSL"', 0, "edge W is land in edges"),
        # a region: the line of its inline table
        ("fish = 2 }", "fish = 2, gold = 1 }", "fish = 2, gold = 1", 0, "regions[1]: gold only"),
        # a card's edges: its regions
        ('{ type = "land", edges = ["S"] },', "", "regions", 2, "edge S belongs to no region"),
        # an id used twice: the second card's id
        ('id = "STRAIT"', 'id = "ISLAND"', 'id = "ISLAND"', 1, "the id 'ISLAND' is used twice"),
        ('id = "STRAIT"', 'id = "THE STRAIT"', "THE STRAIT", 0, "has a space"),
        # a key of no catalogue: its line
        ('label = "Our box"', '[[cards]]\nid = "X"', "[[cards]]", 0, "unknown key 'cards'"),
        # not TOML: the parser's line
        ('label = "Our box"', 'label = "Our box', 'label = "Our box', 0, "not TOML"),
    ],
)
def test_a_refused_file_names_the_line_and_the_problem(
    tmp_path: Path, old: str, new: str, needle: str, nth: int, problem: str
) -> None:
    assert old in GOOD
    text = GOOD.replace(old, new)
    refused = refusal(tmp_path, text)
    assert refused.line == line_of(text, needle, nth), (str(refused), text)
    assert problem in refused.problem, refused.problem
    assert str(refused).startswith(f"cards.toml, line {refused.line}: ")


def test_a_problem_of_the_whole_file_names_no_line(tmp_path: Path) -> None:
    refused = refusal(tmp_path, GOOD.replace("count = 40", "count = 41"))
    assert refused.line == 0 and "add up to 49 cards, not the 48" in str(refused)
    assert str(refused).startswith("cards.toml: ")


def test_a_special_file_is_refused_unread(tmp_path: Path) -> None:
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    with pytest.raises(CatalogueError, match=r"cards\.toml: the file is a directory"):
        load_catalogue(folder, source="cards.toml")
    big = write(tmp_path, "# " + "x" * (1 << 20) + "\n" + GOOD, "big.toml")
    with pytest.raises(CatalogueError, match="larger than 1 MiB"):
        load_catalogue(big)


def file_options(tmp_path: Path, **extra: object) -> dict[str, object]:
    catalogue = load_catalogue(write(tmp_path, GOOD))
    return {
        "players": ["red", "blue"],
        "catalogue": "cards.toml",
        "catalogue_label": catalogue.label,
        "catalogue_cards": list(to_entries(catalogue)),
        **extra,
    }


def play(game: object, rng: random.Random) -> None:
    from engine.elcaballero.game import Game

    assert isinstance(game, Game)
    while not game.is_terminal():
        player = game.current_players()[0]
        game.apply(rng.choice(game.legal_actions(player)), player)


def test_a_dealer_game_deals_the_files_set_and_its_record_replays_without_the_file(
    tmp_path: Path,
) -> None:
    game = SPEC.new_state(SPEC.options_from_json(file_options(tmp_path, mode="dealer", seed=9)))
    assert game.catalogue is not None and game.catalogue.label == "Our box"
    # the start card dealt, the rest face down: the file's 48 cards
    start = [a.arg for p, a in game.history if p == CHANCE]
    assert Counter(game.pile) + Counter(start) == Counter(ISLAND=40, CORNER=7, STRAIT=1)
    play(game, random.Random(2))
    dealt = Counter(a.arg for p, a in game.history if p == CHANCE)
    assert set(dealt) <= {"ISLAND", "CORNER", "STRAIT"} and sum(dealt.values()) > 15
    assert dealt["CORNER"] <= 7 and dealt["STRAIT"] <= 1
    record = core_record.to_record(SPEC, game)
    (tmp_path / "cards.toml").unlink()  # the record alone
    _, replayed = registry.replay(record)
    assert replayed.returns() == game.returns() and replayed.is_terminal()
    assert replayed.options == game.options


def test_a_table_game_counts_each_card_against_the_catalogue(tmp_path: Path) -> None:
    game = SPEC.new_state(SPEC.options_from_json(file_options(tmp_path)))
    # the start card: only the ones that may be it (land, no gold, no fish)
    assert [str(a) for a in game.legal_actions(CHANCE)] == ["start ISLAND", "start STRAIT"]
    game.apply(Action("start", "ISLAND"), CHANCE)
    assert sorted(str(a) for a in game.legal_actions(CHANCE)) == [
        "reveal CORNER",
        "reveal ISLAND",
        "reveal STRAIT",
    ]
    game.apply(Action("reveal", "STRAIT"), CHANCE)  # the only copy: no longer offered
    assert "reveal STRAIT" not in [str(a) for a in game.legal_actions(CHANCE)]
    with pytest.raises(IllegalAction) as refused:
        game.apply(Action("reveal", "STRAIT"), CHANCE)
    assert refused.value.key == "elcaballero.refuse.no_copy_left"
    assert refused.value.params == {"card": "STRAIT"}
    with pytest.raises(IllegalAction) as unknown:
        game.apply(Action("reveal", "SYN-SEA"), CHANCE)
    assert unknown.value.key == "elcaballero.refuse.not_in_catalogue"
    play(game, random.Random(4))
    record = core_record.to_record(SPEC, game)
    assert record["options"]["catalogue"] == "cards.toml"
    _, replayed = registry.replay(record)
    assert replayed.returns() == game.returns()


def test_the_options_keep_a_files_set_only_with_its_name(tmp_path: Path) -> None:
    good = file_options(tmp_path)
    short = list(to_entries(parse_catalogue(GOOD, "cards.toml")))[:-1]  # 47 cards
    for bad, field in (
        ({**good, "catalogue": "synthetic"}, "catalogue_cards"),
        ({**good, "catalogue": ""}, "catalogue_cards"),
        ({**good, "catalogue_cards": []}, "catalogue_cards"),
        ({**good, "catalogue": "../../etc/passwd"}, "catalogue"),
        ({**good, "catalogue": ".hidden.toml"}, "catalogue"),
        ({**good, "catalogue_cards": short}, "catalogue_cards"),
        ({**good, "catalogue_cards": ["ISLAND 48 LN+SE"]}, "catalogue_cards"),
        ({**good, "catalogue_cards": ["ISLAND forty LNESW"]}, "catalogue_cards"),
        ({**good, "catalogue_cards": [f"C{n} 1 LNESW" for n in range(49)]}, "catalogue_cards"),
        ({**good, "catalogue_cards": ["ISLAND 48 LNESW<b>"]}, "catalogue_cards"),
        ({**good, "catalogue_cards": ["ISLAND 48 LNESWg\u0661"]}, "catalogue_cards"),
    ):
        with pytest.raises(OptionsError) as refused:
            SPEC.options_from_json(bad)
        assert list(refused.value.errors) == [field], refused.value.errors


def test_old_records_without_a_file_set_still_replay() -> None:
    options = SPEC.options_from_json(
        {"players": ["red", "blue"], "mode": "dealer", "seed": 5, "catalogue": "synthetic"}
    )
    game = SPEC.new_state(options)
    play(game, random.Random(1))
    record = core_record.to_record(SPEC, game)
    for field in ("catalogue_label", "catalogue_cards"):  # a record made before them
        del record["options"][field]
    _, replayed = registry.replay(record)
    assert replayed.returns() == game.returns()


def test_the_entries_round_trip_every_card_of_the_synthetic_set() -> None:
    synthetic = load_synthetic()
    again = from_entries("again", to_entries(synthetic))
    assert again.deck() == synthetic.deck()
    assert [c.text for c in again.cards.values()] == [c.text for c in synthetic.cards.values()]
