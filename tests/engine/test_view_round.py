"""The round a view names (the table's round track and badge): during a general scoring it is
the round the scoring follows, not the next one (issue 11: round 4 was shown during the scoring
after round 3)."""

from __future__ import annotations

import random

from engine.elgrande.game import Game, Options


def test_a_general_scoring_shows_the_round_it_follows() -> None:
    game = Game(Options(players=("purple", "green", "blue", "orange"), mode="dealer", seed=5))
    rng = random.Random(1)
    rounds_seen: list[tuple[str, int]] = []
    while True:
        view = game.view(None)
        rounds_seen.append((view["phase"], view["round"]))
        if view["phase"] == "scoring":
            break
        actor = game.current_players()[0]
        player = actor if actor >= 0 else None
        actions = game.legal_actions(player)
        game.apply(actions[rng.randrange(len(actions))], player)
    assert rounds_seen[-1] == ("scoring", 3)  # the scoring after round 3
    assert max(r for phase, r in rounds_seen if phase != "scoring") == 3
