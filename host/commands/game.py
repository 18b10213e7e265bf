"""`castillo replay` and `castillo selfplay`: the rules engine from the command line.

Both work for every registered game through the game protocol (engine.core); El Grande keeps
its own flags (edition, variants, data overrides) and its scoring breakdowns.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from engine import registry
from engine.core import record as core_record
from engine.core.errors import EngineError, GameDataError, OptionsError, RecordError
from engine.core.protocol import GameState
from engine.core.record import load_record
from engine.core.spec import GameSpec
from engine.core.standings import standings
from engine.elgrande.bots import random_game
from engine.elgrande.data import EDITIONS, load
from engine.elgrande.game import Game, Options
from engine.elgrande.record import from_record, options_of, summary, to_record


def register(subparsers: Any) -> None:
    replay = subparsers.add_parser(
        "replay", help="replay a game record: final scores and every scoring's breakdown"
    )
    replay.add_argument("file", type=Path, help="a game record (JSON)")
    replay.add_argument("--json", action="store_true", help="print JSON")
    _add_override(replay)
    replay.set_defaults(handler=run_replay)

    selfplay = subparsers.add_parser("selfplay", help="play random legal games (dealer mode)")
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
    # El Grande's own flags (refused for another game)
    selfplay.add_argument("--edition", choices=EDITIONS, help="El Grande's edition (2023)")
    selfplay.add_argument("--short", action="store_true", help="the short game (6 rounds)")
    selfplay.add_argument("--merge-decks", action="store_true", help="decks 2+3 as one (3 players)")
    selfplay.add_argument("--new-regency", action="store_true", help="the New Regency King cards")
    selfplay.add_argument("--power-shift", action="store_true", help="the Power Shift modifiers")
    selfplay.add_argument(
        "--alternative",
        action="append",
        default=[],
        metavar="CARD",
        help="add an alternative action card (repeatable): delegation, veto, veto-2, rivalry",
    )
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


def _fail(message: str) -> int:
    print(f"castillo: {message}", file=sys.stderr)
    return 2


def run_replay(args: argparse.Namespace) -> int:
    """Replay a record of any registered game (its "game" says which)."""
    try:
        record = load_record(args.file)
        spec, _ = registry.spec_of_record(record)
        if spec.id != registry.DEFAULT:
            if args.override:
                return _fail(f"--override is for El Grande's data, not {spec.title}")
            _, state = registry.replay(record)
            return _print_standings(spec, state, args.json)
        if args.override:
            options = options_of(record)
            data = load(options.edition, args.override, card_set=options.card_set)
        else:
            data = None
        game = from_record(record, data=data)
    except (RecordError, GameDataError) as exc:
        return _fail(str(exc))
    return _print_el_grande(game, args.json)


def _print_el_grande(game: Game, as_json: bool) -> int:
    result = summary(game)
    if as_json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    state = "final" if result["finished"] else f"after round {result['round']} (unfinished)"
    print(f"El Grande ({result['edition']}), {state} scores:")
    for colour, score in sorted(result["scores"].items(), key=lambda kv: -kv[1]):
        print(f"  {result['standings'][colour]}. {colour:8s} {score:3d}")
    for scoring in result["scorings"]:
        label = "general scoring" if scoring["kind"] == "general" else f"card {scoring['kind']}"
        print(f"round {scoring['round']}, {label}:")
        for area in scoring["areas"]:
            gained = {c: area["points"].get(c, 0) + area["bonus"].get(c, 0) for c in area["ranks"]}
            shown = ", ".join(f"{c} +{n}" for c, n in gained.items() if n) or "nobody scores"
            print(f"  {area['area']:10s} {shown}")
    return 0


def _print_standings(spec: GameSpec, state: GameState, as_json: bool) -> int:
    """Any game's scores and places (tied scores share a place)."""
    scores = dict(zip(state.seat_names(), state.returns(), strict=True))
    places = standings(scores)
    result = {
        "game": spec.id,
        "finished": state.is_terminal(),
        "scores": scores,
        "standings": places,
    }
    if as_json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    when = "final" if state.is_terminal() else "unfinished game,"
    print(f"{spec.title}, {when} scores:")
    for name, score in sorted(scores.items(), key=lambda kv: -kv[1]):
        print(f"  {places[name]}. {name:8s} {score:3d}")
    return 0


