"""El Caballero on the game platform: its spec for the registry, records, the conformance suite
and `castillo score --game elcaballero`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core.protocol import GameState
from engine.core.spec import TableOrDealerSpec
from engine.elcaballero import position
from engine.elcaballero.catalogue import Catalogue
from engine.elcaballero.game import Game
from engine.elcaballero.options import OPTION_KINDS, Options, options_from_json
from engine.elcaballero.verbs import VERBS

__all__ = ["SPEC", "ElCaballeroSpec"]

COLOURS = ("red", "blue", "green", "yellow")


class ElCaballeroSpec(TableOrDealerSpec):
    id = "elcaballero"
    title = "El Caballero"
    version = 1
    aliases = ("el-caballero",)
    player_counts = (2, 3, 4)
    verbs = VERBS
    options_type = Options
    option_kinds = OPTION_KINDS

    def options_from_json(self, raw: Mapping[str, Any]) -> Options:
        return options_from_json(dict(raw))

    def new_state(self, options: Any, data: Any = None) -> Game:
        return Game(options, _catalogue(data))

    def score_position(
        self, raw: Mapping[str, Any], overrides: Sequence[Path | str] = ()
    ) -> dict[str, Any]:
        return position.score_position(raw, overrides)

    def test_options(self, players: int) -> list[Options]:
        colours = COLOURS[:players]
        return [
            Options(players=colours, mode="dealer", seed=players, catalogue="synthetic"),
            Options(
                players=colours,
                mode="dealer",
                seed=10 + players,
                catalogue="synthetic",
                automatic_reinforcements=True,
                second_area_optional=True,
                court_capacity=False,
                remove_on_same_island=False,
                two_player_tie="nothing",
            ),
        ]

    def check_invariants(self, state: GameState) -> None:
        assert isinstance(state, Game)
        check_invariants(state)


def _catalogue(data: Any) -> Catalogue | None:
    if data is None or isinstance(data, Catalogue):
        return data
    raise TypeError("El Caballero's data is a card catalogue")


def check_invariants(g: Game) -> None:
    """Cards, ships and castillos are all somewhere, once; nothing negative; regions sane."""
    size = g.size
    board = g.board
    for p in range(g.n):
        on_map = sum(1 for c in board.caballeros.values() if c.owner == p)
        assert on_map + g.stack[p] == size.caballero_cards, f"seat {p} has lost a card"
        assert g.court[p] >= 0 and g.court_ships[p] >= 0
        if g.options.court_capacity:
            assert g.court[p] <= g.rules.court_per_card * g.stack[p]
    ships_on_map = sum(bin(c.ships).count("1") for c in board.caballeros.values())
    assert ships_on_map + sum(g.court_ships) + g.ship_supply == size.ships
    castillos = sum(1 for c in board.caballeros.values() if c.castillo)
    assert castillos + g.castillo_supply == size.castillos
    for card in board.caballeros.values():
        assert board.touches_area(card.key)
        if board.land_sides(card.key) > 1:
            assert not g.options.remove_on_same_island and not g._lands_differ(card.key)
        for side in range(4):
            if card.ships >> side & 1:
                assert board.facing(card.key, side)[0] == 1, "a ship faces no sea"
    assert sum(len(board.root_cells[r]) for r in board.roots()) >= len(board.areas)
    assert len(g.market) <= size.market
    if g.catalogue is not None:
        assert len(g.pile) == g.pile_left
    assert all(s >= 0 for s in g.scores)


SPEC = ElCaballeroSpec()
