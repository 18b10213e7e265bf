"""What changes in a game of El Caballero: one plain class of fields (`State`), apart from the
tables it is played by (the options, the rules' numbers, the card catalogue, the size of the
base or extended game), which it names and shares with its copies but never changes.

The rules are functions over a `State`, one module per part of the game (docs/game-protocol.md,
"El Caballero's engine"): `rounds` (the chance steps, the power cards, the turn order and the
scorings), `checks` (the small rules a step is refused by, each written once), `steps` (what a
turn's step does), `extended` (the extended game's pieces), `legal` (the legal actions), `views`
(what a seat sees). `game.Game` holds one `State` (`game.state`) and plays the game protocol
over it; nothing here knows of it.
"""

from __future__ import annotations

from typing import Any

from engine.core.actions import Action
from engine.elcaballero.board import Map
from engine.elcaballero.cards import CardDesc
from engine.elcaballero.catalogue import Catalogue
from engine.elcaballero.options import Options
from engine.elcaballero.placement import NOWHERE
from engine.elcaballero.rules import GameSize, Rules
from engine.elcaballero.turn import COUNTERS, GRANDE_COURT, GRANDE_NONE


class Caches:
    """What the rules work out again and again, each kept for one map (by identity) at one map
    version: where the market's cards may go (per seat and market) and each land region's
    caballeros per player. Read only once made: a change of the map replaces them, never
    changes them, so a copy of the state may share them."""

    def __init__(self) -> None:
        self.spots: tuple[str, list[tuple[int, int, int]]] = (NOWHERE, [])
        self.spot_actions: list[Action] = []
        self.spots_board: Map | None = None
        self.spots_key: tuple[int, ...] = ()
        self.totals: dict[int, list[int]] = {}
        self.totals_board: Map | None = None
        self.totals_at = -1

    def for_copy(self, board: Map, copied: Map) -> Caches:
        """The caches still valid for `board`, taken over for `copied`, its copy (a search's
        copies do not list the area placements again)."""
        out = Caches()
        if self.spots_board is board:  # valid for the copied map (same version, market)
            out.spots = self.spots
            out.spot_actions = self.spot_actions
            out.spots_board = copied
            out.spots_key = self.spots_key
        if self.totals_board is board and self.totals_at == board.version:
            out.totals = self.totals
            out.totals_board = copied
            out.totals_at = self.totals_at
        return out


class State:
    """Everything a game's steps change: the map, the seats' courts, supplies, hands and
    scores, the market and the pile, the round, the phase and the acting turn's counters
    (`turn`, indexed by engine.elcaballero.turn), the history, the log and the dealer's seed.
    `options`, `rules`, `catalogue` and `size` are the tables (shared, never changed).

    Given `source`, the new state is a copy of it (`copy_from`) dealing from `dealer_seed`."""

    def __init__(
        self,
        options: Options,
        rules: Rules,
        catalogue: Catalogue | None,
        source: State | None = None,
        dealer_seed: int | None = None,
    ) -> None:
        if source is not None:
            self.copy_from(source, dealer_seed)
            return
        self.options = options
        self.rules = rules
        self.catalogue = catalogue
        self.size: GameSize = rules.extended if options.extended else rules.base
        n = len(options.players)
        self.n = n
        self.history: list[tuple[int, Action]] = []
        self.board = Map()
        self.court = [rules.start_court] * n
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
        self.cache = Caches()
        self.dealing = options.mode == "dealer"  # the engine draws the chance steps
        self.dealer_seed: int | None = options.seed  # the dealer's (a copy's is its own)

    def copy_from(self, source: State, dealer_seed: int | None) -> None:
        """Become an independent copy of `source`: the mutable containers are copied; shared
        are the tables and the cards and actions (immutable), the scorings and log entries
        (written once), and the turn's saved start (`Saved`: never changed once made; restoring
        it copies). The caches still valid for the source's map are taken over."""
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
        self.cache = source.cache.for_copy(source.board, self.board)
        self.dealing = source.dealing
        self.dealer_seed = dealer_seed


class Saved:
    """Everything a turn's step can change, as it was before the turn's first step: undo (and a
    refusal) restores it and replays the steps to keep, so a turn is copied once, not each
    step."""

    def __init__(self, state: State) -> None:
        self.board = state.board.copy()
        self.court = list(state.court)
        self.stack = list(state.stack)
        self.court_ships = list(state.court_ships)
        self.ship_supply = state.ship_supply
        self.castillo_supply = state.castillo_supply
        self.market = list(state.market)
        self.turn = list(state.turn)
        self.placed_now = set(state.placed_now)
        self.governors_left = list(state.governors_left)
        self.grande_at = list(state.grande_at)
        self.log_length = len(state.log)
        self.history_length = len(state.history)

    def restore(self, state: State) -> None:
        """Put what was saved back into `state` (copies: it may be restored again)."""
        state.board = self.board.copy()
        state.court = list(self.court)
        state.stack = list(self.stack)
        state.court_ships = list(self.court_ships)
        state.ship_supply = self.ship_supply
        state.castillo_supply = self.castillo_supply
        state.market = list(self.market)
        state.turn = list(self.turn)
        state.placed_now = set(self.placed_now)
        state.governors_left = list(self.governors_left)
        state.grande_at = list(self.grande_at)
        del state.log[self.log_length :]
        del state.history[self.history_length :]
