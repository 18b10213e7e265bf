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
from engine.elgrande.frames import EscortFrame
from engine.elgrande.game import CHANCE, Game, Options
from engine.elgrande.record import from_record, to_record
from tests.engine.conftest import ALTERNATIVES_2023, play_random, players_for, record_text

ROUND_TRIP_EVERY = 25
# The set-up region card places the King; cards move him (Viceroy swaps him with a Grande).
KING_MOVES = ("kingcard", "king", "viceroy")


@dataclass(frozen=True)
class Config:
    edition: str
    players: int
    short_game: bool
    alternatives: tuple[str, ...] = ()
    merge_decks_2_3: bool = False
    new_regency: bool = False
    power_shift: bool = False

    def options(self, seed: int) -> Options:
        # Every third game lets the engine deal the chance steps itself.
        return Options(
            players=players_for(self.edition, self.players),
            edition=self.edition,
            mode="dealer" if seed % 3 == 2 else "table",
            seed=seed,
            short_game=self.short_game,
            alternatives=self.alternatives,
            merge_decks_2_3=self.merge_decks_2_3,
            new_regency=self.new_regency,
            power_shift=self.power_shift,
        )

    def __str__(self) -> str:
        parts = [self.edition, f"{self.players}p", "short" if self.short_game else "full"]
        flags = (
            (self.alternatives, "alt"),
            (self.merge_decks_2_3, "merged"),
            (self.new_regency, "regency"),
            (self.power_shift, "shift"),
        )
        parts += [name for on, name in flags if on]
        return "-".join(parts)


# The configurations the rules are written for: both editions, 4 and 5 players, normal and
# short game, with and without the 2023 alternative cards.
CONFIGS = [
    Config(edition, players, short, alts)
    for edition in ("2023", "1995")
    for players in (4, 5)
    for short in (False, True)
    for alts in ((), ALTERNATIVES_2023)
    if edition == "2023" or not alts
]
# The variants of the rulebook: 2 players with the dummy, 3 players (decks 2 and 3 merged or
# not), the New Regency King cards, Power Shift, and everything at once.
VARIANTS = [
    Config("2023", 2, False),
    Config("1995", 2, True),
    Config("2023", 3, False),
    Config("2023", 3, False, merge_decks_2_3=True),
    Config("2023", 4, False, new_regency=True),
    Config("2023", 5, True, new_regency=True),
    Config("2023", 4, False, power_shift=True),
    Config("2023", 5, False, ALTERNATIVES_2023, new_regency=True, power_shift=True),
]


@dataclass
class Before:
    """What one action may change, captured just before it."""

    king: int
    king_region: tuple[object, ...]
    castillo: list[int]
    scores: list[int]
    scorings: int
    escort: bool  # Escort: caballeros follow the King into his new region
    king_card: bool  # the turn's card moves the King (Revolt does it as the action starts)
    infiltrate: bool  # Infiltration: this turn the player may place into the King's region


