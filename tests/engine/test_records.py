"""Game records: deterministic replay, partial replay, corrupted records, chance probabilities.

A record holds the options and every action, chance outcomes included, so replaying it never
draws a random number. A corrupted record raises RecordError naming the problem (and, for a bad
action, its index).
"""

from __future__ import annotations

import copy
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.elgrande.errors import RecordError
from engine.elgrande.game import CHANCE, Game, Options
from engine.elgrande.record import from_record, load_record, summary, to_record
from tests.engine.conftest import advance, play_random, players_for, table_game


@pytest.fixture(scope="module")
def finished() -> Game:
    return play_random(Options(seed=11), seed=11)


@pytest.fixture(scope="module")
def record(finished: Game) -> dict[str, Any]:
    return json.loads(json.dumps(to_record(finished)))


# ------------------------------------------------------------------ deterministic replay
@pytest.mark.parametrize(
    "options",
    [
        Options(seed=1),
        Options(seed=2, mode="dealer"),
        Options(players=players_for("1995", 5), edition="1995", seed=3, short_game=True),
        Options(players=players_for("2023", 5), seed=4, alternatives=("delegation", "veto")),
    ],
    ids=["2023-table", "2023-dealer", "1995-short", "2023-alternatives"],
)
def test_a_record_replays_deterministically(options: Options) -> None:
    game = play_random(options, seed=options.seed)
    text = json.dumps(to_record(game))
    first = from_record(json.loads(text))
    second = from_record(json.loads(text))
    assert first.snapshot() == second.snapshot() == game.snapshot()
    assert first.history == game.history
    assert json.dumps(to_record(first)) == text  # the record of the replay is the same record
    assert summary(first) == summary(game)
    assert summary(first)["finished"] is True


def test_a_record_names_every_actor_and_chance(record: dict[str, Any]) -> None:
    actors = {actor for actor, _ in record["actions"]}
    assert actors == {"chance", *record["players"]}
    assert record["format"] == "castillo-record" and record["version"] == 2
    assert record["game"] == "elgrande" and record["game_version"] == 2
    assert record["options"]["seed"] == 11


def test_partial_replay_stops_at_any_action(finished: Game, record: dict[str, Any]) -> None:
    for upto in (0, 1, 7, 50, 123, len(record["actions"]) - 1):
        partial = from_record(record, upto=upto)
        assert len(partial.history) == upto
        expected = Game.replay(finished.options, finished.history[:upto])
        assert partial.snapshot() == expected.snapshot()


def test_a_record_file_round_trip(tmp_path: Path, record: dict[str, Any]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert from_record(load_record(path)).snapshot() == from_record(record).snapshot()


# ------------------------------------------------------------------ corrupted records
def corrupted(record: dict[str, Any], **changes: Any) -> dict[str, Any]:
    bad = copy.deepcopy(record)
    bad.update(changes)
    return bad


def refused(record: Any, *words: str) -> str:
    with pytest.raises(RecordError) as info:
        from_record(record)
    message = str(info.value)
    for word in words:
        assert word.lower() in message.lower(), f"{word!r} not in {message!r}"
    return message


def test_an_illegal_action_names_its_index_and_why(record: dict[str, Any]) -> None:
    index = next(i for i, (actor, text) in enumerate(record["actions"]) if text.startswith("power"))
    actor = record["actions"][index][0]
    bad = copy.deepcopy(record)
    bad["actions"][index] = [actor, "power 14"]
    refused(bad, f"#{index}", "power 14", "no power card 14")
    bad["actions"][index] = [actor, "special"]
    refused(bad, f"#{index}", "special", "play a power card first")


def test_an_action_by_the_wrong_player(record: dict[str, Any]) -> None:
    index = next(i for i, (actor, text) in enumerate(record["actions"]) if text.startswith("power"))
    actor, text = record["actions"][index]
    other = next(c for c in record["players"] if c != actor)
    bad = copy.deepcopy(record)
    bad["actions"][index] = [other, text]
    refused(bad, f"#{index}", f"not {other}'s turn", actor)
    bad["actions"][index] = ["chance", text]
    refused(bad, f"#{index}", "not chance's turn")


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        (["pink", "power 9"], ("pink",)),
        (["purple", "fly Toledo"], ("unknown action",)),
        (["purple", "place Madrid"], ("Madrid", "not a region")),
        (["purple"], ()),
        ("purple power 9", ()),
        (["purple", "power 9", "extra"], ()),
    ],
)
def test_a_malformed_action_entry(record: dict[str, Any], entry: Any, words: tuple[str]) -> None:
    index = 40
    bad = copy.deepcopy(record)
    bad["actions"][index] = entry
    refused(bad, f"#{index}", "does not replay", *words)


