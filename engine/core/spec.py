"""A game's spec: what the registry, the record reader and the conformance suite need to know
about one game. Each game module builds one `GameSpec`; `engine.registry` maps ids to them."""

from __future__ import annotations

import dataclasses
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Protocol, runtime_checkable

from engine.core import log as game_log
from engine.core.actions import Action
from engine.core.errors import EngineError, OptionsError, PositionError
from engine.core.events import EventMark, GameEvent, mark, since
from engine.core.options import RECORD_ONLY, describe
from engine.core.protocol import CHANCE, GameState
from engine.core.verbs import VerbTable

# The usual two levels below a game's search: random legal moves, and the best immediate gain.
RANDOM_AND_GREEDY: Mapping[int, str] = MappingProxyType({1: "random", 2: "greedy"})


class SeatNotActing(EngineError, ValueError):
    """A computer player was asked to move for a seat that does not act now."""


def require_acting(state: GameState, seat: int) -> None:
    """SeatNotActing unless `seat` is one of the seats acting in `state` now (a secret-disc step
    has several; chance and a finished game have none)."""
    actors = state.current_players()
    if seat in actors:
        return
    names = state.seat_names()
    name = names[seat] if 0 <= seat < len(names) else f"seat {seat}"
    if state.is_terminal():
        raise SeatNotActing(f"the game is over: {name} does not act")
    if actors == (CHANCE,):
        raise SeatNotActing(f"{name} does not act now: a chance step (a draw) comes next")
    acting = ", ".join(names[a] for a in actors if 0 <= a < len(names))
    raise SeatNotActing(f"{name} does not act now ({acting} does)")


class NoPreview(EngineError):
    """The game offers no preview (`GameSpec.preview`): none at all by default."""


class PreviewError(EngineError, ValueError):
    """The action is not one the game previews (El Caballero: only an area card's placement)."""


class ComputerPlayer(Protocol):
    """A game's computer player at one level."""

    def choose(self, state: GameState, seat: int) -> Action:
        """The move of `seat` (one of `state.current_players()`) in `state`. It thinks on its
        own private copy (`state.clone()`), so `state` is never changed and a dealer game's
        copy never sees the real game's future draws; SeatNotActing if `seat` does not act
        now."""
        ...


