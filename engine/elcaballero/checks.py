"""The small rules of a turn, each written once over the state (engine.elcaballero.state): the
checks a step is refused by (they raise a `Refusal`, its reason and translation key, before the
step changes anything), the numbers and totals they read, and the few changes several steps
share (paying, capping a court, removing a card). The steps (`steps`, `extended`) and the
listing of legal actions (`legal`) use them.
"""

from __future__ import annotations

from engine.elcaballero import listing
from engine.elcaballero.board import DELTA, DIRS, CaballeroCard, cell_name
from engine.elcaballero.cards import LAND, SEA, CardDesc
from engine.elcaballero.placement import area_placements
from engine.elcaballero.refusals import Refusal
from engine.elcaballero.scoring import caballero_totals
from engine.elcaballero.state import State
from engine.elcaballero.turn import AREAS, AREAS_DUE, CASTILLOS, KNIGHTS, SHIPS, WITHDRAWN


# ---------------------------------------------------------------- what the rules read
def number(game: State, card: CaballeroCard, side: int) -> int:
    """The number `card` shows on `side` (N, E, S, W: 0-3)."""
    return game.rules.layout[card.side][(side - card.rotation) % 4]


def land_side(game: State, key: int) -> int:
    """The first side of the cell at `key` facing land (-1: none)."""
    for side in range(4):
        if game.board.side_kind(key, side) == LAND:
            return side
    return -1


def highest_land_number(game: State, card: CaballeroCard) -> int:
    """The highest number of the card facing land (0 when it faces none)."""
    best = 0
    for side in range(4):
        if game.board.side_kind(card.key, side) == LAND:
            best = max(best, number(game, card, side))
    return best


def totals(game: State) -> dict[int, list[int]]:
    """Each land region's caballeros per player (kept while the map stays; read only)."""
    board = game.board
    cache = game.cache
    if cache.totals_board is not board or cache.totals_at != board.version:
        cache.totals = caballero_totals(board, game.rules.layout, game.n)
        cache.totals_board = board
        cache.totals_at = board.version
    return cache.totals


def standing(
    game: State, totals: dict[int, list[int]], player: int, key: int, side: int
) -> tuple[int, set[int]]:
    """The player's total in the land region facing `side` of `key`, and the others'
    (positive) totals there: the no-tie rule's inputs."""
    row = totals.get(game.board.facing(key, side)[1])
    if row is None:
        return 0, set()
    return row[player], {t for p, t in enumerate(row) if p != player and t > 0}


def area_open(game: State) -> bool:
    """An area card is still due this turn."""
    return game.turn[AREAS] < game.turn[AREAS_DUE]


def area_spots(game: State, player: int) -> tuple[str, list[tuple[int, int, int]]]:
    """Where the market's cards may go now (kept while the map and the market stay)."""
    cache = game.cache
    key = (game.board.version, player, *(id(card) for card in game.market))
    if cache.spots_board is not game.board or cache.spots_key != key:
        cache.spots = area_placements(game.board, game.market, player)
        cache.spot_actions = [
            listing.area(index + 1, cell, north) for index, north, cell in cache.spots[1]
        ]
        cache.spots_board = game.board
        cache.spots_key = key
    return cache.spots


def lands_differ(game: State, key: int) -> bool:
    """The card at `key` touches more than one land region."""
    board = game.board
    roots = {board.facing(key, s)[1] for s in range(4) if board.facing(key, s)[0] == LAND}
    return len(roots) > 1


def must_go(game: State, key: int) -> bool:
    """The card at `key` touches land on more than one side (EC-9: the option
    remove_on_same_island) and no Grande protects it."""
    if game.board.caballeros[key].grande or game.board.land_sides(key) < 2:
        return False
    return game.options.remove_on_same_island or lands_differ(game, key)


def court_cap(game: State, player: int) -> int:
    """8 per caballero card off the map (EC-10). With none left the court empties (EC-21);
    the option last_card_empties_court=False keeps it, at most one card's 8."""
    cards = game.stack[player]
    if not game.options.last_card_empties_court:
        cards = max(cards, 1)
    return game.rules.court_per_card * cards


