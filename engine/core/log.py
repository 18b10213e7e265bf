"""A game's log as each viewer may read it: one line per step, its verb and its arguments by
name (docs/table-api.md, `state.log`; docs/game-protocol.md).

A line is `{"key": verb, "params": {argument name: value}}` (the verb table's `line`), with the
step's history index (`step`) and its actor's name (`actor`, "chance" for chance steps). A
secret argument (the verb table's `secret_from`) is None for a viewer the game does not let
see it; the game says who may (`Sees`): every game lets a seat see the secret arguments of
its own steps, El Grande more and less (engine.elgrande.log). The notation text of a line is
the verb table's `text`: the public log's text (`deal purple ?`) comes from its line, never
from a second redaction.

>>> from engine.core.verbs import Verb, VerbTable
>>> table = VerbTable([Verb("disc", ("area",), secret_from=0), Verb("take", ("number",))])
>>> history = [(0, Action("take", "3")), (1, Action("disc", "Aragon"))]
>>> [line["params"] for line in log_lines(table, history, ["red", "blue"], 1)]
[{'number': '3'}, {'area': 'Aragon'}]
>>> [table.text(line) for line in log_lines(table, history, ["red", "blue"], None)]
['take 3', 'disc ?']
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Any

from engine.core.actions import Action
from engine.core.protocol import CHANCE
from engine.core.verbs import VerbTable

# Whether `viewer` (None: the public) sees the secret arguments of the step at history index
# `step`, taken by `player`
Sees = Callable[[int, int, Action, int | None], bool]


def own_step(_step: int, player: int, _action: Action, viewer: int | None) -> bool:
    """The usual rule: a seat sees the secret arguments of its own steps, the public none."""
    return viewer is not None and player == viewer


def _readable(
    history: Sequence[tuple[int, Action]],
    names: Sequence[str],
    viewer: int | None,
    sees: Sees,
    hidden: Collection[int],
) -> Iterator[tuple[int, str, Action, bool]]:
    """Each step `viewer` reads: its history index, its actor's name, the action and whether
    the viewer sees its secret arguments; the steps at the indices `hidden` left out."""
    for i, (player, action) in enumerate(history):
        if i not in hidden:
            actor = "chance" if player == CHANCE else names[player]
            yield i, actor, action, sees(i, player, action, viewer)


def log_lines(
    verbs: VerbTable,
    history: Sequence[tuple[int, Action]],
    names: Sequence[str],
    viewer: int | None,
    sees: Sees = own_step,
    hidden: Collection[int] = (),
) -> list[dict[str, Any]]:
    """The history as `viewer` may read it: a line per step (`step`, `actor`, `key`,
    `params`), the steps at the indices `hidden` left out."""
    out = []
    for i, actor, action, shown in _readable(history, names, viewer, sees, hidden):
        line = verbs.line(action, shown)
        line["step"] = i
        line["actor"] = actor
        out.append(line)
    return out


def text_log(
    verbs: VerbTable,
    history: Sequence[tuple[int, Action]],
    names: Sequence[str],
    viewer: int | None,
    sees: Sees = own_step,
    hidden: Collection[int] = (),
) -> list[list[str]]:
    """The views' `log`: the [actor, notation text] of each line `log_lines` gives (its
    `VerbTable.text`), worked out without making the lines (a view is made often)."""
    return [
        [actor, verbs.notation(action, shown)]
        for _, actor, action, shown in _readable(history, names, viewer, sees, hidden)
    ]
