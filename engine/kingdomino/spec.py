"""Kingdomino on the game platform: its spec for the registry, records and conformance."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core.actions import Action
from engine.core.protocol import GameState
from engine.core.spec import RANDOM_AND_GREEDY, ComputerPlayer, TableOrDealerSpec, require_acting
from engine.kingdomino import position
from engine.kingdomino.bots import LEVEL_SECONDS, LEVELS, Bot, bot_for_level
from engine.kingdomino.game import Game
from engine.kingdomino.options import COLOURS, OPTION_KINDS, OPTION_SECTIONS, Options
from engine.kingdomino.search import SearchBot
from engine.kingdomino.state import State
from engine.kingdomino.steps import CLAIM, OVER
from engine.kingdomino.verbs import VERBS
from engine.kingdomino.views import STEPS, result

__all__ = ["SPEC", "KingdominoSpec"]

MAX_SECONDS = 600.0  # the longest time budget a move may be given


class KingdominoSpec(TableOrDealerSpec):
    id = "kingdomino"
    title = "Kingdomino"
    version = 1
    player_counts = (2, 3, 4)
    verbs = VERBS
    options_type = Options
    option_kinds = OPTION_KINDS
    option_sections = OPTION_SECTIONS
    computer_levels = LEVELS  # 1 random, 2 greedy, 3-5 the turn search (0.25, 1, 2 s a turn)
    computer_default = 4
    computer_seconds = LEVEL_SECONDS
    computer_kinds = RANDOM_AND_GREEDY
    hint_level = 4

    def computer(self, level: int) -> ComputerPlayer:
        return _Computer(bot_for_level(level))

    def export_refusal(self, state: GameState) -> str | None:
        """Everything a Kingdomino record holds is on the table (the lines drawn so far, every
        claim and placement): a game in play may be exported, unless it is dealt from a seed,
        which would tell the dominoes still to be drawn."""
        assert isinstance(state, Game)
        if state.is_terminal() or state.state.options.seed is None:
            return None
        return (
            "a Kingdomino game dealt from a seed cannot be exported in play: the seed would "
            "reveal the dominoes still to be drawn. Finish the game first."
        )

    def computer_timed(self, seconds: float) -> ComputerPlayer:
        """The turn search with a budget of `seconds` a turn (levels 3-5: 0.25, 1, 2 s)."""
        if isinstance(seconds, bool) or not (
            isinstance(seconds, (int, float)) and 0 < seconds <= MAX_SECONDS
        ):
            raise ValueError(f"the time budget is more than 0 and at most {MAX_SECONDS:g} seconds")
        return _Computer(SearchBot(float(seconds)))

    def computer_copy(self, state: GameState) -> GameState:
        assert isinstance(state, Game)
        return state.clone(random.Random())

    def options_from_json(self, raw: Mapping[str, Any]) -> Options:
        return Options.from_json(dict(raw))

    def new_state(self, options: Any, data: Any = None) -> Game:
        return Game(options, data)

    def score_position(
        self, raw: Mapping[str, Any], overrides: Sequence[Path | str] = ()
    ) -> dict[str, Any]:
        return position.score_position(raw, overrides)

    def test_options(self, players: int) -> list[Options]:
        colours = COLOURS[:players]
        out = [
            Options(players=colours, mode="dealer", seed=players),
            Options(
                players=colours,
                mode="dealer",
                seed=10 + players,
                middle_kingdom=True,
                harmony=True,
                dynasty=True,
            ),
        ]
        if players == 2:
            out.append(Options(players=colours, mode="dealer", seed=22, mighty_duel=True))
            out.append(Options(players=colours, mode="dealer", seed=23, wider_draft=True))
        if players == 3:
            out.append(Options(players=colours, mode="dealer", seed=33, wider_draft=True))
            out.append(
                Options(players=colours, mode="dealer", seed=34, three_player_four_per_line=True)
            )
        return out

    def winners(self, state: GameState) -> tuple[list[str], str] | None:
        """The rulebook's tie-breaks: the largest territory, then the most crowns."""
        if not state.is_terminal():
            return None
        assert isinstance(state, Game)
        outcome = result(state.state)
        return list(outcome["winners"]), str(outcome["decided_by"])

    def check_invariants(self, state: GameState) -> None:
        assert isinstance(state, Game)
        check_invariants(state.state)

    def phase(self, state: GameState) -> str | None:
        """The step now (the view's "step"), for the events (engine.core.events)."""
        assert isinstance(state, Game)
        return STEPS[state.state.step]


class _Computer:
    """A bot of engine.kingdomino.bots as the platform's computer player."""

    def __init__(self, bot: Bot | SearchBot) -> None:
        self.bot = bot

    def choose(self, state: GameState, seat: int) -> Action:
        """The bot's move for `seat`, thought on a playout copy of `state` (a clone dealing
        from its own generator: never the real game's future dominoes); `state` is unchanged.
        A Kingdomino step has one acting seat."""
        assert isinstance(state, Game)
        require_acting(state, seat)
        return self.bot.choose(state.clone(random.Random()))


def check_invariants(state: State) -> None:
    """Every drawn domino is in exactly one place; kingdoms fit their frame; who acts is
    consistent with the step."""
    size = state.setup.size
    placed = 0
    for seat, kingdom in enumerate(state.kingdoms):
        assert kingdom.right - kingdom.left < size and kingdom.bottom - kingdom.top < size
        assert kingdom.squares() == 2 * kingdom.dominoes + 1, f"seat {seat}: squares"
        placed += kingdom.dominoes + state.discarded[seat]
    # The current line keeps the dominoes its kings placed this round until the round ends.
    done = (state.turn + (1 if state.step == CLAIM else 0)) if state.line else 0
    waiting = len(state.line) - done + len(state.line_next) + len(state.left_over)
    assert placed + waiting == state.drawn, "a drawn domino is lost or counted twice"
    assert state.drawn == sum(state.seen)
    assert state.drawn <= state.setup.dominoes
    assert (state.step == OVER) == state.is_over()


SPEC = KingdominoSpec()