class Progress:
    """A one-line progress bar on a terminal; silent when output is redirected."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.enabled = sys.stderr.isatty()

    def update(self, done: int) -> None:
        if self.enabled and (done == self.total or done % max(1, self.total // 100) == 0):
            width = 30
            filled = width * done // self.total
            bar = "#" * filled + "-" * (width - filled)
            print(f"\r[{bar}] {done}/{self.total}", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.enabled:
            print(file=sys.stderr)


# El Grande's selfplay flags: (attribute, flag) pairs, refused for another game
_EL_GRANDE_FLAGS = (
    ("edition", "--edition"),
    ("short", "--short"),
    ("merge_decks", "--merge-decks"),
    ("new_regency", "--new-regency"),
    ("power_shift", "--power-shift"),
    ("alternative", "--alternative"),
    ("override", "--override"),
)
# A random game that has not ended after this many steps is a bug in the engine, not a game.
MAX_STEPS = 100_000


def run_selfplay(args: argparse.Namespace) -> int:
    if args.games < 1:
        return _fail("--games must be at least 1")
    spec = registry.get(args.game)
    if spec.id != registry.DEFAULT:
        return _selfplay_any(spec, args)
    if args.players not in spec.player_counts:
        return _fail(f"{spec.title} is for {_counts(spec)} players, not {args.players}")
    args.edition = args.edition or "2023"
    try:
        data = load(args.edition, args.override)
    except GameDataError as exc:
        return _fail(str(exc))
    colours = data.colours[: args.players]
    variant = {
        "short_game": args.short,
        "merge_decks_2_3": args.merge_decks,
        "new_regency": args.new_regency,
        "power_shift": args.power_shift,
        "alternatives": tuple(args.alternative),
    }
    if args.record:
        args.record.mkdir(parents=True, exist_ok=True)
    progress = Progress(args.games)
    wins: dict[str, int] = {}
    started = time.perf_counter()
    for index in range(args.games):
        seed = None if args.seed is None else args.seed + index
        options = Options(
            players=colours, edition=args.edition, mode="dealer", seed=seed, **variant
        )
        try:
            game = random_game(options, data)
        except ValueError as exc:  # options the rules refuse (e.g. merged decks with 5 players)
            progress.close()
            return _fail(str(exc))
        best = max(game.scores[p] for p in game.seats)
        for p in game.seats:
            colour = game.colours[p]
            wins[colour] = wins.get(colour, 0) + (game.scores[p] == best)
        if args.record:
            path = args.record / f"game-{index if seed is None else seed:06d}.json"
            path.write_text(json.dumps(to_record(game), ensure_ascii=False), encoding="utf-8")
        progress.update(index + 1)
    progress.close()
    elapsed = time.perf_counter() - started
    result = {
        "games": args.games,
        "players": args.players,
        "edition": args.edition,
        "variant": {k: (list(v) if isinstance(v, tuple) else v) for k, v in variant.items()},
        "seconds": round(elapsed, 3),
        "games_per_second": round(args.games / elapsed, 1),
        "wins_or_shared": wins,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{args.games} games in {elapsed:.2f} s: {result['games_per_second']} games/s")
    return 0


def _counts(spec: GameSpec) -> str:
    counts = [str(n) for n in spec.player_counts]
    return ", ".join(counts[:-1]) + " or " + counts[-1] if len(counts) > 1 else counts[0]


def _selfplay_any(spec: GameSpec, args: argparse.Namespace) -> int:
    """Random legal games of any registered game, dealt by the engine (dealer mode)."""
    given = [flag for name, flag in _EL_GRANDE_FLAGS if getattr(args, name)]
    if given:
        return _fail(f"{', '.join(given)}: El Grande's options, not {spec.title}'s")
    if args.players not in spec.player_counts:
        return _fail(f"{spec.title} is for {_counts(spec)} players, not {args.players}")
    if args.record:
        args.record.mkdir(parents=True, exist_ok=True)
    progress = Progress(args.games)
    wins: dict[str, int] = {}
    started = time.perf_counter()
    for index in range(args.games):
        seed = None if args.seed is None else args.seed + index
        try:
            options = spec.selfplay_options(args.players, seed)
            state = random_play(spec.new_state(options), random.Random(seed))
        except (OptionsError, EngineError, ValueError) as exc:
            progress.close()
            return _fail(str(exc))
        returns = state.returns()
        for name, score in zip(state.seat_names(), returns, strict=True):
            wins[name] = wins.get(name, 0) + (score == max(returns))
        if args.record:
            path = args.record / f"game-{index if seed is None else seed:06d}.json"
            record = core_record.to_record(spec, state)
            path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
        progress.update(index + 1)
    progress.close()
    elapsed = time.perf_counter() - started
    result = {
        "game": spec.id,
        "games": args.games,
        "players": args.players,
        "seconds": round(elapsed, 3),
        "games_per_second": round(args.games / elapsed, 1),
        "wins_or_shared": wins,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{args.games} games in {elapsed:.2f} s: {result['games_per_second']} games/s")
    return 0


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