@dataclass
class Checker:
    """Per-step conformance checks, hooked around every action of a random game."""

    total: int
    steps: int = 0
    last: Before | None = None
    scoring_kinds: list[str] = field(default_factory=list)

    def king_region(self, g: Game) -> tuple[object, ...]:
        """Everything in the King's region (the castillo, after Revolt; nothing in France or
        Portugal, after Exile)."""
        k = g.state.king
        if not 0 <= k <= g.state.CASTILLO:
            return ()
        grandes = tuple(p for p in range(g.state.n) if g.state.grandes[p] == k)
        tiles = tuple(sorted(t for t, area in g.state.tiles.items() if area == k))
        return (tuple(g.state.pieces[k]), grandes, tiles)

    def before(self, g: Game, player: int, action: Action) -> None:
        self.last = Before(
            king=g.state.king,
            king_region=self.king_region(g),
            castillo=list(g.state.pieces[g.state.CASTILLO]),
            scores=list(g.state.scores),
            scorings=len(g.state.scorings),
            escort=isinstance(g.state.frame, EscortFrame),
            king_card=g.state.turn is not None and moves_king(g, g.state.turn.card),
            infiltrate=g.state.turn is not None and getattr(g.state.turn, "infiltrate", False),
        )

    def after(self, g: Game, player: int, action: Action) -> None:
        before = self.last
        assert before is not None
        self.steps += 1
        self.check_counts(g)
        new_scorings = g.state.scorings[before.scorings :]
        general = any(s["kind"] == "general" for s in new_scorings)
        self.check_king_region(g, player, action, before, general)
        castillo = g.state.pieces[g.state.CASTILLO]
        if general and g.state.king != g.state.CASTILLO:
            assert castillo == [0] * g.state.n, (
                f"the castillo is not empty after a general scoring: {castillo}"
            )
        elif not general:
            left = [p for p in range(g.state.n) if castillo[p] < before.castillo[p]]
            assert not left, (
                f"{action} took caballeros out of the castillo: {before.castillo} -> {castillo}"
            )
        assert all(a >= b for a, b in zip(g.state.scores, before.scores, strict=True)), (
            f"{action} lowered a score: {before.scores} -> {g.state.scores}"
        )
        self.scoring_kinds.extend(s["kind"] for s in new_scorings)
        self.check_legal(g)
        if self.steps % ROUND_TRIP_EVERY == 0:
            check_round_trips(g)

    def check_king_region(
        self, g: Game, player: int, action: Action, before: Before, general: bool
    ) -> None:
        card_starts = before.king_card and action.kind in ("special", "allow")
        if action.kind in KING_MOVES or before.escort or card_starts:
            return  # the King moves (and an Escort follows him)
        assert g.state.king == before.king, f"the King moved by {action}"
        now = self.king_region(g)
        if general and g.state.king == g.state.CASTILLO:
            return  # Revolt: the castillo is scored and its pieces go back in
        if (
            before.infiltrate
            and action.kind == "place"
            and g.state.area(action.arg) == g.state.king
        ):
            pieces = list(before.king_region[0])  # type: ignore[call-overload]
            pieces[player] += 1
            expected = (tuple(pieces), *before.king_region[1:])
            assert now == expected, f"Infiltration placed wrongly: {before.king_region} -> {now}"
            return
        assert now == before.king_region, (
            f"{action} changed the King's region {g.state.tok[g.state.king]}: "
            f"{before.king_region} -> {now}"
        )

    def check_counts(self, g: Game) -> None:
        for p, colour in enumerate(g.state.colours):
            on_board = sum(g.state.pieces[a][p] for a in range(g.state.R + 1))
            total = on_board + g.state.court[p] + g.state.province[p]
            assert total == self.total, f"{colour} has {total} caballeros, not {self.total}"
            places = [g.state.pieces[a][p] for a in range(g.state.R + 1)] + [
                g.state.court[p],
                g.state.province[p],
            ]
            assert min(places) >= 0, f"{colour} has a negative count: {places}"

    def check_legal(self, g: Game) -> None:
        actors = g.current_players()
        if g.is_terminal():
            assert actors == (), f"a finished game still has actors {actors}"
            assert g.legal_actions() == []
            for p in range(g.state.n):
                assert g.legal_actions(p) == []
            return
        assert actors, "a running game has nobody to act"
        if actors == (CHANCE,):
            outcomes = g.chance_outcomes()
            assert outcomes, "a chance step without outcomes"
            assert math.isclose(sum(p for _, p in outcomes), 1.0), outcomes
            # Every outcome is legal; the table may also enter `remove <deck> ?` (set aside unseen).
            entries = [a for a in g.legal_actions(CHANCE) if a.arg2 != "?"]
            assert [a for a, _ in outcomes] == entries
        for p in actors:
            legal = g.legal_actions(p)
            assert legal, (
                f"{g.state.colours[p] if p >= 0 else 'chance'} acts but has no legal action"
            )
            assert len(set(legal)) == len(legal), f"duplicate legal actions: {legal}"
            for action in legal:
                assert g.parse(str(action)) == action, f"{action!r} does not parse back"
        for p in range(g.state.n):
            if p not in actors:
                assert g.legal_actions(p) == [], f"{g.state.colours[p]} may act out of turn"


def moves_king(g: Game, card_id: str) -> bool:
    card = g.state.data.cards.get(card_id)
    return card is not None and any(step.get("op") == "king" for step in card.effect)


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
    data_total = Game(config.options(seed)).state.data.caballeros_per_colour
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
        assert replayed.state.scores == game.state.scores
        assert replayed.state.scorings == game.state.scorings
        general = [s for s in game.state.scorings if s["kind"] == "general"]
        assert len(general) == len(game.state.data.scoring_after), (
            "not every general scoring happened"
        )
        assert len(game.state.score_history) == len(game.state.rounds)
        assert len(game.state.rounds) == (6 if config.short_game else game.state.data.rounds)
    return checker


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_random_games_conform(config: Config) -> None:
    for seed in range(4):
        play_checked(config, 1_000 + seed)


@pytest.mark.parametrize("config", VARIANTS, ids=str)
def test_random_variant_games_conform(config: Config) -> None:
    for seed in range(3):
        play_checked(config, 2_000 + seed)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS + VARIANTS, ids=str)
def test_many_random_games_conform(config: Config) -> None:
    kinds: set[str] = set()
    for seed in range(150):
        kinds.update(play_checked(config, 20_000 + seed).scoring_kinds)
    assert "general" in kinds