def test_wrong_format_or_version(record: dict[str, Any]) -> None:
    refused(corrupted(record, format="something-else"), "not a game record", "castillo-record")
    refused({k: v for k, v in record.items() if k != "format"}, "not a game record")
    refused([record], "not a game record")
    refused(corrupted(record, version=3), "unsupported record version 3")
    refused(corrupted(record, version="1"), "version")


def test_bad_players_or_options(record: dict[str, Any]) -> None:
    refused(corrupted(record, players=["purple", "pink", "blue", "orange"]), "pink")
    refused(corrupted(record, players=["purple", "purple", "blue", "orange"]), "different colour")
    six = ["purple", "green", "blue", "orange", "red", "purple"]
    refused(corrupted(record, players=six), "2 to 5 players")
    three = ["purple", "green", "blue"]  # the options say 4 seats
    refused(corrupted(record, players=three), "not the players of its options")
    refused(corrupted(record, edition="2001"), "2001")
    options = dict(record["options"], alternatives=["no-such-card"])
    refused(corrupted(record, options=options), "no-such-card")
    refused(corrupted(record, options=dict(record["options"], mode="remote")), "mode", "remote")
    refused(corrupted(record, options=dict(record["options"], colour="pink")), "unknown option")


def test_structurally_broken_records(record: dict[str, Any]) -> None:
    refused(corrupted(record, actions="purple power 9"), "actions", "list")
    refused({k: v for k, v in record.items() if k != "players"}, "players")
    refused(corrupted(record, players="purple"), "players", "list")
    refused(corrupted(record, players=[1, 2, 3, 4]), "players", "list")
    refused(corrupted(record, options=5), "options", "object")


def test_record_files_that_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "castillo-record", ', encoding="utf-8")
    with pytest.raises(RecordError, match="is not JSON"):
        load_record(broken)
    array = tmp_path / "array.json"
    array.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(RecordError, match="JSON object"):
        load_record(array)


# ------------------------------------------------------------------ chance probabilities
def assert_distribution(outcomes: list[tuple[Any, float]]) -> None:
    assert outcomes
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    assert all(p > 0 for _, p in outcomes)
    assert len({a for a, _ in outcomes}) == len(outcomes)


def test_set_up_chance_is_uniform() -> None:
    game = Game(Options(players=players_for("2023", 5)))
    outcomes = game.chance_outcomes()
    assert_distribution(outcomes)
    assert {str(a) for a, _ in outcomes} == {f"first {c}" for c in players_for("2023", 5)}
    assert all(math.isclose(p, 1 / 5) for _, p in outcomes)
    game.apply("first green", CHANCE)
    outcomes = game.chance_outcomes()
    assert len(outcomes) == 9 and all(math.isclose(p, 1 / 9) for _, p in outcomes)
    game.apply("kingcard Toledo", CHANCE)
    for left in range(8, 3, -1):  # region cards already drawn are gone
        outcomes = game.chance_outcomes()
        assert_distribution(outcomes)
        assert len(outcomes) == left and all(math.isclose(p, 1 / left) for _, p in outcomes)
        assert "Toledo" not in {a.arg2 for a, _ in outcomes}
        game.apply(outcomes[0][0], CHANCE)


