"""Scoring (docs/elcaballero-rules.md, the reference's §6): land regions by caballero majority,
every ship by the size and fish of its sea, Governors on closed regions (extended game).

A land region of c area cards with g gold: the most caballeros score 2 per card and 2 per gold,
the second most (3 or 4 players) 1 and 1. Tied leaders each score the second place's points and
nobody scores second (EC-14); a tie for second scores nothing; with 2 players tied leaders score
1 and 1 too (EC-6, option `two_player_tie`). A ship scores 1 per card of its sea and 1 per fish.

>>> land_points([5, 3, 3], cards=2, gold=1, players=3)[0]
[6, 0, 0]
>>> land_points([4, 4, 1], cards=2, gold=0, players=3)[0]
[2, 2, 0]
"""

from __future__ import annotations

from typing import Any

from engine.elcaballero.board import DELTA, DIRS, Governor, Map, cell_name
from engine.elcaballero.cards import LAND, SEA

__all__ = ["Governor", "caballero_totals", "land_points", "score_map"]

TWO_PLAYER_TIE_CHOICES = ("second", "nothing")  # EC-6: what tied leaders score with 2 players


def land_points(
    totals: list[int], cards: int, gold: int, players: int, two_player_tie: str = "second"
) -> tuple[list[int], list[int], str]:
    """Points and places (1, 2 or 0) per player for one land region, and why."""
    points = [0] * len(totals)
    places = [0] * len(totals)
    top = max(totals) if totals else 0
    if top <= 0:
        return points, places, "no caballeros: nobody scores"
    unit = cards + gold
    leaders = [p for p, t in enumerate(totals) if t == top]
    if len(leaders) > 1:
        if players == 2 and two_player_tie == "nothing":
            return points, places, "2 players tied for the most: nobody scores (EC-6 option)"
        for p in leaders:
            points[p] = unit
            places[p] = 1
        return (
            points,
            places,
            (
                f"{len(leaders)} tied for the most: each scores second place, {cards} + {gold}; "
                "nobody scores second"
            ),
        )
    leader = leaders[0]
    points[leader] = 2 * unit
    places[leader] = 1
    why = f"the most: 2 x ({cards} cards + {gold} gold)"
    if players < 3:
        return points, places, why + "; no second place with 2 players"
    rest = [t for p, t in enumerate(totals) if p != leader and t > 0]
    if not rest:
        return points, places, why + "; nobody second"
    second = max(rest)
    seconds = [p for p, t in enumerate(totals) if p != leader and t == second]
    for p in seconds:
        places[p] = 2
    if len(seconds) > 1:
        return points, places, why + "; tied for second: they score nothing"
    points[seconds[0]] = unit
    return points, places, why + f"; second: {cards} + {gold}"


def caballero_totals(
    board: Map, layout: tuple[tuple[int, ...], ...], players: int
) -> dict[int, list[int]]:
    """Land region root -> each player's caballeros there (every number that faces its land)."""
    totals: dict[int, list[int]] = {}
    areas = board.areas
    for card in board.caballeros.values():
        numbers = layout[card.side]
        for side in range(4):
            area = areas.get(card.key + DELTA[side])
            if area is None:
                continue
            back = (side + 2) % 4
            if not area.land_mask >> back & 1:
                continue
            root = board.find(area.edge_node[back])
            row = totals.get(root)
            if row is None:
                row = [0] * players
                totals[root] = row
            row[card.owner] += numbers[(side - card.rotation) % 4]
    return totals


