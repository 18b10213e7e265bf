"""El Grande's computer players (engine.elgrande.search, engine.elgrande.determinize).

- **Legal, everywhere**: every player answers a legal action for the seat asked, in both
  editions, 2-5 players, every variant of the conformance options, dealer and table mode, at
  secret-disc steps (several seats at once) too.
- **Secrecy**: what a seat may not know never changes what the player decides. Two states that
  differ only in another seat's unrevealed disc, the castillo's per-colour contents (closed), the
  dealer's seed (the order of the cards to come) or which card was set aside unseen give the
  same determinization template, the same samples and the same decision (same seed). The
  templates hold no secret: their hidden fields are built from the view.
- **Time**: a search given a budget keeps to it (a ratio of the budget, under shared load).
- **Strength smoke test**: with a fixed seed and a fixed number of iterations, the search beats
  three random players.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections import Counter
from pathlib import Path

import pytest

from engine.core.protocol import CHANCE
from engine.core.spec import SeatNotActing
from engine.elgrande.determinize import Belief
from engine.elgrande.frames import DiscFrame
from engine.elgrande.game import Game, Options
from engine.elgrande.search import (
    GreedyPlayer,
    RandomPlayer,
    SearchPlayer,
    player_for_level,
    projected_scores,
)
from engine.elgrande.spec import SPEC
from tests.engine.conftest import ALTERNATIVES_2023, players_for


def _advance(game: Game, rng: random.Random, steps: int) -> None:
    """Random legal steps (chance by its probabilities in table mode)."""
    for _ in range(steps):
        if game.is_terminal():
            return
        actors = game.current_players()
        if actors == (CHANCE,):
            outcomes = game.chance_outcomes()
            game.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0], CHANCE)
            continue
        seat = actors[0]
        legal = game.legal_actions(seat)
        game.apply(legal[rng.randrange(len(legal))], seat)


def _snapshot(game: Game) -> str:
    return json.dumps(game.snapshot(), sort_keys=True, ensure_ascii=False, default=str)


def _template(belief: Belief) -> str:
    """Everything of a belief's template the search may read: the full snapshot (secrets
    included), the history, the pending secret step's choices and options, and the fields
    the snapshot leaves out."""
    g = belief.template
    frame = g.state.frame
    extra = {
        "throw_key": list(g.state.throw_key),
        "throws": [(t.round, t.by, t.colour, t.count) for t in g.state.throws],
        "dealer_seed": g.state.dealer_seed,
        "unseen": g.state.unseen_set_aside,
        "history": [[p, str(a)] for p, a in g.history],
        "chosen": sorted(getattr(frame, "chosen", {}).items()),
        "options": sorted(
            (p, [str(a) for a in acts]) for p, acts in getattr(frame, "options", {}).items()
        )
        if isinstance(getattr(frame, "options", None), dict)
        else None,
    }
    return _snapshot(g) + json.dumps(extra, sort_keys=True, default=str)


CONFIGS = [
    *(opt for n in (2, 3, 4, 5) for opt in SPEC.test_options(n)),
    Options(players=players_for("2023", 4), mode="table", alternatives=ALTERNATIVES_2023),
    Options(players=players_for("2023", 3), mode="dealer", seed=5, open_castillo=True),
    Options(players=players_for("2023", 4), mode="dealer", seed=6, open_power_cards=True),
]


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: f"{len(o.players)}p-{o.seed}-{o.mode}")
def test_players_choose_legal_actions_everywhere(options: Options) -> None:
    """Through a random game, at every eighth decision (every secret-disc step too), each player
    answers a legal action of the seat asked; every sampled copy plays on to its end."""
    game = SPEC.new_state(options) if options.mode == "dealer" else SPEC.replay_start(options)
    rng = random.Random(7)
    players = [RandomPlayer(1), GreedyPlayer(2), SearchPlayer(None, seed=3, iterations=12)]
    decision = 0
    discs = 0
    while not game.is_terminal():
        actors = game.current_players()
        if actors == (CHANCE,):
            _advance(game, rng, 1)
            continue
        decision += 1
        secret = isinstance(game.state.frame, DiscFrame)
        if secret or decision % 8 == 0:
            discs += secret
            before = _snapshot(game)
            for seat in actors:
                for player in players:
                    action = player.choose(game, seat)
                    assert game.is_legal(seat, action), (str(action), seat)
            assert _snapshot(game) == before  # the real game is never touched
            if decision % 40 == 0:
                sample = Belief(game, actors[-1]).sample(rng)
                _advance(sample, rng, 10_000)
                assert sample.is_terminal()
        _advance(game, rng, 1)
    assert decision > 50


def _to_disc_step(options: Options, seed: int) -> Game:
    """A dealer game at a secret-disc step where at least three seats still choose."""
    rng = random.Random(seed)
    game = SPEC.new_state(options)
    while not game.is_terminal():
        if isinstance(game.state.frame, DiscFrame) and len(game.current_players()) >= 3:
            return game
        _advance(game, rng, 1)
    raise AssertionError("no disc step")


def test_another_seats_unrevealed_disc_changes_nothing() -> None:
    """Seat A has set its disc (X in one state, Y in the other); seat B's player gets the same
    template, the same samples and the same decision either way."""
    game = _to_disc_step(Options(players=players_for("2023", 4), mode="dealer", seed=41), 41)
    a, b = game.current_players()[:2]
    legal = game.legal_actions(a)
    first, second = game.clone(), game.clone()
    first.apply(legal[0], a)
    second.apply(legal[-1], a)
    assert first.state.frame is not None and second.state.frame is not None
    assert _snapshot(first) != _snapshot(second)  # the true states differ
    assert first.view(b) == second.view(b)
    one, two = Belief(first, b), Belief(second, b)
    assert _template(one) == _template(two)
    assert _snapshot(one.sample(random.Random(3))) == _snapshot(two.sample(random.Random(3)))
    decide = [SearchPlayer(None, seed=9, iterations=60).choose(s, b) for s in (first, second)]
    assert decide[0] == decide[1]
    # the seat's own disc is its own knowledge: kept in its template
    assert one.template.state.frame is not None
    own = Belief(first, a).template.state.frame
    assert isinstance(own, DiscFrame) and a in own.chosen


def _castillo_swap(game: Game, me: int) -> Game | None:
    """`game` with one caballero of colour A moved from the castillo to A's province and one of
    colour B from B's province into it (A, B not `me`, never a caballero heard this turn)."""
    castillo = game.state.pieces[game.state.CASTILLO]
    heard: Counter[int] = Counter()
    first = game.state.turn.first_throw if game.state.turn is not None else len(game.state.throws)
    for throw in game.state.throws[first:]:
        heard[throw.colour] += throw.count
    out_of = [p for p in range(game.state.n) if p != me and castillo[p] > heard[p]]
    into = [p for p in range(game.state.n) if p != me and game.state.province[p] > 0]
    pairs = [(x, y) for x in out_of for y in into if x != y]
    if not pairs:
        return None
    x, y = pairs[0]
    other = game.clone()
    other.state.dealer_seed = game.state.dealer_seed
    other.state.pieces[other.state.CASTILLO][x] -= 1
    other.state.province[x] += 1
    other.state.pieces[other.state.CASTILLO][y] += 1
    other.state.province[y] -= 1
    other.state.touched()
    return other


