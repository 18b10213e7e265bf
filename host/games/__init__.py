"""Per-game host adapters: what the table app needs from a game beyond the engine protocol.

`host/app` knows no game. For the game of a saved or new game it asks `adapter_for(spec)`:
the module `host.games.<id>` (its `Adapter` class) when the game has one, else `GameAdapter`
itself, the generic adapter, which plays any game of `engine.registry` from its spec alone
(options from the spec's schema, the verb table's secrecy, the state's views). So a game
registered only in the engine plays through the API with no file of host/ touched.

A game's UI plugin folder is `host/games/<id>/static/` (served under `/games/<id>/`): its
`plugin.js`, if any, and its i18n bundle, `i18n/<lang>/*.json` (every file of a language's folder
merged, in name order). A game without a plugin gets the shell's generic one. What its pages need
to sort and word actions is served from its verb table (`GameAdapter.vocabulary`), with the kinds
of its parameters and its areas from `host/games/<id>/vocabulary.py` when it has one.

Capabilities: `tower` (the castillo tower counts thrown cubes: the throw checks run, the tower
is told when a Grande may fall) and `lights` (the board's region lights show the game). A game
without them runs with neither: no throw checks, no lights, no tower warnings.
"""

from __future__ import annotations

import functools
import importlib
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from engine.core.actions import Action
from engine.core.protocol import CHANCE, GameState
from engine.core.spec import GameSpec
from host.tower.checks import Checks, GameFacts
from host.tower.lights import LightsState

log = logging.getLogger("host.games")
GAMES_DIR = Path(__file__).resolve().parent
LANGUAGES = ("en", "cs", "pl", "uk")
Route = tuple[str, Callable[..., Any]]  # an extra GET route of a game: (path, handler)


@dataclass(frozen=True)
class Highlight:
    """An area the acting player's legal actions point at, in their colour."""

    area: str
    colour: str
    why: str

    def to_json(self) -> dict[str, str]:
        return {"area": self.area, "colour": self.colour, "why": self.why}


class PromptView(Protocol):
    """The prompt the whole table sees (docs/table-api.md, `state.prompt`)."""

    @property
    def highlights(self) -> Sequence[Highlight]: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Prompt:
    """A prompt with its English text given (the generic adapter's)."""

    key: str
    actors: tuple[str, ...]
    text: str
    params: dict[str, Any] = field(default_factory=dict)
    highlights: tuple[Highlight, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "actors": list(self.actors),
            "params": self.params,
            "text": self.text,
        }


