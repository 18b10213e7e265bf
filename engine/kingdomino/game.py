"""Kingdomino's rules driver and the platform's protocol (engine.core.protocol.GameState).

A game is a sequence of rounds. The set-up round: a line is drawn (`draw`, one domino at a time,
the line sorted by number), then the kings are drawn one by one (`king`) and each drawn king
claims a domino of it. Every later round: the next line is drawn, and each king in the order of
the current line places its domino (`place`, or `discard` when it fits nowhere) and claims one
of the next line (`claim`). When the pile is used up, a last round of placements only. A
domino nobody claims (the wider draft) is discarded when the line becomes current.

Chance steps (`draw`, `king`) are entered at the table (table mode: any number not seen yet,
since the dominoes removed at the start are never revealed) or drawn by the dealer. Moves also
have a fast integer form for computer players (`moves()`, `play()`): a placement `cell*4+dir`,
`DISCARD`, or a claimed domino's number.

>>> g = Game(Options(players=("pink", "blue"), mode="dealer", seed=3))
>>> g.current_players(), len(g.line_next)
((0,), 4)
"""

from __future__ import annotations

import random
from typing import Any

from engine.core.actions import Action
from engine.core.chance import dealer_draw, fresh_seed
from engine.core.errors import IllegalAction, NotationError, NotYourTurn, UndoError
from engine.core.protocol import CHANCE
from engine.kingdomino import kingdom as kd
from engine.kingdomino import views
from engine.kingdomino.data import GameData, load
from engine.kingdomino.options import Options, Setup, check
from engine.kingdomino.refusals import REFUSALS as REFUSALS
from engine.kingdomino.refusals import check_chance, check_move, refuse
from engine.kingdomino.refusals import placement_refusal as placement_refusal
from engine.kingdomino.scoring import Breakdown
from engine.kingdomino.state import State
from engine.kingdomino.steps import CLAIM as CLAIM
from engine.kingdomino.steps import DISCARD as DISCARD
from engine.kingdomino.steps import DRAW as DRAW
from engine.kingdomino.steps import KING as KING
from engine.kingdomino.steps import OVER as OVER
from engine.kingdomino.steps import PLACE as PLACE
from engine.kingdomino.steps import STEP_NAMES as STEP_NAMES
from engine.kingdomino.verbs import VERBS


