"""The legal-action listing takes shortcuts for speed (cached cells, totals and Action objects,
no refusal built per candidate): at every step of random games it must offer exactly what the
rule checks accept."""

from __future__ import annotations

import random

from engine.elcaballero import checks
from engine.elcaballero.extended import knightgrande_check
from engine.elcaballero.game import Game
from engine.elcaballero.notation import spot_name
from engine.elcaballero.options import Options
from engine.elcaballero.refusals import Refusal


def checked_placements(game: Game, player: int) -> tuple[set[str], set[str]]:
    """Every knight and knightgrande action the checks accept, tried one by one."""
    knights: set[str] = set()
    grandes: set[str] = set()
    court = game.state.court[player]
    for key in sorted(game.state.board.frontier):
        for side in range(4):
            for number in range(1, 9):
                text = f"{spot_name(key, side)} {number}"
                try:
                    _, _, cost = checks.knight_check(game.state, player, key, side, number)
                    if cost <= court and (game.state.board.land_sides(key) or side == 0):
                        knights.add("knight " + text)
                except Refusal:
                    pass
                if not game.options.extended:
                    continue
                try:
                    _, _, cost, _ = knightgrande_check(game.state, player, key, side, number)
                    if cost <= court:
                        grandes.add("knightgrande " + text)
                except Refusal:
                    pass
    return knights, grandes


def test_the_placements_listed_are_exactly_those_the_checks_accept() -> None:
    steps = 0
    grande_offers = 0
    for seed, extended in ((1, False), (2, True), (3, True)):
        options = Options(mode="dealer", seed=seed, catalogue="synthetic", extended=extended)
        game = Game(options)
        rng = random.Random(seed)
        while not game.is_terminal():
            player = game.current_players()[0]
            legal = game.legal_actions(player)
            if game.state.phase == "turn" and rng.random() < 0.3:
                listed = {str(a) for a in legal if a.kind in ("knight", "knightgrande")}
                knights, grandes = checked_placements(game, player)
                assert listed == knights | grandes, (seed, game.history[-1])
                steps += 1
                grande_offers += len(grandes)
            game.apply(rng.choice(legal), player)
    assert steps > 100 and grande_offers > 0