def may_place_card(game: State, player: int) -> bool:
    """The player may still place a caballero card this turn (two at most; a card withdrawn
    this turn comes back next turn at the earliest: EC-19)."""
    return game.turn[KNIGHTS] < 2 and game.stack[player] > game.turn[WITHDRAWN]


def can_buy_ship(game: State, court: int) -> bool:
    """A ship may be bought this turn with a court of `court` caballeros."""
    return game.turn[SHIPS] < 2 and game.ship_supply > 0 and court >= 2


# ---------------------------------------------------------------- why a step is refused
def own(game: State, player: int, key: int) -> CaballeroCard:
    """The player's caballero card at `key`."""
    card = game.board.caballeros.get(key)
    if card is None:
        raise Refusal("no_card", {"cell": cell_name(key)})
    if card.owner != player:
        raise Refusal("not_yours", {"cell": cell_name(key)})
    return card


def check_no_tie(game: State, player: int, key: int, side: int, new_total_delta: int) -> None:
    """The player's total in the land region facing `side` of `key`, grown by the delta, would
    equal no other player's (positive) total there."""
    root = game.board.facing(key, side)[1]
    row = totals(game).get(root, [0] * game.n)
    mine = row[player] + new_total_delta
    for other in range(game.n):
        if other != player and row[other] > 0 and row[other] == mine:
            name = game.options.players[other]
            raise Refusal(
                "tie", {"colour": name, "total": mine, "cell": cell_name(key + DELTA[side])}
            )


def check_new_card(game: State, player: int, key: int) -> None:
    """A new caballero card of the player may lie at `key` (before its numbers count)."""
    if game.turn[KNIGHTS] >= 2:
        raise Refusal("knights_done")
    if game.stack[player] - game.turn[WITHDRAWN] <= 0:
        raise Refusal("no_card_left")
    if not game.board.is_empty(key):
        raise Refusal("cell_taken", {"cell": cell_name(key)})
    if not game.board.touches_area(key):
        raise Refusal("not_next_to_area")


def check_ship_purchase(game: State) -> None:
    """One more ship may be bought this turn (1-2 a turn, from the supply)."""
    if game.turn[SHIPS] >= 2:
        raise Refusal("ships_bought")
    if game.ship_supply <= 0:
        raise Refusal("ship_supply")


def check_castillo_purchase(game: State) -> None:
    """One more castillo may be bought this turn (1-2 a turn, from the supply)."""
    if game.turn[CASTILLOS] >= 2:
        raise Refusal("castillos_bought")
    if game.castillo_supply <= 0:
        raise Refusal("castillo_supply")


def area_refusal(game: State, kind: str, card: CardDesc, north: int, key: int) -> Refusal:
    """Why the market card may not go at `key` with side `north` up (`kind`: where cards may
    go now, engine.elcaballero.placement)."""
    if not game.board.is_empty(key):
        return Refusal("cell_taken", {"cell": cell_name(key)})
    side = game.board.fit_side(card, north, key)
    if side >= 0:
        return Refusal("land_sea", {"side": DIRS[side]})
    if kind == "area":
        return Refusal("no_contact", {"cell": cell_name(key)})
    if kind == "own":
        return Refusal("fallback_own")
    return Refusal("fallback_other")


def knight_check(game: State, player: int, key: int, side: int, shown: int) -> tuple[int, int, int]:
    """(card side, rotation, cost) of a new caballero card showing `shown` on `side`, or a
    Refusal."""
    check_new_card(game, player, key)
    lands = game.board.land_sides(key)
    if lands > 1:
        raise Refusal("two_lands", {"count": lands})
    layout = game.rules.layout
    card_side = 0 if shown in layout[0] else 1 if shown in layout[1] else -1
    if card_side < 0:
        raise Refusal("bad_number")
    rotation = (side - layout[card_side].index(shown)) % 4
    if lands == 0:
        if card_side != 0:
            raise Refusal("sea_front")
        return card_side, rotation, 1
    land = land_side(game, key)
    if land != side:
        raise Refusal("face_land", {"side": DIRS[land]})
    check_no_tie(game, player, key, side, shown)
    return card_side, rotation, shown