def test_castillo_contents_change_nothing() -> None:
    """With the castillo closed, two states whose castillo differs per colour (the total, the
    board, the courts and the seat's own province the same) give the seat's player the same
    samples and decisions; with it open they differ (the player then uses what is public)."""
    rng = random.Random(5)
    checked = 0
    for seed in range(40, 60):
        game = SPEC.new_state(Options(players=players_for("2023", 4), mode="dealer", seed=seed))
        _advance(game, rng, rng.randrange(60, 200))
        actors = game.current_players()
        if game.is_terminal() or actors == (CHANCE,):
            continue
        me = actors[0]
        other = _castillo_swap(game, me)
        if other is None:
            continue
        assert game.view(me) == other.view(me)
        one, two = Belief(game, me), Belief(other, me)
        assert _template(one) == _template(two)
        assert _snapshot(one.sample(random.Random(1))) == _snapshot(two.sample(random.Random(1)))
        a = SearchPlayer(None, seed=2, iterations=40).choose(game, me)
        b = SearchPlayer(None, seed=2, iterations=40).choose(other, me)
        assert a == b
        checked += 1
    assert checked >= 5
    # open castillo: the contents are public, and the template keeps them
    game = SPEC.new_state(
        Options(players=players_for("2023", 4), mode="dealer", seed=3, open_castillo=True)
    )
    _advance(game, random.Random(2), 150)
    me = game.current_players()[0]
    template = Belief(game, me).template
    assert template.state.pieces[template.state.CASTILLO] == game.state.pieces[game.state.CASTILLO]


