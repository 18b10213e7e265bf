"""A catalogue file at the table (issue 23, "a real box can be played"): a refused file names
the line and the problem; the file's set is kept in the game's options, so that its record
replays (and a saved game restarts) without the file; in table mode each card turned up is
counted against the catalogue, and dealer mode deals exactly the file's set."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine import registry
from engine.core import record as core_record
from engine.core.actions import Action
from engine.core.errors import IllegalAction, OptionsError
from engine.core.protocol import CHANCE
from engine.elcaballero.cards import (
    CARD_PREFIX,
    CARD_TEMPLATES,
    CardDesc,
    CardError,
    card_from_mapping,
)
from engine.elcaballero.catalogue import (
    PREFIX,
    TEMPLATES,
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
    assert game.state.catalogue is not None and game.state.catalogue.label == "Our box"
    # the start card dealt, the rest face down: the file's 48 cards
    start = [a.arg for p, a in game.history if p == CHANCE]
    assert Counter(game.state.pile) + Counter(start) == Counter(ISLAND=40, CORNER=7, STRAIT=1)
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


# ------------------------------------------------- each refusal a translation key (issue 23)
BUNDLES = Path(__file__).resolve().parents[3] / "host" / "games" / "elcaballero" / "static"
LANGS = ("en", "cs", "pl", "uk")
PLACEHOLDER = re.compile(r"\{(\w+)")  # a plural form's count is its first word: {n, plural, ...}
LAND_ALL = {"type": "land", "edges": ["N", "E", "S", "W"]}
SEA_ALL = {"type": "sea", "edges": ["N", "E", "S", "W"]}
# every kind of CardError: a description that is refused by it
BAD_CARDS: list[tuple[str, Any]] = [
    ("edge_unowned", {"regions": [{"type": "land", "edges": ["N", "E", "S"]}]}),
    ("edge_shared", "LNESW+SN"),
    ("gold_range", "LNESWg10"),
    ("gold_range_closed", "LNESW+Lg10"),
    ("fish_range", "SNESWf10"),
    ("fish_range_closed", "SNESW+Sf10"),
    ("cross_land_land", "LNS+LEW"),
    ("cross_land_sea", "LNS+SEW"),
    ("cross_sea_land", "SNS+LEW"),
    ("cross_sea_sea", "SNS+SEW"),
    ("not_text", ""),
    ("region_kind", "XNESW"),
    ("edge_twice_text", "LNNESW"),
    ("after_edges_land", "LNESWf1"),
    ("after_edges_sea", "SNESWg1"),
    ("not_table", 5),
    ("unknown_fields", {"regions": [LAND_ALL], "colour": "red", "art": 1}),
    ("id_text", {"id": 5, "regions": [LAND_ALL]}),
    ("count_whole", {"count": True, "regions": [LAND_ALL]}),
    ("regions_list", {"regions": []}),
    ("edges_letters", {"edges": "LLLX", "regions": [LAND_ALL]}),
    ("edge_land_region_sea", {"edges": "LSSS", "regions": [SEA_ALL]}),
    ("edge_sea_region_land", {"edges": "LLSL", "regions": [LAND_ALL]}),
    ("region_table", {"regions": ["LNESW"]}),
    ("region_type", {"regions": [{"type": "lava", "edges": ["N"]}]}),
    ("region_gold_on_sea", {"regions": [{**SEA_ALL, "gold": 1}]}),
    ("region_fish_on_land", {"regions": [{**LAND_ALL, "fish": 1}]}),
    ("region_unknown_field", {"regions": [{**LAND_ALL, "colour": "red"}]}),
    ("region_edges_list", {"regions": [{"type": "land", "edges": "NESW"}]}),
    ("region_edge_twice", {"regions": [{"type": "land", "edges": ["N", "N"]}]}),
    ("region_gold_whole", {"regions": [{**LAND_ALL, "gold": "1"}]}),
    ("region_fish_whole", {"regions": [{**SEA_ALL, "fish": 1.5}]}),
]
SEA_ONLY = (
    '[[card]]\nid = "SEA"\ncount = 48\nregions = [{ type = "sea", edges = ["N", "E", "S", "W"] }]\n'
)
# every kind of CatalogueError: (the text of the file, or a special file; the key; its params
# and the nested problem's key, if any)
BAD_FILES: list[tuple[str, str, dict[str, Any], str]] = [
    ('[[cards]]\nid = "X"\n' + GOOD, "unknown_key", {"key": "'cards'"}, ""),
    ('label = ""\n' + GOOD.replace('label = "Our box"', ""), "label", {"max": 80}, ""),
    ("synthetic = 1\n" + GOOD, "synthetic", {}, ""),
    ('label = "Empty"\n', "no_cards", {}, ""),
    (GOOD.replace('id = "STRAIT"\n', ""), "card", {"n": 3}, "ec.catalogue.id_missing"),
    (
        GOOD.replace("count = 7", "count = 0"),
        "card_id",
        {"n": 2, "id": "CORNER"},
        "ec.card.count_whole",
    ),
    (GOOD.replace('"STRAIT"', '"' + "S" * 41 + '"'), "card_id", {"n": 3}, "ec.catalogue.id_long"),
    (GOOD.replace('"STRAIT"', '"THE STRAIT"'), "card_id", {"n": 3}, "ec.catalogue.id_space"),
    (GOOD.replace('"STRAIT"', '"ISLAND"'), "card_id", {"n": 3}, "ec.catalogue.id_twice"),
    (GOOD.replace("count = 40", "count = 41"), "total", {"total": 49, "expected": 48}, ""),
    (SEA_ONLY, "no_start", {}, ""),
    ("a = " + "[" * 40 + "]" * 40 + "\n", "too_deep", {"max": 32}, ""),
    ("a" + ".b" * 40 + " = 1\n", "key_parts", {"max": 32}, ""),
    (GOOD.replace("count = 7", "count = seven"), "not_toml", {}, ""),
    ("<missing>", "unreadable", {}, ""),
    ("<folder>", "not_regular", {}, ""),
    ("<big>", "too_big", {"mib": 1}, ""),
    ("<latin-1>", "not_utf8", {}, ""),
]


FILE_RULES = (
    "unreadable",
    "not_regular",
    "too_big",
    "not_utf8",
    "too_deep",
    "key_parts",
    "not_toml",
)


def bundle(lang: str) -> dict[str, str]:
    texts: dict[str, str] = json.loads((BUNDLES / "i18n" / lang / "ui.json").read_text("utf-8"))
    return texts


def worded(key: str, params: dict[str, Any], lang: str = "en") -> str:
    """A refusal as a page words it (the count of a plural form as the bare number is enough
    here: the bundles' English has none): nested problems first."""
    text = bundle(lang)[key]
    for name, value in params.items():
        if name.endswith("_key"):
            continue
        if f"{name}_key" in params:
            value = worded(params[f"{name}_key"], params[f"{name}_params"], lang)
        text = text.replace("{" + name + "}", str(value))
    return text


@pytest.mark.parametrize(("name", "description"), BAD_CARDS, ids=[n for n, _ in BAD_CARDS])
def test_each_card_error_has_its_key_and_parameters(name: str, description: Any) -> None:
    with pytest.raises(CardError) as refused:
        card_from_mapping(description)
    error = refused.value
    assert error.key == CARD_PREFIX + name, str(error)
    # its English is its template filled from its parameters: the key says all the text does
    assert PLACEHOLDER.findall(CARD_TEMPLATES[name]) == list(error.params)
    assert str(error) == CARD_TEMPLATES[name].format(**error.params)
    assert worded(error.key, error.params) == str(error)  # the English bundle: the same words


def test_every_card_error_kind_is_covered() -> None:
    with pytest.raises(CardError) as refused:
        CardDesc([])
    assert refused.value.key == "ec.card.no_region" and not refused.value.params
    assert {name for name, _ in BAD_CARDS} | {"no_region"} == set(CARD_TEMPLATES)
    assert {key for _, key, _, _ in BAD_FILES} == set(TEMPLATES) - {"id_missing", "id_long"} - {
        "id_space",
        "id_twice",
    }


def special_file(tmp_path: Path, kind: str) -> Path:
    if kind == "<missing>":
        return tmp_path / "missing.toml"
    if kind == "<folder>":
        (tmp_path / "folder.toml").mkdir()
        return tmp_path / "folder.toml"
    if kind == "<big>":
        return write(tmp_path, "# " + "x" * (1 << 20) + "\n" + GOOD)
    path = tmp_path / "cards.toml"
    path.write_bytes('label = "Caf\u00e9"\n'.encode("latin-1") + GOOD.encode())
    return path


@pytest.mark.parametrize(
    ("text", "name", "params", "nested"), BAD_FILES, ids=[f[1] + ":" + f[3] for f in BAD_FILES]
)
def test_each_catalogue_error_has_its_key_and_parameters(
    tmp_path: Path, text: str, name: str, params: dict[str, Any], nested: str
) -> None:
    path = special_file(tmp_path, text) if text.startswith("<") else write(tmp_path, text)
    with pytest.raises(CatalogueError) as refused:
        load_catalogue(path, source="cards.toml")
    error = refused.value
    assert error.key == PREFIX + name, str(error)
    assert params.items() <= error.params.items(), error.params
    assert error.params.get("problem_key", "") == nested
    for key in {error.key, nested} - {""}:
        for lang in LANGS:  # worded in every language (its placeholders: the last test)
            assert key in bundle(lang), (lang, key)
    if nested:  # a card's problem: the card named, its own problem nested with its parameters
        assert error.problem == str(error).split(": ", 1)[1]
        assert error.params["problem"] in error.problem
        assert worded(error.key, error.params) == error.problem
        for lang in ("cs", "pl", "uk"):  # no English sentence in the translated words
            assert error.params["problem"] not in worded(error.key, error.params, lang)
    if name not in FILE_RULES:  # the rules' own English stays the CLI's; the bundle words it
        assert worded(error.key, error.params) == error.problem


def test_the_bundles_word_every_key_with_its_placeholders() -> None:
    """The engine's English templates are the English bundle's; each language has every key
    with the same placeholders (a plural form counts as its number)."""
    english = {CARD_PREFIX + k: v for k, v in CARD_TEMPLATES.items()}
    english |= {PREFIX + k: v for k, v in TEMPLATES.items()}
    for lang in LANGS:
        words = bundle(lang)
        for key, template in english.items():
            assert key in words, (lang, key)
            assert set(PLACEHOLDER.findall(words[key])) == set(PLACEHOLDER.findall(template)), (
                lang,
                key,
            )
            if lang == "en":
                assert words[key] == template, key
            else:
                assert words[key] != template, (lang, key)  # translated, not copied
