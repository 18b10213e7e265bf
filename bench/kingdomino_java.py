"""Kingdomino playouts a second (issue 24): our search player against the Java agent MCE_PG_R of
Gedda, Lagerkvist and Butler ("Monte Carlo Methods for the Game Kingdomino", IEEE CIG 2018),
side by side on this machine.

Needs a built copy of their agent (github.com/mgedda/kdom-ai, built outside this repository; none
of it is kept here): the environment variable KDOM_AI_CLASSPATH names its classes (directory or
jar) and fastutil's jar, joined with ":". Without it (or without `java`/`javac`) the bench
prints one line saying why it was skipped. Our driver for their agent, bench/KdomAiPlayouts.java,
is compiled against that class path into a temporary folder at each run.

Both sides decide at the same positions' stages: seat 0's turns 2 (early), 6 (mid) and 10
(late) of 4-player games played at random from a deal, `--games` games a run, one decision of
`--seconds` (each side's own time limit) at each. Ours: engine.kingdomino.search.SearchBot with
the project's engine (the compiled build when it is current, as the app chooses; the line
`engine:` says which). Theirs: MCE_PG_R (every move, player-greedy playouts, relative score),
its playouts counted exactly. Each run is a fresh process after a warm-up decision at each stage
(the JIT's compile time is not counted), and the runs alternate: ours, theirs, ours, theirs...,
`--runs` of each. Printed per stage: the median playouts a second over wall time and over the
process's CPU time (a shared machine's load slows the wall figure, much less the CPU one), and
ours / theirs. Only the ratios of these interleaved runs mean anything on a loaded machine.

    KDOM_AI_CLASSPATH=/path/kingdominoplayer.jar:/usr/share/java/fastutil.jar \\
        python -m bench kingdomino_java [--runs=5] [--seconds=1] [--games=2] [--warmup=2]
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ENV = "KDOM_AI_CLASSPATH"
DRIVER = Path(__file__).resolve().parent / "KdomAiPlayouts.java"
STAGES = ("early", "mid", "late")
TURNS = (2, 6, 10)  # seat 0's turns: the stages' positions
RUNS = 5
SECONDS = 1.0
GAMES = 2
WARMUP = 2.0  # seconds of one decision at each stage before the counted ones (the JIT)
RUN_TIMEOUT = 600.0


# ---------------------------------------------------------------------------------- our side
def _positions(seed: int) -> list[Any]:
    """Seat 0's positions at the start of its turns 2, 6 and 10 of a game played at random."""
    import random

    from engine.kingdomino.game import CLAIM, PLACE, Game
    from engine.kingdomino.options import Options
    from engine.kingdomino.rounds import play

    game = Game(Options(mode="dealer", seed=seed))
    state = game.state
    rng = random.Random(seed)
    found: dict[int, Game] = {}
    turn = 0
    while not state.is_over():
        begins = state.step == PLACE or (state.step == CLAIM and not state.line)
        if begins and state.acting() == (0,):
            turn += 1
            if turn in TURNS:
                found[turn] = game.clone(random.Random(0))
        moves = state.moves()
        play(state, moves[rng.randrange(len(moves))])
    return [found[turn] for turn in TURNS]


def _ours(seconds: float, games: int, warmup: float, seed: int) -> dict[str, Any]:
    """SearchBot's decisions at each stage: [playouts, wall seconds, CPU seconds] summed."""
    import random

    from engine.kingdomino.search import SearchBot

    def decide(position: Any, budget: float) -> list[float]:
        bot = SearchBot(budget, seed)
        game = position.clone(random.Random(seed))
        cpu, wall = time.process_time(), time.perf_counter()
        bot.choose_move(game)
        return [bot.last_playouts, time.perf_counter() - wall, time.process_time() - cpu]

    every = [_positions(seed * 1000 + g) for g in range(games)]
    if warmup > 0:
        for position in every[0]:
            decide(position, warmup)
    out: dict[str, Any] = {}
    for i, stage in enumerate(STAGES):
        sums = [0.0, 0.0, 0.0]
        for positions in every:
            sums = [a + b for a, b in zip(sums, decide(positions[i], seconds), strict=True)]
        out[stage] = sums
    return out


def _child(args: list[str]) -> None:
    """`--ours SECONDS GAMES WARMUP SEED ROOT`: one run of our side; one JSON line."""
    seconds, games, warmup, seed, root = args
    sys.path.insert(0, root)
    from host.engine_build import choose

    engine = choose()
    result = _ours(float(seconds), int(games), float(warmup), int(seed))
    print(json.dumps({"side": "ours SearchBot", "runtime": engine, **result}), flush=True)


