"""What the game commands share: refusing with a message, a progress bar, counts in words."""

from __future__ import annotations

import sys

from engine.core.spec import GameSpec


def fail(message: str) -> int:
    """Refuse on stderr; exit code 2 (bad input)."""
    print(f"castillo: {message}", file=sys.stderr)
    return 2


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
