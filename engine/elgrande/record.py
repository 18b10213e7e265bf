"""El Grande's game records (docs/game-record.md): format 2 of `engine.core.record`, with the
edition and the seats also at the top level for people reading the file.

A record replays deterministically: chance outcomes are in it as actions, so the replay never
draws. Records of format 1 (written before the game platform) still replay to the same state.

    {"format": "castillo-record", "version": 2, "game": "elgrande", "game_version": 1,
     "edition": "2023", "players": ["purple", ...], "options": {...},
     "actions": [["chance", "first purple"], ["purple", "power 9"], ...]}

>>> from engine.elgrande.game import Game, Options
>>> g = Game(Options(mode="dealer", seed=3))
>>> again = from_record(to_record(g))
>>> again.snapshot() == g.snapshot()
True
"""

from __future__ import annotations

from typing import Any

from engine.core import record as core_record
from engine.core.actions import Action
from engine.core.errors import RecordError
from engine.core.record import FORMAT, VERSION, load_record
from engine.core.standings import standings
from engine.elgrande.actions import parse
from engine.elgrande.data import GameData
from engine.elgrande.game import Game, Options
from engine.elgrande.spec import SPEC

__all__ = [
    "FORMAT",
    "VERSION",
    "action_list",
    "from_record",
    "load_record",
    "options_of",
    "summary",
    "to_record",
]


def to_record(game: Game) -> dict[str, Any]:
    return core_record.to_record(SPEC, game)


def current(record: Any) -> dict[str, Any]:
    """The record in the current format (format 1 upgraded); RecordError if it is not an El
    Grande record."""
    upgraded = SPEC.upgrade_record(core_record.check_format(record))
    game = upgraded.get("game")
    if game != SPEC.id and game not in SPEC.aliases:
        raise RecordError(f"not an El Grande record (game {upgraded.get('game')!r})")
    return upgraded


def options_of(record: Any) -> Options:
    return SPEC.options_of_record(current(record))


def from_record(record: Any, upto: int | None = None, data: GameData | None = None) -> Game:
    """Replay a record (or its first `upto` actions); a bad action names its index. `data`:
    the game data with override files, loaded by a trusted caller (the command line)."""
    game = core_record.replay(SPEC, current(record), upto, data)
    assert isinstance(game, Game)
    return game


def summary(game: Game) -> dict[str, Any]:
    """Final (or current) scores and every scoring's breakdown. The players only: the 2-player
    dummy "does not score" (rulebook, 2 players), so it has no score and no place."""
    state = game.state
    scores = {state.colours[p]: state.scores[p] for p in state.seats}
    return {
        "edition": state.data.edition,
        "players": [state.colours[p] for p in state.seats],
        "finished": game.is_terminal(),
        "round": state.round_number,
        "scores": scores,
        "standings": standings(scores),
        "scorings": state.scorings,
        "score_history": state.score_history,
    }


def action_list(record: dict[str, Any]) -> list[tuple[str, Action]]:
    return [(str(actor), parse(str(text))) for actor, text in record.get("actions", [])]
