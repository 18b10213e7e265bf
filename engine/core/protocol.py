"""The game protocol: what every game's state offers (shaped like OpenSpiel's state API).

Players are seat indices (0, 1, …); `CHANCE` acts for chance steps. A state says who acts now
(`current_players()`: one seat, several seats choosing at once, `(CHANCE,)`, or nobody when the
game is over), lists each actor's `legal_actions`, and `apply`s one; an illegal action raises
`IllegalAction` (or `NotYourTurn`) and changes nothing. `undo` takes back the acting seat's own
last step within the game's undo policy. `view(seat)` is what one seat may see (`None`: the
public). The `history` of (player, action) pairs is the game's serialisation: replaying it
rebuilds the exact state (engine.core.record).

For computer players and search: `clone()` is an independent copy (it shares only immutable
tables: the game data, the options, the actions); `is_legal(player, action)` answers without
an exception; `chance_outcomes()` lists the outcomes of the chance step now with the
probabilities the dealer draws them with (`[]` when chance does not act now). A dealer-mode
clone deals from a fresh, unpredictable seed: it never deals the real game's future cards, so a
computer searching it cannot see them (given the same actions, a clone and the original are
equal until the dealer's next draw).
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from engine.core.actions import Action

CHANCE: Final = -1  # the "player" of chance steps
NOBODY: tuple[int, ...] = ()  # who acts when the game is over


class GameState(Protocol):
    """The state of one game in progress (see the module docstring)."""

    @property
    def history(self) -> list[tuple[int, Action]]:
        """The (player, action) pairs taken so far: the game's serialisation."""
        ...

    @property
    def options(self) -> Any:
        """The game's options (engine.core.spec.GameSpec.options_to_json reads them)."""
        ...

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

    def clone(self) -> GameState:
        """An independent copy: an action on one leaves the other untouched. It shares only
        immutable tables; in dealer mode it deals from a fresh unpredictable seed (never the
        real game's future draws)."""
        ...

    def is_legal(self, player: int, action: Action | str) -> bool:
        """Whether `player` may take `action` now: True exactly for the actions of
        `legal_actions(player)`; never raises (text that does not parse is not legal)."""
        ...

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance step (`current_players() == (CHANCE,)`), each outcome with the
        probability the dealer draws it with (they sum to 1); `[]` anywhere else."""
        ...
