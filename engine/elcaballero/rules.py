"""El Caballero's numbers, read from `engine/data/elcaballero/rules.toml` (power cards, the
caballero card's printed numbers, the components of the base and the extended game).

>>> rules = load_rules()
>>> rules.power_caballeros[9 - 1], rules.two_area_cards, rules.base.rounds
(3, 9, 7)
"""

from __future__ import annotations

import functools
import tomllib
from typing import Any

from engine.core.errors import GameDataError
from engine.elcaballero.catalogue import DATA_DIR

RULES_FILE = DATA_DIR / "rules.toml"


class GameSize:
    """The components and rounds of the base or the extended game."""

    def __init__(self, raw: dict[str, Any], where: str) -> None:
        self.rounds = _int(raw, "rounds", where)
        scorings = raw.get("scorings")
        if not isinstance(scorings, list) or not all(isinstance(s, int) for s in scorings):
            raise GameDataError(f"{where}.scorings: a list of round numbers")
        self.scorings: tuple[int, ...] = tuple(scorings)
        self.caballero_cards = _int(raw, "caballero_cards", where)
        self.ships = _int(raw, "ships", where)
        self.castillos = _int(raw, "castillos", where)
        self.market = _int(raw, "market", where)
        self.governors = int(raw.get("governors", 0))  # per player
        self.grandes = int(raw.get("grandes", 0))  # per player (0 or 1)
        if not self.scorings or self.scorings[-1] != self.rounds:
            raise GameDataError(f"{where}: the last scoring comes after the last round")


class Rules:
    def __init__(self, raw: dict[str, Any]) -> None:
        power = raw.get("power", {})
        values = power.get("caballeros")
        if not isinstance(values, list) or len(values) != 13:
            raise GameDataError(f"{RULES_FILE}: power.caballeros lists 13 numbers (cards 1-13)")
        self.power_caballeros: tuple[int, ...] = tuple(int(v) for v in values)
        self.two_area_cards = _int(power, "two_area_cards", "power")
        card = raw.get("caballero_card", {})
        front, back = card.get("front"), card.get("back")
        if not (
            isinstance(front, list) and isinstance(back, list) and len(front) == len(back) == 4
        ):
            raise GameDataError(f"{RULES_FILE}: caballero_card front and back list 4 numbers each")
        self.layout: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(int(v) for v in front),
            tuple(int(v) for v in back),
        )
        self.court_per_card = _int(card, "court_per_card", "caballero_card")
        self.start_court = _int(card, "start_court", "caballero_card")
        self.base = GameSize(raw.get("base", {}), "base")
        self.extended = GameSize(raw.get("extended", {}), "extended")


def _int(raw: dict[str, Any], key: str, where: str) -> int:
    value = raw.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameDataError(f"{RULES_FILE}: {where}.{key} must be a whole number")
    return value


@functools.lru_cache(maxsize=1)
def load_rules() -> Rules:
    try:
        with RULES_FILE.open("rb") as handle:
            return Rules(tomllib.load(handle))
    except tomllib.TOMLDecodeError as exc:
        raise GameDataError(f"{RULES_FILE}: {exc}") from None
