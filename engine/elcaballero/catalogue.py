"""A card catalogue: the whole set of area cards, typed in once by an owner of the game
(`[[card]]` tables in TOML, docs/elcaballero-cards.md), or the shipped SYNTHETIC set (not the
real cards) that dealer mode and the tests use.

>>> synthetic = load_synthetic()
>>> synthetic.synthetic, synthetic.total, synthetic.label.startswith("SYNTHETIC")
(True, 48, True)
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from engine.core import userfiles
from engine.core.errors import GameDataError
from engine.elcaballero.cards import CardDesc, CardError, card_from_mapping

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "elcaballero"
SYNTHETIC_FILE = DATA_DIR / "synthetic-cards-NOT-THE-REAL-CARDS.toml"
CARDS_IN_THE_BOX = 48


class Catalogue:
    """The cards of one set, by id, with their copies."""

    def __init__(self, cards: list[CardDesc], label: str, synthetic: bool) -> None:
        self.cards: dict[str, CardDesc] = {card.id: card for card in cards}
        self.label = label
        self.synthetic = synthetic
        self.total = sum(card.count for card in cards)

    def deck(self) -> list[str]:
        """Every card id once per copy, in catalogue order."""
        return [card.id for card in self.cards.values() for _ in range(card.count)]

    def get(self, card_id: str) -> CardDesc | None:
        return self.cards.get(card_id)

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "synthetic": self.synthetic,
            "cards": [{**card.to_json(), "count": card.count} for card in self.cards.values()],
        }


def catalogue_from_toml(
    raw: dict[str, Any], source: str, expected: int = CARDS_IN_THE_BOX
) -> Catalogue:
    """Check and build a catalogue; GameDataError names the file and the entry."""
    label = raw.get("label", source)
    synthetic = raw.get("synthetic", False)
    if not isinstance(label, str) or not isinstance(synthetic, bool):
        raise GameDataError(f"{source}: label must be text and synthetic true or false")
    entries = raw.get("card")
    if not isinstance(entries, list) or not entries:
        raise GameDataError(f"{source}: no cards (write each as a [[card]] table)")
    cards: list[CardDesc] = []
    seen: set[str] = set()
    for index, entry in enumerate(entries):
        where = f"{source}: card #{index + 1}"
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            where += f" ({entry['id']})"
        try:
            card = card_from_mapping(entry)
        except CardError as bad:
            raise GameDataError(f"{where}: {bad}") from None
        if not card.id:
            raise GameDataError(f"{where}: every catalogue card needs an id")
        if card.id in seen:
            raise GameDataError(f"{where}: the id {card.id!r} is used twice")
        seen.add(card.id)
        cards.append(card)
    catalogue = Catalogue(cards, label, synthetic)
    if catalogue.total != expected:
        raise GameDataError(
            f"{source}: the counts add up to {catalogue.total} cards, not the {expected} in the box"
        )
    if not any(card.start_ok for card in cards):
        raise GameDataError(f"{source}: no card can be the start card (land, no gold, no fish)")
    return catalogue


def load_catalogue(path: Path | str) -> Catalogue:
    """A user's catalogue file (their own copy of the real cards), read by the rules for users'
    files (engine.core.userfiles: a regular file of at most 1 MiB, nested at most 32 levels)."""
    try:
        raw = userfiles.load_toml(path)
    except userfiles.UnreadableFile as unreadable:
        raise GameDataError(f"card catalogue: {unreadable}") from None
    return catalogue_from_toml(raw, str(path))


@functools.lru_cache(maxsize=1)
def load_synthetic() -> Catalogue:
    """The shipped SYNTHETIC set: made up for dealer mode and tests, not the real cards."""
    catalogue = load_catalogue(SYNTHETIC_FILE)
    if not catalogue.synthetic or "not the real cards" not in catalogue.label:
        raise GameDataError(f"{SYNTHETIC_FILE}: must say it is synthetic, not the real cards")
    return catalogue