def score_map(
    board: Map,
    layout: tuple[tuple[int, ...], ...],
    names: list[str],
    governors: list[Governor] | None = None,
    two_player_tie: str = "second",
) -> dict[str, Any]:
    """One scoring: every region and every ship with why, and each player's total."""
    players = len(names)
    totals = caballero_totals(board, layout, players)
    governed: dict[int, Governor] = {}
    for placed in governors or []:
        governed[board.find(placed.node)] = placed
    score = [0] * players
    regions: list[dict[str, Any]] = []
    number: dict[int, int] = {}  # root -> the region's number in the output
    for root in board.roots():
        cells = board.root_cells[root]
        size = len(cells)
        treasure = board.root_treasure[root]
        kind = board.kind[root]
        number[root] = len(regions) + 1
        entry: dict[str, Any] = {
            "region": number[root],
            "type": "land" if kind == LAND else "sea",
            "cards": sorted(cell_name(k) for k in cells),
            "size": size,
            "gold" if kind == LAND else "fish": treasure,
            "closed": board.is_closed(root),
        }
        governor = governed.get(root)
        if kind == LAND:
            row = totals.get(root, [0] * players)
            points, places, why = land_points(row, size, treasure, players, two_player_tie)
            if governor is not None:
                points[governor.owner] += 2 * (size + treasure)
                who = names[governor.owner]
                why = f"closed island with {who}'s Governor: 2 x ({size} + {treasure})"
            entry["caballeros"] = {names[p]: row[p] for p in range(players)}
            entry["places"] = {names[p]: places[p] for p in range(players) if places[p]}
        else:
            points = [0] * players
            why = "a sea scores through its ships"
            if governor is not None:
                if governor.ship:
                    points[governor.owner] = size + treasure
                    who = names[governor.owner]
                    why = f"closed lake with {who}'s Governor and ship: {size} + {treasure}"
                else:
                    why = (
                        f"closed lake with {names[governor.owner]}'s Governor but no ship: nothing"
                    )
        if governor is not None:
            entry["governor"] = names[governor.owner]
        entry["points"] = {names[p]: points[p] for p in range(players) if points[p]}
        entry["why"] = why
        for p in range(players):
            score[p] += points[p]
        regions.append(entry)
    ships: list[dict[str, Any]] = []
    for card in sorted(board.caballeros.values(), key=lambda c: c.key):
        for side in range(4):
            if not card.ships >> side & 1:
                continue
            kind, root = board.facing(card.key, side)
            if kind != SEA:
                continue  # cannot happen: a ship is only ever placed facing sea
            size = len(board.root_cells[root])
            fish = board.root_treasure[root]
            score[card.owner] += size + fish
            ships.append(
                {
                    "owner": names[card.owner],
                    "cell": cell_name(card.key),
                    "edge": DIRS[side],
                    "region": number[root],
                    "points": size + fish,
                    "why": f"{size} sea card{'' if size == 1 else 's'} + {fish} fish",
                }
            )
    return {
        "regions": regions,
        "ships": ships,
        "grandes": grande_lands(board, layout, names, number),
        "totals": {names[p]: score[p] for p in range(players)},
    }


def grande_lands(
    board: Map, layout: tuple[tuple[int, ...], ...], names: list[str], number: dict[int, int]
) -> list[dict[str, Any]]:
    """Each card carrying a Grande and what each of its numbers facing land counts, by region
    (a Grande's card may face several lands: every number counts)."""
    out: list[dict[str, Any]] = []
    for card in sorted(board.caballeros.values(), key=lambda c: c.key):
        if not card.grande:
            continue
        lands = []
        for side in range(4):
            kind, root = board.facing(card.key, side)
            if kind == LAND:
                lands.append(
                    {
                        "edge": DIRS[side],
                        "region": number[root],
                        "caballeros": layout[card.side][(side - card.rotation) % 4],
                    }
                )
        out.append({"owner": names[card.owner], "cell": cell_name(card.key), "lands": lands})
    return out


def map_points(
    board: Map,
    layout: tuple[tuple[int, ...], ...],
    players: int,
    totals: dict[int, list[int]],
    two_player_tie: str = "second",
) -> list[int]:
    """Each player's points if the map were scored now: `score_map`'s totals without its
    explanation (the computer players' projected score; reads the map, changes nothing).
    `totals`: `caballero_totals` of the map."""
    score = [0] * players
    governed: dict[int, Governor] = {}
    for placed in board.governors:
        governed[board.find(placed.node)] = placed
    parent = board.parent
    kind = board.kind
    root_cells = board.root_cells
    root_treasure = board.root_treasure
    for root in range(len(parent)):
        if parent[root] != root:
            continue
        unit = len(root_cells[root]) + root_treasure[root]
        governor = governed.get(root)
        if kind[root] == LAND:
            row = totals.get(root)
            if row is not None:
                _land_into(score, row, unit, players, two_player_tie)
            if governor is not None:
                score[governor.owner] += 2 * unit
        elif governor is not None and governor.ship:
            score[governor.owner] += unit
    for card in board.caballeros.values():
        ships = card.ships
        if not ships:
            continue
        for side in range(4):
            if ships >> side & 1:
                sea, root = board.facing(card.key, side)
                if sea == SEA:
                    score[card.owner] += len(root_cells[root]) + root_treasure[root]
    return score


def _land_into(score: list[int], row: list[int], unit: int, players: int, tie: str) -> None:
    """Add one land region's points (`land_points`) to `score`."""
    top = 0
    leaders = 0
    leader = -1
    for p in range(players):
        t = row[p]
        if t > top:
            top, leaders, leader = t, 1, p
        elif t == top and t > 0:
            leaders += 1
    if top <= 0:
        return
    if leaders > 1:
        if players == 2 and tie == "nothing":
            return
        for p in range(players):
            if row[p] == top:
                score[p] += unit
        return
    score[leader] += 2 * unit
    if players < 3:
        return
    second = 0
    seconds = 0
    runner = -1
    for p in range(players):
        t = row[p]
        if p == leader or t <= 0:
            continue
        if t > second:
            second, seconds, runner = t, 1, p
        elif t == second:
            seconds += 1
    if seconds == 1:
        score[runner] += unit
