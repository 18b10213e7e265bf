"""The El Grande rules engine: one `Game` is one game state that moves by actions.

Shaped like an OpenSpiel game state: `current_players()` says who acts now (a seat, several seats
at once for secret discs, `CHANCE` for a card to be revealed, or nobody when the game is over),
`legal_actions()` lists what they may do, `apply()` does it. The history of actions is the game's
serialisation: replaying it rebuilds the exact state.

In **table mode** the players enter chance outcomes (which region and action cards were revealed)
as actions; in **dealer mode** the engine draws them itself with a seeded random generator.

>>> g = Game(Options(players=("purple", "green", "blue", "orange"), mode="dealer", seed=7))
>>> g.phase, g.round_number
('power', 1)
>>> g.current_players() == (g.first,)
True
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from engine.elgrande import data as gamedata
from engine.elgrande.actions import Action
from engine.elgrande.errors import IllegalAction, NotationError, NotYourTurn, UndoError
from engine.elgrande.frames import (
    DONE,
    UNLIMITED,
    ChoiceFrame,
    DiscFrame,
    Frame,
    MoveFrame,
    PlaceFrame,
    RecallFrame,
    ReturnFrame,
    VetoFrame,
)
from engine.elgrande.scoring import AreaScore, score_area

CHANCE = -1
SPECIAL = Action("special")
SKIP = Action("skip")
CHANCE_PHASES = ("setup_first", "setup_king", "setup_home", "reveal")
_TURN_PHASES = frozenset({"take", "card", "main"})
_UNDO_BARRIERS = frozenset({"disc", "powerback", "power"})
# Per-(data, players, alternatives) tables shared by every game with those options.
_STATIC: dict[tuple[int, tuple[str, ...], tuple[str, ...]], dict[str, Any]] = {}
_CARD_ACTIONS: dict[str, Action] = {}


@dataclass(frozen=True)
class Options:
    """Everything fixed at the start of a game."""

    players: tuple[str, ...] = ("purple", "green", "blue", "orange")
    edition: str = "2023"
    mode: str = "table"  # "table": chance entered by players; "dealer": drawn by the engine
    seed: int = 0
    short_game: bool = False
    open_castillo: bool = False  # table option: castillo contents are public
    alternatives: tuple[str, ...] = ()  # alternative action cards shuffled in
    overrides: tuple[str, ...] = ()  # data override files

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "edition": self.edition,
            "mode": self.mode,
            "seed": self.seed,
            "short_game": self.short_game,
            "open_castillo": self.open_castillo,
            "alternatives": list(self.alternatives),
            "overrides": list(self.overrides),
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Options:
        return cls(
            players=tuple(raw["players"]),
            edition=str(raw.get("edition", "2023")),
            mode=str(raw.get("mode", "table")),
            seed=int(raw.get("seed", 0)),
            short_game=bool(raw.get("short_game", False)),
            open_castillo=bool(raw.get("open_castillo", False)),
            alternatives=tuple(raw.get("alternatives", ())),
            overrides=tuple(raw.get("overrides", ())),
        )


@dataclass
class Turn:
    """The acting player's turn: what is done and what is left."""

    player: int
    take: int  # caballeros the power card allows to take
    card: str = ""
    place_left: int = 0
    placing: bool = False  # placement started and not finished
    placed: bool = False  # placement finished (possibly with none placed)
    special: int = 0  # 0 not started, 1 in progress, 2 done or skipped


@dataclass
class Veto:
    holder: int
    card: str
    expires_after_round: int


@dataclass
class Throw:
    """A public announcement: `by` threw `count` caballeros of `colour` into the castillo."""

    round: int
    by: int
    colour: int
    count: int


