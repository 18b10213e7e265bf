"""`castillo move --game G --seat COLOUR [--seconds S | --level L] RECORD|-`: the computer
player's move for one seat of a game record so far, printed in the game's notation.

An interface for outside harnesses (a tournament runner, another program's opponent): it
replays the record (a file, or `-` for stdin; read by the rules for users' files,
engine.core.userfiles), checks that the seat acts now, and asks the game's computer player
(`GameSpec.computer`) for its action; the player thinks on its own copy of the game. Every
refusal is one line on stderr and exit code 2: a game without a computer player, a record of
another game or one that does not replay, an unknown seat, a finished game, a seat that does
not act now, a level or time budget out of range.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

from engine import registry
from engine.core import userfiles
from engine.core.errors import RecordError
from engine.core.record import load_record
from engine.core.spec import ComputerPlayer, GameSpec, SeatNotActing, require_acting
from host.commands.common import read_stdin

EXIT_BAD_INPUT = 2


class Refused(Exception):
    """A bad argument or record: the one line `castillo move` prints before exiting with 2."""


def register(subparsers: Any) -> None:
    move = subparsers.add_parser(
        "move",
        help="the computer player's move for one seat of a game record so far",
        description=(
            "Replay a game record and print the computer player's action for SEAT in the "
            "game's notation (exit 2 with one line if the game has no computer player, the "
            "record does not replay, the game is over or the seat does not act now)."
        ),
    )
    move.add_argument("--game", required=True, help='the game id (the record\'s "game")')
    move.add_argument("--seat", required=True, metavar="COLOUR", help="the seat to move for")
    strength = move.add_mutually_exclusive_group()
    strength.add_argument(
        "--seconds",
        type=float,
        metavar="S",
        help=(
            "a time budget of about S seconds for the move (a real budget, not a level: "
            "Kingdomino's flat Monte Carlo plays out until S has passed; a game whose player "
            "has no time budget refuses it: use --level)"
        ),
    )
    strength.add_argument(
        "--level",
        type=int,
        metavar="L",
        help="a level of the game's computer player (Kingdomino: 1 random, 2 greedy, 3-5 flat "
        "Monte Carlo with 0.25, 1 and 2 s a move); default: the level of a new computer seat",
    )
    move.add_argument("record", metavar="RECORD", help="a game record (JSON), or - for stdin")
    move.set_defaults(handler=run_move)


def _read(source: str) -> dict[str, Any]:
    try:
        if source == "-":
            raw = userfiles.parse_json(read_stdin(userfiles.MAX_JSON_BYTES), "stdin")
            if not isinstance(raw, dict):
                raise Refused("stdin: a record is a JSON object")
            return raw
        return load_record(source)
    except (userfiles.UnreadableFile, RecordError) as refused:
        raise Refused(str(refused)) from None


def _spec(game_id: str) -> GameSpec:
    try:
        spec = registry.get(game_id)
    except KeyError:
        raise Refused(f"unknown game {game_id!r}; known: {', '.join(registry.ids())}") from None
    if not spec.computer_levels:
        raise Refused(f"{spec.title} has no computer player yet")
    return spec


def _player(spec: GameSpec, args: argparse.Namespace) -> ComputerPlayer:
    if args.seconds is not None:
        if not math.isfinite(args.seconds) or args.seconds <= 0:
            raise Refused("--seconds: a time budget is a number of seconds above 0")
        try:
            return spec.computer_timed(args.seconds)
        except ValueError as refused:
            raise Refused(f"--seconds: {refused}") from None
    level = spec.computer_default if args.level is None else args.level
    if level not in spec.computer_levels:
        levels = ", ".join(str(n) for n in spec.computer_levels)
        raise Refused(f"--level: {spec.title}'s levels are {levels}")
    return spec.computer(level)


def choose_move(args: argparse.Namespace) -> str:
    """The action text `castillo move` prints; Refused says what is wrong."""
    spec = _spec(args.game)
    player = _player(spec, args)
    record = _read(args.record)
    try:
        recorded, current = registry.spec_of_record(record)
        if recorded is not spec:
            raise Refused(f"the record is of {recorded.title}, not {spec.title}")
        _, state = registry.replay(current)
    except RecordError as refused:
        raise Refused(str(refused)) from None
    try:
        seat = spec.seat_of(state, args.seat)
    except ValueError:
        names = ", ".join(state.seat_names())
        raise Refused(f"--seat: no seat {args.seat!r} in this game; seats: {names}") from None
    try:
        require_acting(state, seat)
        return str(player.choose(state, seat))
    except SeatNotActing as refused:
        raise Refused(str(refused)) from None


def run_move(args: argparse.Namespace) -> int:
    try:
        print(choose_move(args))
    except Refused as refused:
        print(f"castillo move: error: {refused}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0
