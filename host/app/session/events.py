"""What an engine change did, and the session's reactions to it."""

from __future__ import annotations

from host.app.session.model import ActiveGame


def after_engine(active: ActiveGame, at: float) -> None:
    game, adapter = active.game, active.adapter
    if adapter.tower:
        active.checks.sync_game(adapter.tower_facts(game), at)
    for player, action in game.history[active.history :]:
        active.note("action", active.name_of(player), adapter.public_text(action, game))
    active.history = len(game.history)
    reveals = adapter.reveals(game)
    for reveal in reveals[min(active.reveals, len(reveals)) :]:
        discs = {str(k): str(v) for k, v in reveal["discs"].items()}
        active.note("reveal", "table", str(reveal["card"]), discs=discs)
    active.reveals = len(reveals)
    scorings = adapter.scorings(game)
    active.sweep = ()
    if len(scorings) > active.scorings:
        active.sweep = adapter.sweep(game, scorings[-1])
        scoring = scorings[-1]
        # a scoring's line is of the round it scores (the game may be in the next already)
        when = {"round": scoring["round"]} if "round" in scoring else {}
        active.note("scoring", "table", adapter.scoring_label(scoring), **when)
    active.scorings = len(scorings)
