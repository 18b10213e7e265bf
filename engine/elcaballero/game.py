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
from engine.core.chance import dealer_draw, fresh_seed
from engine.core.errors import IllegalAction, NotationError, NotYourTurn, UndoError
from engine.core.protocol import CHANCE
from engine.elcaballero import extended, listing
from engine.elcaballero.board import DELTA, DIRS, CaballeroCard, Governor, Map, cell_name
from engine.elcaballero.cards import LAND, SEA, CardDesc, CardError, card_from_text
from engine.elcaballero.catalogue import Catalogue, load_synthetic
from engine.elcaballero.extended import GRANDE_COURT, GRANDE_NONE
from engine.elcaballero.notation import parse_cell, parse_spot, spot_name
from engine.elcaballero.options import Options
from engine.elcaballero.placement import NOWHERE, area_placements
from engine.elcaballero.refusals import Refusal
from engine.elcaballero.rules import Rules, load_rules
from engine.elcaballero.scoring import caballero_totals, map_points, score_map
from engine.elcaballero.turn import (
    AREAS,
    AREAS_DUE,
    CASTILLOS,
    COUNTERS,
    GRANDE_MOVED,
    KNIGHTS,
    REINFORCED,
    SHIPS,
    WITHDRAWN,
    new_turn,
)
from engine.elcaballero.verbs import VERBS

CHANCE_PHASES = ("start", "reveal")
REINFORCE = Action("reinforce")
DONE = Action("done")
EXTENDED_VERBS = ("governor", "lakeship", "grande", "movegrande", "knightgrande")
__all__ = ["Game", "parse_cell", "parse_spot", "spot_name"]


def _illegal(action: Action, refused: Refusal) -> IllegalAction:
    return IllegalAction(str(action), refused.reason, refused.key, refused.params)


class Saved:
    """Everything a turn's step can change, as it was before the turn's first step: undo (and a
    refusal) restores it and replays the steps to keep, so a turn is copied once, not each
    step."""

    def __init__(self, game: Game) -> None:
        self.board = game.board.copy()
        self.court = list(game.court)
        self.stack = list(game.stack)
        self.court_ships = list(game.court_ships)
        self.ship_supply = game.ship_supply
        self.castillo_supply = game.castillo_supply
        self.market = list(game.market)
        self.turn = list(game.turn)
        self.placed_now = set(game.placed_now)
        self.governors_left = list(game.governors_left)
        self.grande_at = list(game.grande_at)
        self.log_length = len(game.log)
        self.history_length = len(game.history)

    def restore(self, game: Game) -> None:
        """Put this state back into the game (copies: it may be restored again)."""
        game.board = self.board.copy()
        game.court = list(self.court)
        game.stack = list(self.stack)
        game.court_ships = list(self.court_ships)
        game.ship_supply = self.ship_supply
        game.castillo_supply = self.castillo_supply
        game.market = list(self.market)
        game.turn = list(self.turn)
        game.placed_now = set(self.placed_now)
        game.governors_left = list(self.governors_left)
        game.grande_at = list(self.grande_at)
        del game.log[self.log_length :]
        del game.history[self.history_length :]


