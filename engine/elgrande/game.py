"""The El Grande rules engine: one `Game` is one game state that moves by actions.

Shaped like an OpenSpiel game state: `current_players()` says who acts now (a seat, several seats
at once for secret choices, `CHANCE` for a card to be revealed, or nobody when the game is over),
`legal_actions()` lists what they may do, `apply()` does it. The history of actions is the game's
serialisation: replaying it rebuilds the exact state.

In **table mode** the players enter chance outcomes (which region and action cards were revealed)
as actions; in **dealer mode** the engine draws them itself: from the system's unpredictable
source, or from a generator seeded by `Options.seed` when one is given (tests, self-play).
Card effects live in `effects.py`, pending decisions in `frames.py`.

>>> g = Game(Options(players=("purple", "green", "blue", "orange"), mode="dealer", seed=7))
>>> g.phase, g.round_number
('power', 1)
>>> g.current_players() == (g.first,)
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any, Final

from engine.core.actions import Action, shared_action
from engine.core.chance import dealer_draw, fresh_seed
from engine.core.errors import IllegalAction, NotationError, NotYourTurn, UndoError
from engine.elgrande import data as gamedata
from engine.elgrande import effects, views
from engine.elgrande.board import CHANCE, CHANCE_PHASES, STATE_FIELDS, UNSEEN, Board, Frame
from engine.elgrande.castillo_fix import FIX_VERB, apply_fix, read_fix
from engine.elgrande.explain import KEY_PREFIX, explain
from engine.elgrande.frames import (
    DONE,
    ChoiceFrame,
    DiscFrame,
    PassFrame,
    RecallFrame,
    VetoFrame,
)
from engine.elgrande.options import Options, Throw, Turn, Veto
from engine.elgrande.verbs import VERBS

__all__ = ["CHANCE", "Game", "Options", "Throw", "Turn", "Veto", "new_game"]

SPECIAL: Final = Action("special")
SKIP: Final = Action("skip")
GREY: Final = Action("grey")
_TURN_PHASES: Final = frozenset({"take", "card", "main"})
_UNDO_BARRIERS: Final = VERBS.undo_barriers
_COLOUR_ARGS: Final = VERBS.arg_positions("colour")
_AREA_ARGS: Final = VERBS.arg_positions("area")
_CARD_ACTIONS: Final[dict[str, Action]] = {}
# `reveal <slot> <card>` per slot (1-5) and card: made once, shared (actions are immutable)
_REVEAL_ACTIONS: Final[list[dict[str, Action]]] = [{} for _ in range(6)]


def _reveal_action(slot: int, card: str) -> Action:
    known = _REVEAL_ACTIONS[slot]
    action = known.get(card)
    if action is None:
        action = known[card] = Action("reveal", str(slot), card)
    return action


class Game(Board):
    """One game of El Grande (see the module docstring): the rules driver on the board model."""

    def __init__(
        self, options: Options, data: gamedata.GameData | None = None, source: Game | None = None
    ) -> None:
        """A new game; given `source`, a copy of it (`clone`)."""
        super().__init__(options, data, source)
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
            cached = self._compute_legal(player) if player in actors else []
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
        actions = [a for a in self._chance_actions() if a.arg2 != UNSEEN]
        pool = self._chance_pool()
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
                slot = self._reveal_slot()
                pool = self.decks[slot]
                chosen = _reveal_action(slot, pool[self._draw(len(pool))])
            elif phase in ("setup_remove", "setup_deal"):
                pool = self._chance_pool() or []
                card = pool[self._draw(len(pool))]
                chosen = next(a for a in self._chance_actions() if a.arg2 == card)
            else:
                options = self._chance_actions()
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
        replayed = Game.replay(self.options, self.history[:-1], data=self.data)
        seed = self.dealer_seed  # a clone keeps dealing from its own seed
        self._take_state(replayed)
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

    # ------------------------------------------------------------------ chance steps
    def _chance_pool(self) -> list[str] | None:
        """For a card draw, the cards (one per copy) it is drawn from; None for other steps."""
        if self.phase == "reveal":
            return self.decks[self._reveal_slot()]
        if self.phase == "setup_remove":
            return self._removal_pool()
        if self.phase == "setup_deal":
            return self.grey_deck
        return None

    def _removal_pool(self) -> list[str]:
        deck = self.data.cards[self.pending_alternatives[0]].deck
        return self.decks[deck]

    def _chance_actions(self) -> list[Action]:
        phase = self.phase
        if phase == "setup_first":
            return list(self.layout.first_actions)
        if phase == "setup_remove":
            deck = str(self.data.cards[self.pending_alternatives[0]].deck)
            named = [shared_action("remove", deck, c) for c in dict.fromkeys(self._removal_pool())]
            # At the table the card goes back in the box unseen: `remove <deck> ?`.
            return named if self._dealer else [*named, Action("remove", deck, UNSEEN)]
        if phase == "setup_king":
            kingcards = self.layout.kingcard_actions
            return [kingcards[r] for r in self.region_cards]
        if phase == "setup_home":
            homes = self.layout.home_actions[self.home_seat()]
            return [homes[r] for r in self.region_cards]
        if phase == "setup_deal":
            colour = self.colours[self.deal_seat()]
            return [shared_action("deal", colour, g) for g in dict.fromkeys(self.grey_deck)]
        if phase == "dummy_regions":
            dummycards = self.layout.dummycard_actions
            return [dummycards[r] for r in self.dummy_deck]
        if phase == "dummy_power":
            return [shared_action("dummypower", str(v)) for v in self.hands[self.dummy]]
        slot = self._reveal_slot()
        return [_reveal_action(slot, c) for c in dict.fromkeys(self.decks[slot])]

    def _card_action(self, card_id: str) -> Action:
        action = _CARD_ACTIONS.get(card_id)
        if action is None:
            action = _CARD_ACTIONS[card_id] = Action("card", card_id)
        return action

    def _compute_legal(self, player: int) -> list[Action]:
        if self.frame is not None:
            return self.frame.legal(self, player)
        phase = self.phase
        if phase == "main":
            assert self.turn is not None
            return self._main_actions(self.turn)
        if phase in CHANCE_PHASES:
            return self._chance_actions()
        if phase == "power":
            return self._power_actions(player)
        turn = self.turn
        assert turn is not None
        if phase == "take":
            most = min(turn.take, self.province[player] + self.board_supply(player))
            return self.take_actions[: most + 1]
        return [self._card_action(c) for c in self.face_up if c]  # phase "card"

    def _power_actions(self, player: int) -> list[Action]:
        played = self.played
        taken = [self.totals[p] for p in range(self.n) if played[p]]
        if taken:
            plain = [self.power_actions[v] for v in self.hands[player] if v not in taken]
        else:  # nobody has played yet: the whole hand
            plain = [self.power_actions[v] for v in self.hands[player]]
        if not self.grey_hands[player]:
            return plain
        cards = self.data.grey_cards
        return plain + [
            shared_action("shift", str(v), grey)
            for v in self.hands[player]
            for grey in dict.fromkeys(self.grey_hands[player])
            if v + cards[grey].value not in taken
        ]

    def _main_actions(self, turn: Turn) -> list[Action]:
        if not turn.placed and turn.place_left and self.court[turn.player]:
            if turn.infiltrate:
                acts = [self.place_actions[a] for a in self.placement_targets()]
            else:
                acts = list(self.layout.place_actions_by_king[self.king])
        else:
            acts = []
        if turn.placing:
            acts.append(DONE)
        elif turn.special == 0:
            acts.append(SPECIAL)
            acts.append(SKIP)
        elif not turn.placed:
            acts.append(DONE)
        return acts

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
        """The rule of the current phase (no pending step): the most frequent first."""
        phase = self.phase
        if phase == "main":
            self._do_main(player, action)
        elif phase == "power":
            self._do_power(player, action)
        elif phase == "take":
            self._do_take(player, action)
        elif phase == "card":
            self._do_card(player, action)
        elif phase == "reveal":
            self._do_reveal(player, action)
        elif phase == "dummy_power":
            self._do_dummy_power(player, action)
        elif phase == "dummy_regions":
            self._do_dummy_regions(player, action)
        elif phase == "setup_home":
            self._do_setup_home(player, action)
        elif phase == "setup_king":
            self._do_setup_king(player, action)
        elif phase == "setup_first":
            self._do_setup_first(player, action)
        elif phase == "setup_remove":
            self._do_setup_remove(player, action)
        elif phase == "setup_deal":
            self._do_setup_deal(player, action)
        else:
            raise AssertionError(f"no rule for phase {phase!r}")

    def _after_frame(self, frame: Frame) -> None:
        if isinstance(frame, VetoFrame):
            if self.turn is not None and self.turn.special == 1 and not self.ops_context:
                self._ask_veto_or_run()
                return
        elif isinstance(frame, PassFrame):
            self._finish_pass(frame.chosen)
            return
        elif isinstance(frame, DiscFrame):
            self._record_reveal(frame)
            if frame.purpose == "general":
                self._finish_general_scoring(frame.chosen)
                return
            effects.resolve_discs(self, frame)
        elif isinstance(frame, RecallFrame) and not self.ops_context:
            self._after_take()
            return
        self._run_ops()

    def _record_reveal(self, frame: DiscFrame) -> None:
        """The discs are turned face up: who chose which region becomes public."""
        general = frame.purpose == "general"
        self.disc_reveals.append(
            {
                "card": "general" if general else self.card_in_play(),
                "round": self.rounds[self.round_index - 1] if general else self.round_number,
                "discs": {self.colours[p]: self.tok[r] for p, r in sorted(frame.chosen.items())},
            }
        )

    # --- set-up
    def _do_setup_first(self, player: int, action: Action) -> None:
        self.first = self.colour(action.arg)
        self.phase = "setup_remove" if self.pending_alternatives else "setup_king"
        if not self.pending_alternatives:
            self._merge_decks()

    def _do_setup_remove(self, player: int, action: Action) -> None:
        self.pending_alternatives.pop(0)
        if action.arg2 == UNSEEN:
            # The deck's list keeps every candidate, one of them no longer there.
            self.unseen_set_aside[int(action.arg)] += 1
        else:
            self.decks[int(action.arg)].remove(action.arg2)
        if not self.pending_alternatives:
            # Every card is set aside before the alternative cards go in: none is set aside.
            for alternative in self.options.alternatives:
                self.decks[self.data.cards[alternative].deck].append(alternative)
            self._merge_decks()
            self.phase = "setup_king"

    def _merge_decks(self) -> None:
        if 3 not in self.slots:
            self.decks[2] += self.decks[3]
            self.decks[3] = []
            self.unseen_set_aside[2] += self.unseen_set_aside[3]
            self.unseen_set_aside[3] = 0

    def _do_setup_king(self, player: int, action: Action) -> None:
        self.king = self.area(action.arg)
        self.region_cards.remove(self.king)
        self.phase = "setup_home"

    def _do_setup_home(self, player: int, action: Action) -> None:
        seat = self.home_seat()
        region = self.area(action.arg2)
        self.region_cards.remove(region)
        self.grandes[seat] = region
        self.pieces[region][seat] += self.data.start_caballeros
        self.court[seat] += self.data.court_at_start
        self.province[seat] -= self.data.start_caballeros + self.data.court_at_start
        self.home_pos += 1
        if self.home_pos < len(self.seats):
            return
        self.region_cards = list(range(self.R))  # back in the box, or the dummy's deck
        if self.dummy >= 0:
            self.dummy_deck = list(range(self.R))
        if self.options.power_shift:
            self.phase = "setup_deal"
        else:
            self._start_round()

    def _do_setup_deal(self, player: int, action: Action) -> None:
        seat = self.deal_seat()
        self.grey_deck.remove(action.arg2)
        self.grey_hands[seat].append(action.arg2)
        self.deal_pos += 1
        if self.deal_pos == 3 * len(self.seats):
            options = {
                p: [shared_action("pass", g) for g in dict.fromkeys(self.grey_hands[p])]
                for p in self.seats
            }
            self.phase = "setup_pass"
            self.frame = PassFrame(options=options)

    def _finish_pass(self, chosen: dict[int, str]) -> None:
        for p, grey in chosen.items():
            self.grey_hands[p].remove(grey)
        for p, grey in chosen.items():
            left = self.opponents_from_left(p)[0]
            self.grey_hands[left].append(grey)
        self._start_round()

    # --- rounds
    def _start_round(self) -> None:
        self.face_up[4] = self.king_card
        self.played = [0] * self.n
        self.totals = [0] * self.n
        self.played_grey = [""] * self.n
        self.taken = [""] * self.n
        seats = self.seats
        start = seats.index(self.first)
        self.power_order = [seats[(start + i) % len(seats)] for i in range(len(seats))]
        self.power_pos = 0
        if self.dummy >= 0 and self.province[self.dummy] and self.dummy_deck:
            self.dummy_draws = 2
            self.phase = "dummy_regions"
        else:
            self._begin_reveals()

    def _do_dummy_regions(self, player: int, action: Action) -> None:
        region = self.area(action.arg)
        self.dummy_deck.remove(region)
        if region != self.king:
            count = min(2, self.province[self.dummy])
            self.province[self.dummy] -= count
            self.pieces[region][self.dummy] += count
        self.dummy_draws -= 1
        if not self.dummy_draws or not self.province[self.dummy] or not self.dummy_deck:
            self._begin_reveals()

    def _begin_reveals(self) -> None:
        self.phase = "reveal"
        self._next_reveal()

    def _reveal_slot(self) -> int:
        slot = self.next_pending_slot()
        if not slot:
            raise AssertionError("no deck to reveal")
        return slot

    def _next_reveal(self) -> None:
        if self.next_pending_slot():
            return
        self.phase = "dummy_power" if self.dummy >= 0 else "power"

    def _do_reveal(self, player: int, action: Action) -> None:
        slot = int(action.arg)
        self.decks[slot].remove(action.arg2)
        self.face_up[slot - 1] = action.arg2
        self._next_reveal()

    def _do_dummy_power(self, player: int, action: Action) -> None:
        value = int(action.arg)
        self.hands[self.dummy].remove(value)
        self.played[self.dummy] = self.totals[self.dummy] = value
        self.phase = "power"

    def _do_power(self, player: int, action: Action) -> None:
        value = int(action.arg)
        self.hands[player].remove(value)
        self.played[player] = self.totals[player] = value
        if action.kind == "shift":
            grey = action.arg2
            self.grey_hands[player].remove(grey)
            self.played_grey[player] = grey
            self.totals[player] = value + self.data.grey_cards[grey].value
        self.power_pos += 1
        if self.power_pos == len(self.power_order):
            players = [p for p in range(self.n) if self.played[p]]
            # highest total first; stable, as a sort on the negated total would be
            self.turn_order = sorted(players, key=self.totals.__getitem__, reverse=True)
            self.turn_pos = 0
            self._start_turn()

    def _start_turn(self) -> None:
        while self.turn_pos < len(self.turn_order):
            player = self.turn_order[self.turn_pos]
            if player != self.dummy:
                take = self.data.power_caballeros[self.played[player] - 1]
                self.turn = Turn(
                    player=player,
                    take=take,
                    first_action=len(self.history),
                    first_throw=len(self.throws),
                )
                self.phase = "take"
                return
            self._dummy_turn()
            self.turn_pos += 1
        self.turn = None
        self._end_round()

    def _dummy_turn(self) -> None:
        """The dummy takes the face-up card that places the most caballeros and discards it."""
        cards = self.data.cards
        slots = [s for s in range(5) if self.face_up[s]]
        if not slots:
            return
        slot = max(slots, key=lambda s: (cards[self.face_up[s]].place, s))
        card = self.face_up[slot]
        self.face_up[slot] = ""
        self.taken[self.dummy] = card
        if card != self.king_card:
            self.used_cards.append(card)

    def _do_take(self, player: int, action: Action) -> None:
        count = int(action.arg)
        from_province = min(count, self.province[player])
        self.province[player] -= from_province
        self.court[player] += from_province
        self.phase = "card"
        if count > from_province:
            self.frame = RecallFrame(actor=player, left=count - from_province)
        else:
            self._after_take()

    def _after_take(self) -> None:
        """Power Shift: a played modifier's special effect comes before the action card."""
        turn = self.turn
        assert turn is not None
        grey = self.played_grey[turn.player]
        effect = self.data.grey_cards[grey].effect if grey else ()
        if effect:
            self.ops_context = "grey"
            self.frame = ChoiceFrame(
                actor=turn.player, choices=[GREY, SKIP], kind="grey", payload=effect
            )

    def _do_card(self, player: int, action: Action) -> None:
        turn = self.turn
        assert turn is not None
        slot = self.face_up.index(action.arg)
        self.face_up[slot] = ""
        if action.arg != self.king_card:
            self.used_cards.append(action.arg)
        turn.card = action.arg
        self.taken[player] = action.arg
        card = self.data.cards[action.arg]
        turn.place_left = card.place
        self.phase = "main"
        if any(op["op"] == "veto" for op in card.effect):
            # "Having chosen the Veto card, you lay it face up in front of you": no special
            # action to do or skip; it is the card itself that acts later.
            effects.op_veto(self, {"op": "veto"}, player)
            turn.special = 2

    def _do_main(self, player: int, action: Action) -> None:
        turn = self.turn
        assert turn is not None
        kind = action.kind
        if kind == "place":
            area = self.layout.exact_area[action.arg]
            court = self.court
            court[player] -= 1
            self.pieces[area][player] += 1
            if area == self.CASTILLO:
                self._announce_throw(player, player)
            turn.place_left -= 1
            if turn.place_left and court[player]:
                turn.placing = True
                return  # still placing: the turn cannot end yet
            turn.placing = False
            turn.placed = True
        elif kind == "done":
            turn.placing = False
            turn.placed = True
        elif kind == "skip":
            turn.special = 2
        elif kind == "special":
            turn.special = 1
            self.veto_queue = self._veto_holders(player) if self.vetoes else []
            self._ask_veto_or_run()
            return
        self._maybe_end_turn()

    def _veto_holders(self, player: int) -> list[int]:
        """Who may veto `player`'s special action, clockwise from their left: each holder is
        asked once, however many Vetoes they hold."""
        holders = {v.holder for v in self.vetoes if v.holder != player}
        return sorted(holders, key=lambda h: (h - player) % self.n)

    def _ask_veto_or_run(self) -> None:
        turn = self.turn
        assert turn is not None
        if self.veto_queue:
            self.frame = VetoFrame(actor=self.veto_queue.pop(0), against=turn.player)
            return
        self.ops = [dict(op) for op in self.data.cards[turn.card].effect]
        self.ops_context = "special"
        self._run_ops()

    def resolve_veto(self, frame: VetoFrame, vetoed: bool) -> None:
        if not vetoed:
            return  # _after_frame asks the next holder or runs the special action
        # A holder of two Vetoes spends the one that expires first.
        veto = min(
            (v for v in self.vetoes if v.holder == frame.actor), key=lambda v: v.expires_after_round
        )
        self.vetoes.remove(veto)
        self.used_cards.append(veto.card)
        self.veto_queue = []
        self.ops = []
        assert self.turn is not None
        self.turn.special = 2

    def resolve_choice(self, frame: ChoiceFrame, action: Action) -> None:
        effects.resolve_choice(self, frame, action)

    def _run_ops(self) -> None:
        turn = self.turn
        assert turn is not None
        while self.frame is None and self.ops:
            effects.start(self, self.ops.pop(0), turn.player)
        if self.frame is not None:
            return
        context, self.ops_context = self.ops_context, ""
        if context == "special":
            turn.special = 2
            self._maybe_end_turn()
        elif turn.special == 2:  # a vetoed special action
            self._maybe_end_turn()

    def _maybe_end_turn(self) -> None:
        turn = self.turn
        assert turn is not None
        nothing_to_place = not turn.place_left or not self.court[turn.player]
        if turn.special == 2 and not turn.placing and not turn.placed and nothing_to_place:
            turn.placed = True
        if turn.placed and turn.special == 2:
            self.turn_pos += 1
            self._start_turn()

    def _end_round(self) -> None:
        for slot in range(5):
            card = self.face_up[slot]
            if card and card != self.king_card:
                self.used_cards.append(card)
            self.face_up[slot] = ""
        # the lowest total starts the next round; a tie goes to the earlier seat
        totals = self.totals
        first = self.seats[0]
        for p in self.seats:
            if totals[p] < totals[first]:
                first = p
        self.first = first
        for p in range(self.n):
            value = self.played[p]
            if value and value not in self.hands[p]:  # not taken back by Power of attorney
                self.power_discards[p].append(value)
            grey = self.played_grey[p]
            if grey and grey not in self.grey_hands[p]:
                self.grey_discards[p].append(grey)
        for veto in [v for v in self.vetoes if v.expires_after_round <= self.round_index]:
            self.vetoes.remove(veto)
            self.used_cards.append(veto.card)
        number = self.round_number
        self.score_history.append({"round": number, "scores": list(self.scores)})
        self.round_index += 1
        if number in self.data.scoring_after:
            self._start_general_scoring()
        else:
            self._start_round()

    # ------------------------------------------------------------------ general scoring
    def _start_general_scoring(self) -> None:
        self.phase = "scoring"
        if self.king == self.CASTILLO:
            self._finish_general_scoring({})  # Revolt: the castillo keeps its pieces
            return
        options = {p: [self.disc_actions[r] for r in range(self.R)] for p in self.seats}
        self.frame = DiscFrame(options=options, purpose="general")

    def _finish_general_scoring(self, discs: dict[int, int]) -> None:
        results = [self.score(self.CASTILLO)]
        moved: dict[str, str] = {}
        castillo = self.pieces[self.CASTILLO]
        for p in range(self.n):
            if p not in discs:
                continue
            count, castillo[p] = castillo[p], 0
            target = discs[p]
            to_court = target == self.king
            if to_court:
                self.court[p] += count
            else:
                self.pieces[target][p] += count
                if self.grandes[p] == self.CASTILLO:  # Tournament: it leaves with its owner's
                    self.grandes[p] = target
            moved[self.colours[p]] = "court" if to_court else self.tok[target]
        if self.dummy >= 0 and discs:
            # The dummy sets no disc: its castillo caballeros go back to its supply.
            self.province[self.dummy] += castillo[self.dummy]
            castillo[self.dummy] = 0
        results += [self.score(r) for r in range(self.R)]
        revealed = {self.colours[p]: self.tok[r] for p, r in discs.items()}
        self.record_scoring("general", results, discs=revealed, moved=moved)
        if self.dummy >= 0:
            self.dummy_deck = list(range(self.R))  # reshuffled after each general scoring
        if self.round_index >= len(self.rounds):
            self.phase = "over"
        else:
            self._start_round()

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
