"""El Grande on the command line (`castillo selfplay` / `castillo replay`, host/commands/game.py):
its flags (shorthands for its options: edition, variants; data overrides), random games through
its own fast path, and replay's scoring breakdowns."""

from __future__ import annotations

import argparse
import json
from typing import Any

from engine.core.errors import GameDataError, RecordError
from engine.elgrande.bots import random_game
from engine.elgrande.data import EDITIONS, load
from engine.elgrande.game import Game
from engine.elgrande.record import from_record, options_of, summary, to_record
from engine.elgrande.spec import SPEC
from host.commands.common import fail, play_games, print_played

# (attribute, flag) of the selfplay flags only El Grande takes (--override is common)
SELFPLAY_FLAGS = (
    ("edition", "--edition"),
    ("short", "--short"),
    ("merge_decks", "--merge-decks"),
    ("new_regency", "--new-regency"),
    ("power_shift", "--power-shift"),
    ("alternative", "--alternative"),
)
# Each flag is a shorthand for an option of El Grande's schema (`--option NAME=VALUE` sets any
# of them): attribute -> option. host/commands/game.py folds them into `args.game_options`.
SELFPLAY_ALIASES = {
    "edition": "edition",
    "short": "short_game",
    "merge_decks": "merge_decks_2_3",
    "new_regency": "new_regency",
    "power_shift": "power_shift",
    "alternative": "alternatives",
}
# What self-play sets itself: not part of the variant it reports.
NOT_VARIANT = ("players", "edition", "mode", "seed")


def add_selfplay_flags(selfplay: Any) -> None:
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


def replay(record: dict[str, Any], args: argparse.Namespace) -> int:
    try:
        if args.override:
            options = options_of(record)
            data = load(options.edition, args.override, card_set=options.card_set)
        else:
            data = None
        game = from_record(record, data=data)
    except (RecordError, GameDataError) as exc:
        return fail(str(exc))
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


def selfplay(args: argparse.Namespace) -> int:
    """Random games with the options chosen (`args.game_options`: `--option` and the flags,
    checked by the game) through El Grande's fast path."""
    chosen: dict[str, Any] = args.game_options
    edition = str(chosen.get("edition") or "2023")
    try:
        data = load(edition, args.override, card_set=str(chosen.get("card_set", "")))
    except GameDataError as exc:
        return fail(str(exc))
    colours = list(data.colours[: args.players])
    fixed = {"players": colours, "edition": edition, "mode": "dealer"}

    def play_one(seed: int | None) -> tuple[dict[str, int], dict[str, Any]]:
        options = SPEC.options_from_json({**chosen, **fixed, "seed": seed})
        game = random_game(options, data)
        return {game.state.colours[p]: game.state.scores[p] for p in game.state.seats}, to_record(
            game
        )

    try:
        played = play_games(args, play_one)
    except ValueError as exc:  # options the rules refuse (e.g. merged decks with 5 players)
        return fail(str(exc))
    options = SPEC.options_to_json(SPEC.options_from_json({**chosen, **fixed}))
    result = {
        "games": args.games,
        "players": args.players,
        "edition": edition,
        "variant": {k: v for k, v in options.items() if k not in NOT_VARIANT},
        **played,
    }
    return print_played(args, result)