class GameSpec:
    """One game. Subclasses fill in the class attributes and the methods."""

    id: ClassVar[str] = ""  # the registry key and the records' "game"
    title: ClassVar[str] = ""
    version: ClassVar[int] = 1  # the game's record version: bumped when old records change
    aliases: ClassVar[tuple[str, ...]] = ()  # ids older records used
    player_counts: ClassVar[tuple[int, ...]] = ()
    verbs: ClassVar[VerbTable]
    options_type: ClassVar[type | None] = None  # the options dataclass
    option_kinds: ClassVar[Mapping[str, str]] = {}  # its fields' kinds (engine.core.options)
    option_sections: ClassVar[Mapping[str, str]] = {}  # where a form shows them (ditto)

    # The game's computer player: its levels (weakest first; none: the game has none), the
    # level a new computer seat gets, and the level of the seat pages' hints.
    computer_levels: ClassVar[tuple[int, ...]] = ()
    computer_default: ClassVar[int] = 0
    hint_level: ClassVar[int] = 0
    # What each level is, as the lobby names it: a searching level's seconds a turn, or the
    # kind of a level that does not search ("random", "greedy": the best immediate gain).
    computer_seconds: ClassVar[Mapping[int, float]] = {}
    computer_kinds: ClassVar[Mapping[int, str]] = {}

    def computer(self, level: int) -> ComputerPlayer:
        """The computer player of a level of `computer_levels`."""
        raise ValueError(f"{self.title} has no computer player")

    def computer_timed(self, seconds: float) -> ComputerPlayer:
        """The computer player with a time budget of about `seconds` a move; ValueError when
        the game's player has none (then only its levels are offered: `castillo move --level`)."""
        raise ValueError(f"{self.title} has no computer player with a time budget")

    def computer_copy(self, state: GameState) -> GameState:
        """A private copy of `state` a computer player thinks on (in another thread, while the
        game itself may move on)."""
        raise ValueError(f"{self.title} has no computer player")

    def options_schema(self) -> list[dict[str, Any]]:
        """The options a new game takes: each field's name, kind, default and section (a
        client builds its form from this); empty if the game does not say."""
        if self.options_type is None:
            return []
        return describe(self.options_type, self.option_kinds, self.option_sections)

    def client_options_schema(self) -> list[dict[str, Any]]:
        """The options a new game takes from a client (a lobby's form): the schema less the
        fields only a record's reader sets (section "record")."""
        return [o for o in self.options_schema() if o["section"] != RECORD_ONLY]

    def options_from_client(self, raw: Mapping[str, Any]) -> Any:
        """A new game's options from a client's request: `options_from_json`, with the fields
        only a record's reader sets refused (OptionsError per field)."""
        record_only = {o["name"] for o in self.options_schema() if o["section"] == RECORD_ONLY}
        refused = {name: "is set only by a game record" for name in raw if name in record_only}
        if refused:
            raise OptionsError(refused)
        return self.options_from_json(raw)

    @abstractmethod
    def options_from_json(self, raw: Mapping[str, Any]) -> Any:
        """The game's options from JSON (a client's or a record's); OptionsError per field."""

    @abstractmethod
    def options_to_json(self, options: Any) -> dict[str, Any]: ...

    def options_of_record(self, record: dict[str, Any]) -> Any:
        """A current-version record's options (a game may keep more of them outside
        "options", for people reading the file)."""
        raw = record.get("options")
        if raw is None:
            raw = {}
        if not isinstance(raw, dict):
            raise ValueError('"options" must be a JSON object')
        return self.options_from_json(raw)

    def record_header(self, state: GameState) -> dict[str, Any]:
        """Extra top-level fields of a record, for people reading it."""
        return {}

    def export_refusal(self, state: GameState) -> str | None:
        """Why a record of the game as it stands may not be handed out yet (it would reveal
        what a seat may not know: a secret choice, a hand, the cards still to come); None when
        it may. A finished game's record is public; by default a game in play is refused."""
        if state.is_terminal():
            return None
        return (
            f"a {self.title} game in play cannot be exported: its record would reveal what "
            "the players may not know yet. Finish the game first."
        )

    @abstractmethod
    def new_state(self, options: Any, data: Any = None) -> GameState:
        """A new game. `data`: the game's data with override files, from a trusted caller."""

    @abstractmethod
    def replay_start(self, options: Any, data: Any = None) -> GameState:
        """A new game that takes chance outcomes from the actions applied, never drawing
        (table mode); ValueError if the options are refused."""

    def replay_end(self, state: GameState, options: Any) -> None:
        """After a replay: go on with the original options (a dealer game keeps dealing)."""

    def seat_of(self, state: GameState, name: str) -> int:
        """The seat index of a recorded actor name (ValueError if none)."""
        return state.seat_names().index(name)

    def test_options(self, players: int) -> list[Any]:
        """Options for the conformance suite: every variant worth playing with that many
        players, in dealer mode where the game has chance (seeded: reproducible)."""
        return []

    def selfplay_options(self, players: int, seed: int | None) -> Any:
        """Options of a game the engine plays alone (`castillo selfplay --game ID`): the first
        of `test_options(players)`, dealt from `seed` (None: unpredictable); ValueError if
        the game has none for that many players."""
        variants = self.test_options(players)
        if not variants:
            raise ValueError(f"{self.title} has no self-play options for {players} players")
        return self.options_from_json({**self.options_to_json(variants[0]), "seed": seed})

    def check_invariants(self, state: GameState) -> None:
        """Raise AssertionError if the state breaks one of the game's invariants."""

    # ------------------------------------------------------------------ events (core.events)
    def event_mark(self, state: GameState) -> EventMark:
        """Where `state` is now, for `events_since` after some actions (cheap; apply itself
        never makes events)."""
        return mark(self, state)

    def events_since(self, state: GameState, before: EventMark) -> list[GameEvent]:
        """What the changes since `before` did: actions, reveals, scorings, a phase change,
        the game's end (engine.core.events)."""
        return since(self, state, before)

    def reveals(self, state: GameState) -> Sequence[Mapping[str, Any]]:
        """Secret choices turned face up so far, each the game's entry (none by default)."""
        return ()

    def scorings(self, state: GameState) -> Sequence[Mapping[str, Any]]:
        """The scorings made so far, each the game's entry (none by default)."""
        return ()

    def phase(self, state: GameState) -> str | None:
        """The game's phase or step now, as its view names it (None: the game has none)."""
        return None

    # ------------------------------------------------------------------ the log (core.log)
    def log_lines(self, state: GameState, viewer: int | None) -> list[dict[str, Any]]:
        """The game's log as `viewer` (None: the public) may read it now: a line per step
        (`step`, `actor`, `key`, `params`), a secret argument None unless the viewer may see
        it (by default a seat sees those of its own steps)."""
        return game_log.log_lines(self.verbs, state.history, state.seat_names(), viewer)

    def log_line(
        self, state: GameState, player: int, action: Action, viewer: int | None
    ) -> dict[str, Any]:
        """The line (`key`, `params`) of `action`, just taken by `player` in `state` (or
        just taken back), as `viewer` (None: the public) reads it then."""
        shown = game_log.own_step(len(state.history), player, action, viewer)
        return self.verbs.line(action, shown)

    def preview(self, state: GameState, seat: int, action: str) -> dict[str, Any]:
        """What `seat` taking `action` would do, worked out on copies of `state` (never changed;
        nothing dealt, nothing a seat may not see): `{"legal": false, "refusal": ...}` for an
        action the engine refuses, else what the game's page shows (docs/game-protocol.md,
        "Previews"). NoPreview by default: the game offers none; PreviewError for an action the
        game does not preview; NotationError for a text that is no action."""
        raise NoPreview(f"{self.title} offers no previews")

    def winners(self, state: GameState) -> tuple[list[str], str] | None:
        """A finished game's winners and what decided (e.g. "score", "largest_territory",
        "shared") when the game has tie-breaks beyond the score; None: the highest score wins."""
        return None

    def score_position(
        self, raw: Mapping[str, Any], overrides: Sequence[Path | str] = ()
    ) -> dict[str, Any]:
        """Score a position given as JSON (`castillo score --game ID`; each game documents its
        format in docs/). A bad position raises engine.core.errors.PositionError."""
        raise PositionError("game", f"{self.title} has no position scoring")

    def upgrade_record(self, record: dict[str, Any]) -> dict[str, Any]:
        """A record of an older version of this game, rewritten to the current one."""
        return record


class JsonOptions(Protocol):
    def to_json(self) -> dict[str, Any]: ...


@runtime_checkable
class Resumable(Protocol):
    def resume_as(self, options: Any) -> None:
        """Go on with these options after a replay in table mode."""


class TableOrDealerSpec(GameSpec):
    """A game played at a real table (mode "table": chance outcomes are entered) or dealt by
    the engine (mode "dealer"). Its options are a dataclass with a `mode` field and `to_json()`;
    its state has `resume_as(options)`. A record replays in table mode (the chance outcomes are
    in it), then the game goes on in its own mode: a dealer game deals on as it would have."""

    def options_to_json(self, options: JsonOptions) -> dict[str, Any]:
        assert self.options_type is not None and isinstance(options, self.options_type)
        return options.to_json()

    def replay_start(self, options: Any, data: Any = None) -> GameState:
        return self.new_state(dataclasses.replace(options, mode="table"), data)

    def replay_end(self, state: GameState, options: Any) -> None:
        assert isinstance(state, Resumable)
        state.resume_as(options)
