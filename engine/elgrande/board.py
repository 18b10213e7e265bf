"""The El Grande board model: the state of the pieces, cards and scores, what it means, and
the small mutations the rules make to it. No rules here: the rules driver (driver.py), the
phases (phase_*.py), the steps of a card's special action (frames.py) and its effects
(effects.py) are functions over a `Board`, and the game protocol (game.py) holds one.

Board indices come from the data: regions 0 … R-1, then the castillo (R), France, Portugal
and the court (R+1, R+2, R+3), so an override file that adds a region shifts them all.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any, Final

from engine.core.actions import Action
from engine.core.errors import OptionsError
from engine.core.jsondata import copied
from engine.core.protocol import CHANCE
from engine.elgrande import data as gamedata
from engine.elgrande.king_rules import near_king, open_region
from engine.elgrande.options import Options, Throw, Turn, Veto

__all__ = ["CHANCE", "Board", "Frame", "Layout"]

UNSEEN: Final = "?"  # a card set aside unseen at the table
CHANCE_PHASES: Final = frozenset(
    {
        "setup_first",
        "setup_remove",
        "setup_king",
        "setup_home",
        "setup_deal",
        "dummy_regions",
        "reveal",
        "dummy_power",
    }
)


class Frame:
    """A decision the game waits for (a step of a special action, secret choices).

    `legal` lists the actions a player may take; `apply` applies one and says whether the step
    is finished. Subclasses: engine.elgrande.frames."""

    kind: str
    actor: int

    def actors(self, g: Board) -> tuple[int, ...]:
        return (self.actor,)

    def legal(self, g: Board, player: int) -> list[Action]:
        """The actions `player` may take in this step."""
        raise NotImplementedError

    def apply(self, g: Board, player: int, action: Action) -> bool:
        """Apply a legal action; True when the step is finished."""
        raise NotImplementedError

    def describe(self, g: Board, viewer: int | None) -> dict[str, Any]:
        return {"step": self.kind, "actor": g.colours[self.actor]}

    def copy(self) -> Frame:
        """An independent copy (`Game.clone`): what `apply` changes is copied, the rest shared."""
        raise NotImplementedError


class Layout:
    """What depends only on the data and the options: computed once per (data, options) and
    shared read-only by every game with them."""

    def __init__(self, data: gamedata.GameData, options: Options) -> None:
        regions = data.regions
        R = len(regions)
        tok = [r.ascii for r in regions] + ["castillo", "France", "Portugal", "court"]
        players = [data.colours[data.colour_index(p) or 0] for p in options.players]
        dummy = -1
        if len(players) == 2:
            name = options.dummy or next(c for c in data.colours if c not in players)
            players.append(data.colours[data.colour_index(name) or 0])
            dummy = 2
        colours = tuple(players)
        merged = options.merge_decks_2_3 or len(options.players) == 2
        self.data = data
        self.R = R
        self.castillo = R
        self.france = R + 1
        self.portugal = R + 2
        self.court = R + 3
        self.n = len(colours)
        self.seats = tuple(p for p in range(len(colours)) if p != dummy)
        self.dummy = dummy
        self.colours = colours
        self.places = 2 if len(options.players) <= 3 else 3
        self.regions = regions
        self.tok = tok
        self.area_tokens = frozenset(tok)
        self.area_names = [r.name for r in regions] + tok[R:]
        self.area_lookup = {gamedata.fold(t): i for i, t in enumerate(tok)}
        self.exact_area = {t: i for i, t in enumerate(tok)}
        self.colour_lookup = {gamedata.fold(c): i for i, c in enumerate(colours)}
        self.exact_colour = {c: i for i, c in enumerate(colours)}
        self.adjacent = [list(r.neighbours) for r in regions]
        self.border_regions = {
            R + 1: [r.index for r in regions if gamedata.FRANCE in r.borders],
            R + 2: [r.index for r in regions if gamedata.PORTUGAL in r.borders],
        }
        self.slots: tuple[int, ...] = (1, 2, 4) if merged else (1, 2, 3, 4)
        # the tables of engine.elgrande.king_rules for each area the King may stand in
        self.movable = {k: [r for r in range(R) if open_region(k, r)] for k in range(-1, R + 3)}
        areas = range(len(tok))
        self.place_actions = [Action("place", tok[a]) for a in areas]
        self.to_actions = [Action("to", tok[a]) for a in areas]
        self.recall_actions = [Action("recall", tok[a]) for a in areas]
        self.disc_actions = [Action("disc", tok[a]) for a in areas]
        self.region_actions = [Action("region", tok[a]) for a in areas]
        self.king_actions = [Action("king", tok[a]) for a in areas]
        self.grande_actions = [Action("grande", tok[a]) for a in areas]
        self.pick_actions = [[Action("pick", c, tok[a]) for a in areas] for c in colours]
        self.return_actions = [[Action("return", c, tok[a]) for a in areas] for c in colours]
        self.take_actions = [Action("take", str(k)) for k in range(7)]
        self.power_actions = [Action("power", str(v)) for v in range(14)]
        # set-up and dummy chance steps
        self.first_actions = [Action("first", colours[p]) for p in self.seats]
        self.kingcard_actions = [Action("kingcard", tok[a]) for a in areas]
        self.dummycard_actions = [Action("dummycard", tok[a]) for a in areas]
        self.home_actions = [[Action("home", c, tok[a]) for a in areas] for c in colours]
        placement = {k: near_king(self.adjacent, self.border_regions, k) for k in range(R + 3)}
        self.placement = placement
        # the decks (one entry per copy) and Power Shift's modifier deck at set-up
        self.decks = {
            d: tuple(data.deck_cards(d, regency=options.new_regency)) for d in range(1, 6)
        }
        self.grey_deck = tuple(data.grey_deck()) if options.power_shift else ()
        self.place_actions_by_king = {
            k: [self.place_actions[a] for a in where] for k, where in placement.items()
        }


# Per-(data, options) layouts shared by every game with those options.
_LAYOUTS: Final[dict[tuple[Any, ...], Layout]] = {}


def _check_options(options: Options, data: gamedata.GameData) -> None:
    players = options.players
    if not 2 <= len(players) <= 5:
        raise ValueError(f"El Grande is for 2 to 5 players, not {len(players)}")
    known = {gamedata.fold(c) for c in data.colours}
    everyone = [*players, options.dummy] if options.dummy else list(players)
    unknown = [p for p in everyone if gamedata.fold(p) not in known]
    if unknown:
        raise ValueError(
            f"unknown colour(s) {', '.join(unknown)}; this edition has {', '.join(data.colours)}"
        )
    if len({gamedata.fold(p) for p in everyone}) != len(everyone):
        raise ValueError("each player (and the dummy) needs a different colour")
    if options.merge_decks_2_3 and len(players) > 3:
        raise ValueError("decks 2 and 3 are merged only in games of 2 or 3 players")
    if options.dummy and len(players) != 2:
        raise ValueError("a dummy colour is only used with 2 players")
    errors = options.field_errors()
    if errors:
        raise OptionsError(errors)
    for alt in options.alternatives:
        card = data.cards.get(alt)
        if card is None or not card.alternative:
            raise ValueError(f"{alt!r} is not an alternative action card of this edition")
    if len(set(options.alternatives)) != len(options.alternatives):
        raise ValueError("each alternative action card can be added once")
    if options.power_shift and len(data.grey_deck()) < 3 * len(players):
        raise ValueError("Power Shift needs 3 modifier cards per player in the game data")
    if options.new_regency and not data.deck_cards(5, regency=True):
        raise ValueError("this edition's data has no New Regency King cards")


class Board:
    """The state of one game of El Grande: pieces, cards, scores and the pending step.

    Plain state: its fields and small helpers over them. `engine.elgrande.game.Game` holds one
    as `Game.state`; who acts and the legal actions are engine.elgrande.driver's (cached in
    the fields `_actors` and `_legal*`)."""

    # From the shared layout (read-only)
    data: gamedata.GameData
    layout: Layout
    n: int  # colours on the board, the 2-player dummy included
    seats: tuple[int, ...]  # the colours that are players, clockwise
    dummy: int  # the dummy's colour index with 2 players, else -1
    colours: tuple[str, ...]
    places: int
    regions: tuple[gamedata.Region, ...]
    R: int
    CASTILLO: int
    FRANCE: int
    PORTUGAL: int
    COURT: int
    tok: list[str]
    area_tokens: frozenset[str]
    colour_lookup: dict[str, int]  # folded colour name -> index
    adjacent: list[list[int]]
    border_regions: dict[int, list[int]]
    slots: tuple[int, ...]  # the action-card decks revealed each round (2 holds 2+3 if merged)
    place_actions: list[Action]
    to_actions: list[Action]
    recall_actions: list[Action]
    disc_actions: list[Action]
    region_actions: list[Action]
    king_actions: list[Action]
    grande_actions: list[Action]
    pick_actions: list[list[Action]]
    return_actions: list[list[Action]]
    take_actions: list[Action]
    power_actions: list[Action]
    # The state
    options: Options
    pieces: list[list[int]]  # area (regions, then the castillo) -> colour -> count
    court: list[int]
    province: list[int]
    king: int
    grandes: list[int]
    tiles: dict[str, int]  # tile id -> area
    scores: list[int]
    rounds: list[int]
    round_index: int
    first: int
    hands: list[list[int]]  # the dummy's is its face-down deck
    power_discards: list[list[int]]
    played: list[int]  # power card played this round (0: none yet)
    totals: list[int]  # power card + modifier (Power Shift), which sets the turn order
    played_grey: list[str]
    taken: list[str]  # the action card each player (the dummy too) took this round
    grey_hands: list[list[str]]
    grey_discards: list[list[str]]
    grey_deck: list[str]
    power_order: list[int]
    power_pos: int
    decks: dict[int, list[str]]
    king_card: str
    pending_alternatives: list[str]
    unseen_set_aside: list[int]  # per deck: cards set aside unseen, still in its list
    round_slots: tuple[int, ...]
    face_up: list[str]
    used_cards: list[str]
    region_cards: list[int]
    dummy_deck: list[int]
    dummy_draws: int
    phase: str
    home_pos: int
    deal_pos: int
    turn_order: list[int]
    turn_pos: int
    turn: Turn | None
    frame: Frame | None
    ops: list[dict[str, Any]]
    ops_context: str  # "special" or "grey" while a card's steps run
    vetoes: list[Veto]
    veto_queue: list[int]
    throws: list[Throw]
    throw_key: tuple[int, ...]
    score_events: list[dict[str, Any]]  # every scoring; "areas" hold AreaScore objects
    score_history: list[dict[str, Any]]
    # every set of secret discs once revealed: {"card" (the card's id, or "general"), "round",
    # "discs" (colour -> region)}
    disc_reveals: list[dict[str, Any]]
    history: list[tuple[int, Action]]
    checkpoint: int
    _legal: dict[int, list[Action]]
    _legal_for: int  # the seat whose legal actions _legal_last holds (when not None)
    _legal_last: list[Action] | None
    _actors: tuple[int, ...] | None
    _dealer: bool
    dealer_seed: int | None  # what the dealer draws from: the options' seed, a clone's own

    def __init__(
        self, options: Options, data: gamedata.GameData | None = None, source: Board | None = None
    ) -> None:
        """A new game; given `source`, a copy of it (see `copy_from`)."""
        if source is not None:
            self.copy_from(source)
            return
        self.options = options
        # Override files reach the engine only as loaded data (from the command line, a trusted
        # caller): options come from clients and never name a file.
        data = data or gamedata.load(options.edition, card_set=options.card_set)
        self.data = data
        key = (
            id(data),
            options.players,
            options.dummy,
            options.alternatives,
            options.merge_decks_2_3,
            options.power_shift,
            options.new_regency,
        )
        layout = _LAYOUTS.get(key)
        if layout is None or layout.data is not data:
            _check_options(options, data)
            layout = _LAYOUTS[key] = Layout(data, options)
        self._use_layout(layout)
        n = self.n
        self.pieces = [[0] * n for _ in range(self.R + 1)]  # regions + castillo
        self.court = [0] * n
        self.province = [data.caballeros_per_colour] * n
        self.king = -1
        self.grandes = [-1] * n
        self.tiles = {}  # tile id -> area
        self.scores = [0] * n
        self.rounds = (
            list(data.short_game_rounds) if options.short_game else list(range(1, data.rounds + 1))
        )
        self.round_index = 0
        self.first = -1
        self.hands = [list(range(1, 14)) for _ in range(n)]  # the dummy's is its face-down deck
        self.power_discards = [[] for _ in range(n)]
        self.played = [0] * n  # power card played this round (0: none yet)
        self.totals = [0] * n  # power card + modifier (Power Shift), which sets the turn order
        self.played_grey = [""] * n
        self.taken = [""] * n
        self.grey_hands = [[] for _ in range(n)]
        self.grey_discards = [[] for _ in range(n)]
        self.grey_deck = list(layout.grey_deck)
        self.power_order = []
        self.power_pos = 0
        self.decks = {d: list(cards) for d, cards in layout.decks.items()}
        self.king_card = "" if options.new_regency else next(iter(self.decks[5]), "")
        if not options.new_regency:
            self.decks[5] = []
        self.pending_alternatives = list(options.alternatives)
        self.unseen_set_aside = [0] * 6
        self.round_slots = (*self.slots, 5) if options.new_regency else self.slots
        self.face_up = [""] * 5
        self.used_cards = []
        self.region_cards = list(range(self.R))
        self.dummy_deck = []
        self.dummy_draws = 0
        self.phase = "setup_first"
        self.home_pos = 0
        self.deal_pos = 0
        self.turn_order = []
        self.turn_pos = 0
        self.turn = None
        self.frame = None
        self.ops = []
        self.ops_context = ""  # "special" or "grey" while a card's steps run
        self.vetoes = []
        self.veto_queue = []
        self.throws = []
        self.throw_key = ()
        self.score_events = []  # "areas" hold AreaScore objects
        self.score_history = []
        self.disc_reveals = []
        self.history = []
        self.checkpoint = 0
        self._legal = {}
        self._legal_for = 0
        self._legal_last = None
        self._actors = None
        self._dealer = options.mode == "dealer"
        self.dealer_seed = options.seed

    def copy(self) -> Board:
        """An independent copy (`copy_from`)."""
        return Board(self.options, self.data, self)

    def copy_from(self, source: Board) -> None:
        """Become an independent copy of `source`, written out field by field (copy.deepcopy
        costs more than a whole random game): every mutable container is copied; shared are the
        data, the layout, the options, the actions (immutable) and the records of past events
        (`score_events`, `score_history`, `disc_reveals` entries: written once, never changed).
        The legal-action cache is shared too: its lists are never changed once listed."""
        self.options = source.options
        self.data = source.data
        self._use_layout(source.layout)
        self.pieces = [row[:] for row in source.pieces]
        self.court = source.court[:]
        self.province = source.province[:]
        self.king = source.king
        self.grandes = source.grandes[:]
        self.tiles = dict(source.tiles)
        self.scores = source.scores[:]
        self.rounds = source.rounds[:]
        self.round_index = source.round_index
        self.first = source.first
        self.hands = [hand[:] for hand in source.hands]
        self.power_discards = [pile[:] for pile in source.power_discards]
        self.played = source.played[:]
        self.totals = source.totals[:]
        self.played_grey = source.played_grey[:]
        self.taken = source.taken[:]
        self.grey_hands = [hand[:] for hand in source.grey_hands]
        self.grey_discards = [pile[:] for pile in source.grey_discards]
        self.grey_deck = source.grey_deck[:]
        self.power_order = source.power_order[:]
        self.power_pos = source.power_pos
        self.decks = {deck: cards[:] for deck, cards in source.decks.items()}
        self.king_card = source.king_card
        self.pending_alternatives = source.pending_alternatives[:]
        self.unseen_set_aside = source.unseen_set_aside[:]
        self.round_slots = source.round_slots
        self.face_up = source.face_up[:]
        self.used_cards = source.used_cards[:]
        self.region_cards = source.region_cards[:]
        self.dummy_deck = source.dummy_deck[:]
        self.dummy_draws = source.dummy_draws
        self.phase = source.phase
        self.home_pos = source.home_pos
        self.deal_pos = source.deal_pos
        self.turn_order = source.turn_order[:]
        self.turn_pos = source.turn_pos
        turn = source.turn
        self.turn = None if turn is None else Turn(*turn._fields())
        frame = source.frame
        self.frame = None if frame is None else frame.copy()
        self.ops = [dict(op) for op in source.ops]
        self.ops_context = source.ops_context
        self.vetoes = source.vetoes[:]  # a Veto never changes
        self.veto_queue = source.veto_queue[:]
        self.throws = [Throw(t.round, t.by, t.colour, t.count) for t in source.throws]
        self.throw_key = source.throw_key
        self.score_events = source.score_events[:]
        self.score_history = source.score_history[:]
        self.disc_reveals = source.disc_reveals[:]
        self.history = source.history[:]
        self.checkpoint = source.checkpoint
        self._legal = dict(source._legal)
        self._legal_for = source._legal_for
        self._legal_last = source._legal_last
        self._actors = source._actors
        self._dealer = source._dealer
        self.dealer_seed = source.dealer_seed

    def _use_layout(self, layout: Layout) -> None:
        self.layout = layout
        self.n = layout.n
        self.seats = layout.seats
        self.dummy = layout.dummy
        self.colours = layout.colours
        self.places = layout.places
        self.regions = layout.regions
        self.R = layout.R
        self.CASTILLO = layout.castillo
        self.FRANCE = layout.france
        self.PORTUGAL = layout.portugal
        self.COURT = layout.court
        self.tok = layout.tok
        self.area_tokens = layout.area_tokens
        self.colour_lookup = layout.colour_lookup
        self.adjacent = layout.adjacent
        self.border_regions = layout.border_regions
        self.slots = layout.slots
        self.place_actions = layout.place_actions
        self.to_actions = layout.to_actions
        self.recall_actions = layout.recall_actions
        self.disc_actions = layout.disc_actions
        self.region_actions = layout.region_actions
        self.king_actions = layout.king_actions
        self.grande_actions = layout.grande_actions
        self.pick_actions = layout.pick_actions
        self.return_actions = layout.return_actions
        self.take_actions = layout.take_actions
        self.power_actions = layout.power_actions

    def __deepcopy__(self, memo: dict[int, Any]) -> Board:
        """An independent copy (tests plant canaries in one); the data and the shared layout
        are not copied. Explicit, so that copy.deepcopy works on the compiled engine too."""
        clone = Board(dataclasses.replace(self.options, mode="table"), self.data)
        for name in OWN_FIELDS:
            setattr(clone, name, copy.deepcopy(getattr(self, name), memo))
        clone.options = self.options
        return clone

    def touched(self) -> None:
        """The state was edited from outside (test builders): forget what was derived from it."""
        self._legal = {}
        self._legal_last = None
        self._actors = None

    # ------------------------------------------------------------------ small queries
    @property
    def round_number(self) -> int:
        return self.rounds[min(self.round_index, len(self.rounds) - 1)]

    def area(self, token: str) -> int:
        index = self.layout.exact_area.get(token)
        if index is not None:
            return index
        index = self.layout.area_lookup.get(gamedata.fold(token))
        if index is None:
            index = self.data.region_index(token)
        if index is None:
            raise KeyError(token)
        return index

    def colour(self, token: str) -> int:
        index = self.layout.exact_colour.get(token)
        return self.colour_lookup[gamedata.fold(token)] if index is None else index

    def values_of(self, area: int) -> tuple[int, ...]:
        for tile_id, where in self.tiles.items():
            if where == area:
                return self.data.tile(tile_id).values
        if area == self.CASTILLO:
            return self.data.castillo_values
        region = self.regions[area]
        return region.values if self.places == 3 else region.values_2_3_players

    def movable_regions(self) -> list[int]:
        """Regions pieces may leave or enter: every region but the King's (do not mutate)."""
        return self.layout.movable[self.king]

    def board_supply(self, player: int) -> int:
        """Own caballeros a player could recall to court from regions (never the King's)."""
        pieces = self.pieces
        total = 0
        for r in self.layout.movable[self.king]:
            total += pieces[r][player]
        return total

    def opponents_from_left(self, me: int, with_dummy: bool = False) -> list[int]:
        """The other players clockwise from `me`'s left (the dummy last, when asked for)."""
        seats = self.seats
        i = seats.index(me)
        out = [seats[(i + k) % len(seats)] for k in range(1, len(seats))]
        if with_dummy and self.dummy >= 0:
            out.append(self.dummy)
        return out

    def card_in_play(self) -> str:
        return self.turn.card if self.turn is not None else ""

    def is_chance(self) -> bool:
        return self.phase in CHANCE_PHASES and self.frame is None

    def home_seat(self) -> int:
        """Set-up: the seat whose home region card is revealed next."""
        seats = self.seats
        return seats[(seats.index(self.first) + self.home_pos) % len(seats)]

    def deal_seat(self) -> int:
        """Power Shift set-up: the seat dealt the next modifier card."""
        return self.seats[self.deal_pos // 3]

    def pending_slots(self) -> list[int]:
        """The decks whose card is still to be revealed this round."""
        face_up = self.face_up
        return [s for s in self.round_slots if not face_up[s - 1] and self.deck_size(s)]

    def next_pending_slot(self) -> int:
        """The first of `pending_slots()`, 0 when there is none (no list made: every reveal
        asks)."""
        face_up = self.face_up
        for s in self.round_slots:
            if not face_up[s - 1] and self.deck_size(s):
                return s
        return 0

    def deck_size(self, deck: int) -> int:
        """The cards a deck holds: its list less the cards set aside unseen (table mode), whose
        identity nobody knows, so the list keeps every candidate."""
        return len(self.decks[deck]) - self.unseen_set_aside[deck]

    # ------------------------------------------------------------------ scoring
    @property
    def scorings(self) -> list[dict[str, Any]]:
        """Every scoring so far with its per-area breakdown, as JSON-ready data."""
        return [
            {
                key: [area.to_json() for area in value] if key == "areas" else copied(value)
                for key, value in event.items()
            }
            for event in self.score_events
        ]

    # ------------------------------------------------------------------ board mutations
    def place_piece(self, player: int, area: int, source: str = "court") -> None:
        if source == "province":
            self.province[player] -= 1
        else:
            self.court[player] -= 1
        self.pieces[area][player] += 1
        if area == self.CASTILLO:
            self.announce_throw(player, player)

    def move_piece(self, colour: int, source: int, target: int, actor: int) -> None:
        self.pieces[source][colour] -= 1
        self.pieces[target][colour] += 1
        if target == self.CASTILLO:
            self.announce_throw(actor, colour)

    def escort_piece(self, colour: int, source: int, target: int) -> None:
        """Escort: a caballero goes with the King from region to region (never the castillo)."""
        self.pieces[source][colour] -= 1
        self.pieces[target][colour] += 1

    def recall_piece(self, colour: int, region: int) -> None:
        """A caballero back from a region to its owner's court."""
        self.pieces[region][colour] -= 1
        self.court[colour] += 1

    def return_piece(self, colour: int, source: int) -> None:
        if source == self.COURT:
            self.court[colour] -= 1
        else:
            self.pieces[source][colour] -= 1
        self.province[colour] += 1

    def take_back(self, player: int, card: str) -> None:
        """Power of attorney: a power card (or a Power Shift modifier) back into the hand."""
        if card in self.data.grey_cards:
            if card in self.grey_discards[player]:
                self.grey_discards[player].remove(card)
            self.grey_hands[player].append(card)
            return
        value = int(card)
        if value in self.power_discards[player]:
            self.power_discards[player].remove(value)
        self.hands[player].append(value)
        self.hands[player].sort()

    def announce_throw(self, by: int, colour: int) -> None:
        # Throws of one colour by one player within one part of a turn (the placement, or the
        # special action) form one announcement.
        part = self.turn.special if self.turn else -1
        key = (self.round_index, self.turn_pos, part, by, colour)
        if self.throws and key == self.throw_key:
            self.throws[-1].count += 1
        else:
            self.throws.append(Throw(round=self.round_number, by=by, colour=colour, count=1))
        self.throw_key = key


# Every attribute of a board, by name, in the order of the annotations above (the test suite
# checks it): what the shared layout sets and the options (never copied), then the game's own
# state (undo and copy.deepcopy copy these).
SHARED_FIELDS = (
    "data",
    "layout",
    "n",
    "seats",
    "dummy",
    "colours",
    "places",
    "regions",
    "R",
    "CASTILLO",
    "FRANCE",
    "PORTUGAL",
    "COURT",
    "tok",
    "area_tokens",
    "colour_lookup",
    "adjacent",
    "border_regions",
    "slots",
    "place_actions",
    "to_actions",
    "recall_actions",
    "disc_actions",
    "region_actions",
    "king_actions",
    "grande_actions",
    "pick_actions",
    "return_actions",
    "take_actions",
    "power_actions",
    "options",  # frozen
)
OWN_FIELDS = (
    "pieces",
    "court",
    "province",
    "king",
    "grandes",
    "tiles",
    "scores",
    "rounds",
    "round_index",
    "first",
    "hands",
    "power_discards",
    "played",
    "totals",
    "played_grey",
    "taken",
    "grey_hands",
    "grey_discards",
    "grey_deck",
    "power_order",
    "power_pos",
    "decks",
    "king_card",
    "pending_alternatives",
    "unseen_set_aside",
    "round_slots",
    "face_up",
    "used_cards",
    "region_cards",
    "dummy_deck",
    "dummy_draws",
    "phase",
    "home_pos",
    "deal_pos",
    "turn_order",
    "turn_pos",
    "turn",
    "frame",
    "ops",
    "ops_context",
    "vetoes",
    "veto_queue",
    "throws",
    "throw_key",
    "score_events",
    "score_history",
    "disc_reveals",
    "history",
    "checkpoint",
    "_legal",
    "_legal_for",
    "_legal_last",
    "_actors",
    "_dealer",
    "dealer_seed",
)
STATE_FIELDS = SHARED_FIELDS + OWN_FIELDS
