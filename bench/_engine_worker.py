"""A benchmark worker: plays random complete 4-player El Grande games with the engine found
first on the path it is given (the plain sources, the mypyc build, or an older checkout).

Run by bench/engine_elgrande.py as `python bench/_engine_worker.py ENGINE_ROOT`; it reads lines
"EDITION SECONDS" and answers each with "GAMES ELAPSED" (games played, seconds taken), so the
caller can interleave the engines run by run. The game loop is the real API path:
current_players(), legal_actions(), apply(), with the dealer drawing the chance steps.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any


def play_random_game(game: Any, seed: int) -> Any:
    """Play `game` to its end: each decision uniform over the legal actions (seeded)."""
    draw = random.Random(seed).random
    # The game's methods looked up once (the same calls, without the loop's attribute lookups).
    is_terminal = game.is_terminal
    current_players = game.current_players
    legal_actions = game.legal_actions
    apply = game.apply
    while not is_terminal():
        player = current_players()[0]
        actions = legal_actions(player)
        apply(actions[int(draw() * len(actions))], player)
    return game


def main(root: str) -> None:
    sys.path.insert(0, root)
    from engine.elgrande.data import load
    from engine.elgrande.game import Game, Options

    print(f"ready {Game.__module__} {sys.modules['engine.elgrande.game'].__file__}", flush=True)
    seed = 0
    for line in sys.stdin:
        edition, seconds = line.split()
        colours = load(edition).colours[:4]
        games = 0
        started = time.perf_counter()
        while time.perf_counter() - started < float(seconds):
            options = Options(players=colours, edition=edition, mode="dealer", seed=seed)
            play_random_game(Game(options), seed)
            seed += 1
            games += 1
        print(games, time.perf_counter() - started, flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