def test_cards_to_come_change_nothing() -> None:
    """The dealer's seed (the order of the cards to come) and which card was set aside unseen
    for an alternative card never reach the player."""
    options = Options(players=players_for("2023", 4), mode="table", alternatives=ALTERNATIVES_2023)
    games = [SPEC.replay_start(options), SPEC.replay_start(options)]
    rng = random.Random(4)
    removed = 0
    while games[0].state.phase != "power":
        actors = games[0].current_players()
        assert actors == (CHANCE,)
        outcomes = [a for a, _ in games[0].chance_outcomes()]
        common = [a for a in outcomes if games[1].is_legal(CHANCE, a)]
        if games[0].state.phase == "setup_remove":
            # the two games set aside two different cards of the deck
            games[0].apply(common[0], CHANCE)
            games[1].apply(common[-1], CHANCE)
            removed += common[0] != common[-1]
            continue
        action = common[rng.randrange(len(common))]
        for g in games:
            g.apply(action, CHANCE)
    assert removed >= 3
    for g in games:
        g.state.dealer_seed = 12345 if g is games[0] else 67890
    seat = games[0].current_players()[0]
    assert games[0].view(seat) == games[1].view(seat)
    one, two = Belief(games[0], seat), Belief(games[1], seat)
    assert _template(one) == _template(two)
    assert _snapshot(one.sample(random.Random(8))) == _snapshot(two.sample(random.Random(8)))
    decide = [SearchPlayer(None, seed=1, iterations=40).choose(g, seat) for g in games]
    assert decide[0] == decide[1]


def test_set_aside_candidates_are_the_public_ones() -> None:
    """The template's decks hold exactly the cards still in each deck plus those set aside (the
    public candidates), and a sample sets the right number aside, never an alternative card."""
    options = Options(
        players=players_for("2023", 4), mode="dealer", seed=8, alternatives=ALTERNATIVES_2023
    )
    game = SPEC.new_state(options)
    rng = random.Random(8)
    for _ in range(6):
        _advance(game, rng, 40)
        actors = game.current_players()
        if game.is_terminal() or actors == (CHANCE,):
            continue
        belief = Belief(game, actors[0])
        set_aside: dict[int, list[str]] = {}
        for _, action in game.history:
            if action.kind == "remove":
                deck = int(action.arg)
                deck = 2 if deck == 3 and 3 not in game.state.slots else deck
                set_aside.setdefault(deck, []).append(action.arg2)
        for deck, cards in set_aside.items():
            assert sorted(belief.template.state.decks[deck]) == sorted(
                game.state.decks[deck] + cards
            )
            sample = belief.sample(rng)
            assert len(sample.state.decks[deck]) == len(game.state.decks[deck])
            assert set(options.alternatives) & set(game.state.decks[deck]) <= set(
                sample.state.decks[deck]
            )


def test_projected_scores_have_no_side_effects() -> None:
    game = SPEC.new_state(Options(players=players_for("2023", 4), mode="dealer", seed=2))
    _advance(game, random.Random(2), 120)
    before = _snapshot(game)
    projected = projected_scores(game.state)
    assert _snapshot(game) == before
    assert all(p >= s for p, s in zip(projected, game.state.scores, strict=True))
    assert sum(projected) > sum(game.state.scores)  # the board is worth something


