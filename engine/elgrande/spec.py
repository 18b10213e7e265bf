"""El Grande on the game platform: its spec for the registry, records and conformance."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core.actions import Action
from engine.core.errors import RecordError
from engine.core.protocol import GameState
from engine.core.spec import RANDOM_AND_GREEDY, ComputerPlayer, TableOrDealerSpec
from engine.elgrande import data as gamedata
from engine.elgrande import position, views
from engine.elgrande.board import STATE_FIELDS
from engine.elgrande.game import Game, Options
from engine.elgrande.log import step_line
from engine.elgrande.options import OPTION_KINDS, OPTION_SECTIONS
from engine.elgrande.search import (
    LEVEL_SECONDS,
    LEVELS,
    MAX_SECONDS,
    SearchPlayer,
    player_for_level,
)
from engine.elgrande.verbs import VERBS

__all__ = ["SPEC", "ElGrandeSpec"]

# The 2023 box's four alternative action cards, in the order the set-up example sets cards
# aside for them (decks 1, 2, 2, 4).
ALL_ALTERNATIVES = ("delegation", "veto", "veto-2", "rivalry")


class ElGrandeSpec(TableOrDealerSpec):
    id = "elgrande"
    title = "El Grande"
    # 2: the alternative action cards settled from the rulebooks (records of version 1 replay
    # with the cards they were made with: option card_set "v1")
    version = 2
    aliases = ("el-grande",)  # what records of format 1 name it
    player_counts = (2, 3, 4, 5)
    verbs = VERBS
    options_type = Options
    option_kinds = OPTION_KINDS
    option_sections = OPTION_SECTIONS
    # 1 random, 2 one-ply greedy, 3-5 determinized search with 0.25, 1 and 2 s a move
    # (engine.elgrande.search; docs/computer-players.md)
    computer_levels = LEVELS
    computer_default = 4
    computer_seconds = LEVEL_SECONDS
    computer_kinds = RANDOM_AND_GREEDY
    hint_level = 3

    def computer(self, level: int) -> ComputerPlayer:
        return player_for_level(level)

    def computer_timed(self, seconds: float) -> ComputerPlayer:
        """The determinized search with a budget of `seconds` a move."""
        if isinstance(seconds, bool) or not (
            isinstance(seconds, (int, float)) and 0 < seconds <= MAX_SECONDS
        ):
            raise ValueError(f"the time budget is more than 0 and at most {MAX_SECONDS:g} seconds")
        return SearchPlayer(float(seconds))

    def computer_copy(self, state: GameState) -> GameState:
        """A private copy to think on: a clone (dealing from its own fresh seed). The players
        read it only through the acting seat's view (engine.elgrande.determinize)."""
        assert isinstance(state, Game)
        return state.clone()

    def options_from_json(self, raw: Mapping[str, Any]) -> Options:
        return Options.from_json(dict(raw))

    def options_of_record(self, record: dict[str, Any]) -> Options:
        """The options, with the seats and the edition from the record's top level."""
        raw = record.get("options") or {}
        players = record.get("players")
        if not isinstance(raw, dict):
            raise RecordError('bad options in record: "options" must be a JSON object')
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError('"players" must be a list of colour names')
        raw = {**raw, "players": players}
        raw["edition"] = record.get("edition", raw.get("edition", "2023"))
        try:
            options = Options.from_json(raw)
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"bad options in record: {exc}") from None
        if options.mode not in ("table", "dealer"):  # replay runs in table mode: check it here
            raise RecordError(
                f"bad options in record: mode {options.mode!r} is not table or dealer"
            )
        return options

    def record_header(self, state: GameState) -> dict[str, Any]:
        assert isinstance(state, Game)
        board = state.state
        return {"edition": board.data.edition, "players": [board.colours[p] for p in board.seats]}

    def export_refusal(self, state: GameState) -> str | None:
        if state.is_terminal():
            return None
        return (
            "a game in play cannot be exported: its record would reveal undisclosed discs and "
            "the castillo. Finish the game first."
        )

    def new_state(self, options: Any, data: Any = None) -> Game:
        game = Game(options, data)
        game.keep_undo = True  # a game people play: undo from snapshots (Game.undo)
        return game

    def seat_of(self, state: GameState, name: str) -> int:
        assert isinstance(state, Game)
        return state.state.colour(name)

    def score_position(
        self, raw: Mapping[str, Any], overrides: Sequence[Path | str] = ()
    ) -> dict[str, Any]:
        return position.score_position(raw, overrides)

    def upgrade_record(self, record: dict[str, Any]) -> dict[str, Any]:
        """Format 1 (no game version; "game": "el-grande") to the current format: the same
        options and actions (records never held override files; an empty list is dropped).
        Game version 1 (format 1 included) to 2: the record keeps the cards it was made with
        (card_set "v1")."""
        if record.get("version") == 1:
            options = record.get("options")
            if isinstance(options, dict) and options.get("overrides", None) == []:
                options = {k: v for k, v in options.items() if k != "overrides"}
            record = {**record, "version": 2, "game": self.id, "game_version": 1}
            record["options"] = options
        if record.get("game_version") == 1:
            options = record.get("options")
            if isinstance(options, dict):
                options = {**options, "card_set": "v1"}
            record = {**record, "game_version": self.version, "options": options}
        return record

    def test_options(self, players: int) -> list[Options]:
        colours = gamedata.load("2023").colours[:players]
        old = gamedata.load("1995").colours[:players]
        out = [
            Options(players=colours, mode="dealer", seed=players),
            Options(players=old, edition="1995", mode="dealer", seed=10 + players),
            Options(
                players=colours,
                mode="dealer",
                seed=20 + players,
                short_game=True,
                new_regency=True,
                power_shift=True,
                alternatives=ALL_ALTERNATIVES if players > 2 else ("veto",),
            ),
        ]
        if players == 3:
            out.append(Options(players=colours, mode="dealer", seed=33, merge_decks_2_3=True))
        return out

    def check_invariants(self, state: GameState) -> None:
        assert isinstance(state, Game)
        check_invariants(state)

    def log_lines(self, state: GameState, viewer: int | None) -> list[dict[str, Any]]:
        """Disc choices shown once revealed, the castillo's secret kept (engine.elgrande.log)."""
        assert isinstance(state, Game)
        return views.log_lines(state.state, viewer)

    def log_line(
        self, state: GameState, player: int, action: Action, viewer: int | None
    ) -> dict[str, Any]:
        assert isinstance(state, Game)
        return step_line(state.state, player, action, viewer)

    # the events' public facts (engine.core.events)
    def reveals(self, state: GameState) -> Sequence[Mapping[str, Any]]:
        assert isinstance(state, Game)
        return state.state.disc_reveals

    def scorings(self, state: GameState) -> Sequence[Mapping[str, Any]]:
        assert isinstance(state, Game)
        return state.state.scorings

    def phase(self, state: GameState) -> str | None:
        assert isinstance(state, Game)
        return state.state.phase


def check_invariants(game: Game) -> None:
    """Every caballero is somewhere, once; scores never fall; who acts is consistent."""
    g = game.state
    total = g.data.caballeros_per_colour
    for colour in range(g.n):
        on_board = sum(g.pieces[area][colour] for area in range(g.R + 1))
        placed = on_board + g.court[colour] + g.province[colour]
        assert placed == total, f"{g.colours[colour]} has {placed} caballeros, not {total}"
        assert min(g.court[colour], g.province[colour]) >= 0
        assert all(g.pieces[a][colour] >= 0 for a in range(g.R + 1))
    assert all(s >= 0 for s in g.scores)
    actors = game.current_players()
    assert (not actors) == game.is_terminal()
    assert len(set(actors)) == len(actors)
    assert 0 <= g.checkpoint <= len(g.history)
    assert set(STATE_FIELDS) <= set(dir(g))
    assert game.history is g.history and game.options is g.options


SPEC = ElGrandeSpec()
