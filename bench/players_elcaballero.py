"""El Caballero's computer players: the Monte Carlo player (engine/elcaballero/bots.py) against
3 x random and 3 x one-ply greedy (2 x with 3 players), 3 and 4 players, base and extended
game (the SYNTHETIC cards, dealt by the engine), with the greedy player against random for
scale. Targets (issue 24): >= 95 % wins against random, >= 65 % against greedy.

Each line: wins of N with the Wilson 95 % interval, the median seconds a decision (a turn is
many steps: the player plans it at its first step, so its later steps cost nothing), and the
Monte Carlo player's rollouts a second. The budget is a number of rollouts a decision (the
same on any machine and under any load) unless `--seconds` gives a time a turn.

    python -m bench players_elcaballero                  # short: 2 games a match (make bench)
    python -m bench players_elcaballero --full           # 200 games a match (make bench-players)
    python -m bench players_elcaballero --games=20 --playouts=60 --only=greedy --first=20
    (--only: random, greedy or scale (greedy against random); --first: the first deal played,
    so that runs can be split; --players=4, --edition=extended: one player count, one edition)
"""

from __future__ import annotations

import functools
import os
import time

from bench._match import run_match
from engine.elcaballero.bots import GreedyPlayer, MonteCarloPlayer, Player, RandomPlayer
from engine.elcaballero.options import Options

COLOURS = ("red", "blue", "green", "yellow")
SHORT_GAMES = 2
FULL_GAMES = 200
PLAYOUTS = 48  # rollouts a decision (a turn's plan, or a power card)
TARGETS = {"random": 0.95, "greedy": 0.65}


def options_for(players: int, extended: bool, first: int, i: int) -> Options:
    return Options(
        players=COLOURS[:players],
        mode="dealer",
        seed=7919 * (first + i) + 17,
        catalogue="synthetic",
        extended=extended,
    )


def make_random(seed: int) -> Player:
    return RandomPlayer(seed)


def make_greedy(seed: int) -> Player:
    return GreedyPlayer(seed)


def make_monte_carlo(seconds: float | None, playouts: int, seed: int) -> MonteCarloPlayer:
    return MonteCarloPlayer(seconds=seconds, seed=seed, playouts=0 if seconds else playouts)


class Counted:
    """The Monte Carlo players of a match, kept to add up their rollouts and thinking time."""

    def __init__(self, seconds: float | None, playouts: int) -> None:
        self.seconds = seconds
        self.playouts = playouts
        self.players: list[MonteCarloPlayer] = []

    def __call__(self, seed: int) -> Player:
        player = make_monte_carlo(self.seconds, self.playouts, seed)
        self.players.append(player)
        return player

    def rate(self) -> str:
        rollouts = sum(p.playouts for p in self.players)
        spent = sum(p.thinking for p in self.players)
        per_second = rollouts / spent if spent else 0.0
        return f"{rollouts} rollouts in {spent:.1f} s thinking = {per_second:.0f}/s"


def _flags(flags: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for flag in flags:
        name, _, value = flag.lstrip("-").partition("=")
        out[name] = value
    return out


def main(*flags: str) -> None:
    given = _flags(flags)
    games = FULL_GAMES if "full" in given else SHORT_GAMES
    games = int(given.get("games") or games)
    playouts = int(given.get("playouts") or PLAYOUTS)
    seconds = float(given["seconds"]) if given.get("seconds") else None
    only = given.get("only", "")
    first = int(given.get("first") or 0)  # the deals of games first, first + 1, ...
    budget = f"{seconds:g} s a turn" if seconds else f"{playouts} rollouts a decision"
    load = os.getloadavg()[0]
    print(f"El Caballero players: {games} games a match, Monte Carlo at {budget}; load {load:.1f}")
    counts = (int(given["players"]),) if given.get("players") else (3, 4)
    for players in counts:
        for extended in (False, True):
            edition = "extended" if extended else "base"
            if given.get("edition", edition) != edition:
                continue
            opts = functools.partial(options_for, players, extended, first)
            if not only or only == "scale":
                started = time.perf_counter()
                scale = run_match(
                    "elcaballero",
                    opts,
                    ("greedy", make_greedy),
                    ("random", make_random),
                    players,
                    games,
                )
                _report(players, edition, scale.line(), time.perf_counter() - started, "")
            for name, factory in (("random", make_random), ("greedy", make_greedy)):
                if only and only != name:
                    continue
                hero = Counted(seconds, playouts)
                started = time.perf_counter()
                match = run_match(
                    "elcaballero", opts, ("monte-carlo", hero), (name, factory), players, games
                )
                rate = match.wins / len(match.games)
                verdict = "met" if rate >= TARGETS[name] else "NOT met"
                rounds = 10 if extended else 7
                thought = sum(sum(g.hero_seconds) for g in match.games)
                a_round = thought / (rounds * len(match.games))
                target = (
                    f"target {TARGETS[name]:.0%} {verdict}; {a_round:.2f} s a round (power card "
                    f"and turn); {hero.rate()}"
                )
                _report(players, edition, match.line(), time.perf_counter() - started, target)
    print(f"load at the end {os.getloadavg()[0]:.1f} (2 cores shared with other work)")


def _report(players: int, edition: str, line: str, spent: float, extra: str) -> None:
    opponents = players - 1
    line = line.replace(" vs 3 x ", f" vs {opponents} x ")
    tail = f"; {extra}" if extra else ""
    print(f"{players}p {edition}: {line}; {spent:.0f} s{tail}", flush=True)


if __name__ == "__main__":
    import sys

    main(*sys.argv[1:])
