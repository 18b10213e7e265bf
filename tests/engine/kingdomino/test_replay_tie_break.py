"""`castillo replay` of a Kingdomino record names the winner by the rulebook's tie-breaks (the
largest territory, then the most crowns), not a shared first place on equal scores."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import registry
from engine.core import record as core_record
from engine.core.protocol import GameState
from host.cli import main


def _random_two_player_game(seed: int) -> GameState:
    spec = registry.get("kingdomino")
    state = spec.new_state(spec.selfplay_options(2, seed))
    rng = random.Random(seed)
    while not state.is_terminal():
        player = state.current_players()[0]
        actions = state.legal_actions(player)
        state.apply(actions[rng.randrange(len(actions))], player)
    return state


@pytest.mark.parametrize(("seed", "decided_by"), [(8, "largest_territory"), (2, "crowns")])
def test_equal_scores_are_decided_by_the_tie_breaks(
    seed: int, decided_by: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = _random_two_player_game(seed)
    scores = state.returns()
    assert scores[0] == scores[1]  # a tie on points: the tie-break decides
    path = tmp_path / "game.json"
    path.write_text(json.dumps(core_record.to_record(registry.get("kingdomino"), state)))
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["decided_by"] == decided_by and len(out["winners"]) == 1
    (winner,) = out["winners"]
    loser = next(name for name in out["scores"] if name != winner)
    assert out["standings"] == {winner: 1, loser: 2}
    assert main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    assert f"1. {winner}" in text and decided_by.replace("_", " ") in text
