"""El Grande random games against the compiled engine issue 24 was filed against (9ecc0a4).

Issue 24 asks for random complete 4-player El Grande games >= 2x "today's compiled build", side
by side with a build of 9ecc0a4. This bench compiles the engine of that commit with mypyc the
way `make setup` compiles the current one (the Makefile's $(MYPYC_BUILD)/.stamp rule: a copy of
engine/, every module but the game specs compiled), into build/baseline-9ecc0a4/ (kept: a
second run reuses it), and plays it against the current compiled build: build/mypyc when it is
current (host.engine_build.why_not_compiled), else a private build of the working tree's
engine in build/bench-current/ (also kept while the sources stay the same).

Each engine runs in its own worker process. A run is a block of random complete 4-player games,
2023 edition, dealer mode, every decision uniform over the legal actions, with the same seeds on
both sides; runs are interleaved (one run of each engine in turn, several rounds) and the median
games/s of each engine and the median of the per-round ratios are reported, with the load.

`python -m bench engine_elgrande_vs_issue [--rounds N] [--games N] [--commit REF] [--json]`.
Without git history, mypyc or a C compiler it prints one line saying why and measures nothing.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ROOT / "build" / "mypyc"
PRIVATE_CURRENT = ROOT / "build" / "bench-current"
ISSUE_COMMIT = "9ecc0a4"
TARGET_FACTOR = 2.0
EDITION = "2023"
PLAYERS = 4
MYPYC = Path(sys.executable).parent / "mypyc"
COMPILER = "cc"


def _worker(root: str) -> None:
    """Serve `run FIRST_SEED GAMES` lines with "GAMES CPU_SECONDS WALL_SECONDS ACTIONS": the
    games seeded FIRST_SEED.. played to their end, the processor time and the wall-clock time
    they took, and the actions applied (equal on both sides when the two engines play the same
    games). Processor time is the figure: on a shared machine the wall clock also counts the
    time the worker waited for a core."""
    sys.path.insert(0, root)
    import random

    from engine.elgrande.data import load
    from engine.elgrande.game import Game, Options

    colours = load(EDITION).colours[:PLAYERS]
    print(f"ready {sys.modules[Game.__module__].__file__}", flush=True)
    for line in sys.stdin:
        _, first, count = line.split()
        actions = 0
        cpu, started = time.process_time(), time.perf_counter()
        for seed in range(int(first), int(first) + int(count)):
            game = Game(Options(players=colours, edition=EDITION, mode="dealer", seed=seed))
            draw = random.Random(seed).random
            while not game.is_terminal():
                player = game.current_players()[0]
                legal = game.legal_actions(player)
                game.apply(legal[int(draw() * len(legal))], player)
                actions += 1
        wall = time.perf_counter() - started
        print(count, time.process_time() - cpu, wall, actions, flush=True)


def why_not_buildable() -> str:
    """ "" when this machine can compile an engine with mypyc; otherwise why not."""
    if not MYPYC.is_file():
        return f"no mypyc at {MYPYC} (make setup installs it)"
    if shutil.which(COMPILER) is None:
        return f"no C compiler ({COMPILER}) for mypyc"
    return ""


def compile_engine(sources: Path, build: Path) -> str:
    """Compile `sources`/engine into `build` as the Makefile compiles engine/ into build/mypyc
    (the game specs left plain); record the sources' digest so a later run reuses the build.
    "" when the build is usable, else why not."""
    from host.engine_build import why_not_compiled, write_digest

    engine = sources / "engine"
    if not why_not_compiled(build, engine):
        return ""
    reason = why_not_buildable()
    if reason:
        return reason
    shutil.rmtree(build, ignore_errors=True)
    build.mkdir(parents=True)
    shutil.copytree(engine, build / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    # Left plain as in the Makefile (MYPYC_PLAIN): engine/core/spec.py and engine/*/spec.py.
    modules = sorted(
        path.relative_to(build).as_posix()
        for path in (build / "engine").rglob("*.py")
        if not (path.name == "spec.py" and path.parent.parent == build / "engine")
    )
    print(f"mypyc: compiling {len(modules)} modules into {build} (minutes)", flush=True)
    log = build / "mypyc.log"
    with log.open("w") as out:
        done = subprocess.run(
            [str(MYPYC), *modules], cwd=build, stdout=out, stderr=subprocess.STDOUT, check=False
        )
    if done.returncode != 0:
        return f"mypyc failed (exit {done.returncode}); see {log}"
    write_digest(build, engine)
    return why_not_compiled(build, engine)


def baseline_build(commit: str) -> tuple[Path | None, str]:
    """The engine of `commit` compiled in build/baseline-<commit>/mypyc, or None and why not."""
    cache = ROOT / "build" / f"baseline-{commit}"
    sources = cache / "sources"
    if not (sources / "engine").is_dir():
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", commit, "engine"], capture_output=True, check=False
        )
        if archive.returncode != 0:
            first = archive.stderr.decode(errors="replace").strip().splitlines()[:1]
            return None, f"git cannot extract {commit}'s engine: {' '.join(first) or 'no output'}"
        shutil.rmtree(sources, ignore_errors=True)
        sources.mkdir(parents=True)
        subprocess.run(["tar", "-x", "-C", str(sources)], input=archive.stdout, check=True)
    reason = compile_engine(sources, cache / "mypyc")
    return (None, reason) if reason else (cache / "mypyc", "")


def current_build() -> tuple[Path | None, str]:
    """build/mypyc when it is current, else a private build of engine/ in build/bench-current."""
    from host.engine_build import why_not_compiled

    if not why_not_compiled(COMPILED):
        return COMPILED, ""
    reason = compile_engine(ROOT, PRIVATE_CURRENT)
    return (None, reason) if reason else (PRIVATE_CURRENT, "")


def _options(argv: tuple[str, ...]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench engine_elgrande_vs_issue",
        description="Random El Grande games/s: the current compiled engine against 9ecc0a4's.",
    )
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds (>= 3)")
    parser.add_argument("--games", type=int, default=1000, help="games per run (>= 1)")
    parser.add_argument("--commit", default=ISSUE_COMMIT, help="the baseline commit")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args(list(argv))
    if options.rounds < 3:
        parser.error(f"--rounds must be at least 3, not {options.rounds}")
    if options.games < 1:
        parser.error(f"--games must be at least 1, not {options.games}")
    if not re.fullmatch(r"[0-9a-f]{7,40}", options.commit):
        parser.error(f"--commit must be a commit id (7 to 40 hex digits), not {options.commit!r}")
    return options


def main(*argv: str) -> int:
    options = _options(argv)
    from bench._worker import Worker

    baseline, reason = baseline_build(options.commit)
    if baseline is None:
        print(f"skipped: {reason}")
        return 0
    current, reason = current_build()
    if current is None:
        print(f"skipped: the current engine cannot be compiled: {reason}")
        return 0
    engines = [(f"{options.commit} compiled", baseline), ("current compiled", current)]
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    load_before = os.getloadavg()
    workers = [Worker(name, Path(__file__), root, "--worker") for name, root in engines]
    rates: dict[str, list[float]] = {name: [] for name, _ in engines}  # by processor time
    wall_rates: dict[str, list[float]] = {name: [] for name, _ in engines}
    actions: dict[str, int] = {name: 0 for name, _ in engines}
    try:
        for worker in workers:
            loaded = worker.loaded.removeprefix("ready ")
            # the game module must be the C extension, not a plain copy beside it
            assert loaded.endswith(suffix), f"{worker.name} did not load compiled code: {loaded}"
        for run in range(options.rounds):
            # the same seeds on both sides; who goes first alternates round by round
            order = workers if run % 2 == 0 else workers[::-1]
            for worker in order:
                games, cpu, wall, played = worker.ask(f"run {run * options.games} {options.games}")
                rates[worker.name].append(int(games) / float(cpu))
                wall_rates[worker.name].append(int(games) / float(wall))
                actions[worker.name] += int(played)
    finally:
        for worker in workers:
            worker.close()
    load_after = os.getloadavg()
    base_name, current_name = (name for name, _ in engines)
    ratios = [c / b for b, c in zip(rates[base_name], rates[current_name], strict=True)]
    ratio = statistics.median(ratios)
    figures = {
        "edition": EDITION,
        "players": PLAYERS,
        "rounds": options.rounds,
        "games_per_run": options.games,
        "games_per_second": {name: statistics.median(rates[name]) for name, _ in engines},
        "runs": {name: [round(r, 1) for r in rates[name]] for name, _ in engines},
        "wall_clock_games_per_second": {
            name: statistics.median(wall_rates[name]) for name, _ in engines
        },
        "ratio": ratio,
        "ratio_runs": [round(r, 3) for r in ratios],
        "target": TARGET_FACTOR,
        "same_games": actions[base_name] == actions[current_name],
        "builds": {name: str(root.relative_to(ROOT)) for name, root in engines},
        "load_average": [round(x, 2) for x in (*load_before, *load_after)],
        "cpus": os.cpu_count(),
    }
    if options.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(
        f"random complete {PLAYERS}-player El Grande games/s, {EDITION} edition, dealer mode "
        f"(medians of {options.rounds} interleaved runs of {options.games} games, same seeds; "
        f"by processor time, wall clock in brackets):"
    )
    for name, root in engines:
        runs = ", ".join(f"{r:.0f}" for r in rates[name])
        median, by_clock = statistics.median(rates[name]), statistics.median(wall_rates[name])
        print(f"  {name:18s} {median:7.0f} [{by_clock:5.0f}]   ({runs})   {root.relative_to(ROOT)}")
    verdict = "meets" if ratio >= TARGET_FACTOR else "MISSES"
    print(f"  current / {options.commit}: {ratio:.2f}x; {verdict} the {TARGET_FACTOR}x target")
    if not figures["same_games"]:
        print(
            f"  note: the engines applied different numbers of actions ({actions[base_name]} "
            f"vs {actions[current_name]}): the same seeds did not give the same games"
        )
    print(
        f"  load average (1, 5, 15 min) {load_before[0]:.2f} {load_before[1]:.2f} "
        f"{load_before[2]:.2f} before, {load_after[0]:.2f} {load_after[1]:.2f} "
        f"{load_after[2]:.2f} after, {os.cpu_count()} CPUs"
    )
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        _worker(sys.argv[2])
    else:
        sys.exit(main(*sys.argv[1:]))
