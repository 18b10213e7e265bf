"""Game options (fixed at the start) and the small records a game state is made of."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engine.core.errors import OptionsError
from engine.core.options import options_json, read_options


@dataclass(frozen=True)
class Options:
    """Everything fixed at the start of a game.

    `players`: the colours of the seats, clockwise (2–5). With 2 players a third colour, `dummy`
    (default: the first colour of the edition nobody plays), is the dummy player of the rulebook.
    """

    players: tuple[str, ...] = ("purple", "green", "blue", "orange")
    edition: str = "2023"
    mode: str = "table"  # "table": chance entered by players; "dealer": drawn by the engine
    # Dealer mode: None draws from the system's unpredictable source; a number reproduces the
    # deal (tests, `castillo selfplay --seed`). Never give one in a real game: a seed can be
    # recovered from the public set-up draws and the later cards predicted.
    seed: int | None = None
    short_game: bool = False  # 6 rounds: the round track starts at 2 and skips 4 and 7
    open_castillo: bool = False  # table option: castillo contents are public
    alternatives: tuple[str, ...] = ()  # alternative action cards, each replacing a random card
    merge_decks_2_3: bool = False  # decks 2 and 3 shuffled into one (always with 2 players)
    new_regency: bool = False  # the 10 New Regency King cards replace Your Majesty
    power_shift: bool = False  # the 16 grey power modifier cards
    dummy: str = ""  # the dummy's colour with 2 players
    # "" the current cards; "v1" the 2023 cards as game version 1 had them (set only by the
    # upgrade of an older record, so that it replays the same; docs/game-record.md)
    card_set: str = ""

    def to_json(self) -> dict[str, Any]:
        return options_json(self)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Options:
        """Options from JSON (a client's or a record's): OptionsError names each bad field."""
        raw = dict(raw)
        # Options come from clients and records: they must never name a file on the host. An
        # empty list (records and saved games written before this rule) names none.
        if raw.pop("overrides", []) != []:
            raise OptionsError(
                {
                    "overrides": "cannot be an option: data override files are named only on "
                    "the host's command line (--override)"
                }
            )
        return read_options(cls, OPTION_KINDS, raw)


# The options' schema (engine.core.options): each field's kind.
OPTION_KINDS = {
    "players": "names",
    "edition": "str",
    "mode": "str",
    "seed": "int?",
    "short_game": "bool",
    "open_castillo": "bool",
    "alternatives": "names",
    "merge_decks_2_3": "bool",
    "new_regency": "bool",
    "power_shift": "bool",
    "dummy": "str",
    "card_set": "str",
}


@dataclass
class Turn:
    """The acting player's turn: what is done and what is left."""

    player: int
    take: int  # caballeros the power card allows to take
    card: str = ""
    place_left: int = 0
    placing: bool = False  # placement started and not finished
    placed: bool = False  # placement finished (possibly with none placed)
    special: int = 0  # 0 not started, 1 in progress, 2 done or skipped
    infiltrate: bool = False  # Infiltration: may also place into the King's region
    # where the turn began in the history and the throws: the public view shows the castillo
    # throws of the current turn only (engine.elgrande.views)
    first_action: int = 0
    first_throw: int = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> Turn:
        return replace(self)  # every field is immutable (copy.deepcopy works compiled too)


@dataclass
class Veto:
    holder: int
    card: str
    expires_after_round: int

    def __deepcopy__(self, memo: dict[int, Any]) -> Veto:
        return replace(self)  # every field is immutable (copy.deepcopy works compiled too)


@dataclass
class Throw:
    """A public announcement: `by` threw `count` caballeros of `colour` into the castillo."""

    round: int
    by: int
    colour: int
    count: int

    def __deepcopy__(self, memo: dict[int, Any]) -> Throw:
        return replace(self)  # every field is immutable (copy.deepcopy works compiled too)
