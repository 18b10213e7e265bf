"""The El Grande rules engine: one `Game` is one game state that moves by actions.

Shaped like an OpenSpiel game state: `current_players()` says who acts now (a seat, several seats
at once for secret choices, `CHANCE` for a card to be revealed, or nobody when the game is over),
`legal_actions()` lists what they may do, `apply()` does it. The history of actions is the game's
serialisation: replaying it rebuilds the exact state.

In **table mode** the players enter chance outcomes (which region and action cards were revealed)
as actions; in **dealer mode** the engine draws them itself: from the system's unpredictable
source, or from a generator seeded by `Options.seed` when one is given (tests, self-play).
The state is the board (`board.py`: plain fields, its tables shared from `Layout`), which a
`Game` holds as `state`; who acts, the legal actions and one step applied are functions of it
in `driver.py`; each phase's rule is a function of it in `phase_setup.py`, `phase_round.py` or
`phase_turn.py` (`driver.PHASE_RULES`), the legal actions per phase in `legal.py`, card effects
in `effects.py`, pending decisions in `frames.py`; `Game` is the protocol over them.

>>> g = Game(Options(players=("purple", "green", "blue", "orange"), mode="dealer", seed=7))
>>> g.state.phase, g.state.round_number
('power', 1)
>>> g.current_players() == (g.state.first,)
True
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any, Final

from engine.core.actions import Action
from engine.core.chance import fresh_seed
from engine.core.errors import IllegalAction, NotationError, NotYourTurn, UndoError
from engine.elgrande import data as gamedata
from engine.elgrande import driver, legal, views
from engine.elgrande.board import CHANCE, CHANCE_PHASES, UNSEEN, Board
from engine.elgrande.castillo_fix import FIX_VERB, apply_fix, read_fix
from engine.elgrande.explain import KEY_PREFIX, explain
from engine.elgrande.options import Options, Throw, Turn, Veto
from engine.elgrande.verbs import VERBS

__all__ = ["CHANCE", "Game", "Options", "Throw", "Turn", "Veto", "new_game"]

_UNDO_BARRIERS: Final = VERBS.undo_barriers
_COLOUR_ARGS: Final = VERBS.arg_positions("colour")
_AREA_ARGS: Final = VERBS.arg_positions("area")


class Game:
    """One game of El Grande (see the module docstring): the game protocol over the state it
    holds (`state`, a `Board`)."""

    state: Board
    # With `keep_undo` (the games the platform plays: `spec.new_state`, `replay_start`) undo
    # restores the snapshot taken at the undo point (the state when the last barrier fell,
    # `checkpoint`) and applies the few steps after it again, never the whole history. Other
    # games (random self-play, benches, the copies computers think on) keep none, so their steps
    # cost no copy (a snapshot per undo point makes a random game about 1.7x slower); their undo
    # replays the history.
    keep_undo: bool
    _undo_point: Game | None

    def __init__(
        self, options: Options, data: gamedata.GameData | None = None, source: Game | None = None
    ) -> None:
        """A new game; given `source`, a copy of it (`clone`)."""
        self.keep_undo = False
        self._undo_point = None
        if source is not None:
            self.state = source.state.copy()
            return
        self.state = Board(options, data)
        driver.deal(self.state)

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """An independent copy of the state (Board.__deepcopy__), with no undo snapshot.
        Explicit, so that copy.deepcopy works on the compiled engine too."""
        clone = Game(self.state.options, self.state.data, self)
        clone.state = copy.deepcopy(self.state, memo)
        return clone

    @property
    def history(self) -> list[tuple[int, Action]]:
        """The (player, action) pairs taken so far: the game's serialisation."""
        return self.state.history

    @property
    def options(self) -> Options:
        """The game's options (those it resumed with after a replay: `resume_as`)."""
        return self.state.options

    def clone(self) -> Game:
        """An independent copy (the game protocol's `clone`): it shares only immutable tables
        (Board.copy_from). A dealer game's clone deals from a fresh unpredictable seed: never
        the real game's future cards (a computer searching it cannot see them)."""
        clone = Game(self.state.options, self.state.data, self)
        clone.state.dealer_seed = fresh_seed()
        return clone

    def is_legal(self, player: int, action: Action | str) -> bool:
        """Whether `player` may take `action` now (exactly the actions `legal_actions` lists;
        never raises). A castillo correction, entered by the table at any moment, is not one."""
        if isinstance(action, str):
            try:
                action = self.parse(action)
            except NotationError:
                return False
        if player not in driver.current_players(self.state):
            return False
        return action in driver.legal_actions(self.state, player)

    # ------------------------------------------------------------------ the public API
    def is_terminal(self) -> bool:
        return self.state.phase == "over"

    def current_players(self) -> tuple[int, ...]:
        state = self.state
        actors = state._actors
        if actors is None:
            actors = state._actors = driver.compute_actors(state)
        return actors

    def current_player(self) -> int:
        """The one seat to act (CHANCE for a chance step); several at once raise an error."""
        players = self.current_players()
        if len(players) != 1:
            raise ValueError(f"{len(players)} players act now; ask current_players()")
        return players[0]

    def legal_actions(self, player: int | None = None) -> list[Action]:
        state = self.state
        last = state._legal_last  # the last seat asked: no call on the hot path
        if last is not None and player is not None and state._legal_for == player:
            return last
        return driver.legal_actions(state, player)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The chance actions with their probabilities (cards are drawn uniformly by copy);
        `[]` when chance does not act now. The table's `remove <deck> ?` (a card set aside
        unseen) is an entry, not an outcome."""
        state = self.state
        if driver.current_players(state) != (CHANCE,):
            return []
        actions = [a for a in legal.chance_actions(state) if a.arg2 != UNSEEN]
        pool = legal.chance_pool(state)
        if pool is not None:
            return [(a, pool.count(a.arg2) / len(pool)) for a in actions]
        return [(a, 1 / len(actions)) for a in actions]

    def parse(self, text: str) -> Action:
        """Text notation to a canonical action (region and colour names in any accepted form)."""
        action = VERBS.parse(text)
        args = [self._canonical_arg(action.kind, i, a) for i, a in enumerate(action[1:]) if a]
        return Action(action.kind, *args)

    def _canonical_arg(self, kind: str, position: int, arg: str) -> str:
        state = self.state
        if _COLOUR_ARGS.get(kind) == position:
            index = state.colour_lookup.get(gamedata.fold(arg))
            if index is None:
                raise NotationError(f"{arg!r} is not a player's colour in this game")
            return state.colours[index]
        if _AREA_ARGS.get(kind) == position:
            try:
                return state.tok[state.area(arg)]
            except KeyError:
                raise NotationError(f"{arg!r} is not a region or area of the board") from None
        return arg

    def apply(self, action: Action | str, player: int | None = None) -> None:
        """Apply one action; an illegal one raises IllegalAction and changes nothing."""
        if isinstance(action, str):
            action = self.parse(action)
        if action.kind == FIX_VERB:
            self._fix_castillo(action, player)
            return
        state = self.state
        actors = state._actors or driver.current_players(state)
        if player is None:
            if len(actors) != 1:
                self._refuse_anonymous(action, actors)
            player = actors[0]
        elif player not in actors:
            self._refuse_out_of_turn(action, player, actors)
        legal = state._legal_last
        if legal is None or state._legal_for != player:
            legal = driver.legal_actions(state, player)
        for known in legal:  # the caller's action is usually one of the listed objects
            if known is action:
                break
        else:
            if action not in legal:
                refused = explain(state, player, action)
                raise IllegalAction(
                    str(action), refused.reason, key=refused.key, params=refused.params
                )
        # The hot path of every game: the steps are written out here, not called.
        history = state.history
        if self.keep_undo and player >= 0 and len(history) == state.checkpoint:
            self._undo_point = Game(state.options, state.data, self)  # the undo point's state
        history.append((player, action))
        driver.step(state, player, action)
        state._legal = {}
        state._legal_last = None
        state._actors = after = driver.compute_actors(state)
        # Undo never crosses a chance step, a revealed secret, a public power card, or a change
        # of who acts (BGA's policy).
        if player < 0 or actors != after or action.kind in _UNDO_BARRIERS or not after:
            state.checkpoint = len(history)
        if state._dealer and state.phase in CHANCE_PHASES:
            driver.deal(state)

    def _refuse_anonymous(self, action: Action, actors: tuple[int, ...]) -> None:
        if not actors:
            raise IllegalAction(str(action), "the game is over", key=KEY_PREFIX + "game_over")
        names = ", ".join(self.state.colours[p] for p in actors)
        raise IllegalAction(
            str(action),
            f"several players choose now ({names}): say who",
            key=KEY_PREFIX + "say_who",
        )

    def _refuse_out_of_turn(self, action: Action, player: int, actors: tuple[int, ...]) -> None:
        if not actors:
            raise IllegalAction(str(action), "the game is over", key=KEY_PREFIX + "game_over")
        colours = self.state.colours
        who = "chance" if actors == (CHANCE,) else ", ".join(colours[p] for p in actors)
        name = "chance" if player == CHANCE else colours[player]
        raise NotYourTurn(
            str(action),
            f"it is not {name}'s turn to act (now: {who})",
            key=KEY_PREFIX + "not_your_turn",
        )

    def _fix_castillo(self, action: Action, player: int | None) -> None:
        """A castillo correction (engine.elgrande.castillo_fix): entered by the table at any
        moment; public and never undone."""
        if self.is_terminal():
            raise IllegalAction(str(action), "the game is over", key=KEY_PREFIX + "game_over")
        if player not in (None, CHANCE):
            raise IllegalAction(
                str(action),
                "the table enters a castillo correction (actor chance), not a player",
                key=KEY_PREFIX + "fix_by_table",
            )
        state = self.state
        colour, delta, canonical = read_fix(state, action)
        apply_fix(state, colour, delta)
        state.history.append((CHANCE, canonical))
        driver.forget_derived(state)
        state.checkpoint = len(state.history)

    def can_undo(self, player: int) -> bool:
        return driver.can_undo(self.state, player)

    def undo(self, player: int) -> Action:
        """Take back the player's own last step of this turn (BGA policy: never past a reveal
        of hidden information, a chance step, or another player's action)."""
        state = self.state
        if not driver.can_undo(state, player):
            raise UndoError(
                "nothing to undo: hidden information was revealed or another player acted"
            )
        undone = state.history[-1][1]
        point = self._undo_point
        # (a snapshot of the game before it resumed from a replay has the replay's options)
        if (
            point is not None
            and len(point.state.history) == state.checkpoint
            and point.state.options is state.options
        ):
            restored = Game(point.state.options, point.state.data, point)  # the snapshot stays
            for player_, action in state.history[state.checkpoint : -1]:
                restored.apply(action, player_)
        else:  # no snapshot (a copy): the history again
            restored = Game.replay(state.options, state.history[:-1], data=state.data)
        restored.state.dealer_seed = state.dealer_seed  # a clone keeps dealing from its own seed
        self.state = restored.state
        return undone

    @classmethod
    def replay(
        cls,
        options: Options,
        history: Iterable[tuple[int, Action | str]],
        data: gamedata.GameData | None = None,
    ) -> Game:
        """Rebuild a game from its history; chance steps come from the history, not the RNG."""
        game = cls(dataclasses.replace(options, mode="table"), data)
        for player, action in history:
            game.apply(action, player)
        game.resume_as(options)
        return game

    def resume_as(self, options: Options) -> None:
        """After a replay in table mode, continue with the original options (a dealer game
        draws on exactly as it would have without the interruption)."""
        state = self.state
        state.options = options
        state._dealer = options.mode == "dealer"
        state.dealer_seed = options.seed
        driver.deal(state)

    # ------------------------------------------------------------------ outputs
    def snapshot(self) -> dict[str, Any]:
        """The full state (secrets included) as JSON-ready data, for tests and persistence."""
        return views.full_snapshot(self.state)

    def view(self, viewer: int | None = None) -> dict[str, Any]:
        """What one seat (or, with None, the public) may see."""
        return views.player_view(self.state, viewer)

    # ------------------------------------------------------------------ the game protocol
    def seat_names(self) -> list[str]:
        return list(self.state.colours)

    def returns(self) -> list[int]:
        return list(self.state.scores)


def new_game(players: Sequence[str], **kwargs: Any) -> Game:
    """A new game with default options for the given colours."""
    return Game(Options(players=tuple(players), **kwargs))
