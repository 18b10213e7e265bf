"""An action: a verb and up to two text arguments, with a one-line notation ("pick green
Aragon"). Which verbs exist and what their arguments are is each game's verb table
(`engine.core.verbs`).

>>> str(Action("pick", "green", "Aragon"))
'pick green Aragon'
>>> Action("done") == Action("done", "", "")
True
"""

from __future__ import annotations

from typing import Final, NamedTuple


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


# Actions made by shared_action, by (kind, arg, arg2).
_SHARED: Final[dict[tuple[str, str, str], Action]] = {}


def shared_action(kind: str, arg: str = "", arg2: str = "") -> Action:
    """The action with these fields, made once and shared (actions are immutable). For the
    actions an engine lists during play, whose arguments come from its data (never for text a
    client sent: the cache would grow with it). Compiled with mypyc, making an Action runs the
    NamedTuple's interpreted constructor; a dictionary lookup costs far less.

    >>> shared_action("tile", "t5", "Aragon") is shared_action("tile", "t5", "Aragon")
    True
    """
    key = (kind, arg, arg2)
    action = _SHARED.get(key)
    if action is None:
        action = _SHARED[key] = Action(kind, arg, arg2)
    return action
