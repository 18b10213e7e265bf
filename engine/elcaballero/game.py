"""The base game of El Caballero as a state on the game platform (docs/elcaballero-rules.md).

Setup (chance): the start card, then the market of 5. Each of the 7 rounds: the power cards,
played face up one by one clockwise (EC-34), then the turns from the highest card down; after
the last turn the market is refilled (chance). Scorings after rounds 4 and 7. In table mode the
players enter the chance steps (`start CARD`, `reveal CARD`: a description or a catalogue id);
in dealer mode the engine deals from the catalogue (seeded for tests).

>>> game = Game(Options(players=("red", "blue"), mode="dealer", seed=3, catalogue="synthetic"))
>>> game.current_players(), game.phase
((0,), 'power')
>>> game.apply("power 13"); game.apply("power 9", 1); game.current_players()
(0,)
"""

from __future__ import annotations

from typing import Any

from engine.core.actions import Action
from engine.core.chance import fresh_seed
from engine.core.errors import IllegalAction, NotationError, NotYourTurn, UndoError
from engine.core.protocol import CHANCE
from engine.elcaballero import checks, rounds
from engine.elcaballero.board import CaballeroCard, cell_name
from engine.elcaballero.cards import CardError, card_from_text
from engine.elcaballero.catalogue import Catalogue, load_synthetic
from engine.elcaballero.legal import DONE, REINFORCE, turn_actions
from engine.elcaballero.notation import parse_cell, parse_spot, spot_name
from engine.elcaballero.options import Options
from engine.elcaballero.refusals import Refusal
from engine.elcaballero.rounds import CHANCE_PHASES, auto_chance, auto_reinforce, chance_actions
from engine.elcaballero.rules import load_rules
from engine.elcaballero.scoring import map_points
from engine.elcaballero.state import Saved, State
from engine.elcaballero.steps import EXTENDED_VERBS, do
from engine.elcaballero.verbs import VERBS
from engine.elcaballero.views import public_view

__all__ = [
    "CHANCE_PHASES",
    "DONE",
    "EXTENDED_VERBS",
    "REINFORCE",
    "Game",
    "parse_cell",
    "parse_spot",
    "spot_name",
]


def _illegal(action: Action, refused: Refusal) -> IllegalAction:
    return IllegalAction(str(action), refused.reason, refused.key, refused.params)


