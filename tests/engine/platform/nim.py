"""A tiny two-player Nim, registered only in the tests: the smallest game on the platform.

Heaps of stones; a player takes 1 to `most` stones from one heap; whoever takes the last stone
wins (`misere`: loses). It shows what a game must provide: options, a verb table, a state with
the protocol's methods, and a spec. It has no chance and no secret; undo is never possible (the
turn always passes), which the conformance suite checks like any other policy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core.actions import Action
from engine.core.errors import IllegalAction, NotationError, NotYourTurn, OptionsError, UndoError
from engine.core.options import read_options
from engine.core.protocol import GameState
from engine.core.spec import GameSpec
from engine.core.verbs import Verb, VerbTable

VERBS = VerbTable([Verb("take", ("heap", "number"), "take stones from one heap", group="turn")])


@dataclass(frozen=True)
class NimOptions:
    players: tuple[str, ...] = ("left", "right")
    heaps: int = 3
    size: int = 4  # heap k holds size + k stones
    most: int = 3
    misere: bool = False

    def check(self) -> None:
        errors = {}
        if len(self.players) != 2 or len(set(self.players)) != 2:
            errors["players"] = "Nim is for 2 players with different names"
        if not 1 <= self.heaps <= 9:
            errors["heaps"] = "must be 1 to 9"
        if not 1 <= self.size <= 20:
            errors["size"] = "must be 1 to 20"
        if self.most < 1:
            errors["most"] = "must be at least 1"
        if errors:
            raise OptionsError(errors)


OPTION_KINDS = {"players": "names", "heaps": "int", "size": "int", "most": "int", "misere": "bool"}


class Nim:
    """One game of Nim (engine.core.protocol.GameState)."""

    def __init__(self, options: NimOptions) -> None:
        options.check()
        self.options = options
        self.heaps = [options.size + k for k in range(options.heaps)]
        self.to_move = 0
        self.history: list[tuple[int, Action]] = []

    def current_players(self) -> tuple[int, ...]:
        return () if self.is_terminal() else (self.to_move,)

    def is_terminal(self) -> bool:
        return not any(self.heaps)

    def legal_actions(self, player: int | None = None) -> list[Action]:
        if player is None:
            player = self.to_move
        if player not in self.current_players():
            return []
        return [
            Action("take", str(heap), str(count))
            for heap, stones in enumerate(self.heaps)
            for count in range(1, min(stones, self.options.most) + 1)
        ]

    def parse(self, text: str) -> Action:
        action = VERBS.parse(text)
        if not (action.arg.isdigit() and action.arg2.isdigit()):
            raise NotationError(f"'take' takes a heap and a number: {text!r}")
        return Action("take", str(int(action.arg)), str(int(action.arg2)))

    def apply(self, action: Action | str, player: int | None = None) -> None:
        if isinstance(action, str):
            action = self.parse(action)
        actors = self.current_players()
        if not actors:
            raise IllegalAction(str(action), "the game is over")
        if player is None:
            player = actors[0]
        if player not in actors:
            raise NotYourTurn(str(action), f"it is {self.options.players[self.to_move]}'s turn")
        if action not in self.legal_actions(player):
            raise IllegalAction(
                str(action), f"heaps are {self.heaps}; take 1 to {self.options.most}"
            )
        self.heaps[int(action.arg)] -= int(action.arg2)
        self.history.append((player, action))
        self.to_move = 1 - self.to_move

    def can_undo(self, player: int) -> bool:
        return False  # the turn always passes: nothing of one's own to take back

    def undo(self, player: int) -> Action:
        raise UndoError("Nim never takes a move back")

    def view(self, viewer: int | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "heaps": list(self.heaps),
            "acting": [self.options.players[p] for p in self.current_players()],
            "log": [[self.options.players[p], str(a)] for p, a in self.history],
        }
        if viewer is not None:
            out["legal"] = [str(a) for a in self.legal_actions(viewer)]
        return out

    def snapshot(self) -> dict[str, Any]:
        return {**self.view(None), "to_move": self.to_move}

    def seat_names(self) -> list[str]:
        return list(self.options.players)

    def clone(self) -> Nim:
        copy = Nim(self.options)  # the options are immutable: shared
        copy.heaps = self.heaps[:]
        copy.to_move = self.to_move
        copy.history = self.history[:]
        return copy

    def is_legal(self, player: int, action: Action | str) -> bool:
        try:
            if isinstance(action, str):
                action = self.parse(action)
        except NotationError:
            return False
        return action in self.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return []  # Nim has no chance

    def returns(self) -> list[int]:
        if not self.is_terminal():
            return [0, 0]
        last = self.history[-1][0]
        winner = 1 - last if self.options.misere else last
        return [int(seat == winner) for seat in (0, 1)]


class NimSpec(GameSpec):
    id = "nim"
    title = "Nim"
    version = 1
    player_counts = (2,)
    verbs = VERBS
    options_type = NimOptions
    option_kinds = OPTION_KINDS

    def options_from_json(self, raw: Mapping[str, Any]) -> NimOptions:
        options = read_options(NimOptions, OPTION_KINDS, raw)
        options.check()
        return options

    def options_to_json(self, options: Any) -> dict[str, Any]:
        assert isinstance(options, NimOptions)
        return {
            "players": list(options.players),
            "heaps": options.heaps,
            "size": options.size,
            "most": options.most,
            "misere": options.misere,
        }

    def new_state(self, options: Any, data: Any = None) -> GameState:
        return Nim(options)

    def replay_start(self, options: Any, data: Any = None) -> GameState:
        return Nim(options)

    def seat_of(self, state: GameState, name: str) -> int:
        return state.seat_names().index(name)

    def test_options(self, players: int) -> list[NimOptions]:
        return [NimOptions(), NimOptions(heaps=5, size=2, most=4, misere=True)]

    def check_invariants(self, state: GameState) -> None:
        assert isinstance(state, Nim)
        assert all(stones >= 0 for stones in state.heaps)
        taken = sum(int(a.arg2) for _, a in state.history)
        start = sum(state.options.size + k for k in range(state.options.heaps))
        assert sum(state.heaps) == start - taken


SPEC = NimSpec()
