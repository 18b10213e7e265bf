"""The El Grande rules engine: one `Game` is one game state that moves by actions.

Shaped like an OpenSpiel game state: `current_players()` says who acts now (a seat, several seats
at once for secret choices, `CHANCE` for a card to be revealed, or nobody when the game is over),
`legal_actions()` lists what they may do, `apply()` does it. The history of actions is the game's
serialisation: replaying it rebuilds the exact state.

In **table mode** the players enter chance outcomes (which region and action cards were revealed)
as actions; in **dealer mode** the engine draws them itself: from the system's unpredictable
source, or from a generator seeded by `Options.seed` when one is given (tests, self-play).
The state is the board (`board.py`, its tables shared from `Layout`); each phase's rule is a
function of it in `phase_setup.py`, `phase_round.py` or `phase_turn.py` (`PHASE_RULES` below),
the legal actions per phase in `legal.py`, card effects in `effects.py`, pending decisions in
`frames.py`; `Game` is the protocol over them.

>>> g = Game(Options(players=("purple", "green", "blue", "orange"), mode="dealer", seed=7))
>>> g.phase, g.round_number
('power', 1)
>>> g.current_players() == (g.first,)
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from engine.core.actions import Action
from engine.core.chance import dealer_draw, fresh_seed
from engine.core.errors import IllegalAction, NotationError, NotYourTurn, UndoError
from engine.elgrande import data as gamedata
from engine.elgrande import effects, legal, phase_round, phase_setup, phase_turn, views
from engine.elgrande.board import CHANCE, CHANCE_PHASES, STATE_FIELDS, UNSEEN, Board, Frame
from engine.elgrande.castillo_fix import FIX_VERB, apply_fix, read_fix
from engine.elgrande.explain import KEY_PREFIX, explain
from engine.elgrande.frames import ChoiceFrame, DiscFrame, PassFrame, RecallFrame, VetoFrame
from engine.elgrande.options import Options, Throw, Turn, Veto
from engine.elgrande.verbs import VERBS

__all__ = ["CHANCE", "Game", "Options", "Throw", "Turn", "Veto", "new_game"]

_TURN_PHASES: Final = frozenset({"take", "card", "main"})
_UNDO_BARRIERS: Final = VERBS.undo_barriers
_COLOUR_ARGS: Final = VERBS.arg_positions("colour")
_AREA_ARGS: Final = VERBS.arg_positions("area")

# The rule of each phase when no step is pending (a pending step is its frame's): it applies
# an action Game.apply has found legal. The turn's phases are in phase_turn, the round's in
# phase_round, the set-up's in phase_setup.
PhaseRule = Callable[[Board, int, Action], None]
PHASE_RULES: Final[dict[str, PhaseRule]] = {
    "main": phase_turn.do_main,
    "take": phase_turn.do_take,
    "card": phase_turn.do_card,
    "power": phase_round.do_power,
    "reveal": phase_round.do_reveal,
    "dummy_power": phase_round.do_dummy_power,
    "dummy_regions": phase_round.do_dummy_regions,
    "setup_first": phase_setup.do_setup_first,
    "setup_remove": phase_setup.do_setup_remove,
    "setup_king": phase_setup.do_setup_king,
    "setup_home": phase_setup.do_setup_home,
    "setup_deal": phase_setup.do_setup_deal,
}


class Game(Board):
    """One game of El Grande (see the module docstring): the rules driver on the board model."""

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
        super().__init__(options, data, source)
        self.keep_undo = False
        self._undo_point = None
        if source is None:
            self._auto_chance()

    def clone(self) -> Game:
        """An independent copy (the game protocol's `clone`): it shares only immutable tables
        (Board.copy_from). A dealer game's clone deals from a fresh unpredictable seed: never
        the real game's future cards (a computer searching it cannot see them)."""
        clone = Game(self.options, self.data, self)
        clone.dealer_seed = fresh_seed()
        return clone

    def is_legal(self, player: int, action: Action | str) -> bool:
        """Whether `player` may take `action` now (exactly the actions `legal_actions` lists;
        never raises). A castillo correction, entered by the table at any moment, is not one."""
        if isinstance(action, str):
            try:
                action = self.parse(action)
            except NotationError:
                return False
        if player not in self.current_players():
            return False
        return action in self.legal_actions(player)

    # ------------------------------------------------------------------ the public API
    def is_terminal(self) -> bool:
        return self.phase == "over"

    def current_players(self) -> tuple[int, ...]:
        actors = self._actors
        if actors is None:
            actors = self._actors = self._compute_actors()
        return actors

    def _compute_actors(self) -> tuple[int, ...]:
        if self.frame is not None:
            return self.frame.actors(self)
        turn = self.turn
        if turn is not None and self.phase in _TURN_PHASES:
            return (turn.player,)
        if self.phase in CHANCE_PHASES:
            return (CHANCE,)
        if self.phase == "power":
            return (self.power_order[self.power_pos],)
        return ()  # game over

    def current_player(self) -> int:
        """The one seat to act (CHANCE for a chance step); several at once raise an error."""
        players = self.current_players()
        if len(players) != 1:
            raise ValueError(f"{len(players)} players act now; ask current_players()")
        return players[0]

    def legal_actions(self, player: int | None = None) -> list[Action]:
        if player is None:
            players = self.current_players()
            if not players:
                return []
            player = players[0]
        last = self._legal_last  # the last seat asked: no dict lookup on the hot path
        if last is not None and self._legal_for == player:
            return last
        cached = self._legal.get(player)
        if cached is None:
            actors = self._actors or self.current_players()
            cached = legal.compute_legal(self, player) if player in actors else []
            self._legal[player] = cached
        self._legal_for = player
        self._legal_last = cached
        return cached

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The chance actions with their probabilities (cards are drawn uniformly by copy);
        `[]` when chance does not act now. The table's `remove <deck> ?` (a card set aside
        unseen) is an entry, not an outcome."""
        if self.current_players() != (CHANCE,):
            return []
        actions = [a for a in legal.chance_actions(self) if a.arg2 != UNSEEN]
        pool = legal.chance_pool(self)
        if pool is not None:
            return [(a, pool.count(a.arg2) / len(pool)) for a in actions]
        return [(a, 1 / len(actions)) for a in actions]

    def parse(self, text: str) -> Action:
        """Text notation to a canonical action (region and colour names in any accepted form)."""
        action = VERBS.parse(text)
        args = [self._canonical_arg(action.kind, i, a) for i, a in enumerate(action[1:]) if a]
        return Action(action.kind, *args)

    def _canonical_arg(self, kind: str, position: int, arg: str) -> str:
        if _COLOUR_ARGS.get(kind) == position:
            index = self.colour_lookup.get(gamedata.fold(arg))
            if index is None:
                raise NotationError(f"{arg!r} is not a player's colour in this game")
            return self.colours[index]
        if _AREA_ARGS.get(kind) == position:
            try:
                return self.tok[self.area(arg)]
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
        actors = self._actors or self.current_players()
        if player is None:
            if len(actors) != 1:
                self._refuse_anonymous(action, actors)
            player = actors[0]
        elif player not in actors:
            self._refuse_out_of_turn(action, player, actors)
        legal = self._legal_last
        if legal is None or self._legal_for != player:
            legal = self.legal_actions(player)
        for known in legal:  # the caller's action is usually one of the listed objects
            if known is action:
                break
        else:
            if action not in legal:
                refused = explain(self, player, action)
                raise IllegalAction(
                    str(action), refused.reason, key=refused.key, params=refused.params
                )
        # The hot path of every game: the steps are written out here, not called.
        history = self.history
        if self.keep_undo and player >= 0 and len(history) == self.checkpoint:
            self._undo_point = Game(self.options, self.data, self)  # the undo point's state
        history.append((player, action))
        frame = self.frame
        if frame is None:
            self._do_phase(player, action)
        elif frame.apply(self, player, action) and self.frame is frame:
            self.frame = None
            self._after_frame(frame)
        self._legal = {}
        self._legal_last = None
        self._actors = after = self._compute_actors()
        # Undo never crosses a chance step, a revealed secret, a public power card, or a change
        # of who acts (BGA's policy).
        if player < 0 or actors != after or action.kind in _UNDO_BARRIERS or not after:
            self.checkpoint = len(history)
        if self._dealer and self.phase in CHANCE_PHASES:
            self._auto_chance()

    def _refuse_anonymous(self, action: Action, actors: tuple[int, ...]) -> None:
        if not actors:
            raise IllegalAction(str(action), "the game is over", key=KEY_PREFIX + "game_over")
        names = ", ".join(self.colours[p] for p in actors)
        raise IllegalAction(
            str(action),
            f"several players choose now ({names}): say who",
            key=KEY_PREFIX + "say_who",
        )

    def _refuse_out_of_turn(self, action: Action, player: int, actors: tuple[int, ...]) -> None:
        if not actors:
            raise IllegalAction(str(action), "the game is over", key=KEY_PREFIX + "game_over")
        who = "chance" if actors == (CHANCE,) else ", ".join(self.colours[p] for p in actors)
        name = "chance" if player == CHANCE else self.colours[player]
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
        colour, delta, canonical = read_fix(self, action)
        apply_fix(self, colour, delta)
        self.history.append((CHANCE, canonical))
        self._legal = {}
        self._legal_last = None
        self._actors = self._compute_actors()
        self.checkpoint = len(self.history)

    def _auto_chance(self) -> None:
        if not self._dealer or self.phase not in CHANCE_PHASES:
            return
        while self.phase in CHANCE_PHASES and self.frame is None:
            phase = self.phase
            if phase == "reveal":
                # A uniform draw among the copies left.
                slot = legal.reveal_slot(self)
                pool = self.decks[slot]
                chosen = legal.reveal_action(slot, pool[self._draw(len(pool))])
            elif phase in ("setup_remove", "setup_deal"):
                pool = legal.chance_pool(self) or []
                card = pool[self._draw(len(pool))]
                chosen = next(a for a in legal.chance_actions(self) if a.arg2 == card)
            else:
                options = legal.chance_actions(self)
                chosen = options[self._draw(len(options))]
            self.history.append((CHANCE, chosen))
            self._do(CHANCE, chosen)
        # A chance step is always an undo barrier; who acts is known again after the batch.
        self._legal = {}
        self._legal_last = None
        self._actors = self._compute_actors()
        self.checkpoint = len(self.history)

    def _draw(self, count: int) -> int:
        """The dealer's uniform draw among `count` outcomes."""
        return dealer_draw(self.dealer_seed, len(self.history), count)

    def can_undo(self, player: int) -> bool:
        return (
            len(self.history) > self.checkpoint
            and self.history[-1][0] == player
            and player in self.current_players()
        )

    def undo(self, player: int) -> Action:
        """Take back the player's own last step of this turn (BGA policy: never past a reveal
        of hidden information, a chance step, or another player's action)."""
        if not self.can_undo(player):
            raise UndoError(
                "nothing to undo: hidden information was revealed or another player acted"
            )
        undone = self.history[-1][1]
        point = self._undo_point
        # (a snapshot of the game before it resumed from a replay has the replay's options)
        if (
            point is not None
            and len(point.history) == self.checkpoint
            and point.options is self.options
        ):
            restored = Game(point.options, point.data, point)  # the snapshot stays for the next
            for player_, action in self.history[self.checkpoint : -1]:
                restored.apply(action, player_)
        else:  # no snapshot (a copy): the history again
            restored = Game.replay(self.options, self.history[:-1], data=self.data)
        seed = self.dealer_seed  # a clone keeps dealing from its own seed
        self._take_state(restored)
        self.dealer_seed = seed
        return undone

    def _take_state(self, other: Game) -> None:
        """Become `other` (a replay of this game): every attribute, by name."""
        for name in STATE_FIELDS:
            setattr(self, name, getattr(other, name))

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
        self.options = options
        self._dealer = options.mode == "dealer"
        self.dealer_seed = options.seed
        self._auto_chance()

    # ------------------------------------------------------------------ applying
    def _do(self, player: int, action: Action) -> None:
        frame = self.frame
        if frame is not None:
            if frame.apply(self, player, action) and self.frame is frame:
                self.frame = None
                self._after_frame(frame)
            return
        self._do_phase(player, action)

    def _do_phase(self, player: int, action: Action) -> None:
        """The rule of the current phase (no pending step)."""
        rule = PHASE_RULES.get(self.phase)
        if rule is None:
            raise AssertionError(f"no rule for phase {self.phase!r}")
        rule(self, player, action)

    def _after_frame(self, frame: Frame) -> None:
        if isinstance(frame, VetoFrame):
            if self.turn is not None and self.turn.special == 1 and not self.ops_context:
                phase_turn.ask_veto_or_run(self)
                return
        elif isinstance(frame, PassFrame):
            phase_setup.finish_pass(self, frame.chosen)
            return
        elif isinstance(frame, DiscFrame):
            phase_round.record_reveal(self, frame)
            if frame.purpose == "general":
                phase_round.finish_general_scoring(self, frame.chosen)
                return
            effects.resolve_discs(self, frame)
        elif isinstance(frame, RecallFrame) and not self.ops_context:
            phase_turn.after_take(self)
            return
        phase_turn.run_ops(self)

    # ------------------------------------------------------------------ the board's hooks
    def resolve_choice(self, frame: ChoiceFrame, action: Action) -> None:
        effects.resolve_choice(self, frame, action)

    def resolve_veto(self, frame: VetoFrame, vetoed: bool) -> None:
        phase_turn.resolve_veto(self, frame, vetoed)

    # ------------------------------------------------------------------ outputs
    def snapshot(self) -> dict[str, Any]:
        """The full state (secrets included) as JSON-ready data, for tests and persistence."""
        return views.full_snapshot(self)

    def view(self, viewer: int | None = None) -> dict[str, Any]:
        """What one seat (or, with None, the public) may see."""
        return views.player_view(self, viewer)

    # ------------------------------------------------------------------ the game protocol
    def seat_names(self) -> list[str]:
        return list(self.colours)

    def returns(self) -> list[int]:
        return list(self.scores)


def new_game(players: Sequence[str], **kwargs: Any) -> Game:
    """A new game with default options for the given colours."""
    return Game(Options(players=tuple(players), **kwargs))
