"""The cost of copying a game in progress (issue 24): `clone()` of a mid-game state against one
random complete 4-player game, for every registered game, plain Python (engine/) and
mypyc-compiled (build/mypyc) side by side.

Each engine runs in its own worker process; for each game a worker times random complete
4-player games (dealer mode, every decision uniform over the legal actions; the median game)
and `clone()` of states half-way through such games (the median clone), so the ratio is taken
in one process under one load. Runs are interleaved (one run of each engine and game in turn,
several rounds) and the medians of the runs are reported. For El Grande, `copy.deepcopy` (what
a copy cost before `clone()`) is timed beside it. Target (issue 24): a clone costs <= 0.1x one
random game with the compiled engine.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ROOT / "build" / "mypyc"
ROUNDS = 5
GAMES_PER_RUN = 40  # random complete games timed per run (their median)
STATES_PER_RUN = 20  # mid-game states cloned per run
CLONES_PER_STATE = 25  # clones timed per state (their median)
TARGET_RATIO = 0.1
GAMES = ("elgrande", "kingdomino", "elcaballero")


def _worker(root: str) -> None:
    """Serve `measure GAME RUN` lines: the median seconds of a random game, of a clone, and
    of a copy.deepcopy (-1 unless El Grande)."""
    sys.path.insert(0, root)
    import copy
    import dataclasses
    import functools
    import random
    import time
    from typing import Any

    from engine import registry
    from engine.core.protocol import GameState

    def new_state(game_id: str, seed: int) -> GameState:
        spec = registry.get(game_id)
        options = dataclasses.replace(spec.test_options(4)[0], seed=seed)
        return spec.new_state(options)

    def play(state: GameState, seed: int, steps: int = 1 << 30) -> int:
        draw = random.Random(seed).random
        done = 0
        while done < steps and not state.is_terminal():
            player = state.current_players()[0]
            actions = state.legal_actions(player)
            state.apply(actions[int(draw() * len(actions))], player)
            done += 1
        return done

    def median_time(call: Any, times: int) -> float:
        spent = []
        for _ in range(times):
            started = time.perf_counter()
            call()
            spent.append(time.perf_counter() - started)
        return statistics.median(spent)

    module = sys.modules[type(new_state("elgrande", 0)).__module__]
    print(f"ready {module.__file__}", flush=True)
    for line in sys.stdin:
        _, game_id, run = line.split()
        base = 1000 * int(run)
        games, lengths = [], []
        for seed in range(base, base + GAMES_PER_RUN):
            started = time.perf_counter()
            lengths.append(play(new_state(game_id, seed), seed))
            games.append(time.perf_counter() - started)
        clones, deep = [], []
        for number, seed in enumerate(range(base, base + STATES_PER_RUN)):
            state = new_state(game_id, seed)
            play(state, seed, lengths[number % len(lengths)] // 2)  # half-way through
            clones.append(median_time(state.clone, CLONES_PER_STATE))
            if game_id == "elgrande":
                deep.append(median_time(functools.partial(copy.deepcopy, state), 5))
        deepcopy = statistics.median(deep) if deep else -1.0
        print(statistics.median(games), statistics.median(clones), deepcopy, flush=True)


def main() -> None:
    # Imported here: run as a worker, this file is a script without the bench package.
    from bench._worker import Worker
    from host.engine_build import why_not_compiled

    engines = [("plain", ROOT)]
    stale = why_not_compiled(COMPILED)
    if not stale:
        engines.append(("compiled", COMPILED))
    else:
        print(f"compiled engine left out: {stale}")
    workers = [Worker(name, Path(__file__), root, "--worker") for name, root in engines]
    runs: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    try:
        for worker in workers:
            assert worker.loaded.startswith("ready"), f"{worker.name}: {worker.loaded}"
        for run in range(ROUNDS):  # interleaved: each engine once per round and game
            for game_id in GAMES:
                for worker in workers:
                    game, clone, deep = worker.ask(f"measure {game_id} {run}")
                    runs.setdefault((worker.name, game_id), []).append(
                        (float(game), float(clone), float(deep))
                    )
    finally:
        for worker in workers:
            worker.close()
    print(
        f"clone() of a mid-game state / one random complete 4-player game (medians of {ROUNDS} "
        f"interleaved runs; each run the median of {GAMES_PER_RUN} games and of "
        f"{STATES_PER_RUN} states x {CLONES_PER_STATE} clones):"
    )
    for game_id in GAMES:
        print(f"  {game_id}:")
        for name, _ in engines:
            figures = runs[(name, game_id)]
            game = statistics.median(f[0] for f in figures)
            clone = statistics.median(f[1] for f in figures)
            ratio = statistics.median(f[1] / f[0] for f in figures)
            line = (
                f"    {name:9s} game {game * 1e3:8.2f} ms   clone {clone * 1e6:7.1f} us   "
                f"clone/game {ratio:.4f}x"
            )
            if game_id == "elgrande":
                deep = statistics.median(f[2] / f[0] for f in figures)
                line += f"   (copy.deepcopy/game {deep:.2f}x)"
            if name == "compiled":
                verdict = "meets" if ratio <= TARGET_RATIO else "MISSES"
                line += f"; {verdict} the {TARGET_RATIO}x target"
            print(line)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        _worker(sys.argv[2])
    else:
        main()