class Game(State):
    """One game (or Dynasty match) of Kingdomino."""

    def __init__(
        self,
        options: Options,
        data: GameData | None = None,
        source: Game | None = None,
        rng: random.Random | None = None,
    ) -> None:
        """A new game; or, given `source` and `rng`, a copy for playouts (see `clone`)."""
        self.options = options
        self.data = data if data is not None else load()
        if source is not None and rng is not None:
            self._copy(source, rng)
            return
        check(options)
        self.setup = Setup(options)
        self.dealer = options.mode == "dealer"
        self.chance_rng = None
        self.recording = True
        self.history = []
        self.steps = 0
        self.game_number = 0
        self.past = []
        self._saved_kingdom = None
        self._new_game()
        self._auto_chance()

    # ------------------------------------------------------------------ set-up and rounds
    def _line_drawn(self) -> None:
        """A full line is out: sorted; the first of a game is picked in a drawn king order."""
        self.line_next.sort()
        self.next_kings = [-1] * len(self.line_next)
        if not self.line:
            self.step = KING
        else:
            self._begin_round()

    def _begin_round(self) -> None:
        self.order = [king for king in self.line_kings if king >= 0]
        self.turn = 0
        self.step = PLACE

    def _advance(self) -> None:
        """The acting king is done: the next king, or the end of the round."""
        self.turn += 1
        if not self.line and self.kings_left():
            self.step = KING  # the set-up round: the next king is drawn
            return
        if self.turn < len(self.order):
            self.step = PLACE if self.line else CLAIM
            return
        claimed = [slot for slot, king in enumerate(self.next_kings) if king >= 0]
        for slot, king in enumerate(self.next_kings):
            if king < 0:  # nobody claimed it (the wider draft): out of the game
                self.left_over.append(self.line_next[slot])
        self.line = [self.line_next[slot] for slot in claimed]
        self.line_kings = [self.next_kings[slot] for slot in claimed]
        self.line_next, self.next_kings = [], []
        self.order, self.turn = [], 0
        if not self.line:
            self._end_game()
        elif self.drawn < self.setup.dominoes:
            self.step = DRAW
        else:
            self._begin_round()  # the last round: placements only

    def _end_game(self) -> None:
        self.past.append([self.breakdown(seat).total for seat in range(self.setup.players)])
        if len(self.past) < self.setup.games:
            self.game_number += 1
            self._new_game()
        else:
            self.step = OVER

    # ------------------------------------------------------------------ chance
    def _auto_chance(self) -> None:
        while self.step in (DRAW, KING) and (self.dealer or self.chance_rng is not None):
            if self.step == DRAW:
                pool = self.unseen
                self._chance(Action("draw", str(pool[self._draw(len(pool))])))
            else:
                left = self.kings_left()
                seat = self.setup.seat_of_king[left[self._draw(len(left))]]
                self._chance(Action("king", self.options.players[seat]))

    def _draw(self, count: int) -> int:
        if self.chance_rng is not None:
            return self.chance_rng.randrange(count)
        return dealer_draw(self.options.seed, self.steps, count)

    def _chance(self, action: Action) -> None:
        if self.recording:
            self.history.append((CHANCE, action))
        self.steps += 1
        if action.kind == "draw":
            number = int(action.arg)
            self.seen[number] = True
            self.unseen.remove(number)
            self.drawn += 1
            self.line_next.append(number)
            if len(self.line_next) == self.setup.line:
                self._line_drawn()
        else:
            seat = self.options.players.index(action.arg)
            king = next(k for k in self.kings_left() if self.setup.seat_of_king[k] == seat)
            self.kings_drawn.append(king)
            self.order = self.kings_drawn[:]
            self.turn = len(self.kings_drawn) - 1
            self.step = CLAIM

    # ------------------------------------------------------------------ what is legal
    def play(self, move: int) -> None:
        """Apply a move of `moves()` (no check; computer players' playouts)."""
        if self.step == PLACE:
            self._place(move)
        else:
            self._claim(move)
        self._auto_chance()

    def legal_actions(self, player: int | None = None) -> list[Action]:
        actors = self.current_players()
        if not actors or (player is not None and player not in actors):
            return []
        if self.step == DRAW:
            return [Action("draw", str(n)) for n in self.data.numbers() if not self.seen[n]]
        if self.step == KING:
            seats = sorted({self.setup.seat_of_king[k] for k in self.kings_left()})
            return [Action("king", self.options.players[seat]) for seat in seats]
        return [self.move_action(move) for move in self.moves()]

    def move_action(self, move: int) -> Action:
        if self.step == CLAIM:
            return Action("claim", str(move))
        number = str(self.current_domino())
        if move == DISCARD:
            return Action("discard", number)
        return Action("place", number, self.placement_text(move))

    # ------------------------------------------------------------------ notation
    def parse(self, text: str) -> Action:
        action = VERBS.parse(text)
        if action.kind == "king":
            colour = action.arg.lower()
            if colour not in self.options.players:
                raise NotationError(f"{action.arg!r} is not a colour in this game")
            return Action("king", colour)
        if not action.arg.isdigit():
            raise NotationError(f"'{action.kind}' takes a domino number: {text!r}")
        number = str(int(action.arg))
        if action.kind != "place":
            return Action(action.kind, number)
        move = self.parse_placement(action.arg2)
        data, n = self.data, int(number)
        if 1 <= n <= data.count and (data.terrain_a[n], data.crowns_a[n]) == (
            data.terrain_b[n],
            data.crowns_b[n],
        ):
            move = self._canonical_twin(move)
        return Action("place", number, self.placement_text(move))

    def _canonical_twin(self, move: int) -> int:
        """A twin domino named from its second half (west, north) names the same squares from
        the first (east, south)."""
        if move & 3 in (kd.EAST, kd.SOUTH):
            return move
        mirrored = self.kingdoms[0].mirror(move)
        other = mirrored >> 2
        return mirrored if self.kingdoms[0].terrain[other] != kd.BLOCKED else move

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action | str, player: int | None = None) -> None:
        if isinstance(action, str):
            action = self.parse(action)
        text = str(action)
        actors = self.current_players()
        if not actors:
            raise refuse(text, "the game is over", "game_over")
        if player is None:
            player = actors[0]
        if player not in actors:
            who = "chance" if actors[0] == CHANCE else self.options.players[actors[0]]
            raise NotYourTurn(
                text, f"it is {who}'s turn", key="kingdomino.refuse.not_your_turn", params={}
            )
        if action.kind not in VERBS:
            raise refuse(text, f"unknown action {action.kind!r}", "unknown_action")
        if player == CHANCE:
            check_chance(self, action)
            self._chance(action)
        else:
            move = check_move(self, action)
            if self.step == PLACE:
                self._saved_kingdom = self.kingdoms[player].copy()
            self.history.append((player, action))
            self.steps += 1
            self.play(move)
            return
        self._auto_chance()

    def _place(self, move: int) -> None:
        seat = self.setup.seat_of_king[self.order[self.turn]]
        if move == DISCARD:
            self.discarded[seat] += 1
        else:
            n, data = self.current_domino(), self.data
            self.kingdoms[seat].place(
                move, data.terrain_a[n], data.crowns_a[n], data.terrain_b[n], data.crowns_b[n]
            )
        if self.line_next:
            self.step = CLAIM
        else:
            self._advance()

    def _claim(self, number: int) -> None:
        self.next_kings[self.line_next.index(number)] = self.order[self.turn]
        self._advance()

    # ------------------------------------------------------------------ undo
    def can_undo(self, player: int) -> bool:
        """Within one king's turn only: a placement (or discard) until the claim."""
        return (
            self.step == CLAIM
            and self.line != []
            and self._saved_kingdom is not None
            and bool(self.history)
            and self.history[-1][0] == player
            and self.history[-1][1].kind in ("place", "discard")
        )

    def undo(self, player: int) -> Action:
        saved = self._saved_kingdom
        if not self.can_undo(player) or saved is None:
            raise UndoError(
                "nothing to undo: only your placement can be taken back, before you claim"
            )
        _, action = self.history.pop()
        self.steps -= 1
        if action.kind == "discard":
            self.discarded[player] -= 1
        self.kingdoms[player] = saved
        self._saved_kingdom = None
        self.step = PLACE
        return action

    # ------------------------------------------------------------------ scores and views
    def breakdown(self, seat: int) -> Breakdown:
        return Breakdown(
            self.kingdoms[seat],
            self.options.middle_kingdom,
            self.options.harmony,
            self.discarded[seat],
        )

    def returns(self) -> list[int]:
        """Each seat's total: the finished games of a Dynasty plus the game in progress."""
        totals = [sum(game[seat] for game in self.past) for seat in range(self.setup.players)]
        if self.step != OVER:
            totals = [t + self.breakdown(s).total for s, t in enumerate(totals)]
        return totals

    def seat_names(self) -> list[str]:
        return list(self.options.players)

    def view(self, viewer: int | None = None) -> dict[str, Any]:
        return views.view(self, viewer)

    def snapshot(self) -> dict[str, Any]:
        return views.snapshot(self)

    # ------------------------------------------------------------------ copies for playouts
    def clone(self, rng: random.Random | None = None) -> Game:
        """An independent copy (the game protocol's `clone`): it shares only immutable tables
        (the data, the options and set-up, the actions); a dealer game's clone deals from a
        fresh unpredictable seed, never the real game's future dominoes. Given `rng`, a copy
        for playouts instead: it always deals (from `rng`) and keeps no history."""
        if rng is not None:
            return Game(self.options, self.data, source=self, rng=rng)
        clone = Game(self.options, self.data, source=self, rng=random.Random(fresh_seed()))
        clone.dealer = self.dealer
        if not (self.dealer or self.chance_rng is not None):
            clone.chance_rng = None  # table mode: chance is entered, never drawn
        clone.recording = self.recording
        clone.history = self.history[:]
        saved = self._saved_kingdom
        clone._saved_kingdom = None if saved is None else saved.copy()
        return clone

    def is_legal(self, player: int, action: Action | str) -> bool:
        """Whether `player` may take `action` now (exactly the actions `legal_actions` lists;
        never raises)."""
        actors = self.current_players()
        if player not in actors:
            return False
        try:
            if isinstance(action, str):
                action = self.parse(action)
            if action.kind not in VERBS:
                return False
            if player == CHANCE:
                check_chance(self, action)
            else:
                check_move(self, action)
        except (IllegalAction, NotationError, ValueError):
            return False
        return True

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance step, each outcome with the probability the dealer draws it with: a
        domino uniformly among those not drawn yet; a king uniformly among those not drawn yet
        (a seat with two kings twice as likely). `[]` when chance does not act now."""
        if self.step == DRAW:
            pool = self.unseen
            return [(Action("draw", str(n)), 1 / len(pool)) for n in pool]
        if self.step == KING:
            left = self.kings_left()
            counts: dict[int, int] = {}
            for king in left:
                seat = self.setup.seat_of_king[king]
                counts[seat] = counts.get(seat, 0) + 1
            players = self.options.players
            return [
                (Action("king", players[seat]), count / len(left))
                for seat, count in sorted(counts.items())
            ]
        return []

    def resume_as(self, options: Options) -> None:
        """After a replay in table mode, go on with the original options (a dealer deals on)."""
        self.options = options
        self.dealer = options.mode == "dealer"
        self._auto_chance()
