"""An action: a verb and up to two text arguments, with a one-line notation ("pick green
Aragon"). Which verbs exist and what their arguments are is each game's verb table
(`engine.core.verbs`).

>>> str(Action("pick", "green", "Aragon"))
'pick green Aragon'
>>> Action("done") == Action("done", "", "")
True
"""

from __future__ import annotations

from typing import NamedTuple


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
