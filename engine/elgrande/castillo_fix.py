"""The castillo correction: the tower's physical count wins a disagreement, and the record says
why (docs/notation.md, "The castillo correction").

`castillo-fix <colour><+n|-n> <why>`, e.g. `castillo-fix green+1 wrong-colour`: n caballeros of
that colour go into (+) or come out of (-) the castillo. Into: from the colour's court, and from
the province when the court is short; out of: back to the colour's court. The table enters it
(actor `chance`) at any moment of the game; it is public and never undone.
"""

from __future__ import annotations

import re
from typing import Final

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.elgrande import data as gamedata
from engine.elgrande.board import Board
from engine.elgrande.explain import KEY_PREFIX

FIX_VERB: Final = "castillo-fix"
# Why the tower's count wins: a cube of another colour went in, more cubes went in than were
# announced, a thrown cube stayed in after an undo, a cube stuck in the chute, or the castillo
# was counted by hand.
FIX_REASONS = ("wrong-colour", "too-many", "undo", "stuck", "recount")
_COLOUR_DELTA = re.compile(r"^(.+?)([+-][0-9]{1,2})$")


def _refuse(action: Action, key: str, reason: str, **params: str | int) -> IllegalAction:
    return IllegalAction(str(action), reason, key=KEY_PREFIX + key, params=params)


def read_fix(g: Board, action: Action) -> tuple[int, int, Action]:
    """The colour, the signed number of caballeros and the canonical action; IllegalAction if
    the correction is malformed or cannot be done."""
    match = _COLOUR_DELTA.match(action.arg)
    if match is None or int(match.group(2)) == 0:
        raise _refuse(
            action,
            "fix_bad_amount",
            "say the colour and how many caballeros go in or out, e.g. 'castillo-fix green+1 "
            "wrong-colour' or 'castillo-fix orange-1 wrong-colour'",
        )
    colour = g.colour_lookup.get(gamedata.fold(match.group(1)))
    if colour is None:
        raise _refuse(action, "fix_bad_amount", f"{match.group(1)!r} is not a colour of this game")
    if action.arg2 not in FIX_REASONS:
        raise _refuse(
            action,
            "fix_bad_reason",
            f"say why the tower's count wins: one of {', '.join(FIX_REASONS)}",
        )
    delta = int(match.group(2))
    name = g.colours[colour]
    if delta < 0 and g.pieces[g.CASTILLO][colour] < -delta:
        raise _refuse(
            action,
            "fix_castillo_short",
            f"the game's castillo holds fewer {name} caballeros than that",
            colour=name,
        )
    if delta > 0 and g.court[colour] + g.province[colour] < delta:
        raise _refuse(
            action,
            "fix_supply_short",
            f"{name} has fewer caballeros in the court and province than that",
            colour=name,
        )
    return colour, delta, Action(FIX_VERB, f"{name}{delta:+d}", action.arg2)


def apply_fix(g: Board, colour: int, delta: int) -> None:
    """Move the caballeros (conserving every colour's total)."""
    castillo = g.pieces[g.CASTILLO]
    if delta < 0:
        castillo[colour] += delta
        g.court[colour] -= delta
        return
    from_court = min(delta, g.court[colour])
    g.court[colour] -= from_court
    g.province[colour] -= delta - from_court
    castillo[colour] += delta
