"""Why an El Caballero action is refused: one English template per translation key (the key
is `elcaballero.refuse.<name>`; its parameters fill the {braces}). The table app words the same
keys in the player's language (host/games/elcaballero/static/i18n/<lang>/engine.json).

>>> refused = Refusal("tie", {"colour": "blue", "cell": "1,0", "total": 3})
>>> refused.reason, refused.key
("your total on the island at 1,0 would equal blue's (3)", 'elcaballero.refuse.tie')
"""

from __future__ import annotations

PREFIX = "elcaballero.refuse."

TEMPLATES: dict[str, str] = {
    "over": "the game is over",
    "not_your_turn": "it is {who}'s turn",
    "unknown": "unknown action {verb}",
    "not_in_catalogue": "{card} is not a card of the catalogue",
    "no_copy_left": "every copy of {card} is already out",
    "bad_card": "not a card: {reason}",
    "wrong_chance": "the next chance step is {step}",
    "start_card": "the start card shows land and neither gold nor fish",
    "pile_empty": "the draw pile is empty",
    "power_not_in_hand": "power card {value} is not in your hand",
    "power_taken": "power card {value} was already played this round",
    "play_power": "play a power card first",
    "wrong_phase": "that is not possible during a turn",
    "reinforced": "you have taken your reinforcements this turn",
    "court_short": "your court has {court} caballeros; this costs {cost}",
    "area_done": "you have placed your area card(s) this turn",
    "market_slot": "the market has cards 1 to {count}",
    "cell_taken": "cell {cell} is not empty",
    "land_sea": "land would meet sea on the {side} side",
    "no_contact": "the card must touch an area card with a full side",
    "fallback_own": "no market card fits next to an area card: place it next to one of your "
    "caballero cards",
    "fallback_other": "no market card fits next to an area card or your caballero cards: place "
    "it next to another player's caballero card",
    "tie": "your total on the island at {cell} would equal {colour}'s ({total})",
    "knights_done": "you have placed or raised two caballero cards this turn",
    "no_card_left": "you have no caballero card left to place",
    "not_next_to_area": "a caballero card lies next to an area card",
    "two_lands": "this card would touch land on {count} sides",
    "bad_number": "a caballero card shows 1 to 8",
    "sea_front": "a card next to sea only goes front side up (1-4)",
    "face_land": "the number must face the land ({side})",
    "no_card": "no caballero card at {cell}",
    "not_yours": "the caballero card at {cell} is not yours",
    "grande_fixed": "a card with the Grande is not turned",
    "raise_no_land": "this card faces no land",
    "raise_lower": "a card is only turned to a higher number (now {number})",
    "ship_not_sea": "edge {side} faces no sea",
    "ship_there": "edge {side} has a ship already",
    "ships_bought": "you have bought two ships this turn",
    "ship_supply": "no ship left in the supply",
    "no_court_ship": "you have no ship at your court",
    "no_ship": "no ship on edge {side}",
    "same_card": "move it to another of your cards",
    "castillo_there": "this card has a castillo already",
    "castillos_bought": "you have bought two castillos this turn",
    "castillo_supply": "no castillo left in the supply",
    "no_castillo": "this card has no castillo",
    "placed_now": "a card placed this turn stays until your next turn",
    "area_missing": "place your area card first",
    # the extended game
    "extended_only": "that belongs to the extended game",
    "no_governor_left": "you have placed all your Governors",
    "no_area": "no area card at {cell}",
    "no_region": "the card at {cell} has no region {region}",
    "not_closed": "the region at {cell} is not closed: a caballero card can still lie next to it",
    "governed": "the region at {cell} has a Governor already",
    "lake_not_yours": "a ship goes only onto a closed lake with your Governor",
    "lake_ship_there": "this lake has its ship already",
    "lake_ship_off": "ships do not go onto closed lakes in this game (option lake_ship)",
    "grande_on_map": "your Grande is on the map already: move it instead",
    "grande_in_court": "your Grande is at your court: put it on a card first",
    "grande_moved": "you have moved your Grande this turn",
    "grande_not_there": "your Grande is not on the card at {cell}",
    "grande_needs_lands": "this cell touches land on {count} side(s): place the card, then the "
    "Grande",
    "grande_face_land": "the number must face one of the lands",
    "grande_highest": "name the highest number facing land ({number})",
    "grande_withdraw": "a card with the Grande is not withdrawn (option withdraw_grande_card)",
}


def reason(name: str, params: dict[str, str | int]) -> str:
    """The English reason of a refusal."""
    return TEMPLATES[name].format(**params)


class Refusal(Exception):
    """Why an action is illegal (the game turns it into IllegalAction with the action's text)."""

    def __init__(self, name: str, params: dict[str, str | int] | None = None) -> None:
        self.params: dict[str, str | int] = params or {}
        self.reason = reason(name, self.params)
        self.key = PREFIX + name
        super().__init__(self.reason)
