"""Kingdomino's protocol (engine.core.protocol.GameState): `Game` holds the game's one mutable
`State` (engine.kingdomino.state) as `game.state` and answers the platform from it.

The rules are functions over the state: the round's course and the chance steps in
engine.kingdomino.rounds, what is legal and the notation in engine.kingdomino.legal, why an
action is refused in engine.kingdomino.refusals, the scores in engine.kingdomino.scoring, what
each seat sees in engine.kingdomino.views. `Game` adds the history's bookkeeping, undo, and the
copies. Moves also have a fast integer form for computer players, on the state: `state.moves()`
lists them (a placement `cell*4+dir`, `DISCARD`, or a claimed domino's number),
`rounds.play(state, move)` applies one unchecked, `legal.move_action(state, move)` names it.

>>> g = Game(Options(players=("pink", "blue"), mode="dealer", seed=3))
>>> g.current_players(), len(g.state.line_next)
((0,), 4)
"""

from __future__ import annotations

import random
from typing import Any

from engine.core.actions import Action
from engine.core.chance import fresh_seed
from engine.core.errors import NotYourTurn, UndoError
from engine.core.protocol import CHANCE
from engine.kingdomino import legal, rounds, scoring, views
from engine.kingdomino.data import GameData, load
from engine.kingdomino.options import Options
from engine.kingdomino.refusals import REFUSALS as REFUSALS
from engine.kingdomino.refusals import check_chance, check_move, refuse
from engine.kingdomino.refusals import placement_refusal as placement_refusal
from engine.kingdomino.state import State
from engine.kingdomino.steps import CLAIM as CLAIM
from engine.kingdomino.steps import DISCARD as DISCARD
from engine.kingdomino.steps import DRAW as DRAW
from engine.kingdomino.steps import KING as KING
from engine.kingdomino.steps import OVER as OVER
from engine.kingdomino.steps import PLACE as PLACE
from engine.kingdomino.steps import STEP_NAMES as STEP_NAMES
from engine.kingdomino.verbs import VERBS


class Game:
    """One game (or Dynasty match) of Kingdomino: the protocol over `self.state`."""

    state: State

    def __init__(
        self,
        options: Options,
        data: GameData | None = None,
        source: Game | None = None,
        rng: random.Random | None = None,
    ) -> None:
        """A new game; or, given `source` and `rng`, a copy for playouts (see `clone`)."""
        data = data if data is not None else load()
        if source is not None and rng is not None:
            self.state = State(options, data, source.state, rng)
            return
        self.state = State(options, data)
        rounds.auto_chance(self.state)

    @property
    def history(self) -> list[tuple[int, Action]]:
        """The (player, action) pairs taken so far (a playout copy keeps none)."""
        return self.state.history

    @property
    def options(self) -> Options:
        return self.state.options

    # ------------------------------------------------------------------ who acts, what is legal
    def current_players(self) -> tuple[int, ...]:
        return self.state.acting()

    def is_terminal(self) -> bool:
        return self.state.is_over()

    def legal_actions(self, player: int | None = None) -> list[Action]:
        return legal.legal_actions(self.state, player)

    def is_legal(self, player: int, action: Action | str) -> bool:
        """Whether `player` may take `action` now (exactly the actions `legal_actions` lists;
        never raises)."""
        return legal.is_legal(self.state, player, action)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance step, each outcome with the probability the dealer draws it with
        (engine.kingdomino.legal.chance_outcomes); `[]` when chance does not act now."""
        return legal.chance_outcomes(self.state)

    def parse(self, text: str) -> Action:
        return legal.parse(self.state, text)

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action | str, player: int | None = None) -> None:
        state = self.state
        if isinstance(action, str):
            action = legal.parse(state, action)
        text = str(action)
        actors = state.acting()
        if not actors:
            raise refuse(text, "the game is over", "game_over")
        if player is None:
            player = actors[0]
        if player not in actors:
            who = "chance" if actors[0] == CHANCE else state.options.players[actors[0]]
            raise NotYourTurn(
                text, f"it is {who}'s turn", key="kingdomino.refuse.not_your_turn", params={}
            )
        if action.kind not in VERBS:
            raise refuse(text, f"unknown action {action.kind!r}", "unknown_action")
        if player == CHANCE:
            check_chance(state, action)
            rounds.chance(state, action)
            rounds.auto_chance(state)
            return
        move = check_move(state, action)
        if state.step == PLACE:
            state.saved_kingdom = state.kingdoms[player].copy()
        state.history.append((player, action))
        state.steps += 1
        rounds.play(state, move)

    # ------------------------------------------------------------------ undo
    def can_undo(self, player: int) -> bool:
        """Within one king's turn only: a placement (or discard) until the claim."""
        state = self.state
        return (
            state.step == CLAIM
            and state.line != []
            and state.saved_kingdom is not None
            and bool(state.history)
            and state.history[-1][0] == player
            and state.history[-1][1].kind in ("place", "discard")
        )

    def undo(self, player: int) -> Action:
        state = self.state
        saved = state.saved_kingdom
        if not self.can_undo(player) or saved is None:
            raise UndoError(
                "nothing to undo: only your placement can be taken back, before you claim"
            )
        _, action = state.history.pop()
        state.steps -= 1
        if action.kind == "discard":
            state.discarded[player] -= 1
        state.kingdoms[player] = saved
        state.saved_kingdom = None
        state.step = PLACE
        return action

    # ------------------------------------------------------------------ scores and views
    def returns(self) -> list[int]:
        """Each seat's total: the finished games of a Dynasty plus the game in progress."""
        return scoring.totals(self.state)

    def seat_names(self) -> list[str]:
        return list(self.state.options.players)

    def view(self, viewer: int | None = None) -> dict[str, Any]:
        return views.view(self.state, viewer)

    def snapshot(self) -> dict[str, Any]:
        return views.snapshot(self.state)

    # ------------------------------------------------------------------ copies for playouts
    def clone(self, rng: random.Random | None = None) -> Game:
        """An independent copy (the game protocol's `clone`): it shares only immutable tables
        (the data, the options and set-up, the actions); a dealer game's clone deals from a
        fresh unpredictable seed, never the real game's future dominoes. Given `rng`, a copy
        for playouts instead: it always deals (from `rng`) and keeps no history."""
        state = self.state
        if rng is not None:
            return Game(state.options, state.data, source=self, rng=rng)
        clone = Game(state.options, state.data, source=self, rng=random.Random(fresh_seed()))
        copy = clone.state
        copy.dealer = state.dealer
        if not (state.dealer or state.chance_rng is not None):
            copy.chance_rng = None  # table mode: chance is entered, never drawn
        copy.recording = state.recording
        copy.history = state.history[:]
        saved = state.saved_kingdom
        copy.saved_kingdom = None if saved is None else saved.copy()
        return clone

    def resume_as(self, options: Options) -> None:
        """After a replay in table mode, go on with the original options (a dealer deals on)."""
        self.state.options = options
        self.state.dealer = options.mode == "dealer"
        rounds.auto_chance(self.state)
