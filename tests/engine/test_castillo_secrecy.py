"""The castillo's secret (issue 11, docs/castillo-secrecy.md): with the castillo closed, the
public view after a turn does not let the castillo's per-colour contents be worked out, and with
the table's `open_castillo` option it shows them.

The proof is by indistinguishability, over many random states: the state is changed into a
second one with other per-colour contents (one caballero of colour A out of the castillo into
A's province, one of colour B from B's province into the castillo; the board, the courts, the
total and everything else unchanged). If the public view is the same for both, the view cannot
tell which contents are true. The swapped caballero is never one the current turn threw: those
the table has just heard, and the view shows them.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections import Counter

import pytest

from engine.elgrande.game import CHANCE, Game, Options
from engine.elgrande.views import castillo_step, heard_throws, turn_start
from tests.engine.conftest import ALTERNATIVES_2023, players_for, random_step

CHECK_EVERY = 3
CASES = [
    Options(players=players_for("2023", 4), seed=11),
    Options(players=players_for("2023", 5), seed=12, alternatives=ALTERNATIVES_2023),
    Options(players=players_for("1995", 3), edition="1995", seed=13),
    Options(players=players_for("2023", 4), seed=14, mode="dealer", power_shift=True),
    Options(players=players_for("2023", 2), seed=15),
]


def swapped(game: Game) -> Game | None:
    """The same state with one caballero swapped between the castillo and the provinces of two
    colours (None when no such swap keeps what the turn's throws told the table)."""
    castillo = game.state.pieces[game.state.CASTILLO]
    heard: Counter[int] = Counter()
    for throw in heard_throws(game.state):
        heard[throw.colour] += throw.count
    out_of = [p for p in range(game.state.n) if castillo[p] > heard[p]]
    into = [p for p in range(game.state.n) if game.state.province[p] > 0]
    pairs = [(a, b) for a in out_of for b in into if a != b]
    if not pairs:
        return None
    a, b = pairs[0]
    other = copy.deepcopy(game, memo={id(game.state.data): game.state.data})
    other.state.pieces[other.state.CASTILLO][a] -= 1
    other.state.province[a] += 1
    other.state.pieces[other.state.CASTILLO][b] += 1
    other.state.province[b] -= 1
    other.state.touched()
    return other


def view_text(game: Game, viewer: int | None) -> str:
    return json.dumps(game.view(viewer), sort_keys=True, ensure_ascii=False)


def check_closed(game: Game) -> bool:
    """The log and the throws hold only the current turn's castillo steps; a swapped state
    looks the same to the public and to every seat whose province did not change."""
    public = game.view(None)
    assert "province" not in public and "contents" not in public["castillo"]
    assert len(public["throws"]) == len(heard_throws(game.state))
    start = turn_start(game.state)
    in_turn = sum(castillo_step(a) for _, a in game.history[start:])
    logged = sum(
        text in ("place castillo", "to castillo") or text.startswith("castillo-fix ")
        for _, text in public["log"]
    )
    assert logged == in_turn, "castillo steps of earlier turns in the public log"
    other = swapped(game)
    if other is None:
        return False
    changed = {p for p in range(game.state.n) if other.state.province[p] != game.state.province[p]}
    for viewer in [None, *[p for p in range(game.state.n) if p not in changed]]:
        assert view_text(game, viewer) == view_text(other, viewer), f"viewer {viewer}"
    return True


def check_open(game: Game) -> bool:
    public = game.view(None)
    castillo = game.state.pieces[game.state.CASTILLO]
    contents = {game.state.colours[p]: n for p, n in enumerate(castillo) if n}
    assert public["castillo"]["contents"] == contents
    assert public["throws"] == game.snapshot()["throws"]  # the whole history
    other = swapped(game)
    if other is None:
        return False
    assert view_text(game, None) != view_text(other, None)
    return True


def play(options: Options, check: object) -> int:
    """A random game, checked every few steps; how many states had a swap to check."""
    assert callable(check)
    game = Game(options)
    rng = random.Random(options.seed)
    checked = step = 0
    while not game.is_terminal():
        for player, action in random_step(game, rng):
            game.apply(action, player)
            step += 1
            if game.current_players() != (CHANCE,) and step % CHECK_EVERY == 0:
                checked += bool(check(game))
    return checked


@pytest.mark.parametrize("options", CASES, ids=lambda o: f"{o.edition}-{len(o.players)}p-{o.seed}")
def test_the_public_view_after_the_turn_hides_the_castillo(options: Options) -> None:
    assert play(options, check_closed) >= 30  # states whose contents the view leaves open


@pytest.mark.parametrize("options", CASES[:2], ids=lambda o: f"{o.edition}-{len(o.players)}p")
def test_with_the_open_castillo_option_the_view_shows_it(options: Options) -> None:
    opened = dataclasses.replace(options, open_castillo=True)
    assert play(opened, check_open) >= 30


def test_the_throws_of_the_turn_are_heard_then_gone() -> None:
    from tests.engine.builders import play_powers, table_game

    game = table_game()
    play_powers(game, {"purple": 9, "green": 1, "blue": 2, "orange": 3})
    game.apply("take 2")
    game.apply(game.legal_actions()[0])
    game.apply("place castillo")
    heard = game.view(None)
    assert [(t["by"], t["colour"], t["count"]) for t in heard["throws"]] == [
        ("purple", "purple", 1)
    ]
    assert ["purple", "place castillo"] in heard["log"]
    while game.state.turn is not None and game.state.colours[game.state.turn.player] == "purple":
        moves = [str(a) for a in game.legal_actions()]
        game.apply(
            next(m for m in ("skip", "done") if m in moves)
            if {"skip", "done"} & set(moves)
            else moves[0]
        )
    later = game.view(None)
    assert later["throws"] == [] and ["purple", "place castillo"] not in later["log"]
    assert later["castillo"]["total"] == 1  # the total stays public: every throw was counted
