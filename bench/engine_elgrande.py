"""El Grande engine speed: random complete games (plain Python and mypyc-compiled, side by
side), legal-action listing, record replay.

Games/s: random complete 4-player games (the dealer draws the chance steps; every decision is
uniform over the legal actions), 1995 and 2023 editions, measured in worker processes that each
load one engine: the plain sources (engine/), the mypyc build (build/mypyc, `make setup`) and,
when git can extract it, the engine as it was before the platform and speed work (6ca1cf6, the
"today" of issue 10). Runs are interleaved (one run of each engine in turn, several rounds) and
the medians are reported. Target (issue 10): the compiled engine >= 3.5x the 6ca1cf6 plain
engine (about 417 games/s for 1995 on a quiet machine, hence >= 1,460 games/s).

Also: legal-action listing <= 1 ms median in any state; replay of a full record <= 20 ms.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bench._engine_worker import play_random_game
from bench._worker import Worker
from engine.elgrande.data import load
from engine.elgrande.game import Game, Options
from engine.elgrande.record import from_record, to_record
from host.engine_build import why_not_compiled

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ROOT / "build" / "mypyc"
BASELINE_COMMIT = "6ca1cf6"
BASELINE_1995 = 417  # games/s of the 6ca1cf6 engine on a quiet machine (issue 10)
TARGET_FACTOR = 3.5
ROUNDS = 5
SECONDS_PER_RUN = 1.5
EDITIONS = ("1995", "2023")


def _baseline_checkout(into: Path) -> Path | None:
    """The engine of 6ca1cf6 extracted from git, or None (no git history here)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", BASELINE_COMMIT, "engine"],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        return None
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def compare_engines() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        engines = [("plain", ROOT)]
        stale = why_not_compiled(COMPILED)
        if not stale:
            engines.append(("compiled", COMPILED))
        else:
            print(f"compiled engine left out: {stale}")
        baseline = _baseline_checkout(Path(tmp))
        if baseline is not None:
            engines.insert(0, (f"{BASELINE_COMMIT} plain", baseline))
        else:
            print(f"git cannot extract {BASELINE_COMMIT}: no baseline run in this checkout")
        script = ROOT / "bench" / "_engine_worker.py"
        workers = [Worker(name, script, root) for name, root in engines]
        try:
            for worker in workers:
                assert worker.loaded.startswith("ready"), f"{worker.name}: {worker.loaded}"
            rates: dict[tuple[str, str], list[float]] = {}
            for _ in range(ROUNDS):  # interleaved: each engine once per round and edition
                for edition in EDITIONS:
                    for worker in workers:
                        rate = worker.rate(f"{edition} {SECONDS_PER_RUN}")
                        rates.setdefault((worker.name, edition), []).append(rate)
        finally:
            for worker in workers:
                worker.close()
    medians = {key: statistics.median(values) for key, values in rates.items()}
    for edition in EDITIONS:
        print(f"random complete 4-player games/s, {edition} edition (medians of {ROUNDS} runs):")
        for name, _ in engines:
            runs = ", ".join(f"{r:.0f}" for r in rates[(name, edition)])
            print(f"  {name:16s} {medians[(name, edition)]:7.0f}   ({runs})")
        if "compiled" in dict(engines):
            compiled = medians[("compiled", edition)]
            print(f"  compiled / plain: {compiled / medians[('plain', edition)]:.2f}x")
            if baseline is not None:
                base = medians[(f"{BASELINE_COMMIT} plain", edition)]
                factor = compiled / base
                verdict = "meets" if factor >= TARGET_FACTOR else "MISSES"
                print(
                    f"  compiled / {BASELINE_COMMIT} plain: {factor:.2f}x; {verdict} the "
                    f"{TARGET_FACTOR}x target"
                )
            if edition == "1995":
                factor = compiled / BASELINE_1995
                print(
                    f"  compiled / {BASELINE_1995} games/s (the 6ca1cf6 figure on a quiet "
                    f"machine): {factor:.2f}x"
                )


def random_game(seed: int, edition: str = "2023", players: int = 4) -> Game:
    """One dealer-mode game with uniformly random legal actions (the real API path)."""
    colours = load(edition).colours[:players]
    game = Game(Options(players=colours, edition=edition, mode="dealer", seed=seed))
    play_random_game(game, seed)
    return game


def legal_listing_times(games: int = 20) -> list[float]:
    """Time legal_actions() from scratch (caches dropped) in every state of several games."""
    times: list[float] = []
    for seed in range(games):
        game = Game(Options(mode="dealer", seed=1000 + seed))
        draw = random.Random(seed).random
        while not game.is_terminal():
            player = game.current_players()[0]
            game.state.touched()
            started = time.perf_counter()
            actions = game.legal_actions(player)
            times.append(time.perf_counter() - started)
            game.apply(actions[int(draw() * len(actions))], player)
    return times


def replay_times(records: int = 30) -> list[float]:
    times = []
    for seed in range(records):
        record = to_record(random_game(5000 + seed))
        started = time.perf_counter()
        from_record(record)
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    compare_engines()
    listing = legal_listing_times()
    p50 = statistics.median(listing) * 1e6
    worst = max(listing) * 1e6
    p99 = statistics.quantiles(listing, n=100)[98] * 1e6
    verdict = "meets" if p50 <= 1000 else "MISSES"
    print(
        f"legal_actions() (plain engine): median {p50:.1f} us, p99 {p99:.1f} us, max "
        f"{worst:.1f} us over {len(listing)} states; {verdict} the 1 ms median target"
    )
    replays = replay_times()
    r50 = statistics.median(replays) * 1e3
    verdict = "meets" if r50 <= 20 else "MISSES"
    print(
        f"replay of a full 9-round record (plain engine): median {r50:.2f} ms, max "
        f"{max(replays) * 1e3:.2f} ms over {len(replays)} records; {verdict} the 20 ms target"
    )


if __name__ == "__main__":
    main()
