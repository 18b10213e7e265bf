"""Game options (fixed at the start) and the small records a game state is made of."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.chance import SEED_LIMIT
from engine.core.errors import OptionsError
from engine.core.options import options_json, read_options
from engine.elgrande.data import EDITIONS

MODES = ("table", "dealer")
CARD_SETS = ("", "v1")  # the current cards; "v1" the 2023 cards as game version 1 had them


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
    # table option: every player's power-card discard pile is open, so each player's remaining
    # power cards are public (the rulebook discards face down: docs/variants.md)
    open_power_cards: bool = False
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
        options = read_options(cls, OPTION_KINDS, raw)
        errors = options.field_errors()
        if errors:
            raise OptionsError(errors)
        return options

    def field_errors(self) -> dict[str, str]:
        """Each field whose value no game takes, with the reason (the combinations are the
        board's to check: engine.elgrande.board)."""
        errors: dict[str, str] = {}
        if self.edition not in EDITIONS:
            errors["edition"] = f"must be one of {', '.join(EDITIONS)}, not {self.edition!r}"
        if self.mode not in MODES:
            errors["mode"] = f"must be table or dealer, not {self.mode!r}"
        if self.seed is not None and not 0 <= self.seed < SEED_LIMIT:
            errors["seed"] = f"must be a whole number from 0 to {SEED_LIMIT - 1}"
        if self.card_set not in CARD_SETS:
            errors["card_set"] = f"must be '' or 'v1', not {self.card_set!r}"
        return errors


# The options' schema (engine.core.options): each field's kind.
OPTION_KINDS = {
    "players": "names",
    "edition": "str",
    "mode": "str",
    "seed": "int?",
    "short_game": "bool",
    "open_castillo": "bool",
    "open_power_cards": "bool",
    "alternatives": "names",
    "merge_decks_2_3": "bool",
    "new_regency": "bool",
    "power_shift": "bool",
    "dummy": "str",
    "card_set": "str",
}
# A form never shows the seed (tests, self-play); the card set is an upgraded record's only.
OPTION_SECTIONS = {"seed": "hidden", "card_set": "record"}


# Turn, Veto and Throw are made at every turn and throw: plain classes with an explicit __init__
# (compiled with mypyc, a dataclass's generated __init__ runs as interpreted Python). Equality and
# repr are written out as a dataclass's would be.


class Turn:
    """The acting player's turn: what is done and what is left."""

    player: int
    take: int  # caballeros the power card allows to take
    card: str
    place_left: int
    placing: bool  # placement started and not finished
    placed: bool  # placement finished (possibly with none placed)
    special: int  # 0 not started, 1 in progress, 2 done or skipped
    infiltrate: bool  # Infiltration: may also place into the King's region
    # where the turn began in the history and the throws: the public view shows the castillo
    # throws of the current turn only (engine.elgrande.views)
    first_action: int
    first_throw: int

    def __init__(
        self,
        player: int,
        take: int,
        card: str = "",
        place_left: int = 0,
        placing: bool = False,
        placed: bool = False,
        special: int = 0,
        infiltrate: bool = False,
        first_action: int = 0,
        first_throw: int = 0,
    ) -> None:
        self.player = player
        self.take = take
        self.card = card
        self.place_left = place_left
        self.placing = placing
        self.placed = placed
        self.special = special
        self.infiltrate = infiltrate
        self.first_action = first_action
        self.first_throw = first_throw

    def _fields(self) -> tuple[int, int, str, int, bool, bool, int, bool, int, int]:
        return (
            self.player,
            self.take,
            self.card,
            self.place_left,
            self.placing,
            self.placed,
            self.special,
            self.infiltrate,
            self.first_action,
            self.first_throw,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Turn) or other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}(player={self.player!r}, take={self.take!r}, "
            f"card={self.card!r}, place_left={self.place_left!r}, placing={self.placing!r}, "
            f"placed={self.placed!r}, special={self.special!r}, "
            f"infiltrate={self.infiltrate!r}, first_action={self.first_action!r}, "
            f"first_throw={self.first_throw!r})"
        )

    def __deepcopy__(self, memo: dict[int, Any]) -> Turn:
        return Turn(*self._fields())  # every field is immutable (copy.deepcopy works compiled too)


class Veto:
    holder: int
    card: str
    expires_after_round: int

    def __init__(self, holder: int, card: str, expires_after_round: int) -> None:
        self.holder = holder
        self.card = card
        self.expires_after_round = expires_after_round

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Veto) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.holder, self.card, self.expires_after_round) == (
            other.holder,
            other.card,
            other.expires_after_round,
        )

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}(holder={self.holder!r}, card={self.card!r}, "
            f"expires_after_round={self.expires_after_round!r})"
        )

    def __deepcopy__(self, memo: dict[int, Any]) -> Veto:
        # every field is immutable (copy.deepcopy works compiled too)
        return Veto(self.holder, self.card, self.expires_after_round)


class Throw:
    """A public announcement: `by` threw `count` caballeros of `colour` into the castillo."""

    round: int
    by: int
    colour: int
    count: int

    def __init__(self, round: int, by: int, colour: int, count: int) -> None:
        self.round = round
        self.by = by
        self.colour = colour
        self.count = count

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Throw) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.round, self.by, self.colour, self.count) == (
            other.round,
            other.by,
            other.colour,
            other.count,
        )

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}(round={self.round!r}, by={self.by!r}, "
            f"colour={self.colour!r}, count={self.count!r})"
        )

    def __deepcopy__(self, memo: dict[int, Any]) -> Throw:
        # every field is immutable (copy.deepcopy works compiled too)
        return Throw(self.round, self.by, self.colour, self.count)
