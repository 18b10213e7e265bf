"""`castillo score [--game ID] FILE`: score a position given as JSON.

Each game documents its input format (El Grande: docs/score-input.md) and does the work in its
spec's `score_position`. The game is `--game`, else the input's "game", else El Grande. Bad input
prints one line naming the field and exits with 2 (no traceback). FILE and every `--override`
file are read by the rules for users' files (engine.core.userfiles): a regular file (stdin: up
to the same size), at most 8 MiB of JSON or 1 MiB of TOML, nested at most 32 levels.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine import registry
from engine.core import userfiles
from engine.core.errors import GameDataError, PositionError
from engine.core.spec import GameSpec
from host.commands.common import check_overrides, read_stdin

EXIT_BAD_INPUT = 2


def _read(source: str) -> Any:
    try:
        if source == "-":
            return userfiles.parse_json(read_stdin(userfiles.MAX_JSON_BYTES), "stdin")
        return userfiles.load_json(source)
    except userfiles.UnreadableFile as refused:
        raise PositionError("FILE", str(refused)) from None


def _spec(game_id: str) -> GameSpec:
    try:
        return registry.get(game_id)
    except KeyError:
        known = ", ".join(registry.ids())
        raise PositionError("game", f"unknown game {game_id!r}; known: {known}") from None


def _game_of(chosen: str | None, raw: dict[str, Any]) -> GameSpec:
    """The game to score: `--game`, else the input's "game", else El Grande; both given must
    agree."""
    named = raw.get("game")
    if named is not None and not isinstance(named, str):
        raise PositionError("game", 'must be a game id such as "elgrande"')
    if chosen is None:
        return _spec(named or registry.DEFAULT)
    spec = _spec(chosen)
    if named is not None and (named not in registry.ids() + _aliases() or _spec(named) is not spec):
        raise PositionError("game", f"the input is a {named!r} position, not {chosen!r}")
    return spec


def _aliases() -> list[str]:
    return [alias for spec in registry.specs() for alias in spec.aliases]


def cmd_score(args: argparse.Namespace) -> int:
    try:
        raw = _read(args.file)
        if not isinstance(raw, dict):
            raise PositionError("FILE", "the position must be a JSON object")
        spec = _game_of(args.game, raw)
        if args.check_tiles:  # the game's own check that its real pieces could make the position
            raw = {**raw, "check_tiles": True}
        try:
            check_overrides(args.override or ())
        except userfiles.UnreadableFile as refused:
            raise PositionError("--override", str(refused)) from None
        result = spec.score_position(raw, overrides=args.override or ())
    except (PositionError, GameDataError) as exc:
        print(f"castillo score: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    indent = None if args.compact else 2
    print(json.dumps(result, indent=indent, ensure_ascii=False))
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score one scoring event on a position given as JSON",
        description="Score a general scoring, some regions, the castillo or a scoring card on "
        "a position (format: docs/score-input.md) and print the breakdown as JSON.",
    )
    parser.add_argument(
        "--game", metavar="ID", help='the game (default: the input\'s "game", else El Grande)'
    )
    parser.add_argument("file", metavar="FILE", help="the position as JSON, or - for stdin")
    parser.add_argument(
        "--override",
        action="append",
        type=Path,
        metavar="TOML",
        help="a game-data override file (repeatable; see docs/game-data.md)",
    )
    parser.add_argument(
        "--check-tiles",
        action="store_true",
        help="also check the position could be built from the game's pieces (Kingdomino)",
    )
    parser.add_argument("--compact", action="store_true", help="print the JSON on one line")
    parser.set_defaults(handler=cmd_score)
