"""El Caballero's host adapter: a dealer game without a catalogue refused on its field, the
scorings, and what the UI plugin draws with: the printed numbers (GET /api/elcaballero/rules)
and the cards of the catalogue (GET /api/elcaballero/catalogue)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import OptionsError
from engine.core.protocol import GameState
from engine.elcaballero.catalogue import load_synthetic
from engine.elcaballero.game import Game
from engine.elcaballero.rules import load_rules
from host.games import GameAdapter, Route


def _game(state: GameState) -> Game:
    assert isinstance(state, Game)
    return state


async def rules_json() -> dict[str, Any]:
    """What a phone shows of the rules: caballeros per power card, the card that places two
    area cards, the numbers on a caballero card (front and back, clockwise from north)."""
    rules = load_rules()
    return {
        "power_caballeros": list(rules.power_caballeros),
        "two_area_cards": rules.two_area_cards,
        "caballero_card": {"front": list(rules.layout[0]), "back": list(rules.layout[1])},
        "court_per_card": rules.court_per_card,
    }


async def catalogue_json() -> dict[str, Any]:
    """The card catalogue this host deals from (the shipped SYNTHETIC set, not the real cards):
    each card's id and description, so that a tablet draws the card a player picks."""
    catalogue = load_synthetic()
    return {
        "label": catalogue.label,
        "synthetic": catalogue.synthetic,
        "cards": [{"id": card.id, "text": card.text} for card in catalogue.cards.values()],
    }


class Adapter(GameAdapter):
    """El Caballero (see the module docstring). No tower, no lights: it runs without them."""

    def new_state(self, raw: Mapping[str, Any]) -> GameState:
        options = self.spec.options_from_json(raw)
        try:
            return self.spec.new_state(options)
        except ValueError as refused:  # dealer mode needs a catalogue to deal from
            raise OptionsError({"catalogue": str(refused)}) from None

    def scorings(self, state: GameState) -> list[dict[str, Any]]:
        return _game(state).scorings

    def scoring_label(self, scoring: Mapping[str, Any]) -> str:
        return f"after round {scoring['round']}"  # every scoring ends a round (EC rules)

    def routes(self) -> list[Route]:
        return [
            ("/api/elcaballero/rules", rules_json),
            ("/api/elcaballero/catalogue", catalogue_json),
        ]
