"""El Grande's log lines per viewer (engine.core.log): who may see a step's secret argument.

The verb table says which arguments are secret (`disc`, `pass`, `powerback`: the choice;
`deal`: the Power Shift card dealt; `remove`: the card set aside). A seat sees its own: the
disc, modifier passed and card taken back it chose, the card dealt to its colour. Nobody sees a
card set aside (it goes back in the box unseen). Everyone sees the card Power of attorney takes
back with `open_power_cards` (it leaves an open discard pile), and, in the log of the game as it
stands (`log_lines`), the disc choices once revealed: all but those of the discs being set now.

The views' public log and the table app's log lines both come from here
(engine.elgrande.views.public_log, `public_step`; host/app/session/model.py `note_step`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from engine.core import log
from engine.core.actions import Action
from engine.elgrande.board import Board
from engine.elgrande.frames import DiscFrame
from engine.elgrande.options import Options
from engine.elgrande.verbs import VERBS


def step_sees(
    options: Options | None,
    colours: Sequence[str],
    player: int,
    action: Action,
    viewer: int | None,
) -> bool:
    """Whether `viewer` (None: the public) sees the secret argument of `action`, taken by
    `player`, when it is taken."""
    kind = action.kind
    if kind == "powerback" and options is not None and options.open_power_cards:
        return True
    if viewer is None or kind == "remove":
        return False
    if kind == "deal":
        return action.arg == colours[viewer]
    return player == viewer


def step_line(g: Board, player: int, action: Action, viewer: int | None) -> dict[str, Any]:
    """The line of one step as `viewer` reads it when it is taken (`key`, `params`)."""
    return VERBS.line(action, step_sees(g.options, g.colours, player, action, viewer))


def revealed_discs(g: Board) -> frozenset[int]:
    """The history indices of the disc choices revealed: all but the latest ones, of the discs
    being set now."""
    history = g.history
    frame = g.frame
    unrevealed = len(frame.chosen) if isinstance(frame, DiscFrame) else 0
    shown: set[int] = set()
    for i in range(len(history) - 1, -1, -1):
        if history[i][1].kind == "disc":
            if unrevealed:
                unrevealed -= 1
            else:
                shown.add(i)
    return frozenset(shown)


def _sees(g: Board) -> log.Sees:
    """Who sees a step's secret in the log of the game as it stands: `step_sees`, and
    everyone the disc choices revealed."""
    options, colours = g.options, g.colours
    revealed = revealed_discs(g)

    def sees(step: int, player: int, action: Action, who: int | None) -> bool:
        return step in revealed or step_sees(options, colours, player, action, who)

    return sees


def log_lines(g: Board, viewer: int | None, hidden: Collection[int]) -> list[dict[str, Any]]:
    """The game's log as `viewer` (None: the public) reads it now, the steps at the indices
    `hidden` left out (engine.elgrande.views.hidden_steps: the castillo's secret)."""
    return log.log_lines(VERBS, g.history, g.colours, viewer, _sees(g), hidden)


def text_log(g: Board, viewer: int | None, hidden: Collection[int]) -> list[list[str]]:
    """The text of those lines, as the views' `log` says them (engine.core.log.text_log)."""
    return log.text_log(VERBS, g.history, g.colours, viewer, _sees(g), hidden)