@pytest.mark.parametrize("edition", ["2023", "1995"])
def test_reveal_probabilities_follow_card_copies(edition: str) -> None:
    game = Game(Options(players=players_for(edition, 4), edition=edition))
    while game.state.phase != "reveal":
        game.apply(game.chance_outcomes()[0][0], CHANCE)
    data = game.state.data
    for deck in range(1, 5):
        outcomes = game.chance_outcomes()
        assert_distribution(outcomes)
        copies = {
            c.id: c.copies for c in data.cards.values() if c.deck == deck and not c.alternative
        }
        assert sum(copies.values()) == data.deck_size
        for action, p in outcomes:
            assert action.arg == str(deck)
            assert math.isclose(p, copies[action.arg2] / data.deck_size), action
        assert {a.arg2 for a, _ in outcomes} == set(copies)
        game.apply(outcomes[0][0], CHANCE)


def test_a_revealed_copy_leaves_the_deck() -> None:
    game = table_game(reveals=("conspiracy", "fair", "fiesta", "coup"))
    advance(game, lambda g: g.state.phase == "reveal")  # round 2, deck 1 is due
    odds = dict((a.arg2, p) for a, p in game.chance_outcomes())
    assert math.isclose(odds["conspiracy"], 1 / 9)  # 2 copies, one used
    assert math.isclose(odds["intrigue"], 2 / 9)
    assert math.isclose(odds["ambush"], 1 / 9)
    assert_distribution(game.chance_outcomes())


def test_the_dealer_draws_with_the_stated_probabilities() -> None:
    """2,000 dealer games: the first card of deck 1 comes up as often as its copies say."""
    draws: Counter[str] = Counter()
    runs = 2_000
    for seed in range(runs):
        game = Game(Options(mode="dealer", seed=seed))
        first_reveal = next(a for p, a in game.history if a.kind == "reveal")
        draws[first_reveal.arg2] += 1
    probe = Game(Options())
    while probe.state.phase != "reveal":
        probe.apply(probe.chance_outcomes()[0][0], CHANCE)
    for action, p in probe.chance_outcomes():
        sd = math.sqrt(p * (1 - p) / runs)
        assert abs(draws[action.arg2] / runs - p) < 5 * sd, (action.arg2, draws, p)


def test_alternative_cards_replace_a_random_card() -> None:
    """Rulebook: for each alternative card, a random card of its deck goes back in the box. So
    the deck keeps its size, Delegation tops deck 1 with 1/10, and a base card with c copies
    with c/10 · 9/10 (it may have been the one set aside)."""
    options = Options(alternatives=("delegation",))
    game = Game(options)
    game.apply("first purple", CHANCE)
    removal = game.chance_outcomes()
    assert_distribution(removal)
    assert all(a.kind == "remove" and a.arg == "1" for a, _ in removal)
    copies = {
        c.id: c.copies for c in game.state.data.cards.values() if c.deck == 1 and not c.alternative
    }
    for action, p in removal:
        assert math.isclose(p, copies[action.arg2] / 10), action
    odds: dict[str, float] = {}
    for action, p in removal:
        branch = Game.replay(options, [*game.history, (CHANCE, action)])
        while branch.state.phase != "reveal":
            branch.apply(branch.chance_outcomes()[0][0], CHANCE)
        assert len(branch.state.decks[1]) == game.state.data.deck_size
        for reveal, q in branch.chance_outcomes():
            odds[reveal.arg2] = odds.get(reveal.arg2, 0.0) + p * q
    assert math.isclose(sum(odds.values()), 1.0)
    assert math.isclose(odds["delegation"], 1 / 10)
    for card, c in copies.items():
        assert math.isclose(odds[card], c / 10 * 9 / 10), card
