"""Kingdomino's computer players (issue 24): the turn search (engine/kingdomino/search.py)
against 3 x MCE_PG_R (bench/_kingdomino_mce.py: the best agent of Gedda, Lagerkvist and Butler,
IEEE CIG 2018, from the paper's description) and against 3 x greedy (the placement scoring most
now, the claim whose best placement scores most: engine.kingdomino.bots.GreedyBot), 4 players,
dealer mode, the same time a turn for everyone. Targets: >= 35 % wins against MCE_PG_R, >= 60 %
against greedy (a win shared by a tie counts as its share).

Each line: wins of N with the Wilson 95 % interval, the median seconds a decision (a turn is a
placement and a claim: both players plan the claim with the placement, so the claim step
costs nothing), the playouts a second of the search and of MCE_PG_R in those games. Then the
playouts a second of each playout policy at fixed positions (move 2, 6, 10 of a seeded game),
for comparison with MCE_PG_R's figures per move in the authors' logs.

    python -m bench players_kingdomino                 # short: 4 games a match (make bench)
    python -m bench players_kingdomino --full          # 200 games a match (make bench-players)
    python -m bench players_kingdomino --games=20 --seconds=1 --only=mce --jobs=2
    python -m bench players_kingdomino --games=16 --offset=16 --only=greedy --verbose

MCE_PG_R's playouts a second in the authors' own logs (Java, one 3.20 GHz core, 2017; 200
games at 1 s a move, medians): move 2: 59/s, move 6: 396/s, move 10: 3,577/s, move 13: 31,750/s
(experiments/runs/kdom_exp-20170410-131854-rev-13d6a7c-cpu-3.20GHz in github.com/mgedda/kdom-ai).
"""

from __future__ import annotations

import functools
import os
import random
import time
from typing import Any

from bench._kingdomino_mce import MceBot
from bench._match import run_match
from engine.core.actions import Action
from engine.core.protocol import GameState
from engine.kingdomino.bots import GreedyBot
from engine.kingdomino.game import Game
from engine.kingdomino.legal import move_action
from engine.kingdomino.options import Options
from engine.kingdomino.playout import GREEDY, LOOKAHEAD, RANDOM, Sim
from engine.kingdomino.rounds import play
from engine.kingdomino.search import SearchBot
from engine.kingdomino.state import State
from engine.kingdomino.steps import CLAIM, PLACE

SHORT_GAMES = 4
FULL_GAMES = 200
SECONDS = 1.0  # a turn, for everyone
TARGETS = {"mce_pg_r": 0.35, "greedy": 0.60}


class Seat:
    """A bot of this bench as the platform's computer player (`choose(state, seat)`), adding
    up its playouts and thinking time."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.thinking = 0.0
        self.playouts = 0
        self.turns: list[float] = []  # seconds of each whole turn (placement and claim)

    def choose(self, state: GameState, seat: int) -> Action:
        assert isinstance(state, Game) and state.current_players() == (seat,)
        started = time.perf_counter()
        move = self.bot.choose_move(state)
        spent = time.perf_counter() - started
        self.thinking += spent
        self.playouts += getattr(self.bot, "last_playouts", 0)
        if state.state.step == CLAIM and state.state.line and self.turns:
            self.turns[-1] += spent  # the claim of a turn whose placement came first
        else:
            self.turns.append(spent)
        return move_action(state.state, move)


def options_for(offset: int, i: int) -> Options:
    """Game i's options: dealt from its own seed (`offset` starts another series of games)."""
    return Options(mode="dealer", seed=104_729 * (offset + i) + 11)


def make_search(seconds: float, seed: int) -> Seat:
    return Seat(SearchBot(seconds, seed))


def make_mce(seconds: float, seed: int) -> Seat:
    return Seat(MceBot(seconds, seed))


