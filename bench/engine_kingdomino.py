"""Kingdomino engine speed and computer-player strength (issue 12).

Games/s: random complete 4-player games (dealer mode; every decision uniform over the legal
moves), plain Python (engine/) and mypyc-compiled (build/mypyc) side by side, each engine in its
own worker process, runs interleaved, medians reported. Two paths: the platform API
(`legal_actions()` + `apply()` with text actions and a history, what the app does) and the
playout path (`state.moves()` + `rounds.play(state, move)`: integer moves on the game's state,
what the computer players run). Target:
>= 500 games/s compiled (the issue's figure is a playout: "a naive pure-Python random playout
takes about 24 ms a game").

Also: the median time to list the legal placements (`moves()` at a placement step) over every
placement step of random games, and the win rates of flat Monte Carlo against random and
against greedy over 200 two-player games each (compiled engine; a budget in playouts per move,
so the figures do not depend on the machine's load; the time per move is reported). Targets:
>= 95 % against random, >= 65 % against greedy (a draw counts half).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ROOT / "build" / "mypyc"
ROUNDS = 5
SECONDS_PER_RUN = 1.5
MATCH_GAMES = 200
MC_PLAYOUTS = 400  # per move, for the win-rate figures (the table's level 3, 0.25 s, makes more)
TARGET_GAMES = 500
TARGET_VS_RANDOM = 0.95
TARGET_VS_GREEDY = 0.65
MATCHES = (("random", TARGET_VS_RANDOM), ("greedy", TARGET_VS_GREEDY))


def _worker(root: str) -> None:
    """Serve requests on stdin: `games api|fast SECONDS`, `listing GAMES`,
    `match OPPONENT GAMES PLAYOUTS`; one answer line each."""
    sys.path.insert(0, root)
    import random

    from engine.kingdomino import bots
    from engine.kingdomino.game import PLACE, Game
    from engine.kingdomino.options import Options
    from engine.kingdomino.rounds import play

    print(f"ready {bots.__file__}", flush=True)
    seed = 0
    for line in sys.stdin:
        words = line.split()
        if words[0] == "games":
            rng = random.Random(seed)
            started, games = time.perf_counter(), 0
            while time.perf_counter() - started < float(words[2]):
                game = Game(Options(mode="dealer", seed=seed))
                seed += 1
                if words[1] == "fast":
                    state = game.state
                    while not state.is_over():
                        moves = state.moves()
                        play(state, moves[rng.randrange(len(moves))])
                else:
                    while not game.is_terminal():
                        actions = game.legal_actions()
                        game.apply(actions[rng.randrange(len(actions))])
                games += 1
            print(games, time.perf_counter() - started, flush=True)
        elif words[0] == "listing":
            rng = random.Random(1)
            times: list[float] = []
            for number in range(int(words[1])):
                state = Game(Options(mode="dealer", seed=10_000 + number)).state
                while not state.is_over():
                    if state.step == PLACE:
                        started = time.perf_counter()
                        moves = state.moves()
                        times.append(time.perf_counter() - started)
                    else:
                        moves = state.moves()
                    play(state, moves[rng.randrange(len(moves))])
            print(statistics.median(times), max(times), len(times), flush=True)
        elif words[0] == "match":
            opponent, count, playouts = words[1], int(words[2]), int(words[3])
            score, moves_timed, thinking = 0.0, 0, 0.0
            for number in range(count):
                mc = bots.MonteCarloBot(None, seed=number, playouts=playouts)
                other: bots.Bot = (
                    bots.RandomBot(number) if opponent == "random" else bots.GreedyBot(number)
                )
                seats = (mc, other) if number % 2 == 0 else (other, mc)  # alternate seats
                game = Game(Options(players=("pink", "blue"), mode="dealer", seed=50_000 + number))
                while not game.is_terminal():
                    seat = game.current_players()[0]
                    bot = seats[seat]
                    started = time.perf_counter()
                    move = bot.choose_move(game)
                    if bot is mc:
                        thinking += time.perf_counter() - started
                        moves_timed += 1
                    play(game.state, move)
                mine = 0 if seats[0] is mc else 1
                totals = game.returns()
                score += (
                    1.0
                    if totals[mine] > totals[1 - mine]
                    else (0.5 if totals[mine] == totals[1 - mine] else 0.0)
                )
            print(score, count, thinking / max(1, moves_timed), flush=True)


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
    try:
        for worker in workers:
            assert worker.loaded.startswith("ready"), f"{worker.name}: {worker.loaded}"
        rates: dict[tuple[str, str], list[float]] = {}
        for _ in range(ROUNDS):
            for path in ("fast", "api"):
                for worker in workers:
                    games, elapsed = worker.ask(f"games {path} {SECONDS_PER_RUN}")
                    rates.setdefault((worker.name, path), []).append(int(games) / float(elapsed))
        print(f"random complete 4-player games/s (medians of {ROUNDS} interleaved runs):")
        for path, label in (("fast", "playout path (moves/play)"), ("api", "platform API")):
            print(f"  {label}:")
            for name, _ in engines:
                runs = ", ".join(f"{r:.0f}" for r in rates[(name, path)])
                print(f"    {name:9s} {statistics.median(rates[(name, path)]):7.0f}   ({runs})")
        best = engines[-1][0]
        fast = statistics.median(rates[(best, "fast")])
        verdict = "meets" if fast >= TARGET_GAMES else "MISSES"
        print(f"  {best} playout path: {fast:.0f} games/s; {verdict} the {TARGET_GAMES} target")
        for worker in workers:
            median, worst, count = worker.ask("listing 20")
            print(
                f"legal placements listing ({worker.name}): median {float(median) * 1e6:.1f} us,"
                f" max {float(worst) * 1e6:.1f} us over {count} placement steps"
            )
        # The two matches run at once, each in its own worker on the fastest engine.
        name, root = engines[-1]
        matches = [
            (opponent, target, Worker(name, Path(__file__), root, "--worker"))
            for opponent, target in MATCHES
        ]
        workers.extend(worker for _, _, worker in matches)
        started = time.perf_counter()
        for opponent, _, worker in matches:
            worker.send(f"match {opponent} {MATCH_GAMES} {MC_PLAYOUTS}")
        for opponent, target, worker in matches:
            score, count, per_move = worker.answer()
            rate = float(score) / int(count)
            verdict = "meets" if rate >= target else "MISSES"
            print(
                f"flat MC ({MC_PLAYOUTS} playouts a move, {float(per_move) * 1e3:.0f} ms a move,"
                f" {name}) vs {opponent}: {rate:.1%} of {count} two-player games "
                f"(seats alternate); {verdict} the {target:.0%} target "
                f"[{time.perf_counter() - started:.0f} s]"
            )
    finally:
        for worker in workers:
            worker.close()


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        _worker(sys.argv[2])
    else:
        main()
