"""The extended game's actions (docs/elcaballero-rules.md, "The extended game"): Governors
(alcaldes) on closed regions, a ship on a closed lake, and the Grande (placed for 2, moved for 1
once a turn, or brought with a new caballero card touching several lands).

Each `do_*` checks everything before it changes anything (a refused action leaves the game as
it was); `extended_actions` lists what the acting seat may do now.
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.elcaballero import listing
from engine.elcaballero.board import DELTA, CaballeroCard, Governor, cell_name
from engine.elcaballero.cards import LAND, SEA
from engine.elcaballero.checks import (
    can_buy_ship,
    cap_court,
    check_new_card,
    check_ship_purchase,
    highest_land_number,
    may_place_card,
    must_go,
    own,
    pay,
    remove,
    totals,
)
from engine.elcaballero.notation import parse_cell, parse_spot
from engine.elcaballero.refusals import Refusal
from engine.elcaballero.state import State
from engine.elcaballero.turn import GRANDE_COURT, GRANDE_MOVED, KNIGHTS, SHIPS

# GRANDE_NONE: where spec.py reads it
from engine.elcaballero.turn import GRANDE_NONE as GRANDE_NONE

GOVERNOR_PRICE = 1
GRANDE_PRICE = 2
GRANDE_MOVE_PRICE = 1
SHIP_PRICE = 2


def closed_region(game: State, cell: str, region_text: str) -> tuple[int, int]:
    """(cell key, region root) of REGION of the area card at `cell`, or a Refusal."""
    key = parse_cell(cell)
    area = game.board.areas.get(key)
    if area is None:
        raise Refusal("no_area", {"cell": cell_name(key)})
    if not region_text.isdigit() or int(region_text) >= len(area.nodes):
        raise Refusal("no_region", {"cell": cell_name(key), "region": region_text})
    return key, game.board.find(area.nodes[int(region_text)])


def do_governor(game: State, player: int, action: Action) -> None:
    if game.governors_left[player] <= 0:
        raise Refusal("no_governor_left")
    key, root = closed_region(game, action.arg, action.arg2)
    board = game.board
    if not board.is_closed(root):
        raise Refusal("not_closed", {"cell": cell_name(key)})
    if board.governor_of(root) is not None:
        raise Refusal("governed", {"cell": cell_name(key)})
    pay(game, player, GOVERNOR_PRICE)
    board.governors.append(Governor(player, root, False))
    game.governors_left[player] -= 1


def do_lakeship(game: State, player: int, action: Action) -> None:
    if game.options.lake_ship == "none":
        raise Refusal("lake_ship_off")
    _, root = closed_region(game, action.arg, action.arg2)
    board = game.board
    governor = board.governor_of(root)
    if board.kind[root] != SEA or governor is None or governor.owner != player:
        raise Refusal("lake_not_yours")
    if governor.ship:
        raise Refusal("lake_ship_there")
    check_ship_purchase(game)
    pay(game, player, SHIP_PRICE)
    governor.ship = True
    game.ship_supply -= 1
    game.turn[SHIPS] += 1  # one of the turn's 1-2 ships bought


def do_grande(game: State, player: int, action: Action) -> None:
    where = game.grande_at[player]
    if where >= 0:
        raise Refusal("grande_on_map")
    card = own(game, player, parse_cell(action.arg))
    pay(game, player, GRANDE_PRICE)
    card.grande = True
    game.grande_at[player] = card.key


def _moving_grande(game: State, player: int) -> int:
    """The cell the player's Grande would be moved from, or a Refusal."""
    where = game.grande_at[player]
    if where < 0:
        raise Refusal("grande_in_court")
    if game.turn[GRANDE_MOVED]:
        raise Refusal("grande_moved")
    return where


def do_movegrande(game: State, player: int, action: Action) -> None:
    where = _moving_grande(game, player)
    key = parse_cell(action.arg)
    if key != where:
        raise Refusal("grande_not_there", {"cell": cell_name(key)})
    to_key = parse_cell(action.arg2)
    if to_key == key:
        raise Refusal("same_card")
    target = own(game, player, to_key)
    pay(game, player, GRANDE_MOVE_PRICE)
    target.grande = True
    game.grande_at[player] = to_key
    game.turn[GRANDE_MOVED] = 1
    leave(game, key)


def leave(game: State, key: int) -> None:
    """The Grande leaves the card at `key`: on several lands, the card is removed at once; a
    castillo returns the highest number it had facing land (the reference's §7.2)."""
    card = game.board.caballeros[key]
    card.grande = False
    if must_go(game, key):
        remove(game, key, highest_land_number(game, card), grande_left=True)


def knightgrande_check(
    game: State, player: int, key: int, side: int, number: int
) -> tuple[int, int, int, int]:
    """(card side, rotation, cost, the cell the Grande leaves or GRANDE_COURT) of a new card
    placed on several lands with the Grande, or a Refusal."""
    check_new_card(game, player, key)
    board = game.board
    lands = board.land_sides(key)
    if lands < 2:
        raise Refusal("grande_needs_lands", {"count": lands})
    layout = game.rules.layout
    card_side = 0 if number in layout[0] else 1 if number in layout[1] else -1
    if card_side < 0:
        raise Refusal("bad_number")
    if board.side_kind(key, side) != LAND:
        raise Refusal("grande_face_land")
    rotation = (side - layout[card_side].index(number)) % 4
    facing = land_numbers(game, key, card_side, rotation)
    highest = max(n for _, n in facing)
    if number != highest:
        raise Refusal("grande_highest", {"number": highest})
    source = game.grande_at[player]
    if source >= 0:
        _moving_grande(game, player)
        price = GRANDE_MOVE_PRICE
    else:
        price = GRANDE_PRICE
    cost = highest + (price if game.options.grande_pays_its_price else 0)
    if not game.options.grande_no_tie_everywhere:
        facing = [(s, n) for s, n in facing if n == highest]
    check_no_tie_on_lands(game, player, key, facing)
    return card_side, rotation, cost, source