class GameAdapter:
    """The generic adapter (see the module docstring); a game's own adapter overrides what it
    knows better. Players are seat indices; names are the state's `seat_names()`."""

    tower = False  # capability: the castillo tower and its throw checks
    lights = False  # capability: the board's region lights
    plugins_dir = GAMES_DIR  # where the games' plugin folders are (tests point it elsewhere)

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec

    # ------------------------------------------------------------------ starting
    def new_state(self, raw: Mapping[str, Any]) -> GameState:
        """A new game from a client's options; OptionsError (per field) or ValueError."""
        return self.spec.new_state(self.spec.options_from_client(raw))

    def seats(self, state: GameState) -> list[int]:
        """The seats people play (each gets a seat link)."""
        return list(range(len(state.seat_names())))

    def seat_of(self, state: GameState, name: str) -> int:
        """A seat's index by name; KeyError if the game has none of that name."""
        try:
            return self.spec.seat_of(state, name)
        except (KeyError, ValueError):
            raise KeyError(name) from None

    # ------------------------------------------------------------------ what clients see
    def options_view(self, state: GameState) -> dict[str, Any]:
        """The options every client may see (never a dealer's seed)."""
        options = self.spec.options_to_json(state.options)
        options.pop("seed", None)
        return options

    def summary(self, state: GameState) -> dict[str, Any]:
        """The saved game's line in the lobby."""
        names = state.seat_names()
        seats = self.seats(state)
        returns = state.returns()
        return {
            "players": [names[p] for p in seats],
            "options": self.options_view(state),
            "finished": state.is_terminal(),
            "scores": {names[p]: returns[p] for p in seats},
            "actions": len(state.history),
        }

    def log_fields(self, state: GameState) -> dict[str, Any]:
        """Extra fields of every public log line (El Grande: the round)."""
        return {}

    def public_log(self, state: GameState, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The log lines every client is shown now (El Grande: the castillo's secret), in their
        order, each with its `n` as logged (a copy may add fields): the session numbers them
        afresh, counts a line left out from it, and takes the bookkeeping off (an engine step's
        line has its history index, `step`, and the game's `step_fields`)."""
        return lines

    def step_fields(self, action: Action, state: GameState) -> dict[str, Any]:
        """The game's own facts of an engine step, kept on its log lines (the action's, and the
        undo's that takes it back) for the game's `public_log` to filter by (El Grande: a
        castillo step); `public_log` takes off any a client may not see."""
        return {}

    def public_text(self, action: Action, state: GameState | None = None) -> str:
        """An action as the public log shows it (secret arguments hidden): the notation of its
        public line (`log_line`); `state`: the game just after it (a table option may make a
        secret public)."""
        if state is None:
            return self.spec.verbs.redact(action)
        return self.line_text(self.log_line(state, CHANCE, action, None))

    def log_line(
        self, state: GameState, player: int, action: Action, viewer: int | None
    ) -> dict[str, Any]:
        """An engine step's log line (`key`, `params`) as `viewer` (None: the public) reads it
        when `player` takes it (or it is taken back): the engine's (`GameSpec.log_line`)."""
        return self.spec.log_line(state, player, action, viewer)

    def line_text(self, line: dict[str, Any]) -> str:
        """A log line's notation text (`deal purple ?`): the verb table's."""
        return self.spec.verbs.text(line)

    def secret(self, action: Action) -> bool:
        """Made on the player's own page only, never at the shared table."""
        verbs = self.spec.verbs
        return action.kind in verbs.secret or action.kind in verbs.seat_only

    def computer_confirms(self, state: GameState) -> bool:
        """A computer seat's move waits for the players to make it with the pieces and confirm
        it: a game played at a real table (its option `mode` is "table"); else it is made."""
        return self.options_view(state).get("mode") == "table"

    def not_at_table(self, action: Action) -> bool:
        """Never offered as a button at the table."""
        return self.secret(action)

    def prompt(self, state: GameState, checks: Checks | None) -> PromptView:
        names = state.seat_names()
        actors = tuple("chance" if p == CHANCE else names[p] for p in state.current_players())
        if state.is_terminal():
            scores = dict(zip(names, state.returns(), strict=True))
            return Prompt("over", (), "The game is over.", {"scores": scores})
        return Prompt("generic.turn", actors, f"{', '.join(actors)}: your move")

    def setup_checklist(self, state: GameState) -> list[dict[str, Any]] | None:
        """What the table lays out after a dealer-mode start (items: `key`, `params`); None
        when there is nothing to lay out."""
        return None

    def seat_prompt(self, state: GameState, viewer: int, legal: Sequence[str]) -> PromptView | None:
        """A seat's own prompt when it differs from the table's (a secret choice on its page,
        waiting for others); None: the seat sees the table's prompt."""
        return None

    def scorings(self, state: GameState) -> list[dict[str, Any]]:
        """The scorings so far (each one is announced to the table when it happens)."""
        return []

    def scoring_label(self, scoring: Mapping[str, Any]) -> str:
        """One scoring of `scorings` as the log's `scoring` line names it (the game's own
        words: El Grande's kind of scoring, El Caballero's round)."""
        return "scoring"

    def reveals(self, state: GameState) -> list[dict[str, Any]]:
        """Secret choices turned face up so far, each `{"card", "discs"}` (El Grande's discs:
        the card or "general", colour -> region); each one is logged when it happens."""
        return []

    # ------------------------------------------------------------------ seats entering chance
    def seat_chance(self, state: GameState, colour: str) -> list[str] | None:
        """Chance steps one seat enters on its own page now (their outcome is that seat's
        secret); None when there are none."""
        return None

    def seat_chance_refusal(
        self, state: GameState, colour: str, action: Action, as_colour: str | None
    ) -> tuple[str, str] | None:
        """For a chance step a seat sends: None if it is one this seat enters now, else the
        refusal (code, reason). The generic game has none: chance is entered at the table."""
        return ("forbidden", "chance steps are entered at the table")

    def seat_enters(self, action: Action) -> bool:
        """The action is a chance step a seat may enter on its own page."""
        return False

    # ------------------------------------------------------------------ capabilities
    def tower_facts(self, state: GameState) -> GameFacts:
        """The throw checks' facts (games with the tower)."""
        raise NotImplementedError(f"{self.spec.title} has no tower")

    def castillo_correction(self, state: GameState, colour: str, delta: int, why: str) -> str:
        """The engine action recording that `delta` caballeros of `colour` went into (or out
        of) the castillo because the tower's count wins; IllegalAction if it cannot be done."""
        raise NotImplementedError(f"{self.spec.title} has no tower")

    def waits_for_scoring_check(self, action: Action) -> bool:
        """The action waits while the castillo count is checked against the tower."""
        return False

    def grande_possible(self, state: GameState, totals: Mapping[str, int]) -> bool:
        return False

    def lights_state(
        self,
        state: GameState,
        checks: Checks,
        prompt: PromptView,
        sweep: tuple[tuple[str, tuple[str, ...]], ...],
        flash: int,
    ) -> LightsState:
        return LightsState(flash=flash)

    def sweep(self, state: GameState, scoring: Mapping[str, Any]) -> tuple[Any, ...]:
        """A scoring as the lights' sweep: (area, winning colours) per area."""
        return ()

    # ------------------------------------------------------------------ a page's vocabulary
    def vocabulary(self) -> dict[str, Any]:
        """What a page needs to sort and word the game's actions (`GET /api/games/<id>/verbs`):
        its verb table, the kinds of its prompts' and refusals' parameters (family -> name ->
        kind) and its area tokens. A game's own kinds and areas come from its module
        `host.games.<id>.vocabulary` (`PARAM_KINDS`, `areas()`), when it has one."""
        words = _vocabulary_module(self.spec.id)
        kinds: Mapping[str, Mapping[str, str]] = getattr(words, "PARAM_KINDS", {})
        return {
            "game": self.spec.id,
            "verbs": self.spec.verbs.to_json(),
            "param_kinds": {family: dict(names) for family, names in kinds.items()},
            "areas": list(words.areas()) if words is not None else [],
        }

    # ------------------------------------------------------------------ the app
    def routes(self) -> list[Route]:
        """The game's own GET routes under /api (El Grande: its printed components)."""
        return []

    def static_dir(self) -> Path | None:
        """The game's plugin folder (served under /games/<id>/), if it has one."""
        folder = self.plugins_dir / self.spec.id / "static"
        return folder if folder.is_dir() else None

    def i18n_bundle(self, lang: str) -> dict[str, str]:
        """Every `i18n/<lang>/*.json` of the plugin folder merged (name order). A file that
        is not a JSON object of strings is left out and logged: one bad file costs itself."""
        folder = self.static_dir()
        if folder is None or lang not in LANGUAGES:
            return {}
        out: dict[str, str] = {}
        for path in sorted((folder / "i18n" / lang).glob("*.json")):
            try:
                raw = json.loads(path.read_text(encoding="utf-8"))
                if not isinstance(raw, dict):
                    raise ValueError("not a JSON object")
            except (OSError, ValueError) as exc:
                log.error("i18n file %s left out: %s", path, exc)
                continue
            out.update({str(k): str(v) for k, v in raw.items() if isinstance(v, str)})
        return out

    def describe(self) -> dict[str, Any]:
        """The game as the lobby offers it (`plugin`: its UI module, None for the generic)."""
        spec = self.spec
        folder = self.static_dir()
        plugin = folder is not None and (folder / "plugin.js").is_file()
        return {
            "id": spec.id,
            "title": spec.title,
            "player_counts": list(spec.player_counts),
            "options": spec.client_options_schema(),
            "tower": self.tower,
            "lights": self.lights,
            "plugin": f"/games/{spec.id}/plugin.js" if plugin else None,
            "computer": (
                {
                    "levels": list(spec.computer_levels),
                    "default": spec.computer_default,
                    # what each level is (the lobby names levels by them): JSON keys are text
                    "seconds": {str(n): s for n, s in spec.computer_seconds.items()},
                    "kinds": {str(n): kind for n, kind in spec.computer_kinds.items()},
                }
                if spec.computer_levels
                else None
            ),
            "hint": bool(spec.hint_level),
        }


@functools.cache
def _adapter_class(game_id: str) -> type[GameAdapter]:
    name = f"{__name__}.{game_id}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name != name:
            raise  # the game's adapter is there but broken: say so, do not hide it
        return GameAdapter
    # a folder holding only data (e.g. a game's i18n bundles) imports as a namespace package
    adapter: type[GameAdapter] = getattr(module, "Adapter", GameAdapter)
    return adapter


@functools.cache
def _vocabulary_module(game_id: str) -> Any:
    """`host.games.<id>.vocabulary`, or None when the game has none."""
    name = f"{__name__}.{game_id}.vocabulary"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name not in (name, f"{__name__}.{game_id}"):
            raise  # the game's module is there but broken: say so, do not hide it
        return None


def adapter_for(spec: GameSpec) -> GameAdapter:
    """The host adapter of a game (its own, or the generic one)."""
    return _adapter_class(spec.id)(spec)
