"""The map: placement legality (reference §4.1, EC-17, EC-12), regions joined incrementally
(§5.1, EC-31), closed regions (§7.1, EC-29), and the removal of caballero cards touching land
on more than one side (§5.4, EC-9)."""

from __future__ import annotations

import random

from engine.elcaballero.board import (
    DELTA,
    FIT_MISMATCH,
    FIT_NO_AREA,
    FIT_OCCUPIED,
    FIT_OK,
    CaballeroCard,
    Map,
    key_of,
)
from engine.elcaballero.cards import LAND, SEA, card_from_text
from engine.elcaballero.catalogue import load_synthetic
from engine.elcaballero.placement import (
    NEXT_TO_AREA,
    NEXT_TO_OTHER,
    NEXT_TO_OWN,
    NOWHERE,
    area_placements,
)

TIP_N = card_from_text("LN+SESW")  # land reaching the north edge only


def caballero(board: Map, owner: int, x: int, y: int, side: int = 0, rotation: int = 0) -> None:
    board.place_caballero(CaballeroCard(owner, side, rotation, key_of(x, y)))


def test_rulebook_a_new_card_touches_an_area_card_by_a_full_side_not_a_corner() -> None:
    board = Map()
    board.place_area(TIP_N, 0, 0, 0)
    sea = card_from_text("SNESW")
    assert board.fit(sea, 0, 1, 1) == FIT_NO_AREA  # only a corner
    assert board.fit(sea, 0, 1, 0) == FIT_OK
    assert board.fit(sea, 0, 0, 0) == FIT_OCCUPIED


def test_rulebook_land_meets_land_and_sea_meets_sea() -> None:
    board = Map()
    board.place_area(TIP_N, 0, 0, 0)  # land on its north side
    assert board.fit(card_from_text("SNESW"), 0, 0, -1) == FIT_MISMATCH  # sea onto the land
    assert board.fit(card_from_text("LS+SNEW"), 0, 0, -1) == FIT_OK
    assert board.fit(card_from_text("LN+SESW"), 2, 0, -1) == FIT_OK  # turned: its land south


def test_rulebook_a_new_card_may_also_touch_caballero_cards() -> None:
    board = Map()
    board.place_area(TIP_N, 0, 0, 0)
    caballero(board, 0, 1, -1)
    assert board.fit(card_from_text("LS+SNEW"), 0, 0, -1) == FIT_OK


def test_rulebook_fallback_own_caballero_card_only_when_no_market_card_fits() -> None:
    board = Map()
    board.place_area(card_from_text("LNESW"), 0, 0, 0)
    for x, y in ((0, -1), (1, 0), (0, 1)):
        board.place_area(card_from_text("LNESW"), 0, x, y)
    caballero(board, 0, -1, 0)  # blocks the west side
    caballero(board, 1, 0, -2)
    sea = [card_from_text("SNESW")]
    kind, spots = area_placements(board, sea, player=0)
    # the land all around admits no all-sea card: player 0 falls back to their own card, where
    # it still may not put sea against land (EC-17): only the cell west of it is free of land
    assert kind == NEXT_TO_OWN
    assert {key for _, _, key in spots} == {key_of(-2, 0)}
    assert area_placements(board, [*sea, card_from_text("LNESW")], player=0)[0] == NEXT_TO_AREA


def test_rulebook_fallback_another_players_caballero_card_when_none_of_ones_own() -> None:
    board = Map()
    board.place_area(card_from_text("LNESW"), 0, 0, 0)
    caballero(board, 1, 0, -1)
    kind, spots = area_placements(board, [card_from_text("SNESW")], player=0)
    assert kind == NEXT_TO_OTHER
    assert key_of(0, -2) in {key for _, _, key in spots}


def test_ec12_no_card_can_go_anywhere_so_no_card_is_placed() -> None:
    board = Map()
    board.place_area(card_from_text("LNESW"), 0, 0, 0)
    assert area_placements(board, [card_from_text("SNESW")], player=0) == (NOWHERE, [])


def test_regions_join_across_matching_edges_and_grow() -> None:
    board = Map()
    board.place_area(card_from_text("LNE+SSW"), 0, 0, 0)
    board.place_area(card_from_text("LW+SNES"), 0, 1, 0)
    board.place_area(card_from_text("LS+SNEW"), 0, 0, -1)
    island = board.region_at(0, 0, 0)
    assert board.kind[island] == LAND
    assert board.region_cards(island) == 3
    assert board.region_at(1, 0, 0) == island == board.region_at(0, -1, 0)


def test_ec31_a_region_reaching_one_card_through_two_parts_counts_it_once() -> None:
    board = Map()
    # a channel card: two land tips N and S; a ring of land joins the tips around its east side
    board.place_area(card_from_text("LN+LS+SEW"), 0, 0, 0)
    board.place_area(card_from_text("LSE+SNW"), 0, 0, -1)
    board.place_area(card_from_text("LSW+SNE"), 0, 1, -1)
    board.place_area(card_from_text("LNS+SE+SW"), 0, 1, 0)
    board.place_area(card_from_text("LNW+SES"), 0, 1, 1)
    board.place_area(card_from_text("LNE+SSW"), 0, 0, 1)
    ring = board.region_at(0, 0, 0)
    assert board.region_at(0, 0, 1) == ring
    assert board.region_cards(ring) == 6


