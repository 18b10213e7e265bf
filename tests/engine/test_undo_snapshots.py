"""El Grande's undo restores a snapshot taken at the undo point and applies the few steps after
it again (issue 24: "undo by a stack of snapshots at the undo points instead of a replay"): it
gives exactly the state a replay of the history gives, and never replays the whole history."""

from __future__ import annotations

import random

import pytest

from engine.elgrande.game import Game, Options
from engine.elgrande.spec import SPEC


def _play_with_undos(seed: int, keep_undo: bool) -> list[dict[str, object]]:
    """A random dealer game with an undo tried after every step; the snapshot after each undo."""
    game = SPEC.new_state(Options(mode="dealer", seed=seed, power_shift=seed % 2 == 0))
    assert isinstance(game, Game)
    game.keep_undo = keep_undo
    rng = random.Random(seed)
    after_undos: list[dict[str, object]] = []
    while not game.is_terminal() and len(game.history) < 400:
        player = game.current_players()[0]
        if player >= 0 and game.can_undo(player) and rng.random() < 0.3:
            game.undo(player)
            after_undos.append(game.snapshot())
            continue
        game.apply(rng.choice(game.legal_actions(player)), player)
    return after_undos


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_undo_from_a_snapshot_equals_undo_by_replay(seed: int) -> None:
    by_snapshot = _play_with_undos(seed, keep_undo=True)
    by_replay = _play_with_undos(seed, keep_undo=False)
    assert len(by_snapshot) >= 10
    assert by_snapshot == by_replay


def test_a_played_games_undo_never_replays_the_history(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_replay(*_args: object, **_kwargs: object) -> Game:
        raise AssertionError("undo replayed the whole history")

    game = SPEC.new_state(Options(mode="dealer", seed=5))
    assert isinstance(game, Game)
    rng = random.Random(5)
    undone = 0
    monkeypatch.setattr(Game, "replay", no_replay)
    while not game.is_terminal() and undone < 40:
        player = game.current_players()[0]
        if player >= 0 and game.can_undo(player):
            before = game.snapshot()
            action = game.history[-1][1]
            game.undo(player)
            game.apply(action, player)
            assert game.snapshot() == before  # undone and done again: the same state
            undone += 1
        game.apply(rng.choice(game.legal_actions(player)), player)
    assert undone == 40
