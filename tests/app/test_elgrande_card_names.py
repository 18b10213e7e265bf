"""Every El Grande card has a name in every language the UI speaks (issue 23, "Every game").

The plugin names cards from the game data it fetches (`GET /api/gamedata`, words.js `card()`);
the card ids come from the engine's data files, so a card added without its cs/pl/uk name fails
here rather than showing an English id on a phone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.elgrande import data as gamedata
from host.games.elgrande.gamedata import gamedata_json

BUNDLES = Path(__file__).resolve().parents[2] / "host" / "games" / "elgrande" / "static" / "i18n"
LANGUAGES = sorted(p.name for p in BUNDLES.iterdir() if p.is_dir())


def test_the_plugin_speaks_the_four_languages() -> None:
    assert LANGUAGES == ["cs", "en", "pl", "uk"]


@pytest.mark.parametrize("edition", gamedata.EDITIONS)
def test_every_card_of_an_edition_is_named_in_every_language(edition: str) -> None:
    data = gamedata.load(edition)
    served = gamedata_json(edition)
    ids = {"cards": set(data.cards), "modifiers": set(data.grey_cards)}
    assert ids["cards"], edition
    if edition == "2023":  # the alternative cards and Power Shift's grey cards are in the data
        assert any(c.alternative for c in data.cards.values())
        assert ids["modifiers"]
    missing = [
        f"{group} {card_id} {lang}"
        for group, wanted in ids.items()
        for card_id in sorted(wanted)
        for lang in LANGUAGES
        if not str(served[group].get(card_id, {}).get("names", {}).get(lang, "")).strip()
    ]
    assert missing == [], f"cards without a name in the served game data: {missing}"


def test_the_older_card_set_is_named_too() -> None:
    """Records of game version 1 replay with the v1 card set; the served game data names its
    cards too (Purge, `disc-return-all`, is in no current deck)."""
    served = gamedata_json("2023")
    named = {**served["cards"], **served["older_cards"]}
    data = gamedata.load("2023", card_set="v1")
    assert set(data.cards) - set(served["cards"]), "v1 has a card the current set lacks"
    missing = [
        f"{card_id} {lang}"
        for card_id in sorted(data.cards)
        for lang in LANGUAGES
        if not str(named.get(card_id, {}).get("names", {}).get(lang, "")).strip()
    ]
    assert missing == []
