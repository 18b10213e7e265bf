"""El Grande's printed components as JSON for its UI: `GET /api/gamedata?edition=2023`."""

from __future__ import annotations

from typing import Any

from engine.elgrande import data as gamedata
from host.api.errors import ActionError


def gamedata_json(edition: str) -> dict[str, Any]:
    """The engine's game data as JSON for the UI (public: the printed components)."""
    data = gamedata.load(edition)
    tokens = [r.ascii for r in data.regions]
    return {
        "edition": data.edition,
        "colours": list(data.colours),
        "regions": [
            {
                "token": r.ascii,
                "name": r.name,
                "name_1995": r.name_1995,
                "values": list(r.values),
                "values_2_3_players": list(r.values_2_3_players),
                "neighbours": [tokens[i] for i in r.neighbours],
                "borders": list(r.borders),
            }
            for r in data.regions
        ],
        "castillo_values": list(data.castillo_values),
        "tiles": [{"id": t.id, "values": list(t.values)} for t in data.tiles],
        "cards": {
            c.id: {
                "names": dict(c.names),
                "text": c.text,
                "texts": dict(c.texts),
                "options": [dict(label) for label in c.option_labels],
                "deck": c.deck,
                "place": c.place,
                "king_card": c.king_card,
                "alternative": c.alternative,
                "regency": c.regency,
            }
            for c in data.cards.values()
        },
        # what the lobby offers: the edition's alternative cards and mini-expansions
        "alternatives": [c.id for c in data.cards.values() if c.alternative],
        "new_regency": any(c.regency for c in data.cards.values()),
        "power_shift": bool(data.grey_cards),
        "modifiers": {
            g.id: {
                "names": dict(g.names),
                "text": g.text,
                "texts": dict(g.texts),
                "value": g.value,
                "copies": g.copies,
            }
            for g in data.grey_cards.values()
        },
        # cards only an older card set of the edition has (a replayed record's log names them)
        "older_cards": {
            c.id: {"names": dict(c.names)}
            for card_set in sorted(s for e, s in gamedata.CARD_SETS if e == data.edition)
            for c in gamedata.load(edition, card_set=card_set).cards.values()
            if c.id not in data.cards
        },
        "power": {
            "values": list(range(1, len(data.power_caballeros) + 1)),
            "caballeros": list(data.power_caballeros),
        },
        "rounds": data.rounds,
        "scoring_after": list(data.scoring_after),
        "short_game_rounds": list(data.short_game_rounds),
    }


async def game_data(edition: str = "2023") -> dict[str, Any]:
    """The route's handler (public: no pairing needed)."""
    if edition not in gamedata.EDITIONS:
        raise ActionError("bad_message", f"edition must be one of {gamedata.EDITIONS}")
    return gamedata_json(edition)
