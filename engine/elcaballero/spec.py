"""El Caballero on the game platform: its spec for the registry, records, the conformance suite
and `castillo score --game elcaballero`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core.actions import Action
from engine.core.protocol import GameState
from engine.core.spec import RANDOM_AND_GREEDY, ComputerPlayer, TableOrDealerSpec, require_acting
from engine.elcaballero import position
from engine.elcaballero.bots import (
    LEVEL_SECONDS,
    LEVELS,
    MonteCarloPlayer,
    Player,
    player_for_level,
)
from engine.elcaballero.catalogue import Catalogue, from_entries
from engine.elcaballero.checks import court_cap, lands_differ
from engine.elcaballero.extended import GRANDE_NONE
from engine.elcaballero.game import Game
from engine.elcaballero.options import OPTION_KINDS, OPTION_SECTIONS, Options, options_from_json
from engine.elcaballero.preview import preview as preview_placement
from engine.elcaballero.state import State
from engine.elcaballero.verbs import VERBS

__all__ = ["SPEC", "ElCaballeroSpec"]

COLOURS = ("red", "blue", "green", "yellow")
MAX_SECONDS = 600.0  # the longest time budget a turn may be given


class ElCaballeroSpec(TableOrDealerSpec):
    id = "elcaballero"
    title = "El Caballero"
    version = 1
    aliases = ("el-caballero",)
    player_counts = (2, 3, 4)
    verbs = VERBS
    options_type = Options
    option_kinds = OPTION_KINDS
    option_sections = OPTION_SECTIONS
    # 1 random, 2 greedy, 3-5 determinized Monte Carlo with 1, 3 and 8 seconds a turn
    computer_levels = LEVELS
    computer_default = 3
    computer_seconds = LEVEL_SECONDS
    computer_kinds = RANDOM_AND_GREEDY
    hint_level = 3

    def computer(self, level: int) -> ComputerPlayer:
        return _Computer(player_for_level(level))

    def computer_timed(self, seconds: float) -> ComputerPlayer:
        """Determinized Monte Carlo with a budget of about `seconds` a turn (a turn is many
        steps: the first plans it, the others follow the plan)."""
        if not (isinstance(seconds, (int, float)) and 0 < seconds <= MAX_SECONDS):
            raise ValueError(f"the time budget is more than 0 and at most {MAX_SECONDS:g} seconds")
        return _Computer(MonteCarloPlayer(float(seconds)))

    def computer_copy(self, state: GameState) -> GameState:
        """The copy a computer thinks on: a clone dealing from its own unpredictable seed."""
        assert isinstance(state, Game)
        return state.clone()

    def options_from_json(self, raw: Mapping[str, Any]) -> Options:
        return options_from_json(dict(raw))

    def new_state(self, options: Any, data: Any = None) -> Game:
        """A new game: dealt from `data` (a Catalogue) if given, else from the catalogue the
        options name (a file's cards are kept in them: a record replays without the file)."""
        catalogue = _catalogue(data)
        if catalogue is None and options.catalogue_cards:
            catalogue = options_catalogue(options)
        return Game(options, catalogue)

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
                last_card_empties_court=False,
            ),
            Options(
                players=colours,
                mode="dealer",
                seed=20 + players,
                catalogue="synthetic",
                extended=True,
            ),
            Options(
                players=colours,
                mode="dealer",
                seed=30 + players,
                catalogue="synthetic",
                extended=True,
                lake_ship="none",
                grande_ships_as_removal=False,
                grande_pays_its_price=False,
                grande_no_tie_everywhere=False,
                withdraw_grande_card=False,
                remove_on_same_island=False,
            ),
        ]

    def check_invariants(self, state: GameState) -> None:
        assert isinstance(state, Game)
        check_invariants(state.state)

    # the events' public facts (engine.core.events)
    def scorings(self, state: GameState) -> Sequence[Mapping[str, Any]]:
        assert isinstance(state, Game)
        return state.state.scorings

    def phase(self, state: GameState) -> str | None:
        assert isinstance(state, Game)
        return state.state.phase

    def preview(self, state: GameState, seat: int, action: str) -> dict[str, Any]:
        """An area card's placement tried on copies of the game (engine.elcaballero.preview)."""
        assert isinstance(state, Game)
        return preview_placement(state, seat, action)


