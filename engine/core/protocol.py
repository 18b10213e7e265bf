"""The game protocol: what every game's state offers (shaped like OpenSpiel's state API).

Players are seat indices (0, 1, …); `CHANCE` acts for chance steps. A state says who acts now
(`current_players()`: one seat, several seats choosing at once, `(CHANCE,)`, or nobody when the
game is over), lists each actor's `legal_actions`, and `apply`s one; an illegal action raises
`IllegalAction` (or `NotYourTurn`) and changes nothing. `undo` takes back the acting seat's own
last step within the game's undo policy. `view(seat)` is what one seat may see (`None`: the
public). The `history` of (player, action) pairs is the game's serialisation: replaying it
rebuilds the exact state (engine.core.record).
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from engine.core.actions import Action

CHANCE: Final = -1  # the "player" of chance steps
NOBODY: tuple[int, ...] = ()  # who acts when the game is over


class GameState(Protocol):
    """The state of one game in progress (see the module docstring)."""

    history: list[tuple[int, Action]]
    options: Any  # the game's options (engine.core.spec.GameSpec.options_to_json reads them)

    def current_players(self) -> tuple[int, ...]: ...

    def legal_actions(self, player: int | None = None) -> list[Action]: ...

    def apply(self, action: Action | str, player: int | None = None) -> None: ...

    def parse(self, text: str) -> Action: ...

    def is_terminal(self) -> bool: ...

    def can_undo(self, player: int) -> bool: ...

    def undo(self, player: int) -> Action: ...

    def view(self, viewer: int | None = None) -> dict[str, Any]: ...

    def snapshot(self) -> dict[str, Any]: ...

    def seat_names(self) -> list[str]:
        """The names players are recorded by, by seat index."""
        ...

    def returns(self) -> list[int]:
        """Each seat's score (final when the game is over)."""
        ...