class Game:
    """One game (engine.core.protocol.GameState)."""

    def __init__(
        self, options: Options, catalogue: Catalogue | None = None, source: Game | None = None
    ) -> None:
        """A new game; given `source`, a copy of it (`clone`)."""
        if source is not None:
            self._copy_from(source)
            return
        options.check()
        self.options = options
        self.rules: Rules = load_rules()
        if catalogue is None and options.catalogue == "synthetic":
            catalogue = load_synthetic()
        if options.mode == "dealer" and catalogue is None:
            raise ValueError(
                "dealer mode deals from a catalogue: choose the synthetic one (not the real "
                "cards) or supply your own"
            )
        self.catalogue = catalogue
        self.size = self.rules.extended if options.extended else self.rules.base
        n = len(options.players)
        self.n = n
        self.history: list[tuple[int, Action]] = []
        self.board = Map()
        self.court = [self.rules.start_court] * n
        self.stack = [self.size.caballero_cards] * n  # caballero cards off the map
        self.court_ships = [0] * n
        self.ship_supply = self.size.ships
        self.castillo_supply = self.size.castillos
        self.governors_left = [self.size.governors] * n
        self.grande_at = [GRANDE_COURT if self.size.grandes else GRANDE_NONE] * n
        self.hands: list[list[int]] = [list(range(1, 14)) for _ in range(n)]
        self.scores = [0] * n
        self.scorings: list[dict[str, Any]] = []
        self.log: list[str] = []
        self.pile: list[str] = catalogue.deck() if catalogue is not None else []
        self.pile_left = 48 - 1  # cards face down (without a catalogue: counted only)
        self.market: list[CardDesc] = []
        self.phase = "start"
        self.round = 1
        self.power_starter = 0
        self.power_turn = 0  # how many have played this round
        self.played = [0] * n  # power card value played this round (0: not yet)
        self.order: list[int] = []  # turn order this round
        self.turn_index = 0
        self.turn = [0] * COUNTERS
        self.placed_now: set[int] = set()  # cells of caballero cards placed this turn
        self.turn_saved: Saved | None = None  # the state before this turn's first step
        self._version = 0  # bumped by every change: what the caches are valid for
        # caches, each valid for one map (identity) at one map version
        self._spots: tuple[str, list[tuple[int, int, int]]] = (NOWHERE, [])
        self._spot_actions: list[Action] = []
        self._spots_board: Map | None = None
        self._spots_key: tuple[int, ...] = ()
        self._totals: dict[int, list[int]] = {}
        self._totals_board: Map | None = None
        self._totals_at = -1
        self._dealer = options.mode == "dealer"
        self.dealer_seed: int | None = options.seed  # the dealer's (a clone's is its own)
        self._auto_chance()

    def _copy_from(self, source: Game) -> None:
        """Become an independent copy of `source`: the mutable containers are copied; shared
        are the options, the rules, the catalogue, the cards and actions (immutable), the
        scorings and log entries (written once), and the turn's saved start (`Saved`: never
        changed once made; restoring it copies). The caches still valid for the source's map
        are taken over for the copied map (they are read only and replaced, never changed, when
        a map changes: a search's copies do not list the area placements again)."""
        self.options = source.options
        self.rules = source.rules
        self.catalogue = source.catalogue
        self.size = source.size
        self.n = source.n
        self.history = source.history[:]
        self.board = source.board.copy()
        self.court = source.court[:]
        self.stack = source.stack[:]
        self.court_ships = source.court_ships[:]
        self.ship_supply = source.ship_supply
        self.castillo_supply = source.castillo_supply
        self.governors_left = source.governors_left[:]
        self.grande_at = source.grande_at[:]
        self.hands = [hand[:] for hand in source.hands]
        self.scores = source.scores[:]
        self.scorings = source.scorings[:]
        self.log = source.log[:]
        self.pile = source.pile[:]
        self.pile_left = source.pile_left
        self.market = source.market[:]
        self.phase = source.phase
        self.round = source.round
        self.power_starter = source.power_starter
        self.power_turn = source.power_turn
        self.played = source.played[:]
        self.order = source.order[:]
        self.turn_index = source.turn_index
        self.turn = source.turn[:]
        self.placed_now = set(source.placed_now)
        self.turn_saved = source.turn_saved
        self._version = source._version
        self._spots = (NOWHERE, [])
        self._spot_actions = []
        self._spots_board = None
        self._spots_key = ()
        self._totals = {}
        self._totals_board = None
        self._totals_at = -1
        board = source.board
        if source._spots_board is board:  # valid for the copied map (same version, market)
            self._spots = source._spots  # read only: the cache is replaced, never changed
            self._spot_actions = source._spot_actions
            self._spots_board = self.board
            self._spots_key = source._spots_key
        if source._totals_board is board and source._totals_at == board.version:
            self._totals = source._totals
            self._totals_board = self.board
            self._totals_at = source._totals_at
        self._dealer = source._dealer
        self.dealer_seed = fresh_seed()

    def clone(self) -> Game:
        """An independent copy (the game protocol's `clone`, see `_copy_from`). A dealer
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
                    return self._start_ok(card)
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
            shapes = self._chance_actions()
            return [(action, 1 / len(shapes)) for action in shapes]
        pool = self._pool()
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
        if self.phase != "turn" or player not in self.current_players() or not self._area_open():
            return []
        self._area_spots(player)
        return list(self._spot_actions)

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
        copy._dealer = self.catalogue is not None
        copy._auto_chance()
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
        self._version += 1
        undoable = player >= 0 and self.phase == "turn" and action.kind != "done"
        if undoable and self.turn_saved is None:
            self.turn_saved = Saved(self)
        try:
            self._do(player, action)
        except (Refusal, ValueError) as error:  # ValueError: an Action built by hand, malformed
            if undoable:  # the checks come before the changes; this makes sure of it
                self._rewind(len(self.history))
            self._version += 1
            if isinstance(error, Refusal):
                raise _illegal(action, error) from None
            raise
        self._version += 1  # the step changed the state: caches made during it are stale
        self._record(player, action)
        if not undoable:
            self.turn_saved = None
        self._auto_chance()

    def _record(self, player: int, action: Action) -> None:
        self.history.append((player, action))
        if self.options.automatic_reinforcements and self.phase == "turn":
            self._auto_reinforce()

    def _rewind(self, upto: int) -> None:
        """Back to the start of the turn, then the turn's steps again up to history[upto]."""
        saved = self.turn_saved
        assert saved is not None
        steps = self.history[saved.history_length : upto]
        saved.restore(self)
        for player, action in steps:
            self._version += 1  # caches made before this step are stale
            self._do(player, action)
            self._record(player, action)
        self._version += 1

    def legal_actions(self, player: int | None = None) -> list[Action]:
        actors = self.current_players()
        if not actors:
            return []
        if player is None:
            player = actors[0]
        if player not in actors:
            return []
        if self.phase in CHANCE_PHASES:
            return self._chance_actions()
        if self.phase == "power":
            taken = set(self.played)
            return [Action("power", str(v)) for v in self.hands[player] if v not in taken]
        return self._turn_actions(player)

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

    # ---------------------------------------------------------------- chance
    def _chance_actions(self) -> list[Action]:
        verb = self.phase
        if self.catalogue is not None:
            pool = self._pool()
            return [Action(verb, card_id) for card_id in sorted(set(pool))]
        # without a catalogue any valid description is accepted; these are the plain shapes
        return [Action(verb, text) for text in _PLAIN_SHAPES if verb == "reveal" or "L" in text]

    def _pool(self) -> list[str]:
        if self.phase == "start":
            assert self.catalogue is not None
            return [c for c in self.pile if self._start_ok(self.catalogue.cards[c])]
        return self.pile

    def _start_ok(self, card: CardDesc) -> bool:
        if self.options.start_card_needs_land:
            return card.start_ok
        return card.gold() == 0 and card.fish() == 0

    def _auto_chance(self) -> None:
        if not self._dealer:
            return
        while self.phase in CHANCE_PHASES:
            pool = self._pool()
            index = dealer_draw(self.dealer_seed, len(self.history), len(pool))
            chosen = Action(self.phase, pool[index])
            self._do(CHANCE, chosen)
            self._version += 1
            self.history.append((CHANCE, chosen))
            self.turn_saved = None  # a chance step is never undone

    def resume_as(self, options: Options) -> None:
        self.options = options
        self._dealer = options.mode == "dealer"
        self.dealer_seed = options.seed
        self._auto_chance()

    def _known_card(self, text: str) -> CardDesc:
        """A revealed card: a catalogue id with a copy left, or (no catalogue) a description."""
        if self.catalogue is not None:
            card = self.catalogue.get(text)
            if card is None:
                raise Refusal("not_in_catalogue", {"card": text})
            if text not in self.pile:
                raise Refusal("no_copy_left", {"card": text})
            return card
        try:
            return card_from_text(text)
        except CardError as bad:
            raise Refusal("bad_card", {"card": text, "reason": str(bad)}) from None

    def _do_chance(self, action: Action) -> None:
        if action.kind != self.phase:
            raise Refusal("wrong_chance", {"step": self.phase})
        if action.kind == "start":
            card = self._known_card(action.arg)
            if not self._start_ok(card):
                raise Refusal("start_card", {"card": action.arg})
            if self.catalogue is not None:
                self.pile.remove(action.arg)
            self.board.place_area(card, 0, 0, 0)
            self.log.append(f"start card {card.text}")
            self.phase = "reveal"
            return
        if self.pile_left <= 0 or (self.catalogue is not None and not self.pile):
            raise Refusal("pile_empty")
        card = self._known_card(action.arg)
        if self.catalogue is not None:
            self.pile.remove(action.arg)
        self.market.append(card)
        self.pile_left -= 1
        if len(self.market) >= self.size.market or self.pile_left <= 0:
            self._begin_powers()

    # ---------------------------------------------------------------- rounds
    def _begin_powers(self) -> None:
        self.phase = "power"
        self.power_turn = 0
        self.played = [0] * self.n

    def _do_power(self, player: int, value_text: str) -> None:
        value = int(value_text)
        if value not in self.hands[player]:
            raise Refusal("power_not_in_hand", {"value": value})
        if value in self.played:
            raise Refusal("power_taken", {"value": value})
        self.hands[player].remove(value)
        self.played[player] = value
        self.power_turn += 1
        if self.power_turn == self.n:
            self.order = sorted(range(self.n), key=lambda p: -self.played[p])
            self.turn_index = 0
            self.phase = "turn"
            self._begin_turn()

    def _begin_turn(self) -> None:
        player = self.order[self.turn_index]
        due = 2 if self.played[player] == self.rules.two_area_cards else 1
        self.turn = new_turn(due)
        self.placed_now = set()
        if self.options.automatic_reinforcements:
            self._auto_reinforce()

    def _auto_reinforce(self) -> None:
        if not self.turn[REINFORCED]:
            self._reinforce(self.order[self.turn_index])

    def _end_turn(self) -> None:
        self.turn_index += 1
        if self.turn_index < self.n:
            self._begin_turn()
            return
        if self.round in self.size.scorings:
            self._score()
        if self.round == self.size.rounds:
            self.phase = "over"
            return
        self.power_starter = self.order[-1]  # the last in turn order starts the next round
        self.round += 1
        wanted = self.size.market - len(self.market)
        can = self.pile_left if self.catalogue is None else min(self.pile_left, len(self.pile))
        if wanted > 0 and can > 0:  # EC-11: refill as far as the pile allows
            self.phase = "reveal"
        else:
            self._begin_powers()

    def _score(self) -> None:
        result = score_map(
            self.board,
            self.rules.layout,
            self.seat_names(),
            self.board.governors,
            self.options.two_player_tie,
        )
        for p, name in enumerate(self.options.players):
            self.scores[p] += int(result["totals"][name])
        result["round"] = self.round
        self.scorings.append(result)
        self.log.append(f"scoring after round {self.round}")

    # ---------------------------------------------------------------- one step
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

    def _do(self, player: int, action: Action) -> None:
        kind = action.kind
        if player == CHANCE:
            self._do_chance(action)
            return
        if self.phase == "power":
            if kind != "power":
                raise Refusal("play_power")
            self._do_power(player, action.arg)
            return
        if kind in ("power", "start", "reveal"):
            raise Refusal("wrong_phase")
        if kind in EXTENDED_VERBS:
            self._do_extended(player, action)
        elif kind == "reinforce":
            self._reinforce(player)
        elif kind == "area":
            self._do_area(player, action)
        elif kind == "knight":
            self._do_knight(player, action)
        elif kind == "raise":
            self._do_raise(player, action)
        elif kind == "ship":
            self._do_ship(player, action)
        elif kind == "reship":
            self._do_reship(player, action)
        elif kind == "castillo":
            self._do_castillo(player, action)
        elif kind == "withdraw":
            self._do_withdraw(player, action)
        elif kind == "shipback":
            self._do_shipback(player, action)
        elif kind == "moveship":
            self._do_moveship(player, action)
        elif kind == "movecastillo":
            self._do_movecastillo(player, action)
        else:
            self._do_done(player)

    def _do_extended(self, player: int, action: Action) -> None:
        if not self.options.extended:
            raise Refusal("extended_only")
        kind = action.kind
        if kind == "governor":
            extended.do_governor(self, player, action)
        elif kind == "lakeship":
            extended.do_lakeship(self, player, action)
        elif kind == "grande":
            extended.do_grande(self, player, action)
        elif kind == "movegrande":
            extended.do_movegrande(self, player, action)
        else:
            extended.do_knightgrande(self, player, action)

    # ---------------------------------------------------------------- turn actions
    def _reinforce(self, player: int) -> None:
        if self.turn[REINFORCED]:
            raise Refusal("reinforced")
        self.turn[REINFORCED] = 1
        self.court[player] += self.rules.power_caballeros[self.played[player] - 1]
        self.cap_court(player)

    def cap_court(self, player: int) -> None:
        if self.options.court_capacity:
            cap = self.court_cap(player)
            if self.court[player] > cap:
                self.log.append(
                    f"{self.options.players[player]} loses {self.court[player] - cap} "
                    "caballeros (court full)"
                )
                self.court[player] = cap

    def court_cap(self, player: int) -> int:
        """8 per caballero card off the map (EC-10). With none left the court empties (EC-21);
        the option last_card_empties_court=False keeps it, at most one card's 8."""
        cards = self.stack[player]
        if not self.options.last_card_empties_court:
            cards = max(cards, 1)
        return self.rules.court_per_card * cards

    def pay(self, player: int, cost: int) -> None:
        if self.court[player] < cost:
            raise Refusal("court_short", {"court": self.court[player], "cost": cost})
        self.court[player] -= cost

    def _area_spots(self, player: int) -> tuple[str, list[tuple[int, int, int]]]:
        """Where the market's cards may go now (kept while the map and the market stay)."""
        key = (self.board.version, player, *(id(card) for card in self.market))
        if self._spots_board is not self.board or self._spots_key != key:
            self._spots = area_placements(self.board, self.market, player)
            self._spot_actions = [
                listing.area(index + 1, cell, north) for index, north, cell in self._spots[1]
            ]
            self._spots_board = self.board
            self._spots_key = key
        return self._spots

    def totals(self) -> dict[int, list[int]]:
        """Each land region's caballeros per player (kept while the map stays; read only)."""
        board = self.board
        if self._totals_board is not board or self._totals_at != board.version:
            self._totals = caballero_totals(board, self.rules.layout, self.n)
            self._totals_board = board
            self._totals_at = board.version
        return self._totals

    def _area_open(self) -> bool:
        return self.turn[AREAS] < self.turn[AREAS_DUE]

    def _do_area(self, player: int, action: Action) -> None:
        if not self._area_open():
            raise Refusal("area_done")
        slot = int(action.arg)
        if not 1 <= slot <= len(self.market):
            raise Refusal("market_slot", {"count": len(self.market)})
        key, north = parse_spot(action.arg2)
        card = self.market[slot - 1]
        kind, spots = self._area_spots(player)
        if (slot - 1, north, key) not in spots:
            raise self._area_refusal(kind, card, north, key)
        self.board.place_area_key(card, north, key)
        del self.market[slot - 1]
        self.turn[AREAS] += 1
        for crowded in self.board.crowded_around(key):
            if self.options.remove_on_same_island or self.lands_differ(crowded):
                before = self._number_before(self.board.caballeros[crowded], key)
                self.remove(crowded, before)

    def must_go(self, key: int) -> bool:
        """The card at `key` touches land on more than one side (EC-9: the option
        remove_on_same_island) and no Grande protects it."""
        if self.board.caballeros[key].grande or self.board.land_sides(key) < 2:
            return False
        return self.options.remove_on_same_island or self.lands_differ(key)

    def lands_differ(self, key: int) -> bool:
        roots = {
            self.board.facing(key, s)[1] for s in range(4) if self.board.facing(key, s)[0] == LAND
        }
        return len(roots) > 1

    def _area_refusal(self, kind: str, card: CardDesc, north: int, key: int) -> Refusal:
        if not self.board.is_empty(key):
            return Refusal("cell_taken", {"cell": cell_name(key)})
        side = self.board.fit_side(card, north, key)
        if side >= 0:
            return Refusal("land_sea", {"side": DIRS[side]})
        if kind == "area":
            return Refusal("no_contact", {"cell": cell_name(key)})
        if kind == "own":
            return Refusal("fallback_own")
        return Refusal("fallback_other")

    def remove(self, key: int, returned: int, grande_left: bool = False) -> None:
        """A caballero card touching land on more than one side leaves the map; a castillo on
        it returns `returned` caballeros and its ships to the court. The ships of a card the
        Grande left go as for any removal, or to the court (EC-24: grande_ships_as_removal)."""
        card = self.board.remove_caballero(key)
        owner = card.owner
        ships = bin(card.ships).count("1")
        name = self.options.players[owner]
        ships_home = card.castillo or (grande_left and not self.options.grande_ships_as_removal)
        if ships_home:
            self.court_ships[owner] += ships
        else:
            self.ship_supply += ships
        if card.castillo:
            self.court[owner] += returned
            self.castillo_supply += 1
            self.log.append(
                f"{name}'s card at {cell_name(key)} is removed; its castillo "
                f"returns {returned} caballeros and {ships} ship(s) to the court"
            )
        else:
            self.log.append(f"{name}'s card at {cell_name(key)} is removed with its caballeros")
        self.stack[owner] += 1
        self.cap_court(owner)

    def _number_before(self, card: CaballeroCard, new_area: int) -> int:
        """The number that faced land before the new area card (0 if none: EC-22)."""
        for side in range(4):
            neighbour = card.key + DELTA[side]
            if neighbour != new_area and self.board.facing(card.key, side)[0] == LAND:
                return self.number(card, side)
        return 0

    def number(self, card: CaballeroCard, side: int) -> int:
        return self.rules.layout[card.side][(side - card.rotation) % 4]

    def _land_side(self, key: int) -> int:
        for side in range(4):
            if self.board.side_kind(key, side) == LAND:
                return side
        return -1

    def _check_no_tie(self, player: int, key: int, side: int, new_total_delta: int) -> None:
        root = self.board.facing(key, side)[1]
        totals = self.totals().get(root, [0] * self.n)
        mine = totals[player] + new_total_delta
        for other in range(self.n):
            if other != player and totals[other] > 0 and totals[other] == mine:
                name = self.options.players[other]
                raise Refusal(
                    "tie", {"colour": name, "total": mine, "cell": cell_name(key + DELTA[side])}
                )

    def may_place_card(self, player: int) -> bool:
        """The player may still place a caballero card this turn (two at most; a card withdrawn
        this turn comes back next turn at the earliest: EC-19)."""
        return self.turn[KNIGHTS] < 2 and self.stack[player] > self.turn[WITHDRAWN]

    def check_new_card(self, player: int, key: int) -> None:
        """A new caballero card of the player may lie at `key` (before its numbers count)."""
        if self.turn[KNIGHTS] >= 2:
            raise Refusal("knights_done")
        if self.stack[player] - self.turn[WITHDRAWN] <= 0:
            raise Refusal("no_card_left")
        if not self.board.is_empty(key):
            raise Refusal("cell_taken", {"cell": cell_name(key)})
        if not self.board.touches_area(key):
            raise Refusal("not_next_to_area")

    def _knight_check(self, player: int, key: int, side: int, number: int) -> tuple[int, int, int]:
        """(card side, rotation, cost) of a new caballero card, or a Refusal."""
        self.check_new_card(player, key)
        lands = self.board.land_sides(key)
        if lands > 1:
            raise Refusal("two_lands", {"count": lands})
        layout = self.rules.layout
        card_side = 0 if number in layout[0] else 1 if number in layout[1] else -1
        if card_side < 0:
            raise Refusal("bad_number")
        rotation = (side - layout[card_side].index(number)) % 4
        if lands == 0:
            if card_side != 0:
                raise Refusal("sea_front")
            return card_side, rotation, 1
        land = self._land_side(key)
        if land != side:
            raise Refusal("face_land", {"side": DIRS[land]})
        self._check_no_tie(player, key, side, number)
        return card_side, rotation, number

    def _do_knight(self, player: int, action: Action) -> None:
        key, side = parse_spot(action.arg)
        card_side, rotation, cost = self._knight_check(player, key, side, int(action.arg2))
        self.pay(player, cost)
        self.board.place_caballero(CaballeroCard(player, card_side, rotation, key))
        self.stack[player] -= 1
        self.turn[KNIGHTS] += 1
        self.placed_now.add(key)
        self.cap_court(player)

    def own(self, player: int, key: int) -> CaballeroCard:
        card = self.board.caballeros.get(key)
        if card is None:
            raise Refusal("no_card", {"cell": cell_name(key)})
        if card.owner != player:
            raise Refusal("not_yours", {"cell": cell_name(key)})
        return card

    def _raise_check(
        self, player: int, key: int, side: int, number: int
    ) -> tuple[CaballeroCard, int, int, int]:
        if self.turn[KNIGHTS] >= 2:
            raise Refusal("knights_done")
        card = self.own(player, key)
        if card.grande:
            raise Refusal("grande_fixed")
        land = self._land_side(key)
        if land < 0:
            raise Refusal("raise_no_land")
        if side != land:
            raise Refusal("face_land", {"side": DIRS[land]})
        layout = self.rules.layout
        now = self.number(card, land)
        if number <= now or number > max(layout[1]):
            raise Refusal("raise_lower", {"number": now})
        card_side = 0 if number in layout[0] else 1
        self._check_no_tie(player, key, side, number - now)
        return card, card_side, (side - layout[card_side].index(number)) % 4, number - now

    def _do_raise(self, player: int, action: Action) -> None:
        key, side = parse_spot(action.arg)
        card, card_side, rotation, cost = self._raise_check(player, key, side, int(action.arg2))
        self.pay(player, cost)
        card.side, card.rotation = card_side, rotation
        self.board.changed()
        self.turn[KNIGHTS] += 1

    def _ship_spot(self, player: int, key: int, side: int) -> CaballeroCard:
        card = self.own(player, key)
        if self.board.facing(key, side)[0] != SEA:
            raise Refusal("ship_not_sea", {"side": DIRS[side]})
        if card.ships >> side & 1:
            raise Refusal("ship_there", {"side": DIRS[side]})
        return card

    def check_ship_purchase(self) -> None:
        """One more ship may be bought this turn (1-2 a turn, from the supply)."""
        if self.turn[SHIPS] >= 2:
            raise Refusal("ships_bought")
        if self.ship_supply <= 0:
            raise Refusal("ship_supply")

    def can_buy_ship(self, court: int) -> bool:
        return self.turn[SHIPS] < 2 and self.ship_supply > 0 and court >= 2

    def _do_ship(self, player: int, action: Action) -> None:
        self.check_ship_purchase()
        key, side = parse_spot(action.arg)
        card = self._ship_spot(player, key, side)
        self.pay(player, 2)
        card.ships |= 1 << side
        self.ship_supply -= 1
        self.turn[SHIPS] += 1

    def _do_reship(self, player: int, action: Action) -> None:
        if self.court_ships[player] <= 0:
            raise Refusal("no_court_ship")
        key, side = parse_spot(action.arg)
        card = self._ship_spot(player, key, side)
        self.pay(player, 1)
        card.ships |= 1 << side
        self.court_ships[player] -= 1

    def _do_shipback(self, player: int, action: Action) -> None:
        key, side = parse_spot(action.arg)
        card = self.own(player, key)
        if not card.ships >> side & 1:
            raise Refusal("no_ship", {"side": DIRS[side]})
        card.ships &= ~(1 << side)
        self.court_ships[player] += 1

    def _do_moveship(self, player: int, action: Action) -> None:
        key, side = parse_spot(action.arg)
        card = self.own(player, key)
        if not card.ships >> side & 1:
            raise Refusal("no_ship", {"side": DIRS[side]})
        to_key, to_side = parse_spot(action.arg2)
        if to_key == key:
            raise Refusal("same_card")
        target = self._ship_spot(player, to_key, to_side)
        self.pay(player, 1)
        card.ships &= ~(1 << side)
        target.ships |= 1 << to_side

    def _castillo_target(self, player: int, key: int) -> CaballeroCard:
        card = self.own(player, key)
        if card.castillo:
            raise Refusal("castillo_there")
        return card

    def _do_castillo(self, player: int, action: Action) -> None:
        if self.turn[CASTILLOS] >= 2:
            raise Refusal("castillos_bought")
        if self.castillo_supply <= 0:
            raise Refusal("castillo_supply")
        card = self._castillo_target(player, parse_cell(action.arg))
        self.pay(player, 1)
        card.castillo = True
        self.castillo_supply -= 1
        self.turn[CASTILLOS] += 1

    def _do_movecastillo(self, player: int, action: Action) -> None:
        key = parse_cell(action.arg)
        card = self.own(player, key)
        if not card.castillo:
            raise Refusal("no_castillo")
        to_key = parse_cell(action.arg2)
        if to_key == key:
            raise Refusal("same_card")
        target = self._castillo_target(player, to_key)
        self.pay(player, 1)
        card.castillo = False
        target.castillo = True

    def _do_withdraw(self, player: int, action: Action) -> None:
        key = parse_cell(action.arg)
        card = self.own(player, key)
        if key in self.placed_now:
            raise Refusal("placed_now")
        if card.grande and not self.options.withdraw_grande_card:
            raise Refusal("grande_withdraw")
        self.board.remove_caballero(key)
        self.court_ships[player] += bin(card.ships).count("1")
        if card.castillo:
            self.court[player] += extended.highest_land_number(self, card)
            self.castillo_supply += 1
        if card.grande:  # EC-27: the Grande goes back to the court
            self.grande_at[player] = GRANDE_COURT
        self.stack[player] += 1
        self.turn[WITHDRAWN] += 1
        self.cap_court(player)

    def _do_done(self, player: int) -> None:
        if self._area_open():
            kind, _ = self._area_spots(player)
            optional = self.options.second_area_optional and self.turn[AREAS] >= 1
            if kind != NOWHERE and not optional:
                raise Refusal("area_missing")
        self.turn_saved = None
        self._end_turn()

    # ---------------------------------------------------------------- legal actions
    def _turn_actions(self, player: int) -> list[Action]:
        out: list[Action] = []
        board = self.board
        if not self.turn[REINFORCED]:
            out.append(REINFORCE)
        area_kind = NOWHERE
        if self._area_open():
            area_kind, _ = self._area_spots(player)
            out.extend(self._spot_actions)
        court = self.court[player]
        if court > 0 and self.may_place_card(player):
            self._knight_actions(player, court, out)
        own = sorted(k for k, c in board.caballeros.items() if c.owner == player)
        if self.turn[KNIGHTS] < 2:
            self._raise_actions(player, court, own, out)
        free_sea = [
            (key, side)
            for key in own
            for side in range(4)
            if not board.caballeros[key].ships >> side & 1 and board.side_kind(key, side) == SEA
        ]
        if self.can_buy_ship(court):
            out.extend(listing.action("ship", k, s) for k, s in free_sea)
        if self.court_ships[player] > 0 and court >= 1:
            out.extend(listing.action("reship", k, s) for k, s in free_sea)
        no_castillo = [k for k in own if not board.caballeros[k].castillo]
        if self.turn[CASTILLOS] < 2 and self.castillo_supply > 0 and court >= 1:
            out.extend(listing.action("castillo", k, -1) for k in no_castillo)
        out.extend(
            listing.action("withdraw", k, -1)
            for k in own
            if k not in self.placed_now
            and (self.options.withdraw_grande_card or not board.caballeros[k].grande)
        )
        for key in own:
            card = board.caballeros[key]
            if card.ships:
                for side in range(4):
                    if card.ships >> side & 1:
                        out.append(listing.action("shipback", key, side))
                        if court >= 1:
                            out.extend(
                                listing.pair("moveship", key, side, k, s)
                                for k, s in free_sea
                                if k != key
                            )
            if card.castillo and court >= 1:
                out.extend(
                    listing.pair("movecastillo", key, -1, k, -1) for k in no_castillo if k != key
                )
        if self.options.extended:
            out.extend(extended.extended_actions(self, player))
        optional = self.options.second_area_optional and self.turn[AREAS] >= 1
        if not self._area_open() or area_kind == NOWHERE or optional:
            out.append(DONE)
        return out

    def _knight_actions(self, player: int, court: int, out: list[Action]) -> None:
        """New caballero cards: next to sea only, each front number (recorded facing north);
        next to one land, each number the court pays that keeps the no-tie rule."""
        front = self.rules.layout[0]
        top = min(court, 8)
        totals = self.totals()
        for key, _, _, lands, side in self.board.free_cells():
            if lands == 0:
                out.extend(listing.action("knight", key, 0, n) for n in front)
            elif lands == 1:
                mine, others = self._standing(totals, player, key, side)
                for number in range(1, top + 1):
                    if mine + number not in others:
                        out.append(listing.action("knight", key, side, number))

    def _raise_actions(self, player: int, court: int, own: list[int], out: list[Action]) -> None:
        board = self.board
        totals = self.totals()
        for key in own:
            card = board.caballeros[key]
            side = self._land_side(key)
            if side < 0 or card.grande:
                continue
            now = self.number(card, side)
            mine, others = self._standing(totals, player, key, side)
            for number in range(now + 1, min(now + court, 8) + 1):
                if mine + number - now not in others:
                    out.append(listing.action("raise", key, side, number))

    def _standing(
        self, totals: dict[int, list[int]], player: int, key: int, side: int
    ) -> tuple[int, set[int]]:
        """The player's total in the land region facing `side` of `key`, and the others'
        (positive) totals there: the no-tie rule's inputs."""
        row = totals.get(self.board.facing(key, side)[1])
        if row is None:
            return 0, set()
        return row[player], {t for p, t in enumerate(row) if p != player and t > 0}

    # ---------------------------------------------------------------- views
    def view(self, viewer: int | None = None) -> dict[str, Any]:
        names = self.options.players
        board = self.board
        totals = self.totals()
        out: dict[str, Any] = {
            "game": "elcaballero",
            "phase": self.phase,
            "round": self.round,
            "rounds": self.size.rounds,
            "scoring_rounds": list(self.size.scorings),
            "catalogue": None if self.catalogue is None else self.catalogue.label,
            "acting": [("chance" if p == CHANCE else names[p]) for p in self.current_players()],
            "areas": [
                {"cell": cell_name(k), "card": a.card.text, "id": a.card.id, "rotation": a.rotation}
                for k, a in sorted(board.areas.items())
            ],
            "caballeros": [
                {
                    "cell": cell_name(k),
                    "owner": names[c.owner],
                    "side": "front" if c.side == 0 else "back",
                    "rotation": c.rotation,
                    "numbers": [self.number(c, s) for s in range(4)],
                    "ships": [DIRS[s] for s in range(4) if c.ships >> s & 1],
                    "castillo": c.castillo,
                    "grande": c.grande,
                }
                for k, c in sorted(board.caballeros.items())
            ],
            "regions": [
                {
                    "type": "land" if board.kind[r] == LAND else "sea",
                    "size": len(board.root_cells[r]),
                    "gold" if board.kind[r] == LAND else "fish": board.root_treasure[r],
                    "closed": board.is_closed(r),
                    "cards": sorted(cell_name(k) for k in board.root_cells[r]),
                    "caballeros": {names[p]: t for p, t in enumerate(totals.get(r, [])) if t},
                }
                for r in board.roots()
            ],
            "governors": [self._governor_view(g) for g in board.governors],
            "market": [{"card": c.text, "id": c.id} for c in self.market],
            "pile": self.pile_left,
            "power_played": {names[p]: self.played[p] for p in range(self.n) if self.played[p]},
            "order": [names[p] for p in self.order] if self.phase == "turn" else [],
            "players": [
                {
                    "colour": names[p],
                    "court": self.court[p],
                    "cards_off_map": self.stack[p],
                    "court_ships": self.court_ships[p],
                    "hand_size": len(self.hands[p]),
                    "score": self.scores[p],
                    "governors_left": self.governors_left[p],
                    "grande": self._grande_view(p),
                }
                for p in range(self.n)
            ],
            "supply": {"ships": self.ship_supply, "castillos": self.castillo_supply},
            "turn": {
                "reinforced": bool(self.turn[REINFORCED]),
                "areas": self.turn[AREAS],
                "areas_due": self.turn[AREAS_DUE],
                "caballero_cards": self.turn[KNIGHTS],
                "ships": self.turn[SHIPS],
                "castillos": self.turn[CASTILLOS],
                "grande_moved": bool(self.turn[GRANDE_MOVED]),
            },
            "scorings": self.scorings,
            "log": [[("chance" if p == CHANCE else names[p]), str(a)] for p, a in self.history],
            "events": list(self.log),
        }
        if viewer is not None and 0 <= viewer < self.n:
            out["hand"] = list(self.hands[viewer])
            out["legal"] = [str(a) for a in self.legal_actions(viewer)]
            out["can_undo"] = self.can_undo(viewer)
        return out

    def _governor_view(self, governor: Governor) -> dict[str, Any]:
        board = self.board
        root = board.find(governor.node)
        key = min(board.root_cells[root])
        return {
            "owner": self.options.players[governor.owner],
            "cell": cell_name(key),
            "region": board.region_index(key, root),
            "type": "land" if board.kind[root] == LAND else "sea",
            "ship": governor.ship,
        }

    def _grande_view(self, player: int) -> str | None:
        """Where the player's Grande is: a cell, "court", or None (the base game)."""
        where = self.grande_at[player]
        if where == GRANDE_NONE:
            return None
        return "court" if where == GRANDE_COURT else cell_name(where)

    def snapshot(self) -> dict[str, Any]:
        out = self.view(None)
        out["hands"] = [list(h) for h in self.hands]
        out["pile_cards"] = list(self.pile)
        out["turn_raw"] = list(self.turn)
        out["placed_now"] = sorted(self.placed_now)
        out["undo_depth"] = self._undo_depth()
        return out


# table mode without a catalogue: the plain shapes offered as examples of a revealed card
_PLAIN_SHAPES = (
    "SNESW",
    "SNESW+L",
    "LN+SESW",
    "LNE+SSW",
    "LN+LE+SSW",
    "LNS+SE+SW",
    "LN+LS+SEW",
    "LNES+SW",
    "LNESW",
    "LNESW+S",
)
