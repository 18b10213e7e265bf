"""`castillo run`: the main job. Until the table app lands it plays a demo game in the terminal."""

from __future__ import annotations

import argparse
from typing import Any

from engine.elgrande.bots import random_game
from engine.elgrande.data import EDITIONS, load
from engine.elgrande.game import Options
from engine.elgrande.record import summary


def register(subparsers: Any) -> None:
    run = subparsers.add_parser("run", help="start the main job (a demo game in the terminal)")
    run.add_argument("--edition", choices=EDITIONS, default="2023")
    run.add_argument("--players", type=int, default=4, choices=(4, 5))
    run.add_argument("--seed", type=int, default=1)
    run.set_defaults(handler=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    colours = load(args.edition).colours[: args.players]
    options = Options(players=colours, edition=args.edition, mode="dealer", seed=args.seed)
    game = random_game(options)
    result = summary(game)
    print(f"Demo: a random game of El Grande ({args.edition}) between {', '.join(colours)}.")
    for entry in result["score_history"]:
        scores = ", ".join(f"{c} {s}" for c, s in zip(colours, entry["scores"], strict=True))
        print(f"  after round {entry['round']}: {scores}")
    print("Final:")
    for colour, score in sorted(result["scores"].items(), key=lambda kv: -kv[1]):
        print(f"  {result['standings'][colour]}. {colour:8s} {score}")
    return 0
