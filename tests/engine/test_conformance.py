"""OpenSpiel-style conformance: random games checked at every single step.

Random play is uniform over the legal actions; a chance step is drawn with the probabilities
`chance_outcomes()` gives; in a simultaneous disc step every acting player picks a disc. Each
configuration (edition, 4 or 5 players, normal or short game, with or without the 2023
alternative cards) plays a few games with fixed seeds; `-m slow` plays many more.

Checked after every action:

- caballeros per colour are conserved (regions + castillo + court + province) and never negative;
- the King's region never changes (caballeros, Grandes, scoring tile) except by a `king` move,
  and the King himself moves only by a `king` action;
- nothing leaves the castillo except at a general scoring, which empties it;
- scores never go down;
- while the game runs every acting player has legal actions (chance: outcomes summing to 1),
  nobody else has any; a finished game has neither;
- every legal action's text parses back to the same action.

Every 25 actions and at the end: the full snapshot survives a JSON round trip, and the record
(JSON) replays to an equal snapshot. At the end the replay gives the same scores and scorings.
A failure names the seed and prints the record.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from engine.elgrande.actions import Action
from engine.elgrande.game import CHANCE, Game, Options
from engine.elgrande.record import from_record, to_record
from tests.engine.conftest import ALTERNATIVES_2023, play_random, players_for, record_text

ROUND_TRIP_EVERY = 25
KING_MOVES = ("kingcard", "king")  # the set-up region card places him; cards move him


@dataclass(frozen=True)
class Config:
    edition: str
    players: int
    short_game: bool
    alternatives: tuple[str, ...]

    def options(self, seed: int) -> Options:
        # Every third game lets the engine deal the chance steps itself.
        return Options(
            players=players_for(self.edition, self.players),
            edition=self.edition,
            mode="dealer" if seed % 3 == 2 else "table",
            seed=seed,
            short_game=self.short_game,
            alternatives=self.alternatives,
        )

    def __str__(self) -> str:
        length = "short" if self.short_game else "full"
        alts = "+alt" if self.alternatives else ""
        return f"{self.edition}-{self.players}p-{length}{alts}"


CONFIGS = [
    Config(edition, players, short, alts)
    for edition in ("2023", "1995")
    for players in (4, 5)
    for short in (False, True)
    for alts in ((), ALTERNATIVES_2023)
    if edition == "2023" or not alts
]


@dataclass
class Before:
    """What one action may change, captured just before it."""

    king: int
    king_region: tuple[object, ...]
    castillo: list[int]
    scores: list[int]
    scorings: int


@dataclass
class Checker:
    """Per-step conformance checks, hooked around every action of a random game."""

    total: int
    steps: int = 0
    last: Before | None = None
    scoring_kinds: list[str] = field(default_factory=list)

    def king_region(self, g: Game) -> tuple[object, ...]:
        k = g.king
        if not 0 <= k < g.R:
            return ()
        grandes = tuple(p for p in range(g.n) if g.grandes[p] == k)
        tiles = tuple(sorted(t for t, area in g.tiles.items() if area == k))
        return (tuple(g.pieces[k]), grandes, tiles)

    def before(self, g: Game, player: int, action: Action) -> None:
        self.last = Before(
            king=g.king,
            king_region=self.king_region(g),
            castillo=list(g.pieces[g.CASTILLO]),
            scores=list(g.scores),
            scorings=len(g.scorings),
        )

    def after(self, g: Game, player: int, action: Action) -> None:
        before = self.last
        assert before is not None
        self.steps += 1
        self.check_counts(g)
        if action.kind not in KING_MOVES:
            assert g.king == before.king, f"the King moved by {action}"
            assert self.king_region(g) == before.king_region, (
                f"{action} changed the King's region {g.tok[g.king]}: "
                f"{before.king_region} -> {self.king_region(g)}"
            )
        new_scorings = g.scorings[before.scorings :]
        general = any(s["kind"] == "general" for s in new_scorings)
        castillo = g.pieces[g.CASTILLO]
        if general:
            assert castillo == [0] * g.n, (
                f"the castillo is not empty after a general scoring: {castillo}"
            )
        else:
            left = [p for p in range(g.n) if castillo[p] < before.castillo[p]]
            assert not left, (
                f"{action} took caballeros out of the castillo: {before.castillo} -> {castillo}"
            )
        assert all(a >= b for a, b in zip(g.scores, before.scores, strict=True)), (
            f"{action} lowered a score: {before.scores} -> {g.scores}"
        )
        self.scoring_kinds.extend(s["kind"] for s in new_scorings)
        self.check_legal(g)
        if self.steps % ROUND_TRIP_EVERY == 0:
            check_round_trips(g)

    def check_counts(self, g: Game) -> None:
        for p, colour in enumerate(g.colours):
            on_board = sum(g.pieces[a][p] for a in range(g.R + 1))
            total = on_board + g.court[p] + g.province[p]
            assert total == self.total, f"{colour} has {total} caballeros, not {self.total}"
            places = [g.pieces[a][p] for a in range(g.R + 1)] + [g.court[p], g.province[p]]
            assert min(places) >= 0, f"{colour} has a negative count: {places}"

    def check_legal(self, g: Game) -> None:
        actors = g.current_players()
        if g.is_terminal():
            assert actors == (), f"a finished game still has actors {actors}"
            assert g.legal_actions() == []
            for p in range(g.n):
                assert g.legal_actions(p) == []
            return
        assert actors, "a running game has nobody to act"
        if actors == (CHANCE,):
            outcomes = g.chance_outcomes()
            assert outcomes, "a chance step without outcomes"
            assert math.isclose(sum(p for _, p in outcomes), 1.0), outcomes
            assert [a for a, _ in outcomes] == g.legal_actions(CHANCE)
        for p in actors:
            legal = g.legal_actions(p)
            assert legal, f"{g.colours[p] if p >= 0 else 'chance'} acts but has no legal action"
            assert len(set(legal)) == len(legal), f"duplicate legal actions: {legal}"
            for action in legal:
                assert g.parse(str(action)) == action, f"{action!r} does not parse back"
        for p in range(g.n):
            if p not in actors:
                assert g.legal_actions(p) == [], f"{g.colours[p]} may act out of turn"


def check_round_trips(g: Game) -> None:
    snapshot = g.snapshot()
    assert json.loads(json.dumps(snapshot)) == snapshot, "the snapshot is not plain JSON"
    record = json.loads(json.dumps(to_record(g)))
    assert from_record(record).snapshot() == snapshot, "the record does not replay to the state"


@contextlib.contextmanager
def reported(config: Config, seed: int, holder: list[Game]) -> Iterator[None]:
    """On failure, name the configuration and seed and print the record so far."""
    try:
        yield
    except Exception as exc:
        record = record_text(holder[0]) if holder else "(no game)"
        raise AssertionError(f"{config} seed={seed}: {exc}\nrecord: {record}") from exc


def play_checked(config: Config, seed: int) -> Checker:
    data_total = Game(config.options(seed)).data.caballeros_per_colour
    checker = Checker(total=data_total)
    holder: list[Game] = []

    def before(g: Game, player: int, action: Action) -> None:
        if not holder:
            holder.append(g)
            checker.check_legal(g)  # the first state, before any action
        checker.before(g, player, action)

    with reported(config, seed, holder):
        game = play_random(config.options(seed), seed, before=before, after=checker.after)
        holder[:] = [game]
        assert game.is_terminal()
        check_round_trips(game)
        replayed = from_record(json.loads(json.dumps(to_record(game))))
        assert replayed.is_terminal()
        assert replayed.scores == game.scores
        assert replayed.scorings == game.scorings
        general = [s for s in game.scorings if s["kind"] == "general"]
        assert len(general) == len(game.data.scoring_after), "not every general scoring happened"
        expected_rounds = len(game.data.short_game_rounds if config.short_game else range(9))
        assert len(game.score_history) == expected_rounds
    return checker


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_random_games_conform(config: Config) -> None:
    for seed in range(4):
        play_checked(config, 1_000 + seed)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_many_random_games_conform(config: Config) -> None:
    kinds: set[str] = set()
    for seed in range(150):
        kinds.update(play_checked(config, 20_000 + seed).scoring_kinds)
    assert "general" in kinds