class _Computer:
    """A player of engine.elcaballero.bots as the platform's computer player."""

    def __init__(self, player: Player) -> None:
        self.player = player

    def choose(self, state: GameState, seat: int) -> Action:
        """The player's step for `seat`, thought on private copies of `state` (determinized:
        never the real game's future cards); `state` is unchanged."""
        assert isinstance(state, Game)
        require_acting(state, seat)
        return self.player.choose(state, seat)


def options_catalogue(options: Options) -> Catalogue:
    """The catalogue file's set kept in the options (checked by `Options.check`)."""
    return from_entries(options.catalogue_label or options.catalogue, options.catalogue_cards)


def _catalogue(data: Any) -> Catalogue | None:
    if data is None or isinstance(data, Catalogue):
        return data
    raise TypeError("El Caballero's data is a card catalogue")


def check_invariants(g: State) -> None:
    """Cards, ships and castillos are all somewhere, once; nothing negative; regions sane."""
    size = g.size
    board = g.board
    for p in range(g.n):
        on_map = sum(1 for c in board.caballeros.values() if c.owner == p)
        assert on_map + g.stack[p] == size.caballero_cards, f"seat {p} has lost a card"
        assert g.court[p] >= 0 and g.court_ships[p] >= 0
        if g.options.court_capacity:
            assert g.court[p] <= court_cap(g, p)
    ships_on_map = sum(bin(c.ships).count("1") for c in board.caballeros.values())
    ships_on_lakes = sum(1 for governor in board.governors if governor.ship)
    assert ships_on_map + ships_on_lakes + sum(g.court_ships) + g.ship_supply == size.ships
    castillos = sum(1 for c in board.caballeros.values() if c.castillo)
    assert castillos + g.castillo_supply == size.castillos
    for card in board.caballeros.values():
        assert board.touches_area(card.key)
        if board.land_sides(card.key) > 1 and not card.grande:
            assert not g.options.remove_on_same_island and not lands_differ(g, card.key)
        for side in range(4):
            if card.ships >> side & 1:
                assert board.facing(card.key, side)[0] == 1, "a ship faces no sea"
    assert sum(len(board.root_cells[r]) for r in board.roots()) >= len(board.areas)
    assert len(g.market) <= size.market
    if g.catalogue is not None:  # before the start card is drawn, it is still in the pile
        assert len(g.pile) == g.pile_left + (g.phase == "start")
    assert all(s >= 0 for s in g.scores)
    check_extended_invariants(g)


def check_extended_invariants(g: State) -> None:
    """Governors: placed + left = 5 a seat, on closed regions, one a region, a ship only on a
    lake. The Grande: on its owner's card where `grande_at` says, or at the court."""
    board = g.board
    roots = [board.find(governor.node) for governor in board.governors]
    assert len(set(roots)) == len(roots), "two Governors on one region"
    for governor, root in zip(board.governors, roots, strict=True):
        assert board.is_closed(root), "a Governor on an open region"
        assert not governor.ship or board.kind[root] == 1, "a lake ship on an island"
    for p in range(g.n):
        placed = sum(1 for governor in board.governors if governor.owner == p)
        assert placed + g.governors_left[p] == g.size.governors
        carrying = [k for k, c in board.caballeros.items() if c.grande and c.owner == p]
        where = g.grande_at[p]
        assert carrying == ([where] if where >= 0 else []), f"seat {p}'s Grande is lost"
        assert g.size.grandes or where == GRANDE_NONE


SPEC = ElCaballeroSpec()
