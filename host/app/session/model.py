"""The game in play as the session holds it: who a client is (`Role`), a person's seat link
(`Seat`), the active game with its throw checks, seats and public log (`ActiveGame`), and what
an engine change did to it (`Event`)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.actions import Action
from engine.core.protocol import CHANCE, GameState
from engine.core.spec import GameSpec
from host.games import GameAdapter
from host.tower.checks import Checks

LANGUAGES = ("en", "cs", "pl", "uk")
LOG_LINES = 200  # public log lines kept in `state.log`
STEP = "step"  # a step line's history index: the session's bookkeeping, never shown
OWN = "own"  # a step line's params as each seat that sees more reads them: shown to it only
TOKEN_BYTES = 16
Listener = Callable[[list[dict[str, Any]]], None]

# What an engine change did (host/app/session/events.py)
CHANGED = "changed"  # the game changed (always the first event)
ACTION = "action"  # one engine action applied (a player's, or the dealer's after it)
REVEAL = "reveal"  # secret choices turned face up (El Grande's discs)
SCORING = "scoring"  # a scoring was made


@dataclass(frozen=True)
class Event:
    kind: str
    player: int = 0  # ACTION: who acted (CHANCE for the dealer)
    action: Action | None = None  # ACTION: what
    step: int = 0  # ACTION: its index in the game's history
    detail: Mapping[str, Any] = field(default_factory=dict)  # REVEAL, SCORING: the game's entry


@dataclass(frozen=True)
class Role:
    kind: str  # "table" or "seat"
    colour: str | None = None

    @classmethod
    def table(cls) -> Role:
        return cls("table")


@dataclass
class Seat:
    colour: str
    token: str
    claimed: bool
    lang: str
    connected: int = 0


@dataclass
class ActiveGame:
    id: int
    spec: GameSpec
    adapter: GameAdapter
    game: GameState
    checks: Checks | None  # the tower's throw checks: None for a game without the tower
    seats: dict[str, Seat]
    scorings: int = 0
    reveals: int = 0  # secret choices revealed so far (each logged once)
    sweep: tuple[tuple[str, tuple[str, ...]], ...] = ()
    flash: int = 0
    log: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    logged: int = 0  # log lines so far (their `n`): a new one for every move
    # the public numbering (`public_log`): lines that left the window, not yet judged, and how
    # many of those judged the game's `public_log` leaves out
    evicted: list[dict[str, Any]] = field(default_factory=list)
    left_out: int = 0
    private: set[str] = field(default_factory=lambda: {STEP, OWN})  # line fields never shown
    history: int = 0  # engine history entries already in the log
    computers: dict[str, int] = field(default_factory=dict)  # computer seats: name → level
    proposal: tuple[int, str] | None = None  # (`logged` then, move) a computer waits to confirm

    def computer_acting(self) -> str | None:
        """The name of a computer seat that acts now, if one does (where several seats choose
        at once, e.g. El Grande's secret discs, the first computer seat among them)."""
        for player in self.game.current_players():
            if player == CHANCE:
                return None
            name = self.names[player]
            if name in self.computers:
                return name
        return None

    def note(self, kind: str, actor: str, text: str, **extra: Any) -> None:
        """One line of the public log (docs/table-api.md, `state.log`)."""
        self.logged += 1
        line = {"n": self.logged, "kind": kind, "actor": actor, "text": text}
        line.update(self.adapter.log_fields(self.game))
        line.update(extra)
        if len(self.log) == self.log.maxlen:
            self.evicted.append(self.log[0])  # judged by `settle_log`, once the change is made
        self.log.append(line)

    def settle_log(self) -> None:
        """Count the lines that left the window which the game's `public_log` leaves out, each
        judged once, among the lines still kept (its context). Called once a change is wholly
        made (`Transaction.apply`), never halfway through its lines: live and replayed alike, so
        a resumed game numbers its lines as the uninterrupted one. A line leaves the window
        LOG_LINES lines after it was written, its turn long over: what it shows is final."""
        if not self.evicted:
            return
        shown = {line["n"] for line in self.adapter.public_log(self.game, self.lines())}
        self.left_out += sum(1 for line in self.evicted if line["n"] not in shown)
        self.evicted.clear()

    def lines(self) -> list[dict[str, Any]]:
        """The lines kept: those not yet judged that left the window, then the window."""
        return [*self.evicted, *self.log]

    def public_log(self, seat: str | None = None) -> list[dict[str, Any]]:
        """The window's lines every client is shown (docs/table-api.md, `state.log`): the game's
        `public_log`, each line numbered (`n`) among the lines shown over the whole game, so a
        line left out leaves no gap, and without the session's bookkeeping (`private`). For a
        `seat` (its name) the lines of steps whose secret arguments it sees carry its `params`
        (`note_step`); the same lines, numbered alike, as every client's."""
        lines = self.lines()
        shown = self.adapter.public_log(self.game, lines)
        kept = {line["n"] for line in shown}
        public: dict[int, int] = {}
        left_out = self.left_out  # the lines left out before each line
        for line in lines:
            if line["n"] in kept:
                public[line["n"]] = line["n"] - left_out
            else:
                left_out += 1
        first = self.log[0]["n"] if self.log else self.logged + 1
        private = self.private
        return [
            {
                **{k: v for k, v in line.items() if k not in private},
                "n": public[line["n"]],
                **own_params(line, seat),
            }
            for line in shown
            if line["n"] >= first
        ]

    def note_step(self, kind: str, actor: str, action: Action, step: int) -> None:
        """The line of an engine step: an `action` line when it is taken, an `undo` line when
        it is taken back. Its text is the notation of the step's public line (`line_text`),
        `step` its index in the game's history (an undo's: of the step it took back), and the
        game's own facts of the step (`step_fields`) go with it, for the game's `public_log`
        to decide from what the line refers to, never from its text. Both are the session's
        bookkeeping (`private`): no client gets them.

        The line says the step as the engine's log does (`key`, `params`; engine.core.log):
        `params` as the public reads it, its secret arguments None, and `text` the notation of
        that line. A seat that sees more of the step (its own secret choice) gets its own
        `params` (`OWN`, by seat name; `public_log` gives them to that seat only)."""
        adapter, game = self.adapter, self.game
        fields = adapter.step_fields(action, game)
        self.private.update(fields)
        player = CHANCE if actor == "chance" else self.player(actor)
        line = adapter.log_line(game, player, action, None)
        names = game.seat_names()
        own = {}
        for seat in adapter.seats(game):
            params = adapter.log_line(game, player, action, seat)["params"]
            if params != line["params"]:
                own[names[seat]] = params
        text = adapter.line_text(line)
        self.note(kind, actor, text, **line, **{STEP: step, OWN: own}, **fields)

    @property
    def names(self) -> list[str]:
        """Every player's name by seat index (El Grande: the colours, its dummy's too)."""
        return self.game.seat_names()

    def name_of(self, player: int) -> str:
        return "chance" if player == CHANCE else self.names[player]

    def player(self, name: str) -> int:
        """A player's seat index by name (KeyError if the game has none of that name)."""
        return self.adapter.seat_of(self.game, name)

    def summary(self) -> dict[str, Any]:
        return self.adapter.summary(self.game)


def own_params(line: dict[str, Any], seat: str | None) -> dict[str, Any]:
    """A step line's `params` as `seat` reads them, when it sees more than the public."""
    own = line.get(OWN) or {}
    return {"params": own[seat]} if seat in own else {}