def test_time_budget_is_kept() -> None:
    """A search with a budget ends within it (a ratio: at most 1.5x the budget plus the cost of
    reading the seat's view, measured side by side under the shared load)."""
    game = SPEC.new_state(Options(players=players_for("2023", 4), mode="dealer", seed=3))
    _advance(game, random.Random(3), 60)
    while len(game.legal_actions(game.current_players()[0])) < 2:
        _advance(game, random.Random(3), 1)
    seat = game.current_players()[0]
    started = time.perf_counter()
    Belief(game, seat)
    overhead = time.perf_counter() - started
    budget = 0.3
    player = SearchPlayer(budget, seed=1)
    started = time.perf_counter()
    player.choose(game, seat)
    spent = time.perf_counter() - started
    assert player.last_iterations > 0
    assert spent <= 1.5 * budget + 2 * overhead + 0.05, (spent, overhead)


def test_search_beats_random() -> None:
    """Fixed seeds and 40 iterations a decision: the search wins 3 of 3 four-player games
    against three random players (seated first, second and third)."""
    from bench._match import play_game

    wins = 0
    for i in range(3):
        options = Options(players=players_for("2023", 4), mode="dealer", seed=300 + i)
        seats = [RandomPlayer(10 * i + s) for s in range(4)]
        search = SearchPlayer(None, seed=i, iterations=40)
        result = play_game(SPEC, options, [*seats[:i], search, *seats[i + 1 :]], i, seed=i)
        wins += result.hero_share == 1.0
    assert wins == 3


def test_spec_offers_computer_players() -> None:
    assert SPEC.computer_levels == (1, 2, 3, 4, 5)
    assert SPEC.computer_default in SPEC.computer_levels
    assert SPEC.hint_level in SPEC.computer_levels
    assert isinstance(SPEC.computer(1), RandomPlayer)
    assert isinstance(SPEC.computer(2), GreedyPlayer)
    assert [SPEC.computer(level).seconds for level in (3, 4, 5)] == [0.25, 1.0, 2.0]  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="levels are 1 to 5"):
        player_for_level(6)
    for bad in (0, -1, 601, True, float("nan")):
        with pytest.raises(ValueError, match="time budget"):
            SPEC.computer_timed(bad)
    assert isinstance(SPEC.computer_timed(0.5), SearchPlayer)
    game = SPEC.new_state(Options(players=players_for("2023", 3), mode="dealer", seed=1))
    copy = SPEC.computer_copy(game)
    assert copy is not game and _snapshot(copy) == _snapshot(game)
    other = (game.current_players()[0] + 1) % 3
    with pytest.raises(SeatNotActing):
        SPEC.computer(4).choose(game, other)


def test_a_sample_is_dealt_from_the_rng() -> None:
    """Two samples of one belief with other generators deal other cards; the real game's
    seed is never the sample's."""
    game = SPEC.new_state(Options(players=players_for("2023", 4), mode="dealer", seed=9))
    _advance(game, random.Random(9), 30)
    belief = Belief(game, game.current_players()[0])
    one = belief.sample(random.Random(1))
    two = belief.sample(random.Random(2))
    assert one.state.dealer_seed != two.state.dealer_seed
    assert game.state.dealer_seed not in (one.state.dealer_seed, two.state.dealer_seed)
    assert dataclasses.replace(one.options, seed=None) == dataclasses.replace(
        two.options, seed=None
    )


@pytest.mark.parametrize("strength", [["--level", "2"], ["--seconds", "0.05"]])
def test_castillo_move_prints_a_legal_el_grande_action(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], strength: list[str]
) -> None:
    """`castillo move --game elgrande` for an outside harness: at a secret-disc step (several
    seats at once) the seat named gets one of its own discs."""
    from engine.core.record import to_record
    from host.cli import main

    game = _to_disc_step(Options(players=players_for("2023", 4), mode="dealer", seed=43), 43)
    seat = game.current_players()[1]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(to_record(SPEC, game)), encoding="utf-8")
    colour = game.seat_names()[seat]
    assert main(["move", "--game", "elgrande", "--seat", colour, *strength, str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith("disc ")
    assert game.is_legal(seat, out.strip())
