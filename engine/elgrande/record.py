"""Game records: JSON with the edition, options, players and the ordered actions.

A record replays deterministically: chance outcomes are in it as actions, so the replay never
draws from a random generator. Format (docs/game-record.md):

    {"format": "castillo-record", "version": 1, "game": "el-grande",
     "edition": "2023", "players": ["purple", ...], "options": {...},
     "actions": [["chance", "first purple"], ["purple", "power 9"], ...]}

>>> from engine.elgrande.game import Game, Options
>>> g = Game(Options(mode="dealer", seed=3))
>>> again = from_record(to_record(g))
>>> again.snapshot() == g.snapshot()
True
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from engine.elgrande.actions import Action
from engine.elgrande.data import GameData
from engine.elgrande.errors import EngineError, RecordError
from engine.elgrande.game import CHANCE, Game, Options

FORMAT = "castillo-record"
VERSION = 1


def to_record(game: Game) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": "el-grande",
        "edition": game.data.edition,
        "players": [game.colours[p] for p in game.seats],
        "options": game.options.to_json(),
        "actions": [
            ["chance" if p == CHANCE else game.colours[p], str(a)] for p, a in game.history
        ],
    }


def options_of(record: dict[str, Any]) -> Options:
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(f'not a game record (expected "format": "{FORMAT}")')
    if record.get("version") != VERSION:
        raise RecordError(f"unsupported record version {record.get('version')!r}")
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
        raise RecordError(f"bad options in record: mode {options.mode!r} is not table or dealer")
    return options


def from_record(
    record: dict[str, Any], upto: int | None = None, data: GameData | None = None
) -> Game:
    """Replay a record (or its first `upto` actions); a bad action names its index. `data`:
    the game data with override files, loaded by a trusted caller (the command line)."""
    options = options_of(record)
    try:
        game = Game(dataclasses.replace(options, mode="table"), data)
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError('"actions" must be a list of [actor, action] pairs')
    for index, entry in enumerate(actions[:upto]):
        try:
            actor, text = entry
            player = CHANCE if actor == "chance" else game.colour(str(actor))
            game.apply(game.parse(str(text)), player)
        except (EngineError, KeyError, ValueError, TypeError) as exc:
            raise RecordError(f"action #{index} {entry!r} does not replay: {exc}") from None
    game.resume_as(options)
    return game


def load_record(path: Path | str) -> dict[str, Any]:
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not JSON: {exc}") from None
    if not isinstance(raw, dict):
        raise RecordError(f"{path}: a record is a JSON object")
    return raw


def summary(game: Game) -> dict[str, Any]:
    """Final (or current) scores and every scoring's breakdown."""
    from engine.elgrande.scoring import standings

    scores = dict(zip(game.colours, game.scores, strict=True))
    return {
        "edition": game.data.edition,
        "players": [game.colours[p] for p in game.seats],
        "finished": game.is_terminal(),
        "round": game.round_number,
        "scores": scores,
        "standings": standings(scores),
        "scorings": game.scorings,
        "score_history": game.score_history,
    }


def action_list(record: dict[str, Any]) -> list[tuple[str, Action]]:
    return [(str(actor), Action.parse(str(text))) for actor, text in record.get("actions", [])]
