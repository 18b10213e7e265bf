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
import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Any

from engine.elgrande import data as gamedata
from engine.elgrande import effects
from engine.elgrande.actions import Action
from engine.elgrande.errors import IllegalAction, NotationError, NotYourTurn, UndoError
from engine.elgrande.frames import (
    DONE,
    ChoiceFrame,
    DiscFrame,
    Frame,
    PassFrame,
    RecallFrame,
    VetoFrame,
)
from engine.elgrande.options import Options, Throw, Turn, Veto
from engine.elgrande.scoring import AreaScore, score_area

__all__ = ["CHANCE", "Game", "Options", "Throw", "Turn", "Veto", "new_game"]

CHANCE = -1
SPECIAL = Action("special")
SKIP = Action("skip")
GREY = Action("grey")
UNSEEN = "?"  # a card set aside unseen at the table
CHANCE_PHASES = frozenset(
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
# Dealer mode without a seed: outcomes nobody can predict from the draws seen so far (the
# record keeps each outcome, so a replay never draws again).
_UNPREDICTABLE = secrets.SystemRandom()
_TURN_PHASES = frozenset({"take", "card", "main"})
_UNDO_BARRIERS = frozenset({"disc", "powerback", "power", "shift", "pass"})
_CARD_ACTIONS: dict[str, Action] = {}
# Per-(data, options) tables shared by every game with those options.
_STATIC: dict[tuple[Any, ...], dict[str, Any]] = {}
_ACTION_TABLES: dict[tuple[tuple[str, ...], tuple[str, ...]], dict[str, Any]] = {}


class Game:
    """One game of El Grande (see the module docstring)."""

    CASTILLO = 9
    FRANCE = 10
    PORTUGAL = 11
    COURT = 12

    # Set from the shared static tables (see _static_tables); read-only.
    data: gamedata.GameData
    n: int  # colours on the board, the 2-player dummy included
    seats: tuple[int, ...]  # the colours that are players, clockwise
    dummy: int  # the dummy's colour index with 2 players, else -1
    colours: tuple[str, ...]
    places: int
    regions: tuple[gamedata.Region, ...]
    R: int
    tok: list[str]
    area_tokens: frozenset[str]
    _area_names: list[str]  # printed region names, then the other areas' tokens
    _area_index: dict[str, int]
    _exact_area: dict[str, int]
    _colour_index: dict[str, int]
    _exact_colour: dict[str, int]
    adjacent: list[list[int]]
    border_regions: dict[int, list[int]]
    slots: tuple[int, ...]  # the action-card decks revealed each round (2 holds 2+3 if merged)
    _movable: dict[int, list[int]]
    _placement: dict[int, list[int]]
    _place_actions_by_king: dict[int, list[Action]]
    # Shared, immutable action tables indexed by area (and colour): see _action_tables().
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

    def __init__(self, options: Options, data: gamedata.GameData | None = None) -> None:
        self.options = options
        # Override files reach the engine only as loaded data (from the command line, a trusted
        # caller): options come from clients and never name a file.
        self.data = data or gamedata.load(options.edition)
        key = (
            id(self.data),
            options.players,
            options.dummy,
            options.alternatives,
            options.merge_decks_2_3,
            options.power_shift,
            options.new_regency,
        )
        static = _STATIC.get(key)
        if static is None or static["data"] is not self.data:
            self._check_options()
            static = _STATIC[key] = self._static_tables()
        self.__dict__.update(static)
        data = self.data
        n = self.n
        self.pieces = [[0] * n for _ in range(self.R + 1)]  # regions + castillo
        self.court = [0] * n
        self.province = [data.caballeros_per_colour] * n
        self.king = -1
        self.grandes = [-1] * n
        self.tiles: dict[str, int] = {}  # tile id -> area
        self.scores = [0] * n
        self.rounds = (
            list(data.short_game_rounds) if options.short_game else list(range(1, data.rounds + 1))
        )
        self.round_index = 0
        self.first = -1
        self.hands = [list(range(1, 14)) for _ in range(n)]  # the dummy's is its face-down deck
        self.power_discards: list[list[int]] = [[] for _ in range(n)]
        self.played = [0] * n  # power card played this round (0: none yet)
        self.totals = [0] * n  # power card + modifier (Power Shift), which sets the turn order
        self.played_grey = [""] * n
        self.grey_hands: list[list[str]] = [[] for _ in range(n)]
        self.grey_discards: list[list[str]] = [[] for _ in range(n)]
        self.grey_deck = data.grey_deck() if options.power_shift else []
        self.power_order: list[int] = []
        self.power_pos = 0
        self.decks: dict[int, list[str]] = {
            d: data.deck_cards(d, regency=options.new_regency) for d in range(1, 6)
        }
        self.king_card = "" if options.new_regency else next(iter(self.decks[5]), "")
        if not options.new_regency:
            self.decks[5] = []
        self.pending_alternatives = list(options.alternatives)
        self.unseen_set_aside = 0
        self._round_slots = (*self.slots, 5) if options.new_regency else self.slots
        self.face_up: list[str] = [""] * 5
        self.used_cards: list[str] = []
        self.region_cards = list(range(self.R))
        self.dummy_deck: list[int] = []
        self.dummy_draws = 0
        self.phase = "setup_first"
        self.home_pos = 0
        self.deal_pos = 0
        self.turn_order: list[int] = []
        self.turn_pos = 0
        self.turn: Turn | None = None
        self.frame: Frame | None = None
        self.ops: list[dict[str, Any]] = []
        self.ops_context = ""  # "special" or "grey" while a card's steps run
        self.vetoes: list[Veto] = []
        self.veto_queue: list[int] = []
        self.throws: list[Throw] = []
        self._throw_key: tuple[int, ...] = ()
        self._scorings: list[dict[str, Any]] = []  # "areas" hold AreaScore objects
        self.score_history: list[dict[str, Any]] = []
        self.history: list[tuple[int, Action]] = []
        self.checkpoint = 0
        self._legal: dict[int, list[Action]] = {}
        self._actors: tuple[int, ...] | None = None
        self._dealer = options.mode == "dealer"
        self._auto_chance()

    # ------------------------------------------------------------------ set-up helpers
    def _check_options(self) -> None:
        options = self.options
        players = options.players
        if not 2 <= len(players) <= 5:
            raise ValueError(f"El Grande is for 2 to 5 players, not {len(players)}")
        known = {gamedata.fold(c) for c in self.data.colours}
        everyone = [*players, options.dummy] if options.dummy else list(players)
        unknown = [p for p in everyone if gamedata.fold(p) not in known]
        if unknown:
            raise ValueError(
                f"unknown colour(s) {', '.join(unknown)}; this edition has "
                f"{', '.join(self.data.colours)}"
            )
        if len({gamedata.fold(p) for p in everyone}) != len(everyone):
            raise ValueError("each player (and the dummy) needs a different colour")
        if options.merge_decks_2_3 and len(players) > 3:
            raise ValueError("decks 2 and 3 are merged only in games of 2 or 3 players")
        if options.dummy and len(players) != 2:
            raise ValueError("a dummy colour is only used with 2 players")
        if options.mode not in ("table", "dealer"):
            raise ValueError(f"mode must be 'table' or 'dealer', not {options.mode!r}")
        for alt in options.alternatives:
            card = self.data.cards.get(alt)
            if card is None or not card.alternative:
                raise ValueError(f"{alt!r} is not an alternative action card of this edition")
        if len(set(options.alternatives)) != len(options.alternatives):
            raise ValueError("each alternative action card can be added once")
        if options.power_shift and len(self.data.grey_deck()) < 3 * len(players):
            raise ValueError("Power Shift needs 3 modifier cards per player in the game data")
        if options.new_regency and not self.data.deck_cards(5, regency=True):
            raise ValueError("this edition's data has no New Regency King cards")

    def _static_tables(self) -> dict[str, Any]:
        """What depends only on the data and the options: computed once, shared read-only."""
        data = self.data
        options = self.options
        regions = data.regions
        tok = [r.ascii for r in regions] + ["castillo", "France", "Portugal", "court"]
        players = [data.colours[data.colour_index(p) or 0] for p in options.players]
        dummy = -1
        if len(players) == 2:
            name = options.dummy or next(c for c in data.colours if c not in players)
            players.append(data.colours[data.colour_index(name) or 0])
            dummy = 2
        colours = tuple(players)
        merged = options.merge_decks_2_3 or len(options.players) == 2
        static: dict[str, Any] = {
            "data": data,
            "n": len(colours),
            "seats": tuple(p for p in range(len(colours)) if p != dummy),
            "dummy": dummy,
            "colours": colours,
            "places": 2 if len(options.players) <= 3 else 3,
            "regions": regions,
            "R": len(regions),
            "tok": tok,
            "area_tokens": frozenset(tok),
            "_area_names": [r.name for r in regions] + tok[len(regions) :],
            "_area_index": {gamedata.fold(t): i for i, t in enumerate(tok)},
            "_exact_area": {t: i for i, t in enumerate(tok)},
            "_colour_index": {gamedata.fold(c): i for i, c in enumerate(colours)},
            "_exact_colour": {c: i for i, c in enumerate(colours)},
            "adjacent": [list(r.neighbours) for r in regions],
            "border_regions": {
                self.FRANCE: [r.index for r in regions if gamedata.FRANCE in r.borders],
                self.PORTUGAL: [r.index for r in regions if gamedata.PORTUGAL in r.borders],
            },
            "slots": (1, 2, 4) if merged else (1, 2, 3, 4),
            "_movable": {k: [r for r in range(len(regions)) if r != k] for k in range(-1, 12)},
        }
        key = (tuple(tok), colours)
        tables = _ACTION_TABLES.get(key)
        if tables is None:
            tables = _ACTION_TABLES[key] = _action_tables(tok, colours)
        static.update(tables)
        placement = {}
        for king in range(len(regions) + 3):
            if king == self.CASTILLO:
                placement[king] = list(range(len(regions)))
            else:
                border = static["border_regions"]
                near = border[king] if king in border else static["adjacent"][king]
                placement[king] = [*near, self.CASTILLO]
        static["_placement"] = placement
        static["_place_actions_by_king"] = {
            k: [tables["place_actions"][a] for a in areas] for k, areas in placement.items()
        }
        return static

    # ------------------------------------------------------------------ small queries
    @property
    def round_number(self) -> int:
        return self.rounds[min(self.round_index, len(self.rounds) - 1)]

    def area(self, token: str) -> int:
        index = self._exact_area.get(token)
        if index is not None:
            return index
        index = self._area_index.get(gamedata.fold(token))
        if index is None:
            index = self.data.region_index(token)
        if index is None:
            raise KeyError(token)
        return index

    def colour(self, token: str) -> int:
        index = self._exact_colour.get(token)
        return self._colour_index[gamedata.fold(token)] if index is None else index

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
        return self._movable[self.king]

    def free_regions(self) -> list[int]:
        return self._movable[self.king]

    def can_enter(self, area: int) -> bool:
        return area != self.king and area < self.FRANCE

    def move_destinations(self, source: int) -> list[int]:
        return [a for a in range(self.R + 1) if a != source and a != self.king]

    def placement_targets(self) -> list[int]:
        """Where the acting player may place from court: next to the King, or the castillo;
        with Infiltration also the King's region (do not mutate)."""
        targets = self._placement[self.king]
        if self.turn is not None and self.turn.infiltrate and self.king < self.R:
            return [*targets, self.king]
        return targets

    def board_supply(self, player: int) -> int:
        """Own caballeros a player could recall to court from regions (never the King's)."""
        pieces = self.pieces
        return sum([pieces[r][player] for r in self._movable[self.king]])

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

    # ------------------------------------------------------------------ the public API
    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance(self) -> bool:
        return self.phase in CHANCE_PHASES and self.frame is None

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
        cached = self._legal.get(player)
        if cached is None:
            actors = self._actors or self.current_players()
            cached = self._compute_legal(player) if player in actors else []
            self._legal[player] = cached
        return cached

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The chance actions with their probabilities (cards are drawn uniformly by copy).
        The table's `remove <deck> ?` (a card set aside unseen) is an entry, not an outcome."""
        actions = [a for a in self._chance_actions() if a.arg2 != UNSEEN]
        pool = self._chance_pool()
        if pool is not None:
            return [(a, pool.count(a.arg2) / len(pool)) for a in actions]
        return [(a, 1 / len(actions)) for a in actions]

    def parse(self, text: str) -> Action:
        """Text notation to a canonical action (region and colour names in any accepted form)."""
        action = Action.parse(text)
        args = [self._canonical_arg(action.kind, i, a) for i, a in enumerate(action[1:]) if a]
        return Action(action.kind, *args)

    def _canonical_arg(self, kind: str, position: int, arg: str) -> str:
        colour_first = kind in ("pick", "return", "home", "deal", "movegrande") and position == 0
        if kind in ("first", "viceroy") or colour_first:
            index = self._colour_index.get(gamedata.fold(arg))
            if index is None:
                raise NotationError(f"{arg!r} is not a player's colour in this game")
            return self.colours[index]
        area_verbs = (
            "kingcard", "place", "to", "recall", "disc", "region", "king", "grande", "dummycard"
        )  # fmt: skip
        second_is_area = kind in ("pick", "return", "tile", "home", "movegrande")
        if kind in area_verbs or (second_is_area and position == 1):
            try:
                return self.tok[self.area(arg)]
            except KeyError:
                raise NotationError(f"{arg!r} is not a region or area of the board") from None
        return arg

    def apply(self, action: Action | str, player: int | None = None) -> None:
        """Apply one action; an illegal one raises IllegalAction and changes nothing."""
        if isinstance(action, str):
            action = self.parse(action)
        actors = self._actors or self.current_players()
        if player is None:
            if len(actors) != 1:
                self._refuse_anonymous(action, actors)
            player = actors[0]
        elif player not in actors:
            self._refuse_out_of_turn(action, player, actors)
        legal = self._legal.get(player)
        if legal is None:
            legal = self.legal_actions(player)
        if action not in legal:
            from engine.elgrande.explain import explain

            raise IllegalAction(str(action), explain(self, player, action))
        # The body of _apply_unchecked, inlined: this is the hot path of every game.
        history = self.history
        history.append((player, action))
        frame = self.frame
        if frame is None:
            _PHASE_HANDLERS[self.phase](self, player, action)
        elif frame.apply(self, player, action) and self.frame is frame:
            self.frame = None
            self._after_frame(frame)
        self._legal = {}
        self._actors = after = self._compute_actors()
        if player < 0 or actors != after or action.kind in _UNDO_BARRIERS or not after:
            self.checkpoint = len(history)
        if self._dealer and self.phase in CHANCE_PHASES:
            self._auto_chance()

    def _refuse_anonymous(self, action: Action, actors: tuple[int, ...]) -> None:
        if not actors:
            raise IllegalAction(str(action), "the game is over")
        names = ", ".join(self.colours[p] for p in actors)
        raise IllegalAction(str(action), f"several players choose now ({names}): say who")

    def _refuse_out_of_turn(self, action: Action, player: int, actors: tuple[int, ...]) -> None:
        if not actors:
            raise IllegalAction(str(action), "the game is over")
        who = "chance" if actors == (CHANCE,) else ", ".join(self.colours[p] for p in actors)
        name = "chance" if player == CHANCE else self.colours[player]
        raise NotYourTurn(str(action), f"it is not {name}'s turn to act (now: {who})")

    def _apply_unchecked(self, player: int, action: Action) -> None:
        """Apply a known-legal action (apply() inlines the same steps)."""
        before = self._actors or self.current_players()
        history = self.history
        history.append((player, action))
        self._do(player, action)
        self._legal = {}
        self._actors = after = self._compute_actors()
        # Undo never crosses a chance step, a revealed secret, a public power card, or a change
        # of who acts (BGA's policy).
        if player < 0 or before != after or action.kind in _UNDO_BARRIERS or not after:
            self.checkpoint = len(history)

    def _auto_chance(self) -> None:
        if not self._dealer or self.phase not in CHANCE_PHASES:
            return
        seed = self.options.seed
        if seed is None:
            rng: random.Random = _UNPREDICTABLE
        else:
            # Seeded per batch of chance steps from the seed and the history's length, so a
            # game resumed from its record deals exactly what the uninterrupted game would have.
            rng = random.Random(seed * 1_000_003 + len(self.history))
        while self.phase in CHANCE_PHASES and self.frame is None:
            phase = self.phase
            if phase == "reveal":
                # A uniform draw among the copies left.
                slot = self._reveal_slot()
                pool = self.decks[slot]
                chosen = Action("reveal", str(slot), pool[rng.randrange(len(pool))])
            elif phase in ("setup_remove", "setup_deal"):
                pool = self._chance_pool() or []
                card = pool[rng.randrange(len(pool))]
                chosen = next(a for a in self._chance_actions() if a.arg2 == card)
            else:
                options = self._chance_actions()
                chosen = options[rng.randrange(len(options))]
            self.history.append((CHANCE, chosen))
            self._do(CHANCE, chosen)
        # A chance step is always an undo barrier; who acts is known again after the batch.
        self._legal = {}
        self._actors = self._compute_actors()
        self.checkpoint = len(self.history)

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
        self.__dict__.update(replayed.__dict__)
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
        self.options = options
        self._dealer = options.mode == "dealer"
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
            return [Action("first", self.colours[p]) for p in self.seats]
        if phase == "setup_remove":
            deck = str(self.data.cards[self.pending_alternatives[0]].deck)
            named = [Action("remove", deck, c) for c in dict.fromkeys(self._removal_pool())]
            # At the table the card goes back in the box unseen: `remove <deck> ?`.
            return named if self._dealer else [*named, Action("remove", deck, UNSEEN)]
        if phase == "setup_king":
            return [Action("kingcard", self.tok[r]) for r in self.region_cards]
        if phase == "setup_home":
            colour = self.colours[self._home_seat()]
            return [Action("home", colour, self.tok[r]) for r in self.region_cards]
        if phase == "setup_deal":
            colour = self.colours[self._deal_seat()]
            return [Action("deal", colour, g) for g in dict.fromkeys(self.grey_deck)]
        if phase == "dummy_regions":
            return [Action("dummycard", self.tok[r]) for r in self.dummy_deck]
        if phase == "dummy_power":
            return [Action("dummypower", str(v)) for v in self.hands[self.dummy]]
        slot = self._reveal_slot()
        return [Action("reveal", str(slot), c) for c in dict.fromkeys(self.decks[slot])]

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
        taken = {self.totals[p] for p in range(self.n) if self.played[p]}
        plain = [self.power_actions[v] for v in self.hands[player] if v not in taken]
        if not self.grey_hands[player]:
            return plain
        cards = self.data.grey_cards
        return plain + [
            Action("shift", str(v), grey)
            for v in self.hands[player]
            for grey in dict.fromkeys(self.grey_hands[player])
            if v + cards[grey].value not in taken
        ]

    def _main_actions(self, turn: Turn) -> list[Action]:
        if not turn.placed and turn.place_left and self.court[turn.player]:
            if turn.infiltrate:
                acts = [self.place_actions[a] for a in self.placement_targets()]
            else:
                acts = list(self._place_actions_by_king[self.king])
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
        _PHASE_HANDLERS[self.phase](self, player, action)

    def _after_frame(self, frame: Frame) -> None:
        if isinstance(frame, VetoFrame):
            if self.turn is not None and self.turn.special == 1 and not self.ops_context:
                self._ask_veto_or_run()
                return
        elif isinstance(frame, PassFrame):
            self._finish_pass(frame.chosen)
            return
        elif isinstance(frame, DiscFrame):
            if frame.purpose == "general":
                self._finish_general_scoring(frame.chosen)
                return
            effects.resolve_discs(self, frame)
        elif isinstance(frame, RecallFrame) and not self.ops_context:
            self._after_take()
            return
        self._run_ops()

    # --- set-up
    def _do_setup_first(self, player: int, action: Action) -> None:
        self.first = self.colour(action.arg)
        self.phase = "setup_remove" if self.pending_alternatives else "setup_king"
        if not self.pending_alternatives:
            self._merge_decks()

    def _do_setup_remove(self, player: int, action: Action) -> None:
        self.pending_alternatives.pop(0)
        if action.arg2 == UNSEEN:
            self.unseen_set_aside += 1  # the deck's list keeps one card that is not there
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

    def _do_setup_king(self, player: int, action: Action) -> None:
        self.king = self.area(action.arg)
        self.region_cards.remove(self.king)
        self.phase = "setup_home"

    def _home_seat(self) -> int:
        seats = self.seats
        return seats[(seats.index(self.first) + self.home_pos) % len(seats)]

    def _do_setup_home(self, player: int, action: Action) -> None:
        seat = self._home_seat()
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

    def _deal_seat(self) -> int:
        return self.seats[self.deal_pos // 3]

    def _do_setup_deal(self, player: int, action: Action) -> None:
        seat = self._deal_seat()
        self.grey_deck.remove(action.arg2)
        self.grey_hands[seat].append(action.arg2)
        self.deal_pos += 1
        if self.deal_pos == 3 * len(self.seats):
            options = {
                p: [Action("pass", g) for g in dict.fromkeys(self.grey_hands[p])]
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
        for slot in self._pending_slots():
            return slot
        raise AssertionError("no deck to reveal")

    def _pending_slots(self) -> list[int]:
        face_up = self.face_up
        decks = self.decks
        return [s for s in self._round_slots if not face_up[s - 1] and decks[s]]

    def _next_reveal(self) -> None:
        if self._pending_slots():
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
            self.turn_order = sorted(players, key=lambda p: -self.totals[p])
            self.turn_pos = 0
            self._start_turn()

    def _start_turn(self) -> None:
        while self.turn_pos < len(self.turn_order):
            player = self.turn_order[self.turn_pos]
            if player != self.dummy:
                take = self.data.power_caballeros[self.played[player] - 1]
                self.turn = Turn(player=player, take=take)
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
            area = self._exact_area[action.arg]
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
            holders = [v.holder for v in self.vetoes if v.holder != player]
            self.veto_queue = sorted(holders, key=lambda h: (h - player) % self.n)
            self._ask_veto_or_run()
            return
        self._maybe_end_turn()

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
        veto = next(v for v in self.vetoes if v.holder == frame.actor)
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
        seats = self.seats
        self.first = min(seats, key=lambda p: (self.totals[p], seats.index(p)))
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

    def score(self, area: int, first_only: bool = False) -> AreaScore:
        """Score one area by the majority rules and add the points (the dummy scores nothing)."""
        row = self.pieces[area]
        colours = self.colours
        counts = {colours[p]: n for p, n in enumerate(row) if n}
        where = self.grandes
        grandes = [colours[p] for p in range(self.n) if where[p] == area]
        result = score_area(
            self._area_names[area],
            counts,
            self.values_of(area),
            self.places,
            area == self.king,
            grandes,
            first_only,
        )
        dummy = self.dummy
        if dummy >= 0 and colours[dummy] in result.ranks:
            name = colours[dummy]
            result.points = {c: v for c, v in result.points.items() if c != name}
            result.bonus = {c: v for c, v in result.bonus.items() if c != name}
        if counts:
            index = self._exact_colour
            scores = self.scores
            for colour, points in result.points.items():
                scores[index[colour]] += points
            for colour, points in result.bonus.items():
                scores[index[colour]] += points
        if area == self.CASTILLO:
            self.checkpoint = len(self.history)  # its contents are public now: no undo past
        return result

    def record_scoring(self, kind: str, results: list[AreaScore], **extra: Any) -> None:
        self._scorings.append(
            {
                "kind": kind,
                "round": self.rounds[self.round_index - 1]
                if kind == "general"
                else self.round_number,
                "areas": results,
                "totals": {self.colours[p]: self.scores[p] for p in self.seats},
                **extra,
            }
        )

    @property
    def scorings(self) -> list[dict[str, Any]]:
        """Every scoring so far with its per-area breakdown, as JSON-ready data."""
        return [
            {**event, "areas": [area.to_json() for area in event["areas"]]}
            for event in self._scorings
        ]

    # ------------------------------------------------------------------ board mutations
    def place_piece(self, player: int, area: int, source: str = "court") -> None:
        if source == "province":
            self.province[player] -= 1
        else:
            self.court[player] -= 1
        self.pieces[area][player] += 1
        if area == self.CASTILLO:
            self._announce_throw(player, player)

    def place_from_court(self, player: int, area: int) -> None:
        self.place_piece(player, area, "court")

    def move_piece(self, colour: int, source: int, target: int, actor: int) -> None:
        self.pieces[source][colour] -= 1
        self.pieces[target][colour] += 1
        if target == self.CASTILLO:
            self._announce_throw(actor, colour)

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

    def _announce_throw(self, by: int, colour: int) -> None:
        # Throws of one colour by one player within one part of a turn (the placement, or the
        # special action) form one announcement.
        part = self.turn.special if self.turn else -1
        key = (self.round_index, self.turn_pos, part, by, colour)
        if self.throws and key == self._throw_key:
            self.throws[-1].count += 1
        else:
            self.throws.append(Throw(round=self.round_number, by=by, colour=colour, count=1))
        self._throw_key = key

    # ------------------------------------------------------------------ outputs
    def snapshot(self) -> dict[str, Any]:
        """The full state (secrets included) as JSON-ready data, for tests and persistence."""
        from engine.elgrande.views import full_snapshot

        return full_snapshot(self)

    def view(self, viewer: int | None = None) -> dict[str, Any]:
        """What one seat (or, with None, the public) may see."""
        from engine.elgrande.views import player_view

        return player_view(self, viewer)

    def history_text(self) -> list[tuple[int, str]]:
        return [(p, str(a)) for p, a in self.history]


def _action_tables(tok: Sequence[str], colours: Sequence[str]) -> dict[str, Any]:
    """The actions that name an area or a colour, made once and shared (they are immutable)."""
    areas = range(len(tok))
    return {
        "place_actions": [Action("place", tok[a]) for a in areas],
        "to_actions": [Action("to", tok[a]) for a in areas],
        "recall_actions": [Action("recall", tok[a]) for a in areas],
        "disc_actions": [Action("disc", tok[a]) for a in areas],
        "region_actions": [Action("region", tok[a]) for a in areas],
        "king_actions": [Action("king", tok[a]) for a in areas],
        "grande_actions": [Action("grande", tok[a]) for a in areas],
        "pick_actions": [[Action("pick", c, tok[a]) for a in areas] for c in colours],
        "return_actions": [[Action("return", c, tok[a]) for a in areas] for c in colours],
        "take_actions": [Action("take", str(k)) for k in range(7)],
        "power_actions": [Action("power", str(v)) for v in range(14)],
    }


_PHASE_HANDLERS = {
    "setup_first": Game._do_setup_first,
    "setup_remove": Game._do_setup_remove,
    "setup_king": Game._do_setup_king,
    "setup_home": Game._do_setup_home,
    "setup_deal": Game._do_setup_deal,
    "dummy_regions": Game._do_dummy_regions,
    "reveal": Game._do_reveal,
    "dummy_power": Game._do_dummy_power,
    "power": Game._do_power,
    "take": Game._do_take,
    "card": Game._do_card,
    "main": Game._do_main,
}


def new_game(players: Sequence[str], **kwargs: Any) -> Game:
    """A new game with default options for the given colours."""
    return Game(Options(players=tuple(players), **kwargs))
