"""`castillo replay` and `castillo selfplay`: the rules engine from the command line.

Both work for every registered game through the game protocol (engine.core). Self-play takes
any option of the game's schema (`--option NAME=VALUE`, `--list-options`:
host/commands/selfplay_options.py). A game may add its own flags and output in
`host/games/<id>/cli.py` (El Grande: shorthand flags for its options, data overrides, scoring
breakdowns); this module imports no game (.importlinter).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any

from engine import registry
from engine.core import record as core_record
from engine.core import userfiles
from engine.core.errors import EngineError, RecordError
from engine.core.protocol import GameState
from engine.core.record import load_record
from engine.core.spec import GameSpec
from engine.core.standings import standings
from host.commands import selfplay_options
from host.commands.common import check_overrides, counts_text, fail, play_games, print_played


@functools.cache
def game_cli(game_id: str) -> ModuleType | None:
    """A game's own command-line module (host/games/<id>/cli.py), if it has one."""
    name = f"host.games.{game_id}.cli"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name != name and not name.startswith(f"{missing.name}."):
            raise  # the game's module is there but broken: say so, do not hide it
        return None


def _own_flags() -> dict[str, tuple[tuple[str, str], ...]]:
    """Each game's own selfplay flags: game id -> (attribute, flag) pairs."""
    out = {}
    for game_id in registry.ids():
        module = game_cli(game_id)
        if module is not None:
            out[game_id] = tuple(getattr(module, "SELFPLAY_FLAGS", ()))
    return out


