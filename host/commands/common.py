"""What the game commands share: refusing with a message, reading users' files, a progress bar,
counts in words."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from engine.core import userfiles
from engine.core.spec import GameSpec

# One game of `castillo selfplay`, dealt from a seed (None: unpredictable): each seat's score
# by name, and its record. ValueError (or another EngineError) if the rules refuse the options.
OneGame = Callable[[int | None], tuple[dict[str, int], dict[str, Any]]]


def fail(message: str) -> int:
    """Refuse on stderr; exit code 2 (bad input)."""
    print(f"castillo: {message}", file=sys.stderr)
    return 2


def read_stdin(limit: int) -> str:
    """Standard input as text, refused (UnreadableFile) past `limit` bytes: `castillo score -`
    fed from /dev/zero stops after `limit` + 1 bytes instead of filling the memory."""
    binary = getattr(sys.stdin, "buffer", None)  # None: a text stream put in its place
    data = binary.read(limit + 1) if binary is not None else sys.stdin.read(limit + 1)
    if len(data) > limit:
        raise userfiles.UnreadableFile(f"stdin is larger than {limit >> 20} MiB")
    return data if isinstance(data, str) else userfiles.decode(data, "stdin")


def check_overrides(paths: Iterable[Path | str]) -> None:
    """Each `--override` data file passes the rules for users' files (a regular file, at most
    1 MiB, TOML nested at most 32 levels) before a game's data loader reads it; the loaders of
    El Grande's and Kingdomino's overrides are the engine's own. UnreadableFile otherwise."""
    for path in paths:
        userfiles.load_toml(path)


def counts_text(spec: GameSpec) -> str:
    """The game's player counts in words: "2, 3 or 4"."""
    counts = [str(n) for n in spec.player_counts]
    return ", ".join(counts[:-1]) + " or " + counts[-1] if len(counts) > 1 else counts[0]


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


def play_games(args: argparse.Namespace, play_one: OneGame) -> dict[str, Any]:
    """`args.games` games (game i dealt from `args.seed` + i), each record written to
    `args.record`: the time taken and who won (shared wins count for each)."""
    if args.record:
        args.record.mkdir(parents=True, exist_ok=True)
    progress = Progress(args.games)
    wins: dict[str, int] = {}
    started = time.perf_counter()
    try:
        for index in range(args.games):
            seed = None if args.seed is None else args.seed + index
            scores, record = play_one(seed)
            best = max(scores.values())
            for name, score in scores.items():
                wins[name] = wins.get(name, 0) + (score == best)
            if args.record:
                path = args.record / f"game-{index if seed is None else seed:06d}.json"
                path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
            progress.update(index + 1)
    finally:
        progress.close()
    elapsed = time.perf_counter() - started
    return {
        "seconds": round(elapsed, 3),
        "games_per_second": round(args.games / elapsed, 1),
        "wins_or_shared": wins,
    }


def print_played(args: argparse.Namespace, result: dict[str, Any]) -> int:
    if args.json:
        print(json.dumps(result))
    else:
        speed = result["games_per_second"]
        print(f"{args.games} games in {result['seconds']:.2f} s: {speed} games/s")
    return 0