def land_numbers(game: State, key: int, card_side: int, rotation: int) -> list[tuple[int, int]]:
    """(side, number) for each side of a card at `key` facing land, so turned."""
    numbers = game.rules.layout[card_side]
    return [
        (s, numbers[(s - rotation) % 4]) for s in range(4) if game.board.side_kind(key, s) == LAND
    ]


def check_no_tie_on_lands(
    game: State, player: int, key: int, facing: list[tuple[int, int]]
) -> None:
    """The no-tie rule in every land region the new numbers face (EC-26)."""
    board = game.board
    added: dict[int, tuple[int, int]] = {}  # root -> (caballeros added, side of the first)
    for side, number in facing:
        root = board.facing(key, side)[1]
        before = added.get(root, (0, side))
        added[root] = (before[0] + number, before[1])
    now = totals(game)
    for root, (number, side) in added.items():
        row = now.get(root, [0] * game.n)
        mine = row[player] + number
        for other in range(game.n):
            if other != player and row[other] > 0 and row[other] == mine:
                raise Refusal(
                    "tie",
                    {
                        "colour": game.options.players[other],
                        "total": mine,
                        "cell": cell_name(key + DELTA[side]),
                    },
                )


def do_knightgrande(game: State, player: int, action: Action) -> None:
    key, side = parse_spot(action.arg)
    card_side, rotation, cost, source = knightgrande_check(
        game, player, key, side, int(action.arg2)
    )
    pay(game, player, cost)
    card = CaballeroCard(player, card_side, rotation, key)
    card.grande = True
    game.board.place_caballero(card)
    game.stack[player] -= 1
    game.turn[KNIGHTS] += 1  # counts among the turn's 0-2 cards (EC-28)
    game.placed_now.add(key)
    game.grande_at[player] = key
    if source >= 0:
        game.turn[GRANDE_MOVED] = 1
        leave(game, source)
    cap_court(game, player)


def extended_actions(game: State, player: int) -> list[Action]:
    """What the acting seat may do now with Governors, lake ships and the Grande."""
    out: list[Action] = []
    board = game.board
    court = game.court[player]
    if game.governors_left[player] > 0 and court >= GOVERNOR_PRICE:
        for root in board.closed_roots():
            if board.governor_of(root) is None:
                key = min(board.root_cells[root])
                out.append(Action("governor", cell_name(key), str(board.region_index(key, root))))
    if game.options.lake_ship != "none" and can_buy_ship(game, court):
        for governor in board.governors:
            root = board.find(governor.node)
            if governor.owner == player and not governor.ship and board.kind[root] == SEA:
                key = min(board.root_cells[root])
                out.append(Action("lakeship", cell_name(key), str(board.region_index(key, root))))
    own = sorted(k for k, c in board.caballeros.items() if c.owner == player)
    where = game.grande_at[player]
    if where == GRANDE_COURT and court >= GRANDE_PRICE:
        out.extend(Action("grande", cell_name(k)) for k in own)
    can_move = where >= 0 and not game.turn[GRANDE_MOVED]
    if can_move and court >= GRANDE_MOVE_PRICE:
        out.extend(Action("movegrande", cell_name(where), cell_name(k)) for k in own if k != where)
    if (where == GRANDE_COURT or can_move) and may_place_card(game, player):
        out.extend(_knightgrande_actions(game, player))
    return out


def _knightgrande_actions(game: State, player: int) -> list[Action]:
    """Each way to lay a new card with the Grande at a free cell touching land on several
    sides: every turn of either side of the card whose cost the court pays and that keeps the
    no-tie rule (the same checks as knightgrande_check, without building refusals)."""
    out: list[Action] = []
    board = game.board
    price = GRANDE_MOVE_PRICE if game.grande_at[player] >= 0 else GRANDE_PRICE
    if not game.options.grande_pays_its_price:
        price = 0
    court = game.court[player]
    everywhere = game.options.grande_no_tie_everywhere
    now = totals(game)
    for key, _, land, lands, _ in board.free_cells():
        if lands < 2:
            continue
        sides = [s for s in range(4) if land >> s & 1]
        roots = [board.facing(key, s)[1] for s in sides]
        for numbers in game.rules.layout:
            for rotation in range(4):
                shown = [numbers[(s - rotation) % 4] for s in sides]
                highest = max(shown)
                if highest + price > court:
                    continue
                added: dict[int, int] = {}
                for index, number in enumerate(shown):
                    if everywhere or number == highest:
                        added[roots[index]] = added.get(roots[index], 0) + number
                if all(_no_tie(now.get(root), player, n) for root, n in added.items()):
                    side = sides[shown.index(highest)]
                    out.append(listing.action("knightgrande", key, side, highest))
    return out


def _no_tie(row: list[int] | None, player: int, added: int) -> bool:
    if row is None:
        return True
    mine = row[player] + added
    return all(t != mine or t <= 0 for p, t in enumerate(row) if p != player)
