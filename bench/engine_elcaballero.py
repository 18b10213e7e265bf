"""El Caballero engine speed: random complete 4-player games, base and extended (the SYNTHETIC
cards, not the real ones, dealt by the engine; every decision uniform over the legal actions),
plain Python and mypyc-compiled side by side. Target (issue 13): >= 100 games/s compiled.

Each engine runs in its own process (this file run as a script with the engine's root), runs
are interleaved and the medians reported.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ROOT / "build" / "mypyc"
TARGET = 100.0
ROUNDS = 3
SECONDS_PER_RUN = 2.0
GAMES = ("base", "extended")


def worker(root: str) -> None:
    """Answer each line "GAME SECONDS" (GAME: base or extended) with "GAMES ELAPSED", playing
    with the engine under root."""
    sys.path[:0] = [root, str(ROOT)]  # the engine from root; bench from the checkout
    from bench._engine_worker import play_random_game
    from engine.elcaballero.game import Game
    from engine.elcaballero.options import Options

    print(f"ready {sys.modules['engine.elcaballero.game'].__file__}", flush=True)
    seed = 0
    colours = ("red", "blue", "green", "yellow")
    for line in sys.stdin:
        game, seconds_text = line.split()
        seconds = float(seconds_text)
        games = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            options = Options(
                players=colours,
                mode="dealer",
                seed=seed,
                catalogue="synthetic",
                extended=game == "extended",
            )
            play_random_game(Game(options), seed)
            seed += 1
            games += 1
        print(games, time.perf_counter() - started, flush=True)


def main(*flags: str) -> None:
    # Imported here: run as a worker, this file is a script without the bench package.
    from bench._worker import Worker
    from host.engine_build import why_not_compiled

    script = Path(__file__).resolve()
    workers = [Worker("plain", script, ROOT, "--worker")]
    stale = why_not_compiled(COMPILED)
    if not stale:
        workers.append(Worker("compiled", script, COMPILED, "--worker"))
    else:
        print(f"compiled engine left out ({stale}): plain only")
    runs: dict[tuple[str, str], list[float]] = {
        (game, w.name): [] for game in GAMES for w in workers
    }
    try:
        for _ in range(ROUNDS):
            for game in GAMES:
                for w in workers:
                    runs[(game, w.name)].append(w.rate(f"{game} {SECONDS_PER_RUN}"))
    finally:
        for w in workers:
            w.close()
    for (game, name), rates in runs.items():
        median = statistics.median(rates)
        verdict = ""
        if name == "compiled":
            verdict = f"  (target >= {TARGET:.0f}: {'met' if median >= TARGET else 'MISSED'})"
        print(f"el caballero, 4 players, {game} game, {name}: {median:.1f} games/s{verdict}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    else:
        main(*sys.argv[1:])
