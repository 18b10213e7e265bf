"""El Grande's computer player (engine/elgrande/search.py: determinized search) against
3 x OpenSpiel's MCTSBot (random rollouts, searching the true state: bench/_openspiel.py),
3 x the one-ply greedy player and 3 x random; 4 players, the 2023 edition, dealer mode, every
player given the same time a move. Targets (issue 24): >= 35 % wins against MCTSBot, >= 60 %
against greedy, >= 95 % against random.

Each line: wins of N with the Wilson 95 % interval, the median (and longest) seconds a
decision of the search and of its opponents, the search's iterations and rollout steps a
second, MCTSBot's simulations (each a random rollout to the end of the game) a second. A
decision with one legal action is answered at once by every player and counted as such.

    python -m bench players_elgrande                  # short (make bench): 2 games, 0.1 s
    python -m bench players_elgrande --full           # make bench-players: 40 games against
                                                      # MCTSBot, 100 against the others, 1 s
    python -m bench players_elgrande --games=10 --seconds=0.2 --only=mcts --progress

A full 4-player game with four 1 s players takes about 5 minutes (about 70 searched decisions
a seat), one against three instant players (greedy, random) about 70 s: the full run is about
40 x 5 min + 2 x 100 x 70 s = 7.5 hours on one core (`--jobs=N` plays N games at once, in
processes: timings are then shared by N; `--progress` prints a line a game).
"""

from __future__ import annotations

import functools
import os
import statistics
import time
from typing import Any

from bench._match import MatchResult, run_match
from bench._openspiel import MCTSPlayer
from engine.elgrande.game import Options
from engine.elgrande.search import GreedyPlayer, RandomPlayer, SearchPlayer

COLOURS = ("purple", "green", "blue", "orange")
TARGETS = {"mcts": 0.35, "greedy": 0.60, "random": 0.95}
FULL_GAMES = {"mcts": 40, "greedy": 100, "random": 100}
SHORT_GAMES = 2
FULL_SECONDS = 1.0
SHORT_SECONDS = 0.1


def options_for(i: int) -> Options:
    return Options(players=COLOURS, mode="dealer", seed=104_729 * i + 7)


class Counted:
    """A factory of one kind of player that keeps its players, to add up what they did."""

    def __init__(self, kind: str, seconds: float) -> None:
        self.kind = kind
        self.seconds = seconds
        self.players: list[Any] = []

    def __call__(self, seed: int) -> Any:
        player: Any
        if self.kind == "search":
            player = _CountingSearch(self.seconds, seed)
        elif self.kind == "mcts":
            player = _CountingMCTS(self.seconds, seed)
        elif self.kind == "greedy":
            player = GreedyPlayer(seed)
        else:
            player = RandomPlayer(seed)
        self.players.append(player)
        return player

    def rate(self) -> str:
        if not self.players:  # --jobs: the players were in the worker processes
            return ""
        if self.kind == "search":
            iterations = sum(p.total_iterations for p in self.players)
            steps = sum(p.total_steps for p in self.players)
            spent = sum(p.thinking for p in self.players) or 1e-9
            return (
                f"search {iterations / spent:.0f} iterations/s, {steps / spent:.0f} rollout steps/s"
            )
        if self.kind == "mcts":
            sims = sum(p.total_simulations for p in self.players)
            spent = sum(p.thinking for p in self.players) or 1e-9
            return f"MCTSBot {sims / spent:.0f} rollouts/s"
        return ""


class _CountingSearch(SearchPlayer):
    def __init__(self, seconds: float, seed: int) -> None:
        super().__init__(seconds, seed)
        self.total_iterations = 0
        self.total_steps = 0
        self.thinking = 0.0

    def choose(self, state: Any, seat: int) -> Any:
        started = time.perf_counter()
        self.last_iterations = self.last_rollout_steps = 0
        action = super().choose(state, seat)
        if self.last_iterations:
            self.thinking += time.perf_counter() - started
            self.total_iterations += self.last_iterations
            self.total_steps += self.last_rollout_steps
        return action


class _CountingMCTS(MCTSPlayer):
    def __init__(self, seconds: float, seed: int) -> None:
        super().__init__("elgrande", options_for(0), seconds=seconds, seed=seed)
        self.total_simulations = 0
        self.thinking = 0.0

    def choose(self, state: Any, seat: int) -> Any:
        started = time.perf_counter()
        self.last_simulations = 0
        action = super().choose(state, seat)
        if self.last_simulations:
            self.thinking += time.perf_counter() - started
            self.total_simulations += self.last_simulations
        return action


def _flags(flags: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for flag in flags:
        name, _, value = flag.lstrip("-").partition("=")
        out[name] = value
    return out


def _longest(match: MatchResult) -> tuple[float, float]:
    hero = [s for g in match.games for s in g.hero_seconds]
    thought = [s for s in hero if s > 0.001]
    return (max(hero) if hero else 0.0, statistics.median(thought) if thought else 0.0)


def main(*flags: str) -> None:
    given = _flags(flags)
    full = "full" in given
    seconds = float(given.get("seconds") or (FULL_SECONDS if full else SHORT_SECONDS))
    jobs = int(given.get("jobs") or 1)
    only = given.get("only", "")
    load = os.getloadavg()[0]
    print(
        f"El Grande players, 4 players, 2023 edition: {seconds:g} s a move for everyone; "
        f"load {load:.1f} (2 cores shared with other work)",
        flush=True,
    )
    for name in ("random", "greedy", "mcts"):
        if only and only != name:
            continue
        games = int(given.get("games") or (FULL_GAMES[name] if full else SHORT_GAMES))
        hero = Counted("search", seconds)
        opponent = Counted(name, seconds)
        started = time.perf_counter()
        hero_factory: Any = hero if jobs <= 1 else functools.partial(_CountingSearch, seconds)
        opponent_factory: Any = opponent if jobs <= 1 else functools.partial(_make, name, seconds)
        match = run_match(
            "elgrande",
            options_for,
            ("search", hero_factory),
            (name, opponent_factory),
            4,
            games,
            jobs=jobs,
            progress=_progress if "progress" in given else None,
        )
        spent = time.perf_counter() - started
        rate = match.wins / len(match.games)
        verdict = "met" if rate >= TARGETS[name] else "NOT met"
        longest, thinking = _longest(match)
        rates = "; ".join(r for r in (hero.rate(), opponent.rate()) if r)
        print(
            f"{match.line()}; target {TARGETS[name]:.0%} {verdict}; search: median "
            f"{thinking:.3f} s a searched decision, longest {longest:.3f} s; {rates}; "
            f"{spent:.0f} s ({spent / len(match.games):.0f} s a game)",
            flush=True,
        )
    print(f"load at the end {os.getloadavg()[0]:.1f}", flush=True)


def _progress(i: int, result: Any) -> None:
    """--progress: one line a game (a long run shows how it goes)."""
    print(
        f"  game {i}: search at seat {result.hero_seat}, share {result.hero_share:g}, "
        f"scores {result.scores}",
        flush=True,
    )


def _make(kind: str, seconds: float, seed: int) -> Any:
    return Counted(kind, seconds)(seed)


if __name__ == "__main__":
    import sys

    main(*sys.argv[1:])
