"""Game records, format version 2: the game, its version, its options and the actions.

    {"format": "castillo-record", "version": 2, "game": "elgrande", "game_version": 1,
     "options": {...}, "players": ["purple", ...],
     "actions": [["chance", "first purple"], ["purple", "power 9"], ...]}

Chance outcomes are in the record as actions, so a replay never draws. Records of format 1
(El Grande only, no game version) are read by the El Grande spec's `upgrade_record`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.core import userfiles
from engine.core.errors import EngineError, RecordError
from engine.core.protocol import CHANCE, GameState
from engine.core.spec import GameSpec

FORMAT = "castillo-record"
VERSION = 2
CHANCE_NAME = "chance"


def to_record(spec: GameSpec, state: GameState) -> dict[str, Any]:
    names = state.seat_names()
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": spec.id,
        "game_version": spec.version,
        **spec.record_header(state),
        "options": spec.options_to_json(state.options),
        "actions": [[CHANCE_NAME if p == CHANCE else names[p], str(a)] for p, a in state.history],
    }


def check_format(record: Any) -> dict[str, Any]:
    """The record if it is one (any version); RecordError otherwise."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(f'not a game record (expected "format": "{FORMAT}")')
    version = record.get("version")
    if isinstance(version, bool) or version not in (1, VERSION):
        raise RecordError(f"unsupported record version {record.get('version')!r}")
    return record


def actions_of(record: dict[str, Any]) -> list[Any]:
    """The record's action entries (each checked when it is replayed)."""
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError('"actions" must be a list of [actor, action] pairs')
    return actions


def replay(
    spec: GameSpec,
    record: dict[str, Any],
    upto: int | None = None,
    data: Any = None,
    resume: bool = True,
) -> GameState:
    """Replay a current-version record of `spec`'s game (or its first `upto` actions); a bad
    action names its index. `data`: the game's data with overrides, from a trusted caller.
    `resume=False` leaves the state taking chance from the actions applied (the host replays
    its own log after the record, then calls `spec.replay_end`)."""
    try:
        options = spec.options_of_record(record)
    except RecordError:
        raise
    except (KeyError, TypeError, ValueError) as bad_options:
        raise RecordError(f"bad options in record: {bad_options}") from None
    entries = actions_of(record)[:upto]
    try:
        state = spec.replay_start(options, data)
    except (KeyError, TypeError, ValueError) as refused:
        raise RecordError(str(refused)) from None
    for index, entry in enumerate(entries):
        try:
            actor, text = entry
            player = CHANCE if actor == CHANCE_NAME else spec.seat_of(state, str(actor))
            state.apply(state.parse(str(text)), player)
        except (EngineError, KeyError, ValueError, TypeError) as bad_action:
            raise RecordError(f"action #{index} {entry!r} does not replay: {bad_action}") from None
    if resume:
        spec.replay_end(state, options)
    return state


# Each `except` names its exception differently: compiled with mypyc, one name keeps the type
# of its first binding.


def load_record(path: Path | str) -> dict[str, Any]:
    """A record file, read by the rules for users' files (engine.core.userfiles: a regular
    file, at most 8 MiB, nested at most 32 levels); RecordError says what is wrong."""
    try:
        raw = userfiles.load_json(path)
    except userfiles.UnreadableFile as unreadable:
        raise RecordError(str(unreadable)) from None
    if not isinstance(raw, dict):
        raise RecordError(f"{path}: a record is a JSON object")
    return raw
