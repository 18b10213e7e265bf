"""Kingdomino's options (fixed at the start) and the set-up they imply.

>>> setup = Setup(Options(players=("pink", "blue")))
>>> (setup.kings, setup.line, setup.dominoes, setup.rounds, setup.size)
(4, 4, 24, 6, 5)
>>> Setup(Options(players=("pink", "blue"), mighty_duel=True)).size
7
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.errors import OptionsError
from engine.core.options import options_json, read_options

COLOURS = ("pink", "yellow", "green", "blue")  # the castles in the box
MODES = ("table", "dealer")
GAMES_IN_DYNASTY = 3


@dataclass(frozen=True)
class Options:
    """`players`: the colours of the seats (2 to 4 of the box's). `mode`: "table" (the lines and
    the first pick order are entered) or "dealer" (drawn by the engine; `seed` reproduces the
    draws, for tests only). The variants are the rulebook's; `three_player_four_per_line` is
    the later printings' 3-player rule (48 dominoes, lines of 4, one left over discarded)."""

    players: tuple[str, ...] = COLOURS
    mode: str = "table"
    seed: int | None = None
    dynasty: bool = False
    middle_kingdom: bool = False
    harmony: bool = False
    mighty_duel: bool = False
    wider_draft: bool = False
    three_player_four_per_line: bool = False

    def to_json(self) -> dict[str, Any]:
        return options_json(self)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Options:
        options = read_options(cls, OPTION_KINDS, raw)
        check(options)
        return options


OPTION_KINDS = {
    "players": "names",
    "mode": "str",
    "seed": "int?",
    "dynasty": "bool",
    "middle_kingdom": "bool",
    "harmony": "bool",
    "mighty_duel": "bool",
    "wider_draft": "bool",
    "three_player_four_per_line": "bool",
}
OPTION_SECTIONS = {"seed": "hidden"}  # the lobby never shows the seed (tests, self-play)


def check(options: Options) -> None:
    """OptionsError naming each field whose value or combination the rules refuse."""
    errors: dict[str, str] = {}
    players = options.players
    if not 2 <= len(players) <= 4:
        errors["players"] = "Kingdomino is for 2 to 4 players"
    elif len(set(players)) != len(players) or not set(players) <= set(COLOURS):
        errors["players"] = f"each player takes a different colour of {', '.join(COLOURS)}"
    if options.mode not in MODES:
        errors["mode"] = "must be table or dealer"
    if options.mighty_duel and len(players) != 2:
        errors["mighty_duel"] = "the Mighty Duel is for 2 players only"
    if options.wider_draft and len(players) not in (2, 3):
        errors["wider_draft"] = "the wider draft is for 2 or 3 players"
    if options.wider_draft and options.mighty_duel:
        errors["wider_draft"] = (
            "cannot be combined with the Mighty Duel: one plays 30 dominoes, the other all 48 "
            "(48 does not split into lines of 5)"
        )
    if options.three_player_four_per_line and len(players) != 3:
        errors["three_player_four_per_line"] = "is a 3-player rule"
    if errors:
        raise OptionsError(errors)


class Setup:
    """What the options imply: kings, line length, dominoes in play, rounds, frame size."""

    def __init__(self, options: Options) -> None:
        players = len(options.players)
        self.players = players
        self.kings_each = 2 if players == 2 else 1
        self.kings = players * self.kings_each
        extra = options.wider_draft or options.three_player_four_per_line
        self.line = self.kings + (1 if extra else 0)
        if players == 2:
            self.dominoes = 48 if options.mighty_duel else 30 if options.wider_draft else 24
        elif players == 3:
            self.dominoes = 48 if extra else 36
        else:
            self.dominoes = 48
        self.rounds = self.dominoes // self.line  # placement rounds; +1 set-up round of claims
        self.size = 7 if options.mighty_duel else 5
        self.games = GAMES_IN_DYNASTY if options.dynasty else 1
        # Each king's seat: with 2 players kings 0, 1 are the first seat's, 2, 3 the second's.
        self.seat_of_king: list[int] = [k // self.kings_each for k in range(self.kings)]
