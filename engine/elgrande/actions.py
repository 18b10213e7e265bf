"""Actions: small immutable values with a one-line text notation (docs/notation.md).

An action is a verb and up to two arguments, all text. Arguments use canonical tokens: region
ASCII names (`Aragon`, `Cataluna`), `castillo`, `court`, colour names, card ids and numbers.

>>> a = Action.parse("place Toledo")
>>> a.kind, a.arg
('place', 'Toledo')
>>> str(Action("pick", "green", "Aragon"))
'pick green Aragon'
>>> Action.parse("  power   9 ") == Action("power", "9")
True
"""

from __future__ import annotations

from typing import NamedTuple

from engine.elgrande.errors import NotationError

# Verb -> number of arguments.
ARITY: dict[str, int] = {
    # chance (entered at the table, or drawn by the dealer)
    "first": 1,  # first <colour>: who holds the first-player marker
    "kingcard": 1,  # kingcard <region>: the region card that places the King
    "home": 2,  # home <colour> <region>: a player's region card
    "reveal": 2,  # reveal <deck> <card-id>: an action card turned face up
    "remove": 2,  # remove <deck> <card-id>: a card set aside for an alternative card
    "deal": 2,  # deal <colour> <grey-id>: a Power Shift card dealt to a player (secret)
    "dummycard": 1,  # dummycard <region>: 2 players, a region card drawn for the dummy
    "dummypower": 1,  # dummypower <value>: 2 players, the dummy's power card turned up
    # decisions
    "power": 1,  # power <value>
    "shift": 2,  # shift <value> <grey-id>: a power card with a Power Shift modifier
    "pass": 1,  # pass <grey-id>: the modifier passed face down to the left (secret)
    "grey": 0,  # use the played modifier card's special effect
    "take": 1,  # take <n>: caballeros from the province to the court
    "recall": 1,  # recall <region>: one own caballero from a region to the court
    "card": 1,  # card <card-id>
    "place": 1,  # place <area>: one caballero from the court
    "special": 0,  # start the card's special action
    "skip": 0,  # skip the special action
    "done": 0,  # finish the current step (placement, moving)
    "pick": 2,  # pick <colour> <region>: choose a caballero to move
    "to": 1,  # to <area>: where the picked caballero goes
    "return": 2,  # return <colour> <region|court>: one caballero to the province
    "disc": 1,  # disc <region>: a secret disc choice
    "region": 1,  # region <area>: a region chosen for a card effect
    "king": 1,  # king <area>: move the King
    "grande": 1,  # grande <region>: move your Grande
    "movegrande": 2,  # movegrande <colour> <region>: move any Grande (Power Shift)
    "viceroy": 1,  # viceroy <colour>: swap the King with that colour's Grande
    "tile": 2,  # tile <tile-id> <area>: place or move a scoring tile
    "powerback": 1,  # powerback <value|grey-id>: take a power (or modifier) card back
    "option": 1,  # option <n>: choose one branch of an either/or card
    "veto": 0,  # cancel the announced special action
    "allow": 0,  # let the announced special action happen
}


class Action(NamedTuple):
    """One action: a verb and up to two text arguments."""

    kind: str
    arg: str = ""
    arg2: str = ""

    def __str__(self) -> str:
        if self.arg2:
            return f"{self.kind} {self.arg} {self.arg2}"
        if self.arg:
            return f"{self.kind} {self.arg}"
        return self.kind

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse the notation; arguments are not checked against a game here."""
        words = text.split()
        if not words:
            raise NotationError("empty action")
        kind = words[0].lower()
        if kind not in ARITY:
            raise NotationError(f"unknown action {kind!r}")
        if len(words) - 1 != ARITY[kind]:
            raise NotationError(
                f"'{kind}' takes {ARITY[kind]} argument(s), got {len(words) - 1}: {text!r}"
            )
        return cls(kind, *words[1:])