# ---------------------------------------------------------------------------------- the bench
def _flags(flags: tuple[str, ...]) -> tuple[int, float, int, float]:
    given: dict[str, str] = {}
    for flag in flags:
        name, _, value = flag.lstrip("-").partition("=")
        given[name] = value
    unknown = sorted(set(given) - {"runs", "seconds", "games", "warmup", "json"})
    if unknown:
        known = "--runs, --seconds, --games, --warmup"
        raise ValueError(f"unknown option(s) --{', --'.join(unknown)}; known: {known}")
    runs = int(given.get("runs") or RUNS)
    seconds = float(given.get("seconds") or SECONDS)
    games = int(given.get("games") or GAMES)
    warmup = float(given.get("warmup") or WARMUP)
    if not (1 <= runs <= 100 and 0.05 <= seconds <= 60 and 1 <= games <= 20 and 0 <= warmup <= 60):
        raise ValueError("--runs must be 1..100, --seconds 0.05..60, --games 1..20, --warmup 0..60")
    return runs, seconds, games, warmup


def why_skipped(classpath: str | None) -> str:
    """ "" when their agent can be run here; otherwise why not (one line)."""
    if not classpath:
        return f"{ENV} is not set (a built github.com/mgedda/kdom-ai and fastutil's jar)"
    for tool in ("java", "javac"):
        if shutil.which(tool) is None:
            return f"no `{tool}` on PATH"
    missing = [entry for entry in classpath.split(os.pathsep) if entry and not Path(entry).exists()]
    if missing:
        return f"{ENV} names what does not exist: {', '.join(missing)}"
    return ""


def _compile(classpath: str, into: Path) -> None:
    done = subprocess.run(
        ["javac", "-nowarn", "-cp", classpath, "-d", str(into), str(DRIVER)],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    if done.returncode != 0:
        first = (done.stderr or done.stdout).strip().splitlines()[:3]
        raise RuntimeError(f"the driver does not compile against {ENV}: {' | '.join(first)}")


def _run(command: list[str], cwd: str | None = None) -> dict[str, Any]:
    done = subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT, cwd=cwd)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise RuntimeError(f"a run failed ({' '.join(command[:2])}...): {' | '.join(tail)}")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def _engine_root() -> str:
    """The checkout whose `engine` this interpreter imports (not imported here)."""
    spec = importlib.util.find_spec("engine")
    if spec is None or spec.origin is None:
        raise RuntimeError("the engine package cannot be found")
    return str(Path(spec.origin).resolve().parents[1])


def _rates(runs: list[dict[str, Any]], stage: str) -> tuple[list[float], list[float]]:
    """Per run: playouts a wall second, playouts a CPU second."""
    wall = [r[stage][0] / r[stage][1] for r in runs]
    cpu = [r[stage][0] / r[stage][2] if r[stage][2] > 0 else float("nan") for r in runs]
    return wall, cpu


def main(*flags: str) -> None:
    try:
        runs, seconds, games, warmup = _flags(flags)
    except ValueError as exc:
        print(f"kingdomino_java: {exc}")
        return
    classpath = os.environ.get(ENV)
    reason = why_skipped(classpath)
    if reason:
        print(f"kingdomino_java skipped: {reason}")
        return
    assert classpath is not None
    root = _engine_root()
    load = [os.getloadavg()[0]]
    ours: list[dict[str, Any]] = []
    theirs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="kdom-ai-driver-") as classes:
        _compile(classpath, Path(classes))
        java = ["java", "-cp", os.pathsep.join([classes, classpath]), "KdomAiPlayouts"]
        for run in range(runs):
            args = [str(seconds), str(games), str(warmup), str(run + 1)]
            ours.append(_run([sys.executable, __file__, "--ours", *args, root]))
            load.append(os.getloadavg()[0])
            theirs.append(_run([*java, *args]))
            load.append(os.getloadavg()[0])
    print(
        f"Kingdomino playouts a second, 4 players: our SearchBot against kdom-ai's MCE_PG_R "
        f"({theirs[0]['runtime']}), {runs} interleaved runs a side, {games} position(s) a stage, "
        f"{seconds:g} s a decision after {warmup:g} s of warm-up a stage; load "
        f"{min(load):.1f}..{max(load):.1f} (median {statistics.median(load):.1f}) on "
        f"{os.cpu_count()} cores"
    )
    print(ours[0]["runtime"])
    for stage, turn in zip(STAGES, TURNS, strict=True):
        our_wall, our_cpu = _rates(ours, stage)
        their_wall, their_cpu = _rates(theirs, stage)
        pairs = [a / b for a, b in zip(our_wall, their_wall, strict=True)]
        print(
            f"{stage:>5} (turn {turn:>2}): wall: ours {statistics.median(our_wall):,.0f}/s, "
            f"theirs {statistics.median(their_wall):,.0f}/s, ours/theirs "
            f"{statistics.median(our_wall) / statistics.median(their_wall):.2f} "
            f"(pairs {min(pairs):.2f}..{max(pairs):.2f}); CPU: ours "
            f"{statistics.median(our_cpu):,.0f}/s, theirs {statistics.median(their_cpu):,.0f}/s, "
            f"ours/theirs {statistics.median(our_cpu) / statistics.median(their_cpu):.2f}",
            flush=True,
        )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--ours"]:
        _child(sys.argv[2:])
    else:
        main(*sys.argv[1:])
