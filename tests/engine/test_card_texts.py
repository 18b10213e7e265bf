"""Every El Grande card speaks every UI language: a name and an effect text in en, cs, pl and uk
for each action card (both editions, every card set, alternatives, New Regency) and each Power
Shift modifier; a translation is never the English text left in place."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.core.errors import GameDataError
from engine.elgrande import data as gamedata

LANGUAGES = ("en", "cs", "pl", "uk")
# The same word in every language: a proper noun or a loanword the rulebooks print unchanged.
SAME_WORD_NAMES = frozenset({"Veto", "Fiesta", "Exodus"})

CARD_SETS = [("2023", ""), ("1995", ""), *((edition, cs) for edition, cs in gamedata.CARD_SETS)]


def _cards(edition: str, card_set: str) -> Iterator[gamedata.Card | gamedata.GreyCard]:
    data = gamedata.load(edition, card_set=card_set)
    yield from data.cards.values()
    yield from data.grey_cards.values()


@pytest.mark.parametrize(("edition", "card_set"), CARD_SETS)
def test_every_card_has_a_name_and_a_text_in_every_language(edition: str, card_set: str) -> None:
    missing = [
        f"{card.id}: {what}.{lang}"
        for card in _cards(edition, card_set)
        for lang in LANGUAGES
        for what, value in (("name", card.names.get(lang)), ("text", card.texts.get(lang)))
        if not value or not value.strip()
    ]
    assert missing == []


@pytest.mark.parametrize(("edition", "card_set"), CARD_SETS)
def test_no_translation_is_the_english_text(edition: str, card_set: str) -> None:
    copied = [
        f"{card.id}: {what}.{lang}"
        for card in _cards(edition, card_set)
        for lang in LANGUAGES[1:]
        for what, english, value in (
            ("text", card.text, card.texts.get(lang)),
            ("name", card.names["en"], card.names.get(lang)),
        )
        if value == english and not (what == "name" and english in SAME_WORD_NAMES)
    ]
    assert copied == []


@pytest.mark.parametrize(("edition", "card_set"), CARD_SETS)
def test_every_choice_names_what_each_option_does(edition: str, card_set: str) -> None:
    for card in gamedata.load(edition, card_set=card_set).cards.values():
        options = [len(s["options"]) for s in card.effect if s["op"] == "either"]
        if not options:
            continue
        assert len(card.option_labels) == options[0], card.id
        for label in card.option_labels:
            assert all(label.get(lang, "").strip() for lang in LANGUAGES), (card.id, label)
            assert not any(label[lang] == label["en"] for lang in LANGUAGES[1:]), (card.id, label)


def test_an_override_with_some_languages_falls_back_to_english(tmp_path: Path) -> None:
    override = tmp_path / "cards.toml"
    override.write_text(
        '[[card]]\nid = "fair"\ntext = "Score any one region."\n'
        'texts = { cs = "Vyhodnoťte region." }\n',
        encoding="utf-8",
    )
    card = gamedata.load("2023", overrides=[override]).cards["fair"]
    assert card.text_in("cs") == "Vyhodnoťte region."
    assert card.text_in("pl") == "Score any one region."  # pl not given: English
    assert card.texts["en"] == "Score any one region."


def test_an_override_of_the_english_text_drops_the_old_translations(tmp_path: Path) -> None:
    override = tmp_path / "cards.toml"
    override.write_text('[[card]]\nid = "fair"\ntext = "Score two regions."\n', encoding="utf-8")
    card = gamedata.load("2023", overrides=[override]).cards["fair"]
    assert card.text_in("uk") == "Score two regions."


@pytest.mark.parametrize(
    "record",
    [
        'texts = { en = "Something else." }',
        "texts = { cs = 3 }",
        'option_labels = [{ en = "Only one" }]',
    ],
)
def test_bad_translations_are_refused(tmp_path: Path, record: str) -> None:
    override = tmp_path / "cards.toml"
    override.write_text(f'[[card]]\nid = "delegation"\n{record}\n', encoding="utf-8")
    with pytest.raises(GameDataError):
        gamedata.load("2023", overrides=[override])