def register(subparsers: Any) -> None:
    replay = subparsers.add_parser(
        "replay", help="replay a game record: final scores and every scoring's breakdown"
    )
    replay.add_argument("file", type=Path, help="a game record (JSON)")
    replay.add_argument("--json", action="store_true", help="print JSON")
    _add_override(replay)
    replay.set_defaults(handler=run_replay)

    selfplay = subparsers.add_parser(
        "selfplay",
        help="play random legal games (dealer mode)",
        epilog=selfplay_options.epilog(registry.specs()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    selfplay.add_argument(
        "--game", choices=registry.ids(), default=registry.DEFAULT, help="the game to play"
    )
    selfplay.add_argument("--players", type=int, default=4, help="how many seats (default 4)")
    selfplay.add_argument("--games", type=int, default=100)
    selfplay.add_argument(
        "--seed",
        type=int,
        help="reproduce the games: game i is dealt from seed+i (default: unpredictable deals)",
    )
    selfplay.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set an option of the game (repeatable; the names: below, or --list-options)",
    )
    selfplay.add_argument(
        "--list-options",
        action="store_true",
        help="list the game's options (name, value, self-play's value, default) and stop",
    )
    for game_id in registry.ids():  # each game's own flags (refused for another game)
        module = game_cli(game_id)
        if module is not None and hasattr(module, "add_selfplay_flags"):
            module.add_selfplay_flags(selfplay)
    selfplay.add_argument("--record", type=Path, metavar="DIR", help="write one record per game")
    selfplay.add_argument("--json", action="store_true", help="print JSON")
    _add_override(selfplay)
    selfplay.set_defaults(handler=run_selfplay)


def _add_override(parser: Any) -> None:
    # Override files are named here, on the host's command line, never in options or records.
    parser.add_argument(
        "--override",
        action="append",
        type=Path,
        default=[],
        metavar="TOML",
        help="a game-data override file (repeatable; see docs/game-data.md)",
    )


def run_replay(args: argparse.Namespace) -> int:
    """Replay a record of any registered game (its "game" says which). The record and the
    override files are read by the rules for users' files (engine.core.userfiles)."""
    try:
        record = load_record(args.file)
        spec, current = registry.spec_of_record(record)
        module = game_cli(spec.id)
        if module is not None and hasattr(module, "replay"):
            check_overrides(args.override)
            return int(module.replay(record, args))
        if args.override:
            return fail(f"--override is for a game's data files; {spec.title} has none")
        _, state = registry.replay(current)
    except (RecordError, userfiles.UnreadableFile) as exc:
        return fail(str(exc))
    return _print_standings(spec, state, args.json)


def _print_standings(spec: GameSpec, state: GameState, as_json: bool) -> int:
    """Any game's scores and places (tied scores share a place, unless the game's tie-breaks
    decide the winner: then the players it beat come after the winners)."""
    scores = dict(zip(state.seat_names(), state.returns(), strict=True))
    places = standings(scores)
    result: dict[str, Any] = {"game": spec.id, "finished": state.is_terminal(), "scores": scores}
    outcome = spec.winners(state)
    if outcome is not None:
        winners, decided_by = outcome
        for name, place in places.items():
            if place == 1 and name not in winners:
                places[name] = len(winners) + 1
        result.update(winners=winners, decided_by=decided_by)
    result["standings"] = places
    if as_json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    when = "final" if state.is_terminal() else "unfinished game,"
    print(f"{spec.title}, {when} scores:")
    for name, score in sorted(scores.items(), key=lambda kv: (places[kv[0]], -kv[1])):
        print(f"  {places[name]}. {name:8s} {score:3d}")
    if outcome is not None and outcome[1] not in ("score", "shared"):
        print(f"  (the winner was decided by the tie-break: {outcome[1].replace('_', ' ')})")
    return 0


# A random game that has not ended after this many steps is a bug in the engine, not a game.
MAX_STEPS = 100_000


def run_selfplay(args: argparse.Namespace) -> int:
    if args.games < 1:
        return fail("--games must be at least 1")
    spec = registry.get(args.game)
    if args.players not in spec.player_counts:
        return fail(f"{spec.title} is for {counts_text(spec)} players, not {args.players}")
    others = [
        flag
        for game_id, flags in _own_flags().items()
        if game_id != spec.id
        for name, flag in flags
        if getattr(args, name)
    ]
    if others:
        return fail(f"{', '.join(others)}: not options of {spec.title}")
    module = game_cli(spec.id)
    if args.list_options:
        listed = selfplay_options.list_options(
            spec, args.players, selfplay_options.shorthands(module), args.json
        )
        print(json.dumps(listed, ensure_ascii=False, indent=2) if args.json else listed)
        return 0
    try:  # every option checked by the game before a game is played
        args.game_options = selfplay_options.read_options(
            spec, args.option, selfplay_options.flag_options(module, args)
        )
        selfplay_options.options_for(spec, args.players, None, args.game_options)
    except selfplay_options.BadOption as bad:
        return fail(str(bad))
    if module is not None and hasattr(module, "selfplay"):
        try:
            check_overrides(args.override)
        except userfiles.UnreadableFile as exc:
            return fail(str(exc))
        return int(module.selfplay(args))
    return _selfplay_any(spec, args)


def _selfplay_any(spec: GameSpec, args: argparse.Namespace) -> int:
    """Random legal games of any registered game, dealt by the engine (dealer mode)."""
    if args.override:
        return fail(f"--override is for a game's data files; {spec.title} has none")

    def play_one(seed: int | None) -> tuple[dict[str, int], dict[str, Any]]:
        options = selfplay_options.options_for(spec, args.players, seed, args.game_options)
        state = spec.new_state(options)
        random_play(state, random.Random(seed))
        scores = dict(zip(state.seat_names(), state.returns(), strict=True))
        return scores, core_record.to_record(spec, state)

    try:
        played = play_games(args, play_one)
    except (EngineError, ValueError) as exc:
        return fail(str(exc))
    result = {"game": spec.id, "games": args.games, "players": args.players}
    return print_played(args, {**result, "options": args.game_options, **played})


def random_play(state: GameState, rng: random.Random) -> GameState:
    """Play to the end: each step, one of the actors (chance too, when the game asks for a
    chance outcome) takes a uniformly random legal action."""
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            return state
        player = rng.choice(state.current_players())
        legal = state.legal_actions(player)
        state.apply(legal[rng.randrange(len(legal))], player)
    raise EngineError(f"a random game did not end within {MAX_STEPS} steps")
