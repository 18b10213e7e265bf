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


def _shown(value: Any, limit: int = 24) -> str:
    """A value for a message, cut short (a record may hold a 4,000-digit number)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "..."


def _whole(value: Any) -> bool:
    """An int that is not a bool (JSON's true is not 1, nor 2.0 a version)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_format(record: Any) -> dict[str, Any]:
    """The record if it is one (any version); RecordError otherwise. A "game_version", when
    there is one, must be a whole number from 1 (a game's `upgrade_record` reads it, and
    `replay` checks it names the game's current version)."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(f'not a game record (expected "format": "{FORMAT}")')
    version = record.get("version")
    if not _whole(version) or version not in (1, VERSION):
        raise RecordError(f"unsupported record version {_shown(version)}")
    if "game_version" in record:
        game_version = record["game_version"]
        if not _whole(game_version) or game_version < 1:
            raise RecordError(
                f'"game_version" must be a whole number from 1, not {_shown(game_version)}'
            )
    return record


def check_game_version(spec: GameSpec, record: dict[str, Any]) -> None:
    """A current-version record names the game's version: one newer than this kit's cannot
    be read, and `upgrade_record` rewrote every older one."""
    game_version = record.get("game_version", spec.version)
    if not _whole(game_version) or not 1 <= game_version <= spec.version:
        raise RecordError(
            f"a record of {spec.title} version {_shown(game_version)}: this kit reads "
            f"versions 1 to {spec.version}"
        )
    if game_version != spec.version:  # `upgrade_record` rewrites every older version
        raise RecordError(f"{spec.title} cannot upgrade its records of version {game_version}")


def check_players(record: dict[str, Any]) -> None:
    """A record's top-level "players" (El Grande's, for people reading it), when there are both,
    are the players of its options: a record cannot say two things about who plays."""
    players = record.get("players")
    options = record.get("options")
    listed = options.get("players") if isinstance(options, dict) else None
    for field, names in (('"players"', players), ('"options"."players"', listed)):
        if names is not None and (
            not isinstance(names, list) or not all(isinstance(n, str) for n in names)
        ):
            raise RecordError(f"{field} must be a list of player names")
    if players is not None and listed is not None and players != listed:
        raise RecordError(
            f'the record\'s "players" {_shown(players, 80)} are not the players of its '
            f"options {_shown(listed, 80)}"
        )


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
    check_game_version(spec, record)
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
    check_players(record)  # after the game's own word on the names and their number
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