class Game(State):
    """One game (engine.core.protocol.GameState): the state (engine.elcaballero.state) with
    the game protocol on top; the rules are in the modules of each part (`rounds`, `steps`,
    `checks`, `extended`, `legal`, `views`)."""

    def __init__(
        self, options: Options, catalogue: Catalogue | None = None, source: Game | None = None
    ) -> None:
        """A new game; given `source`, a copy of it (`clone`)."""
        if source is not None:
            # a dealer game's copy deals from a fresh unpredictable seed
            self.copy_from(source, fresh_seed())
            return
        options.check()
        if catalogue is None and options.catalogue == "synthetic":
            catalogue = load_synthetic()
        if options.mode == "dealer" and catalogue is None:
            raise ValueError(
                "dealer mode deals from a catalogue: choose the synthetic one (not the real "
                "cards) or supply your own"
            )
        super().__init__(options, load_rules(), catalogue)
        auto_chance(self)

    def clone(self) -> Game:
        """An independent copy (the game protocol's `clone`, see `State.copy_from`). A dealer
        game's clone deals from a fresh unpredictable seed: never the real game's future
        cards."""
        return Game(self.options, self.catalogue, self)

    def is_legal(self, player: int, action: Action | str) -> bool:
        """Whether `player` may take `action` now (the actions `legal_actions` lists, in any
        form `apply` accepts; never raises). Without a catalogue, a chance step accepts any
        valid card description, as `apply` does."""
        try:
            if isinstance(action, str):
                action = self.parse(action)
            if player not in self.current_players():
                return False
            if self.phase in CHANCE_PHASES and self.catalogue is None:
                if action.kind != self.phase:
                    return False
                card = card_from_text(action.arg)
                if self.phase == "start":
                    return rounds.start_ok(self, card)
                return self.pile_left > 0
            return self._canonical(action) in self.legal_actions(player)
        except (NotationError, CardError, ValueError):
            return False

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance step, each card with the probability the dealer draws it with (uniform
        by copy among the cards the step may turn up); `[]` when chance does not act now.
        Without a catalogue the deck is unknown: the plain shapes `legal_actions` lists, each
        as likely (a stand-in for search, not the real deck)."""
        if self.phase not in CHANCE_PHASES:
            return []
        if self.catalogue is None:
            shapes = chance_actions(self)
            return [(action, 1 / len(shapes)) for action in shapes]
        pool = rounds.pool(self)
        counts: dict[str, int] = {}
        for card_id in pool:
            counts[card_id] = counts.get(card_id, 0) + 1
        verb = self.phase
        return [(Action(verb, card_id), counts[card_id] / len(pool)) for card_id in sorted(counts)]

    def projected_scores(self) -> list[int]:
        """Each seat's score if the game ended now: the points so far plus what the map would
        score at the next scoring (none once the game is over). Changes nothing: the computer
        players' one-ply measure."""
        if self.phase == "over":
            return list(self.scores)
        now = map_points(
            self.board, self.rules.layout, self.n, self.totals(), self.options.two_player_tie
        )
        return [self.scores[p] + now[p] for p in range(self.n)]

    def area_actions(self, player: int) -> list[Action]:
        """The area card steps `player` may take now ([] when none is due or none fits): the
        `area` actions of `legal_actions`, without listing the rest (for computer players)."""
        if (
            self.phase != "turn"
            or player not in self.current_players()
            or not checks.area_open(self)
        ):
            return []
        checks.area_spots(self, player)
        return list(self.cache.spot_actions)

    def determinize(self, seat: int, seed: int) -> Game:
        """A copy for a computer player of `seat` to search: everything that seat cannot know
        is redrawn. In El Caballero that is the order of the cards still face down (the power
        cards are played face up, so every hand is known): the copy deals from the cards not
        yet seen, as the public history tells them, with a dealer of its own seeded by `seed`,
        never the real game's. Without a catalogue (a table game) the copy does not deal: its
        chance steps are the searcher's (`chance_outcomes`). `seat` is unused: every seat sees
        the same."""
        copy = self.clone()
        copy.dealer_seed = seed
        copy.dealing = self.catalogue is not None
        auto_chance(copy)
        return copy

    # ---------------------------------------------------------------- the protocol
    def seat_names(self) -> list[str]:
        return list(self.options.players)

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def returns(self) -> list[int]:
        return list(self.scores)

    def current_players(self) -> tuple[int, ...]:
        if self.phase in CHANCE_PHASES:
            return (CHANCE,)
        if self.phase == "power":
            return ((self.power_starter + self.power_turn) % self.n,)
        if self.phase == "turn":
            return (self.order[self.turn_index],)
        return ()

    def parse(self, text: str) -> Action:
        action = VERBS.parse(text)
        kind = action.kind
        if kind in ("start", "reveal"):
            return action
        if kind == "power":
            if not action.arg.isdigit():
                raise NotationError(f"a power card is a number 1 to 13: {text!r}")
            return Action(kind, str(int(action.arg)))
        if kind == "area":
            if not action.arg.isdigit():
                raise NotationError(f"a market slot is a number: {text!r}")
            key, side = parse_spot(action.arg2)
            return Action(kind, str(int(action.arg)), spot_name(key, side))
        if kind in ("knight", "raise"):
            key, side = parse_spot(action.arg)
            if not action.arg2.isdigit():
                raise NotationError(f"a caballero number is 1 to 8: {text!r}")
            return Action(kind, spot_name(key, side), str(int(action.arg2)))
        if kind in ("ship", "reship", "shipback"):
            key, side = parse_spot(action.arg)
            return Action(kind, spot_name(key, side))
        if kind == "moveship":
            a, b = parse_spot(action.arg), parse_spot(action.arg2)
            return Action(kind, spot_name(*a), spot_name(*b))
        if kind in ("castillo", "withdraw", "grande"):
            return Action(kind, cell_name(parse_cell(action.arg)))
        if kind in ("governor", "lakeship"):
            if not action.arg2.isdigit():
                raise NotationError(f"a region is its index on the card, 0, 1, ...: {text!r}")
            return Action(kind, cell_name(parse_cell(action.arg)), str(int(action.arg2)))
        if kind == "knightgrande":
            key, side = parse_spot(action.arg)
            if not action.arg2.isdigit():
                raise NotationError(f"a caballero number is 1 to 8: {text!r}")
            return Action(kind, spot_name(key, side), str(int(action.arg2)))
        if kind in ("movecastillo", "movegrande"):
            a_key, b_key = parse_cell(action.arg), parse_cell(action.arg2)
            return Action(kind, cell_name(a_key), cell_name(b_key))
        return action

    def apply(self, action: Action | str, player: int | None = None) -> None:
        if isinstance(action, str):
            action = self.parse(action)
        actors = self.current_players()
        if not actors:
            raise _illegal(action, Refusal("over"))
        if player is None:
            player = actors[0]
        if player not in actors:
            who = "chance" if actors[0] == CHANCE else self.options.players[actors[0]]
            refused = Refusal("not_your_turn", {"who": who})
            raise NotYourTurn(str(action), refused.reason, refused.key, refused.params)
        if action.kind not in VERBS:
            raise _illegal(action, Refusal("unknown", {"verb": action.kind}))
        action = self._canonical(action)
        undoable = player >= 0 and self.phase == "turn" and action.kind != "done"
        if undoable and self.turn_saved is None:
            self.turn_saved = Saved(self)
        try:
            do(self, player, action)
        except (Refusal, ValueError) as error:  # ValueError: an Action built by hand, malformed
            if undoable:  # the checks come before the changes; this makes sure of it
                self._rewind(len(self.history))
            if isinstance(error, Refusal):
                raise _illegal(action, error) from None
            raise
        self._record(player, action)
        if not undoable:
            self.turn_saved = None
        auto_chance(self)

    def _record(self, player: int, action: Action) -> None:
        self.history.append((player, action))
        if self.options.automatic_reinforcements and self.phase == "turn":
            auto_reinforce(self)

    def _rewind(self, upto: int) -> None:
        """Back to the start of the turn, then the turn's steps again up to history[upto]."""
        saved = self.turn_saved
        assert saved is not None
        steps = self.history[saved.history_length : upto]
        saved.restore(self)
        for player, action in steps:
            do(self, player, action)
            self._record(player, action)

    def legal_actions(self, player: int | None = None) -> list[Action]:
        actors = self.current_players()
        if not actors:
            return []
        if player is None:
            player = actors[0]
        if player not in actors:
            return []
        if self.phase in CHANCE_PHASES:
            return chance_actions(self)
        if self.phase == "power":
            taken = set(self.played)
            return [Action("power", str(v)) for v in self.hands[player] if v not in taken]
        return turn_actions(self, player)

    def can_undo(self, player: int) -> bool:
        return (
            self._undo_depth() > 0
            and self.phase == "turn"
            and player in self.current_players()
            and self.history[-1][0] == player
        )

    def _undo_depth(self) -> int:
        """The steps of this turn that can be taken back."""
        saved = self.turn_saved
        return 0 if saved is None else len(self.history) - saved.history_length

    def undo(self, player: int) -> Action:
        """Take back the acting seat's last step of this turn (never past a power card, the end
        of a turn or a chance step)."""
        if not self.can_undo(player):
            raise UndoError("nothing to undo: a card was revealed or the turn passed")
        undone = self.history[-1][1]
        self._rewind(len(self.history) - 1)
        return undone

    def resume_as(self, options: Options) -> None:
        self.options = options
        self.dealing = options.mode == "dealer"
        self.dealer_seed = options.seed
        auto_chance(self)

    def _canonical(self, action: Action) -> Action:
        """A caballero card next to sea only may be entered turned any way: it is recorded with
        the number facing north (the same card on the map)."""
        if action.kind != "knight" or self.phase != "turn":
            return action
        try:
            key, side = parse_spot(action.arg)
        except NotationError:
            return action
        if side == 0 or self.board.land_sides(key) or not action.arg2.isdigit():
            return action
        number = int(action.arg2)
        front = self.rules.layout[0]
        if number not in front:
            return action
        rotation = (side - front.index(number)) % 4
        return Action("knight", spot_name(key, 0), str(front[(0 - rotation) % 4]))

    # ---------------------------------------------------------------- views
    def view(self, viewer: int | None = None) -> dict[str, Any]:
        out = public_view(self, self.current_players())
        if viewer is not None and 0 <= viewer < self.n:
            out["hand"] = list(self.hands[viewer])
            out["legal"] = [str(a) for a in self.legal_actions(viewer)]
            out["can_undo"] = self.can_undo(viewer)
        return out

    def snapshot(self) -> dict[str, Any]:
        out = self.view(None)
        out["hands"] = [list(h) for h in self.hands]
        out["pile_cards"] = list(self.pile)
        out["turn_raw"] = list(self.turn)
        out["placed_now"] = sorted(self.placed_now)
        out["undo_depth"] = self._undo_depth()
        return out

    # ---------------------------------------------------------------- the rules' small parts
    # (engine.elcaballero.checks and rounds, as methods for callers of the game)
    def totals(self) -> dict[int, list[int]]:
        """Each land region's caballeros per player (kept while the map stays; read only)."""
        return checks.totals(self)

    def number(self, card: CaballeroCard, side: int) -> int:
        return checks.number(self, card, side)

    def own(self, player: int, key: int) -> CaballeroCard:
        return checks.own(self, player, key)

    def pay(self, player: int, cost: int) -> None:
        checks.pay(self, player, cost)

    def cap_court(self, player: int) -> None:
        checks.cap_court(self, player)

    def court_cap(self, player: int) -> int:
        return checks.court_cap(self, player)

    def may_place_card(self, player: int) -> bool:
        return checks.may_place_card(self, player)

    def check_new_card(self, player: int, key: int) -> None:
        checks.check_new_card(self, player, key)

    def check_ship_purchase(self) -> None:
        checks.check_ship_purchase(self)

    def can_buy_ship(self, court: int) -> bool:
        return checks.can_buy_ship(self, court)

    def must_go(self, key: int) -> bool:
        return checks.must_go(self, key)

    def lands_differ(self, key: int) -> bool:
        return checks.lands_differ(self, key)

    def remove(self, key: int, returned: int, grande_left: bool = False) -> None:
        checks.remove(self, key, returned, grande_left)

    def _knight_check(self, player: int, key: int, side: int, number: int) -> tuple[int, int, int]:
        """(card side, rotation, cost) of a new caballero card, or a Refusal (checks)."""
        return checks.knight_check(self, player, key, side, number)

    def _score(self) -> None:
        """The scoring of the map now (rounds.score)."""
        rounds.score(self)
