"""El Grande's actions: `engine.core.actions.Action` values in the notation of docs/notation.md,
with the verbs of `engine.elgrande.verbs`.

Arguments use canonical tokens: region ASCII names (`Aragon`, `Cataluna`), `castillo`, `court`,
colour names, card ids and numbers (`Game.parse` canonicalises names given in any form).

>>> a = parse("place Toledo")
>>> a.kind, a.arg
('place', 'Toledo')
>>> str(Action("pick", "green", "Aragon"))
'pick green Aragon'
>>> parse("  power   9 ") == Action("power", "9")
True
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.elgrande.verbs import VERBS

__all__ = ["ARITY", "Action", "parse"]

ARITY = VERBS.arity  # verb -> number of arguments


def parse(text: str) -> Action:
    """Parse the notation; arguments are not checked against a game here."""
    return VERBS.parse(text)
