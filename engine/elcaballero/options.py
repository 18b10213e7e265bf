"""El Caballero's options: seats, table or dealer mode, and each of the rulebook's gaps as a named
option whose default is the reference's suggestion (docs/elcaballero-rules.md, "Gaps").

>>> Options(players=("red", "blue")).check()
>>> Options(players=("red",)).check()
Traceback (most recent call last):
...
engine.core.errors.OptionsError: 'players': 2 to 4 different colour names
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.errors import GameDataError, OptionsError
from engine.core.options import options_json, read_options
from engine.elcaballero.catalogue import MAX_LABEL, from_entries

MODES = ("table", "dealer")
CATALOGUES = ("", "synthetic")  # besides a catalogue file's name (its cards kept with it)
MAX_FILE_NAME = 80
TWO_PLAYER_TIES = ("second", "nothing")
LAKE_SHIPS = ("buy", "none")


@dataclass(frozen=True)
class Options:
    players: tuple[str, ...] = ("red", "blue", "green", "yellow")  # from the youngest, clockwise
    mode: str = "table"  # table: revealed cards are entered; dealer: the engine shuffles
    seed: int | None = None  # dealer mode: a reproducible shuffle (tests, self-play)
    catalogue: str = ""  # "synthetic": the shipped SYNTHETIC set (not the real cards), or
    # the name of a catalogue file the host offers; its label and its cards are kept here (the
    # record replays without the file): each card "ID COUNT DESCRIPTION" (catalogue.to_entries)
    catalogue_label: str = ""
    catalogue_cards: tuple[str, ...] = ()
    extended: bool = False  # the extended game: 10 rounds, all pieces, Governors, the Grande
    # the gaps (EC-n), each defaulting to the reference's suggestion
    two_player_tie: str = "second"  # EC-6: 2 players tied for the most score 1 + 1 each
    automatic_reinforcements: bool = False  # EC-15: a voluntary action, forfeited if skipped
    second_area_optional: bool = False  # EC-16: power card 9's second area card is compulsory
    court_capacity: bool = True  # EC-10: 8 per caballero card off the map; the rest is lost
    last_card_empties_court: bool = True  # EC-21: no card off the map, no court (else one's 8)
    remove_on_same_island: bool = True  # EC-9: two sides on one island still count as two
    start_card_needs_land: bool = True  # EC-4: the start card shows land
    # the extended game's gaps
    lake_ship: str = "buy"  # EC-8: a ship is bought (2) onto a closed lake with your Governor
    grande_ships_as_removal: bool = True  # EC-24: the Grande leaving: ships as any removal
    grande_pays_its_price: bool = True  # EC-25: a card placed with the Grande pays it too
    grande_no_tie_everywhere: bool = True  # EC-26: such a card's no-tie rule on every land
    withdraw_grande_card: bool = True  # EC-27: a card with the Grande may be withdrawn

    def check(self) -> None:
        errors: dict[str, str] = {}
        if not 2 <= len(self.players) <= 4 or len(set(self.players)) != len(self.players):
            errors["players"] = "2 to 4 different colour names"
        elif not all(_is_name(name) for name in self.players):
            errors["players"] = "colour names are letters, digits and - (no spaces)"
        if self.mode not in MODES:
            errors["mode"] = f"one of {', '.join(MODES)}"
        errors.update(self._catalogue_errors())
        if self.two_player_tie not in TWO_PLAYER_TIES:
            errors["two_player_tie"] = f"one of {', '.join(TWO_PLAYER_TIES)}"
        if self.lake_ship not in LAKE_SHIPS:
            errors["lake_ship"] = f"one of {', '.join(LAKE_SHIPS)}"
        if self.seed is not None and not 0 <= self.seed < 2**63:
            errors["seed"] = "a whole number from 0"
        if errors:
            raise OptionsError(errors)

    def _catalogue_errors(self) -> dict[str, str]:
        if self.catalogue in CATALOGUES:
            if self.catalogue_cards or self.catalogue_label:
                return {"catalogue_cards": "only with a catalogue file"}
            return {}
        if not file_name_ok(self.catalogue):
            return {"catalogue": '"synthetic", "" or the name of a catalogue file'}
        if not self.catalogue_cards:
            return {"catalogue_cards": "the cards of the catalogue file (the host reads them)"}
        if len(self.catalogue_label) > MAX_LABEL:
            return {"catalogue_label": f"at most {MAX_LABEL} characters"}
        try:
            from_entries(self.catalogue_label or self.catalogue, self.catalogue_cards)
        except GameDataError as bad:
            return {"catalogue_cards": str(bad)}
        return {}

    def to_json(self) -> dict[str, Any]:
        return options_json(self)


OPTION_KINDS = {
    "players": "names",
    "mode": "str",
    "seed": "int?",
    "catalogue": "str",
    "catalogue_label": "str",
    "catalogue_cards": "names",
    "two_player_tie": "str",
    "automatic_reinforcements": "bool",
    "second_area_optional": "bool",
    "court_capacity": "bool",
    "last_card_empties_court": "bool",
    "remove_on_same_island": "bool",
    "start_card_needs_land": "bool",
    "extended": "bool",
    "lake_ship": "str",
    "grande_ships_as_removal": "bool",
    "grande_pays_its_price": "bool",
    "grande_no_tie_everywhere": "bool",
    "withdraw_grande_card": "bool",
}
# The lobby folds the rulebook's gaps under "rule details" and never shows the seed, nor the
# catalogue file's label and cards (the host reads them from the file the lobby names).
GAPS = (
    "two_player_tie",
    "automatic_reinforcements",
    "second_area_optional",
    "court_capacity",
    "last_card_empties_court",
    "remove_on_same_island",
    "start_card_needs_land",
    "lake_ship",
    "grande_ships_as_removal",
    "grande_pays_its_price",
    "grande_no_tie_everywhere",
    "withdraw_grande_card",
)
OPTION_SECTIONS = {
    "seed": "hidden",
    "catalogue_label": "hidden",
    "catalogue_cards": "hidden",
    **dict.fromkeys(GAPS, "details"),
}


def file_name_ok(name: str) -> bool:
    """A file's own name (no folder, not hidden), as the host's catalogue choices are."""
    return (
        0 < len(name) <= MAX_FILE_NAME
        and not name.startswith(".")
        and all(ch.isprintable() and ch not in "/\\" for ch in name)
    )


def _is_name(name: str) -> bool:
    return 0 < len(name) <= 20 and all(ch.isalnum() or ch == "-" for ch in name)


def options_from_json(raw: Any) -> Options:
    options = read_options(Options, OPTION_KINDS, raw)
    options.check()
    return options