def raise_check(
    game: State, player: int, key: int, side: int, to: int
) -> tuple[CaballeroCard, int, int, int]:
    """(the card, its new side, rotation, cost) of turning the player's card at `key` to show
    `to` towards its land, or a Refusal."""
    if game.turn[KNIGHTS] >= 2:
        raise Refusal("knights_done")
    card = own(game, player, key)
    if card.grande:
        raise Refusal("grande_fixed")
    land = land_side(game, key)
    if land < 0:
        raise Refusal("raise_no_land")
    if side != land:
        raise Refusal("face_land", {"side": DIRS[land]})
    layout = game.rules.layout
    now = number(game, card, land)
    if to <= now or to > max(layout[1]):
        raise Refusal("raise_lower", {"number": now})
    card_side = 0 if to in layout[0] else 1
    check_no_tie(game, player, key, side, to - now)
    return card, card_side, (side - layout[card_side].index(to)) % 4, to - now


def ship_spot(game: State, player: int, key: int, side: int) -> CaballeroCard:
    """The player's card at `key` whose `side` may take a ship."""
    card = own(game, player, key)
    if game.board.facing(key, side)[0] != SEA:
        raise Refusal("ship_not_sea", {"side": DIRS[side]})
    if card.ships >> side & 1:
        raise Refusal("ship_there", {"side": DIRS[side]})
    return card


def ship_on(card: CaballeroCard, side: int) -> None:
    """The card has a ship on `side`."""
    if not card.ships >> side & 1:
        raise Refusal("no_ship", {"side": DIRS[side]})


def castillo_target(game: State, player: int, key: int) -> CaballeroCard:
    """The player's card at `key`, which may take a castillo."""
    card = own(game, player, key)
    if card.castillo:
        raise Refusal("castillo_there")
    return card


# ---------------------------------------------------------------- changes steps share
def pay(game: State, player: int, cost: int) -> None:
    """The player's court pays `cost` caballeros (or a Refusal)."""
    if game.court[player] < cost:
        raise Refusal("court_short", {"court": game.court[player], "cost": cost})
    game.court[player] -= cost


def cap_court(game: State, player: int) -> None:
    """With the option court_capacity, the court loses what exceeds its capacity."""
    if game.options.court_capacity:
        cap = court_cap(game, player)
        if game.court[player] > cap:
            game.log.append(
                f"{game.options.players[player]} loses {game.court[player] - cap} "
                "caballeros (court full)"
            )
            game.court[player] = cap


def remove(game: State, key: int, returned: int, grande_left: bool = False) -> None:
    """A caballero card touching land on more than one side leaves the map; a castillo on
    it returns `returned` caballeros and its ships to the court. The ships of a card the
    Grande left go as for any removal, or to the court (EC-24: grande_ships_as_removal)."""
    card = game.board.remove_caballero(key)
    owner = card.owner
    ships = bin(card.ships).count("1")
    name = game.options.players[owner]
    ships_home = card.castillo or (grande_left and not game.options.grande_ships_as_removal)
    if ships_home:
        game.court_ships[owner] += ships
    else:
        game.ship_supply += ships
    if card.castillo:
        game.court[owner] += returned
        game.castillo_supply += 1
        game.log.append(
            f"{name}'s card at {cell_name(key)} is removed; its castillo "
            f"returns {returned} caballeros and {ships} ship(s) to the court"
        )
    else:
        game.log.append(f"{name}'s card at {cell_name(key)} is removed with its caballeros")
    game.stack[owner] += 1
    cap_court(game, owner)


def number_before(game: State, card: CaballeroCard, new_area: int) -> int:
    """The number that faced land before the new area card (0 if none: EC-22)."""
    for side in range(4):
        neighbour = card.key + DELTA[side]
        if neighbour != new_area and game.board.facing(card.key, side)[0] == LAND:
            return number(game, card, side)
    return 0
