"""`castillo score FILE`: score one scoring event on a position given as JSON.

The input format is in docs/score-input.md; the work is done by `engine.elgrande.position`.
Bad input prints one line naming the field and exits with 2 (no traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.elgrande.data import GameDataError
from engine.elgrande.position import PositionError, score_position

EXIT_BAD_INPUT = 2


def _read(source: str) -> Any:
    if source == "-":
        text = sys.stdin.read()
        name = "stdin"
    else:
        name = source
        try:
            text = Path(source).read_text(encoding="utf-8")
        except OSError as exc:
            raise PositionError("FILE", f"cannot read {source}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise PositionError("FILE", f"{source} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise PositionError(
            "FILE", f"{name} is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None


def cmd_score(args: argparse.Namespace) -> int:
    try:
        raw = _read(args.file)
        if not isinstance(raw, dict):
            raise PositionError("FILE", "the position must be a JSON object")
        result = score_position(raw, overrides=args.override or ())
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
    parser.add_argument("file", metavar="FILE", help="the position as JSON, or - for stdin")
    parser.add_argument(
        "--override",
        action="append",
        type=Path,
        metavar="TOML",
        help="a game-data override file (repeatable; see docs/game-data.md)",
    )
    parser.add_argument("--compact", action="store_true", help="print the JSON on one line")
    parser.set_defaults(handler=cmd_score)