class Game:
    """One game of El Grande (see the module docstring)."""

    CASTILLO = 9
    FRANCE = 10
    PORTUGAL = 11
    COURT = 12

    # Set from the shared static tables (see _static_tables); read-only.
    data: gamedata.GameData
    n: int
    colours: tuple[str, ...]
    places: int
    regions: tuple[gamedata.Region, ...]
    R: int
    tok: list[str]
    area_tokens: frozenset[str]
    _area_index: dict[str, int]
    _exact_area: dict[str, int]
    _colour_index: dict[str, int]
    _exact_colour: dict[str, int]
    adjacent: list[list[int]]
    border_regions: dict[int, list[int]]
    _initial_decks: dict[int, list[str]]
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
        self.data = data or gamedata.load(options.edition, options.overrides)
        key = (id(self.data), options.players, options.alternatives)
        static = _STATIC.get(key)
        if static is None or static["data"] is not self.data:
            self._check_options()
            static = _STATIC[key] = self._static_tables()
        self.__dict__.update(static)
        # --- state ---
        self.pieces = [[0] * self.n for _ in range(self.R + 1)]  # regions + castillo
        per_colour = self.data.caballeros_per_colour
        self.court = [0] * self.n
        self.province = [per_colour] * self.n
        self.king = -1
        self.grandes = [-1] * self.n
        self.tiles: dict[str, int] = {}  # tile id -> area
        self.scores = [0] * self.n
        self.rounds = (
            list(self.data.short_game_rounds)
            if options.short_game
            else list(range(1, self.data.rounds + 1))
        )
        self.round_index = 0
        self.first = -1
        self.hands = [list(range(1, 14)) for _ in range(self.n)]
        self.power_discards: list[list[int]] = [[] for _ in range(self.n)]
        self.played: list[int] = [0] * self.n  # value played this round (0: none yet)
        self.power_order: list[int] = []
        self.power_pos = 0
        self.decks: dict[int, list[str]] = {d: list(c) for d, c in self._initial_decks.items()}
        self.king_card = next((c for c in self.decks[5]), "")
        self.decks[5] = []
        self.face_up: list[str] = [""] * 5
        self.used_cards: list[str] = []
        self.region_cards = list(range(self.R))
        self.phase = "setup_first"
        self.home_pos = 0
        self.turn_order: list[int] = []
        self.turn_pos = 0
        self.turn: Turn | None = None
        self.frame: Frame | None = None
        self.ops: list[dict[str, Any]] = []
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
        # The dealer's generator; undo never crosses a chance step, so it is never rewound.
        self._rng = random.Random(options.seed)
        self._auto_chance()

    # ------------------------------------------------------------------ set-up helpers
    def _check_options(self) -> None:
        players = self.options.players
        if not 4 <= len(players) <= 5:
            raise ValueError(f"the base game is for 4 or 5 players, not {len(players)}")
        known = {gamedata.fold(c): c for c in self.data.colours}
        unknown = [p for p in players if gamedata.fold(p) not in known]
        if unknown:
            raise ValueError(
                f"unknown colour(s) {', '.join(unknown)}; this edition has "
                f"{', '.join(self.data.colours)}"
            )
        if len({gamedata.fold(p) for p in players}) != len(players):
            raise ValueError("each player needs a different colour")
        if self.options.mode not in ("table", "dealer"):
            raise ValueError(f"mode must be 'table' or 'dealer', not {self.options.mode!r}")
        for alt in self.options.alternatives:
            card = self.data.cards.get(alt)
            if card is None or not card.alternative:
                raise ValueError(f"{alt!r} is not an alternative action card of this edition")

    def _static_tables(self) -> dict[str, Any]:
        """What depends only on the data and the options: computed once, shared read-only."""
        data = self.data
        regions = data.regions
        tok = [r.ascii for r in regions] + ["castillo", "France", "Portugal", "court"]
        colours = tuple(data.colours[data.colour_index(p) or 0] for p in self.options.players)
        static: dict[str, Any] = {
            "data": data,
            "n": len(colours),
            "colours": colours,
            "places": 2 if len(colours) <= 3 else 3,
            "regions": regions,
            "R": len(regions),
            "tok": tok,
            "area_tokens": frozenset(tok),
            "_area_index": {gamedata.fold(t): i for i, t in enumerate(tok)},
            "_exact_area": {t: i for i, t in enumerate(tok)},
            "_colour_index": {gamedata.fold(c): i for i, c in enumerate(colours)},
            "_exact_colour": {c: i for i, c in enumerate(colours)},
            "adjacent": [list(r.neighbours) for r in regions],
            "border_regions": {
                self.FRANCE: [r.index for r in regions if gamedata.FRANCE in r.borders],
                self.PORTUGAL: [r.index for r in regions if gamedata.PORTUGAL in r.borders],
            },
            "_movable": {k: [r for r in range(len(regions)) if r != k] for k in range(-1, 12)},
            "_initial_decks": {
                d: data.deck_cards(d, alternatives=self.options.alternatives) for d in range(1, 6)
            },
        }
        key = (tuple(tok), colours)
        tables = _ACTION_TABLES.get(key)
        if tables is None:
            tables = _ACTION_TABLES[key] = _action_tables(tok, colours)
        static.update(tables)
        static["_placement"] = {}
        self.__dict__.update(static)
        static["_placement"] = {k: self._placement_for(k) for k in range(len(regions) + 3)}
        static["_place_actions_by_king"] = {
            k: [tables["place_actions"][a] for a in areas]
            for k, areas in static["_placement"].items()
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
        return self.movable_regions()

    def can_enter(self, area: int) -> bool:
        return area != self.king and area < self.FRANCE

    def move_destinations(self, source: int) -> list[int]:
        return [a for a in range(self.R + 1) if a != source and a != self.king]

    def placement_targets(self) -> list[int]:
        """Where the acting player may place from court: next to the King, or the castillo
        (do not mutate)."""
        return self._placement[self.king]

    def _placement_for(self, king: int) -> list[int]:
        if king == self.CASTILLO:
            return list(range(self.R))
        near = self.border_regions[king] if king in self.border_regions else self.adjacent[king]
        return [*near, self.CASTILLO]

    def board_supply(self, player: int) -> int:
        """Own caballeros a player could recall to court from regions (never the King's)."""
        return sum(self.pieces[r][player] for r in self.movable_regions())

    # ------------------------------------------------------------------ the public API
    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance(self) -> bool:
        return self.phase in CHANCE_PHASES

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
        if self.phase == "over":
            return ()
        if self.phase in CHANCE_PHASES:
            return (CHANCE,)
        if self.phase == "power":
            return (self.power_order[self.power_pos],)
        assert self.turn is not None
        return (self.turn.player,)

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
        """The chance actions with their probabilities (region and action cards are uniform)."""
        actions = self._chance_actions()
        if self.phase == "reveal":
            deck = self.decks[self._reveal_deck()]
            return [(a, deck.count(a.arg2) / len(deck)) for a in actions]
        return [(a, 1 / len(actions)) for a in actions]

    def parse(self, text: str) -> Action:
        """Text notation to a canonical action (region and colour names in any accepted form)."""
        action = Action.parse(text)
        args = [self._canonical_arg(action.kind, i, a) for i, a in enumerate(action[1:]) if a]
        return Action(action.kind, *args)

    def _canonical_arg(self, kind: str, position: int, arg: str) -> str:
        colour_first = kind in ("pick", "return", "home") and position == 0
        if kind in ("first",) or colour_first:
            index = self._colour_index.get(gamedata.fold(arg))
            if index is None:
                raise NotationError(f"{arg!r} is not a player's colour in this game")
            return self.colours[index]
        area_verbs = ("kingcard", "home", "place", "to", "recall", "disc", "region", "king")
        if (
            kind in area_verbs
            or (kind in ("pick", "return", "tile") and position == 1)
            or (kind == "grande")
        ):
            try:
                return self.tok[self.area(arg)]
            except KeyError:
                raise NotationError(f"{arg!r} is not a region or area of the board") from None
        return arg

    def apply(self, action: Action | str, player: int | None = None) -> None:
        """Apply one action; an illegal one raises IllegalAction and changes nothing."""
        if action.__class__ is str:
            action = self.parse(action)
        action = cast(Action, action)
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
        self._apply_unchecked(player, action)
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
        if not self._dealer:
            return
        while self.phase in CHANCE_PHASES and self.frame is None:
            if self.phase == "reveal":
                # A uniform draw among the copies left in the deck.
                deck = self._reveal_deck()
                card = self.decks[deck][self._rng.randrange(len(self.decks[deck]))]
                chosen = Action("reveal", str(deck), card)
            else:
                options = self._chance_actions()
                chosen = options[self._rng.randrange(len(options))]
            self._apply_unchecked(CHANCE, chosen)

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
        rng = self._rng
        replayed = Game.replay(self.options, self.history[:-1], data=self.data)
        self.__dict__.update(replayed.__dict__)
        self._rng = rng
        return undone

    @classmethod
    def replay(
        cls,
        options: Options,
        history: Iterable[tuple[int, Action | str]],
        data: gamedata.GameData | None = None,
    ) -> Game:
        """Rebuild a game from its history; chance steps come from the history, not the RNG."""
        table = dataclasses.replace(options, mode="table")
        game = cls(table, data)
        for player, action in history:
            game.apply(action, player)
        game.resume_as(options)
        return game

    def resume_as(self, options: Options) -> None:
        """After a replay in table mode, continue with the original options (a dealer game
        draws on from a generator seeded by the seed and the number of actions so far)."""
        self.options = options
        self._dealer = options.mode == "dealer"
        self._rng = random.Random(f"{options.seed}:{len(self.history)}")
        self._auto_chance()

    # ------------------------------------------------------------------ legal actions
    def _chance_actions(self) -> list[Action]:
        if self.phase == "setup_first":
            return [Action("first", c) for c in self.colours]
        if self.phase == "setup_king":
            return [Action("kingcard", self.tok[r]) for r in self.region_cards]
        if self.phase == "setup_home":
            colour = self.colours[self._home_seat()]
            return [Action("home", colour, self.tok[r]) for r in self.region_cards]
        deck = self._reveal_deck()
        return [Action("reveal", str(deck), cid) for cid in dict.fromkeys(self.decks[deck])]

    def _card_action(self, card_id: str) -> Action:
        action = _CARD_ACTIONS.get(card_id)
        if action is None:
            action = _CARD_ACTIONS[card_id] = Action("card", card_id)
        return action

    def _compute_legal(self, player: int) -> list[Action]:
        if self.frame is not None:
            return self.frame.legal(self, player)
        if self.phase == "main":
            assert self.turn is not None
            return self._main_actions(self.turn)
        if self.phase in CHANCE_PHASES:
            return self._chance_actions()
        if self.phase == "power":
            taken = set(self.played)
            return [self.power_actions[v] for v in self.hands[player] if v not in taken]
        turn = self.turn
        assert turn is not None
        if self.phase == "take":
            most = min(turn.take, self.province[player] + self.board_supply(player))
            return self.take_actions[: most + 1]
        if self.phase == "card":
            return [self._card_action(c) for c in self.face_up if c]
        return self._main_actions(turn)

    def _main_actions(self, turn: Turn) -> list[Action]:
        if not turn.placed and turn.place_left and self.court[turn.player]:
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
        if self.frame is not None:
            frame = self.frame
            if frame.apply(self, player, action) and self.frame is frame:
                self.frame = None
                self._after_frame(frame)
            return
        _PHASE_HANDLERS[self.phase](self, player, action)

    def _do_setup_first(self, player: int, action: Action) -> None:
        self.first = self.colour(action.arg)
        self.phase = "setup_king"

    def _do_setup_king(self, player: int, action: Action) -> None:
        self.king = self.area(action.arg)
        self.region_cards.remove(self.king)
        self.phase = "setup_home"

    def _home_seat(self) -> int:
        return (self.first + self.home_pos) % self.n

    def _do_setup_home(self, player: int, action: Action) -> None:
        seat = self._home_seat()
        region = self.area(action.arg2)
        self.region_cards.remove(region)
        self.grandes[seat] = region
        self.pieces[region][seat] += self.data.start_caballeros
        self.court[seat] += self.data.court_at_start
        self.province[seat] -= self.data.start_caballeros + self.data.court_at_start
        self.home_pos += 1
        if self.home_pos == self.n:
            self.region_cards = list(range(self.R))  # the region cards go back in the box
            self._start_round()

    def _start_round(self) -> None:
        self.face_up[4] = self.king_card
        self.played = [0] * self.n
        self.power_order = [(self.first + i) % self.n for i in range(self.n)]
        self.power_pos = 0
        self.phase = "reveal"
        self._next_reveal()

    def _reveal_deck(self) -> int:
        for deck in range(1, 5):
            if not self.face_up[deck - 1] and self.decks[deck]:
                return deck
        raise AssertionError("no deck to reveal")

    def _next_reveal(self) -> None:
        pending = any(not self.face_up[d - 1] and self.decks[d] for d in range(1, 5))
        if not pending:
            self.phase = "power"

    def _do_reveal(self, player: int, action: Action) -> None:
        deck = int(action.arg)
        self.decks[deck].remove(action.arg2)
        self.face_up[deck - 1] = action.arg2
        self._next_reveal()

    def _do_power(self, player: int, action: Action) -> None:
        value = int(action.arg)
        self.hands[player].remove(value)
        self.played[player] = value
        self.power_pos += 1
        if self.power_pos == self.n:
            self.turn_order = sorted(range(self.n), key=lambda p: -self.played[p])
            self.turn_pos = 0
            self._start_turn()

    def _start_turn(self) -> None:
        player = self.turn_order[self.turn_pos]
        take = self.data.power_caballeros[self.played[player] - 1]
        self.turn = Turn(player=player, take=take)
        self.phase = "take"

    def _do_take(self, player: int, action: Action) -> None:
        count = int(action.arg)
        from_province = min(count, self.province[player])
        self.province[player] -= from_province
        self.court[player] += from_province
        self.phase = "card"
        if count > from_province:
            self.frame = RecallFrame(actor=player, left=count - from_province)

    def _do_card(self, player: int, action: Action) -> None:
        turn = self.turn
        assert turn is not None
        slot = self.face_up.index(action.arg)
        self.face_up[slot] = ""
        if action.arg != self.king_card:
            self.used_cards.append(action.arg)
        turn.card = action.arg
        turn.place_left = self.data.cards[action.arg].place
        self.phase = "main"

    def _do_main(self, player: int, action: Action) -> None:
        turn = self.turn
        assert turn is not None
        kind = action.kind
        if kind == "place":
            self.place_from_court(player, self._exact_area[action.arg])
            turn.placing = True
            turn.place_left -= 1
            if turn.place_left == 0 or not self.court[player]:
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

    def _after_frame(self, frame: Frame) -> None:
        if isinstance(frame, RecallFrame) and self.turn is not None and self.turn.special != 1:
            return  # the take step's recall is over; the card choice follows
        if isinstance(frame, VetoFrame) and self.turn is not None and self.turn.special == 1:
            self._ask_veto_or_run()
            return
        if isinstance(frame, DiscFrame):
            if frame.purpose == "general":
                self._finish_general_scoring(frame.chosen)
                return
            self.resolve_discs(frame)
        self._run_ops()

    def _maybe_end_turn(self) -> None:
        turn = self.turn
        assert turn is not None
        nothing_to_place = not turn.place_left or not self.court[turn.player]
        if turn.special == 2 and not turn.placing and not turn.placed and nothing_to_place:
            turn.placed = True
        if turn.placed and turn.special == 2:
            self._end_turn()

    def _end_turn(self) -> None:
        self.turn_pos += 1
        if self.turn_pos < self.n:
            self._start_turn()
        else:
            self.turn = None
            self._end_round()

    def _end_round(self) -> None:
        for slot in range(4):
            if self.face_up[slot]:
                self.used_cards.append(self.face_up[slot])
                self.face_up[slot] = ""
        self.face_up[4] = ""
        lowest = min(range(self.n), key=lambda p: self.played[p])
        self.first = lowest
        for p in range(self.n):
            value = self.played[p]
            if value not in self.hands[p]:  # not taken back by Power of attorney
                self.power_discards[p].append(value)
        number = self.round_number
        expired = [v for v in self.vetoes if v.expires_after_round <= self.round_index]
        for veto in expired:
            self.vetoes.remove(veto)
            self.used_cards.append(veto.card)
        self.score_history.append({"round": number, "scores": list(self.scores)})
        self.round_index += 1
        if number in self.data.scoring_after:
            self._start_general_scoring()
        else:
            self._start_round()

    # ------------------------------------------------------------------ general scoring
    def _start_general_scoring(self) -> None:
        self.phase = "scoring"
        options = {p: [self.disc_actions[r] for r in range(self.R)] for p in range(self.n)}
        self.frame = DiscFrame(options=options, purpose="general")

    def _finish_general_scoring(self, discs: dict[int, int]) -> None:
        results = [self._score(self.CASTILLO)]
        moved: dict[str, str] = {}
        for p in range(self.n):
            count = self.pieces[self.CASTILLO][p]
            self.pieces[self.CASTILLO][p] = 0
            target = discs[p]
            if target == self.king:
                self.court[p] += count
                moved[self.colours[p]] = "court"
            else:
                self.pieces[target][p] += count
                moved[self.colours[p]] = self.tok[target]
        results += [self._score(r) for r in range(self.R)]
        self._record_scoring(
            "general",
            results,
            discs={self.colours[p]: self.tok[discs[p]] for p in range(self.n)},
            moved=moved,
        )
        if self.round_index >= len(self.rounds):
            self.phase = "over"
        else:
            self._start_round()

    def _score(self, area: int, first_only: bool = False) -> AreaScore:
        row = self.pieces[area]
        colours = self.colours
        counts = {colours[p]: n for p, n in enumerate(row) if n}
        grandes = [colours[p] for p, where in enumerate(self.grandes) if where == area]
        result = score_area(
            self.tok[area] if area == self.CASTILLO else self.regions[area].name,
            counts,
            self.values_of(area),
            places=self.places,
            king_here=area == self.king,
            grandes_here=grandes,
            first_place_only=first_only,
        )
        index = self._exact_colour
        for colour, points in result.points.items():
            self.scores[index[colour]] += points
        for colour, points in result.bonus.items():
            self.scores[index[colour]] += points
        return result

    def _record_scoring(self, kind: str, results: list[AreaScore], **extra: Any) -> None:
        self._scorings.append(
            {
                "kind": kind,
                "round": self.rounds[self.round_index - 1]
                if kind == "general"
                else self.round_number,
                "areas": results,
                "totals": dict(zip(self.colours, self.scores, strict=True)),
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
    def place_from_court(self, player: int, area: int) -> None:
        self.court[player] -= 1
        self.pieces[area][player] += 1
        if area == self.CASTILLO:
            self._announce_throw(player, player)

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

    # ------------------------------------------------------------------ special actions
    def _run_ops(self) -> None:
        turn = self.turn
        assert turn is not None
        while self.frame is None and self.ops:
            self._start_op(self.ops.pop(0), turn.player)
        if self.frame is None:
            turn.special = 2
            self._maybe_end_turn()

    def _start_op(self, op: dict[str, Any], me: int) -> None:
        name = op["op"]
        getattr(self, "_op_" + name)(op, me)

    def _limit(self, value: Any) -> int:
        return UNLIMITED if value == "any" else int(value or 0)

    def _op_move(self, op: dict[str, Any], me: int) -> None:
        frame = MoveFrame(
            actor=me,
            own=self._limit(op.get("own")),
            foreign=self._limit(op.get("foreign")),
            any=self._limit(op.get("any")),
            from_one=op.get("from") == "one",
        )
        if any(a.kind == "pick" for a in frame.legal(self, me)):
            self.frame = frame

    def _op_place(self, op: dict[str, Any], me: int) -> None:
        if self.court[me]:
            self.frame = PlaceFrame(
                actor=me, left=int(op["count"]), to=str(op.get("to", "regions"))
            )

    def _opponents_from_left(self, me: int) -> list[int]:
        return [(me + i) % self.n for i in range(1, self.n)]

    def _op_return(self, op: dict[str, Any], me: int) -> None:
        for target in reversed(self._opponents_from_left(me)):
            self.ops.insert(0, {**op, "op": "_return_one", "target": target})

    def _op__return_one(self, op: dict[str, Any], me: int) -> None:
        target = int(op["target"])
        sources = op.get("from", ["regions", "court"])
        from_court = "court" in sources
        from_regions = "regions" in sources
        court = self.court[target] if from_court else 0
        board = self.board_supply(target) if from_regions else 0
        wanted = court + board if op["count"] == "all" else min(int(op["count"]), court + board)
        if wanted == 0:
            return
        chooser = me if op.get("chooser") == "self" else target
        if not from_regions or wanted == court + board:
            # No choice to make: take everything (or only from the court).
            take = min(wanted, court)
            self.court[target] -= take
            self.province[target] += take
            if from_regions:
                for region in self.movable_regions():
                    self.province[target] += self.pieces[region][target]
                    self.pieces[region][target] = 0
            return
        self.frame = ReturnFrame(
            actor=chooser,
            target=target,
            left=wanted,
            from_court=from_court,
            from_regions=from_regions,
        )

    def _op_court(self, op: dict[str, Any], me: int) -> None:
        count = min(int(op["count"]), self.province[me] + self.board_supply(me))
        from_province = min(count, self.province[me])
        self.province[me] -= from_province
        self.court[me] += from_province
        if count > from_province:
            self.frame = RecallFrame(actor=me, left=count - from_province)

    def _op_score(self, op: dict[str, Any], me: int) -> None:
        select = op["select"]
        card = self.turn.card if self.turn else ""
        if select == "chosen":
            areas = list(range(self.R)) + ([self.CASTILLO] if op.get("castillo_allowed") else [])
            choices = [self.region_actions[a] for a in areas]
            self.frame = ChoiceFrame(actor=me, kind="region", choices=choices, purpose="score")
            return
        if select == "castillo":
            chosen = [self.CASTILLO]
        elif select == "value":
            wanted = set(op["values"])
            chosen = [r for r in range(self.R) if self.values_of(r)[0] in wanted]
        elif select == "all":
            chosen = list(range(self.R))
        else:
            totals = [sum(self.pieces[r]) for r in range(self.R)]
            occupied = [t for t in totals if t > 0]
            if not occupied:
                chosen = []
            else:
                target = min(occupied) if select == "fewest" else max(occupied)
                chosen = [r for r in range(self.R) if totals[r] == target]
        first_only = bool(op.get("first_only", False))
        self._record_scoring(card, [self._score(a, first_only) for a in chosen])

    def _op_disc_return(self, op: dict[str, Any], me: int) -> None:
        players = range(self.n) if op["who"] == "all" else self._opponents_from_left(me)
        minimum = int(op["min_own"])
        options: dict[int, list[Action]] = {}
        for p in players:
            allowed = [r for r in self.movable_regions() if self.pieces[r][p] >= minimum]
            if allowed:
                options[p] = [self.disc_actions[r] for r in allowed]
        if options:
            self.frame = DiscFrame(options=options, purpose="return", payload=op["count"])

    def _op_coup(self, op: dict[str, Any], me: int) -> None:
        choices = [self.region_actions[r] for r in self.movable_regions()]
        self.frame = ChoiceFrame(actor=me, kind="region", choices=choices, purpose="coup")

    def _op_rivalry(self, op: dict[str, Any], me: int) -> None:
        options = {p: [self.disc_actions[r] for r in range(self.R)] for p in range(self.n)}
        self.frame = DiscFrame(options=options, purpose="rivalry")

    def _op_king(self, op: dict[str, Any], me: int) -> None:
        rule = op["to"]
        if rule == "any":
            targets = [r for r in range(self.R) if r != self.king]
        elif rule == "adjacent":
            if self.king in self.border_regions:
                targets = list(self.border_regions[self.king])
            elif self.king == self.CASTILLO:
                targets = list(range(self.R))
            else:
                targets = list(self.adjacent[self.king])
        else:
            raise ValueError(f"King move {rule!r} needs the New Regency rules")
        choices = [self.king_actions[r] for r in targets]
        if choices:
            self.frame = ChoiceFrame(actor=me, kind="king", choices=choices)

    def _op_grande(self, op: dict[str, Any], me: int) -> None:
        here = self.grandes[me]
        if here == self.king or here < 0:
            return  # a Grande in the King's region may not leave it
        targets = [r for r in range(self.R) if r not in (here, self.king)]
        choices = [self.grande_actions[r] for r in targets]
        self.frame = ChoiceFrame(actor=me, kind="grande", choices=choices)

    def _op_tile(self, op: dict[str, Any], me: int) -> None:
        occupied = set(self.tiles.values())
        free = [a for a in [*range(self.R), self.CASTILLO] if a != self.king and a not in occupied]
        choices: list[Action] = []
        for tile in self.data.tiles:
            where = self.tiles.get(tile.id)
            if where == self.king and where is not None:
                continue  # never taken out of the King's region
            choices.extend(Action("tile", tile.id, self.tok[a]) for a in free)
        if choices:
            self.frame = ChoiceFrame(actor=me, kind="tile", choices=choices)

    def _op_power_back(self, op: dict[str, Any], me: int) -> None:
        values = set(self.power_discards[me])
        if self.played[me] and self.played[me] not in self.hands[me]:
            values.add(self.played[me])
        choices = [Action("powerback", str(v)) for v in sorted(values)]
        if choices:
            self.frame = ChoiceFrame(actor=me, kind="powerback", choices=choices)

    def _op_either(self, op: dict[str, Any], me: int) -> None:
        choices = [Action("option", str(i + 1)) for i in range(len(op["options"]))]
        self.frame = ChoiceFrame(actor=me, kind="option", choices=choices, payload=op["options"])

    def _op_veto(self, op: dict[str, Any], me: int) -> None:
        assert self.turn is not None
        if self.turn.card in self.used_cards:
            self.used_cards.remove(self.turn.card)
        self.vetoes.append(
            Veto(holder=me, card=self.turn.card, expires_after_round=self.round_index + 1)
        )

    def resolve_choice(self, frame: ChoiceFrame, action: Action) -> None:
        me = frame.actor
        kind = frame.kind
        if kind == "king":
            self.king = self.area(action.arg)
        elif kind == "grande":
            self.grandes[me] = self.area(action.arg)
        elif kind == "tile":
            self.tiles[action.arg] = self.area(action.arg2)
        elif kind == "powerback":
            value = int(action.arg)
            if value in self.power_discards[me]:
                self.power_discards[me].remove(value)
            self.hands[me].append(value)
            self.hands[me].sort()
        elif kind == "option":
            self.ops[:0] = list(frame.payload[int(action.arg) - 1])
        elif kind == "region" and frame.purpose == "score":
            card = self.turn.card if self.turn else ""
            self._record_scoring(card, [self._score(self.area(action.arg))])
        elif kind == "region" and frame.purpose == "coup":
            self._start_coup(me, self.area(action.arg))

    def _start_coup(self, me: int, region: int) -> None:
        others = [r for r in self.movable_regions() if r != region]
        options = {
            p: [self.disc_actions[r] for r in others]
            for p in self._opponents_from_left(me)
            if self.pieces[region][p]
        }
        if options:
            self.frame = DiscFrame(options=options, purpose="coup", payload=region)

    def resolve_discs(self, frame: DiscFrame) -> None:
        """Reveal the discs of a card's secret step and apply the rest of its effect."""
        chosen = frame.chosen
        if frame.purpose == "return":
            for p, region in chosen.items():
                count = self.pieces[region][p] if frame.payload == "all" else int(frame.payload)
                count = min(count, self.pieces[region][p])
                self.pieces[region][p] -= count
                self.province[p] += count
        elif frame.purpose == "coup":
            source = int(frame.payload)
            for p, region in chosen.items():
                self.pieces[region][p] += self.pieces[source][p]
                self.pieces[source][p] = 0
        elif frame.purpose == "rivalry":
            votes = [0] * self.R
            for region in chosen.values():
                votes[region] += 1
            card = self.turn.card if self.turn else ""
            results = [self._score(r) for r in range(self.R) if votes[r] == 1]
            self._record_scoring(
                card, results, discs={self.colours[p]: self.tok[r] for p, r in chosen.items()}
            )

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


_ACTION_TABLES: dict[tuple[tuple[str, ...], tuple[str, ...]], dict[str, Any]] = {}


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
    "setup_king": Game._do_setup_king,
    "setup_home": Game._do_setup_home,
    "reveal": Game._do_reveal,
    "power": Game._do_power,
    "take": Game._do_take,
    "card": Game._do_card,
    "main": Game._do_main,
}


def new_game(players: Sequence[str], **kwargs: Any) -> Game:
    """A new game with default options for the given colours."""
    return Game(Options(players=tuple(players), **kwargs))