def test_rulebook_example_closed_island_of_two_cards() -> None:
    """Extended rules: "an island made of two cards, each with land on one side and sea on the
    other three, is closed"."""
    board = Map()
    board.place_area(card_from_text("LE+SNSW"), 0, 0, 0)
    assert not board.is_closed(board.region_at(0, 0, 0))
    board.place_area(card_from_text("LW+SNES"), 0, 1, 0)
    island = board.region_at(0, 0, 0)
    assert board.region_cards(island) == 2 and board.is_closed(island)
    assert not board.is_closed(board.region_at(0, 0, 1))  # the seas stay open


def test_a_closed_lake_inside_a_ring_is_closed_from_the_start() -> None:
    board = Map()
    board.place_area(card_from_text("LNESW+Sf1"), 0, 0, 0)
    lake = board.region_at(0, 0, 1)
    assert board.kind[lake] == SEA and board.is_closed(lake) and board.region_treasure(lake) == 1
    assert not board.is_closed(board.region_at(0, 0, 0))


def test_a_region_facing_a_caballero_card_is_open() -> None:
    board = Map()
    board.place_area(card_from_text("LE+SNSW"), 0, 0, 0)
    caballero(board, 0, 1, 0)
    assert not board.is_closed(board.region_at(0, 0, 0))


def test_rulebook_a_card_touching_land_on_two_sides_is_removed() -> None:
    board = Map()
    board.place_area(card_from_text("LE+SNSW"), 0, 0, 0)
    caballero(board, 0, 1, 0)
    assert board.land_sides(key_of(1, 0)) == 1
    board.place_area(card_from_text("LS+SNEW"), 0, 1, -1)  # land facing the card from the north
    assert board.crowded_around(key_of(1, -1)) == [key_of(1, 0)]


def test_ec9_two_sides_facing_the_same_island_also_count() -> None:
    board = Map()
    board.place_area(card_from_text("LNESW"), 0, 0, 0)
    board.place_area(card_from_text("LNESW"), 0, 0, -1)
    caballero(board, 0, 1, 0)
    board.place_area(card_from_text("LNESW"), 0, 1, -1)  # the same island, north of the card
    assert board.region_at(0, 0, 0) == board.region_at(1, -1, 0)
    assert board.crowded_around(key_of(1, -1)) == [key_of(1, 0)]


def test_a_grande_protects_a_card_on_two_lands() -> None:
    board = Map()
    board.place_area(card_from_text("LE+SNSW"), 0, 0, 0)
    card = CaballeroCard(0, 0, 0, key_of(1, 0))
    card.grande = True
    board.place_caballero(card)
    board.place_area(card_from_text("LS+SNEW"), 0, 1, -1)
    assert board.crowded_around(key_of(1, -1)) == []


def test_incremental_regions_match_a_flood_fill_on_random_maps() -> None:
    cards = list(load_synthetic().cards.values())
    for seed in range(30):
        rng = random.Random(seed)
        board = Map()
        board.place_area(cards[5], 0, 0, 0)
        for _ in range(35):
            market = rng.sample(cards, 5)
            kind, spots = area_placements(board, market, player=0)
            if kind != NEXT_TO_AREA:
                break
            index, rotation, key = rng.choice(spots)
            board.place_area_key(market[index], rotation, key)
        assert _flood_fill(board) == {
            board.find(n): (
                board.region_cards(n),
                board.region_treasure(n),
                board.root_open[board.find(n)],
            )
            for n in range(len(board.parent))
        }


def _flood_fill(board: Map) -> dict[int, tuple[int, int, int]]:
    """Regions found from scratch: root -> (cards, gold or fish, edges facing no area card)."""
    links: dict[int, list[int]] = {n: [] for n in range(len(board.parent))}
    open_edges = dict.fromkeys(links, 0)
    for key, area in board.areas.items():
        for side in range(4):
            node = area.edge_node[side]
            neighbour = board.areas.get(key + DELTA[side])
            if neighbour is None:
                open_edges[node] += 1
            elif board.kind[node] == board.kind[neighbour.edge_node[(side + 2) % 4]]:
                links[node].append(neighbour.edge_node[(side + 2) % 4])
    out: dict[int, tuple[int, int, int]] = {}
    seen: set[int] = set()
    for start in links:
        if start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            node = todo.pop()
            group.append(node)
            for other in links[node]:
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
        result = (
            len({board.node_key[n] for n in group}),
            sum(board.node_treasure[n] for n in group),
            sum(open_edges[n] for n in group),
        )
        out[board.find(start)] = result
    return out