class Counted:
    """A factory that keeps the seats it made (one process: `jobs` 1), to add up their
    playouts and thinking time."""

    def __init__(self, make: Any) -> None:
        self.make = make
        self.seats: list[Seat] = []

    def __call__(self, seed: int) -> Seat:
        seat: Seat = self.make(seed)
        self.seats.append(seat)
        return seat

    def rate(self) -> str:
        """Playouts a second and seconds a turn (mean, max) of the seats made."""
        playouts = sum(seat.playouts for seat in self.seats)
        spent = sum(seat.thinking for seat in self.seats)
        turns = [t for seat in self.seats for t in seat.turns]
        per_turn = f"{sum(turns) / len(turns):.3f} s a turn (max {max(turns):.3f})" if turns else ""
        if not spent or not playouts:
            return per_turn
        return f"{playouts / spent:,.0f} playouts/s, {per_turn}"


def make_greedy(seed: int) -> Seat:
    return Seat(GreedyBot(seed))


def _flags(flags: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for flag in flags:
        name, _, value = flag.lstrip("-").partition("=")
        out[name] = value
    return out


def playout_rates(seconds: float = 1.0) -> list[str]:
    """Playouts a second of each policy from fixed positions (one process, this load)."""
    lines = []
    game = Game(Options(mode="dealer", seed=1)).state
    rng = random.Random(1)
    positions: dict[int, State] = {}
    turn = 0  # seat 0's turns so far
    while not game.is_terminal():
        begins = game.step == PLACE or (game.step == CLAIM and not game.line)
        if begins and game.current_players() == (0,):
            turn += 1
            if turn in (2, 6, 10):
                positions[turn] = game.copy(random.Random(0))
        moves = game.moves()
        play(game, moves[rng.randrange(len(moves))])
    for name, own in (("random", RANDOM), ("player-greedy", GREEDY), ("MCE_PG_R", LOOKAHEAD)):
        rates = []
        for turn, position in sorted(positions.items()):
            policies = [RANDOM] * 4
            policies[0] = own
            root = Sim(position, 1)
            started, done = time.perf_counter(), 0
            while time.perf_counter() - started < seconds:
                sim = root.copy(done + 1)
                sim.play_out(policies)
                sim.margin(0)
                done += 1
            rates.append(f"turn {turn}: {done / (time.perf_counter() - started):,.0f}/s")
        lines.append(f"playouts ({name} for the seat, random others): " + ", ".join(rates))
    return lines


def main(*flags: str) -> None:
    given = _flags(flags)
    games = FULL_GAMES if "full" in given else SHORT_GAMES
    games = int(given.get("games") or games)
    seconds = float(given.get("seconds") or SECONDS)
    jobs = int(given.get("jobs") or 1)
    only = given.get("only", "")
    offset = int(given.get("offset") or 0)
    print(
        f"Kingdomino players, 4 players: {games} games a match, {seconds:g} s a turn for "
        f"everyone, {jobs} process(es); load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    for line in playout_rates():
        print(line, flush=True)
    for name in ("mce_pg_r", "greedy"):
        if only and not name.startswith(only):
            continue
        hero = Counted(functools.partial(make_search, seconds))
        other = Counted(functools.partial(make_mce, seconds) if name == "mce_pg_r" else make_greedy)
        started = time.perf_counter()
        match = run_match(
            "kingdomino",
            functools.partial(options_for, offset),
            ("search", hero if jobs <= 1 else functools.partial(make_search, seconds)),
            (name, other if jobs <= 1 else other.make),
            4,
            games,
            jobs=jobs,
            progress=lambda i, g: (
                print(f"  game {i + 1}: {g.hero_share:g} {g.scores}", flush=True)
                if "verbose" in given
                else None
            ),
        )
        rate = match.wins / len(match.games)
        verdict = "met" if rate >= TARGETS[name] else "NOT met"
        rates = f"; search {hero.rate()}, {name} {other.rate()}" if jobs <= 1 else ""
        print(
            f"{match.line()}; target {TARGETS[name]:.0%} {verdict}; "
            f"{time.perf_counter() - started:.0f} s{rates}",
            flush=True,
        )
    print(f"load at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    import sys

    main(*sys.argv[1:])
