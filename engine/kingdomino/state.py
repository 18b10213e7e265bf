"""The state of a Kingdomino game (one plain class, `State`): the kingdoms, the lines of
dominoes and the kings on them, what was drawn, whose turn it is, and the questions asked of it
(who acts, the acting king's moves). The immutable tables it refers to are `GameData` (the
dominoes) and `Setup` (the options' consequences). The rules that change it are the functions
of engine.kingdomino.rounds; what is legal and how moves are named, engine.kingdomino.legal;
why an action is refused, engine.kingdomino.refusals; the protocol that holds it,
engine.kingdomino.game (`Game.state`).
"""

from __future__ import annotations

import random

from engine.core.actions import Action
from engine.core.protocol import CHANCE
from engine.kingdomino import kingdom as kd
from engine.kingdomino.data import GameData
from engine.kingdomino.kingdom import Kingdom
from engine.kingdomino.options import Options, Setup, check
from engine.kingdomino.steps import CLAIM, DISCARD, DRAW, KING, OVER, PLACE


class State:
    """The mutable state of one game (or Dynasty match): a new one (the options are checked:
    OptionsError), or, given `source` and `rng`, a copy for playouts (see `_copy`)."""

    options: Options
    data: GameData
    setup: Setup
    dealer: bool
    chance_rng: random.Random | None
    recording: bool
    history: list[tuple[int, Action]]
    steps: int
    game_number: int
    past: list[list[int]]
    kingdoms: list[Kingdom]
    discarded: list[int]
    seen: list[bool]
    unseen: list[int]
    drawn: int
    line: list[int]
    line_kings: list[int]
    line_next: list[int]
    next_kings: list[int]
    left_over: list[int]
    kings_drawn: list[int]
    order: list[int]
    turn: int
    step: int
    saved_kingdom: Kingdom | None  # the acting seat's kingdom before its placement (undo)

    def __init__(
        self,
        options: Options,
        data: GameData,
        source: State | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.options = options
        self.data = data
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
        self.saved_kingdom = None
        self.new_game()

    def new_game(self) -> None:
        """The kingdoms and lines of a new game (the next of a Dynasty, or the first)."""
        players = self.setup.players
        self.kingdoms = [Kingdom(self.setup.size) for _ in range(players)]
        self.discarded = [0] * players
        self.seen = [False] * (self.data.count + 1)
        self.unseen = list(self.data.numbers())  # in order: the seeded dealer draws by index
        self.drawn = 0
        self.line = []
        self.line_kings = []
        self.line_next = []
        self.next_kings = []
        self.left_over = []
        self.kings_drawn = []
        self.order = []
        self.turn = 0
        self.step = DRAW

    def kings_left(self) -> list[int]:
        """Kings not yet drawn for the first pick."""
        return [k for k in range(self.setup.kings) if k not in self.kings_drawn]

    def acting_king(self) -> int:
        return self.order[self.turn] if self.step in (PLACE, CLAIM) else -1

    def current_domino(self) -> int:
        """The domino under the acting king (0 if none)."""
        king = self.acting_king()
        for slot, owner in enumerate(self.line_kings):
            if owner == king:
                return self.line[slot]
        return 0

    def acting(self) -> tuple[int, ...]:
        """Who acts now: the acting king's seat, CHANCE while the dealer draws or lays the
        kings, nobody once the game is over (the protocol's `current_players`)."""
        if self.step == OVER:
            return ()
        if self.step in (DRAW, KING):
            return (CHANCE,)
        return (self.setup.seat_of_king[self.order[self.turn]],)

    def is_over(self) -> bool:
        """Whether the game (the Dynasty match: its last game) is over."""
        return self.step == OVER

    def moves(self) -> list[int]:
        """The acting king's legal moves in the fast integer form (see the module docstring)."""
        if self.step == PLACE:
            number = self.current_domino()
            data = self.data
            found = self.kingdoms[self.setup.seat_of_king[self.order[self.turn]]].placements(
                data.terrain_a[number],
                data.crowns_a[number],
                data.terrain_b[number],
                data.crowns_b[number],
            )
            return found if found else [DISCARD]
        if self.step == CLAIM:
            return [n for slot, n in enumerate(self.line_next) if self.next_kings[slot] < 0]
        return []

    def square_name(self, cell: int) -> str:
        row, col = self.kingdoms[0].row_col(cell)
        return f"{chr(ord('a') + col)}{row + 1}"

    def placement_text(self, move: int) -> str:
        return f"{self.square_name(move >> 2)}{kd.DIRECTIONS[move & 3]}"

    def parse_placement(self, text: str) -> int:
        """ "c4e" to an encoded placement (NotationError if it is not one)."""
        return kd.parse_placement(self.kingdoms[0], text)

    def copy(self, rng: random.Random) -> State:
        """A copy for playouts: it deals from `rng` and keeps no history (see `_copy`)."""
        return State(self.options, self.data, self, rng)

    def _copy(self, source: State, rng: random.Random) -> None:
        """A copy of `source` that deals from `rng` and keeps no history (the data, options
        and set-up are shared: immutable)."""
        self.setup = source.setup
        self.dealer = True
        self.chance_rng = rng
        self.recording = False
        self.history = []
        self.steps = source.steps
        self.game_number = source.game_number
        self.past = [row[:] for row in source.past]
        self.kingdoms = [k.copy() for k in source.kingdoms]
        self.discarded = source.discarded[:]
        self.seen = source.seen[:]
        self.unseen = source.unseen[:]
        self.drawn = source.drawn
        self.line, self.line_kings = source.line[:], source.line_kings[:]
        self.line_next, self.next_kings = source.line_next[:], source.next_kings[:]
        self.left_over = source.left_over[:]
        self.kings_drawn = source.kings_drawn[:]
        self.order = source.order[:]
        self.turn = source.turn
        self.step = source.step
        self.saved_kingdom = None
