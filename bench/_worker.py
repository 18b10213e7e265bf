"""A benchmark's worker process: one engine per process, so that engines built from different
sources (plain, compiled, an older checkout) can be measured side by side, run by run.

The worker is a script run with the engine's root as its last argument and that root as its
working directory. Its first line says what it loaded; then it answers each request (one line
on its stdin) with one line on its stdout.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


class Worker:
    """`script [flags...] root` in its own process (`name` labels its figures)."""

    def __init__(self, name: str, script: Path, root: Path, *flags: str) -> None:
        self.name = name
        self.process = subprocess.Popen(
            [sys.executable, str(script), *flags, str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=str(root),
        )
        assert self.process.stdout is not None
        self.loaded = self.process.stdout.readline().strip()

    def send(self, request: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(request + "\n")
        self.process.stdin.flush()

    def answer(self) -> list[str]:
        assert self.process.stdout is not None
        return self.process.stdout.readline().split()

    def ask(self, request: str) -> list[str]:
        self.send(request)
        return self.answer()

    def rate(self, request: str) -> float:
        """Games per second, from an answer "GAMES ELAPSED"."""
        games, elapsed = self.ask(request)
        return int(games) / float(elapsed)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)
