"""The legal actions of a turn over a state (engine.elcaballero.state): every step the acting
seat may take now, by the same small rules its steps are refused by
(engine.elcaballero.checks), listed without building refusals.
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.elcaballero import extended, listing
from engine.elcaballero.cards import SEA
from engine.elcaballero.checks import (
    area_open,
    area_spots,
    can_buy_ship,
    land_side,
    may_place_card,
    number,
    standing,
    totals,
)
from engine.elcaballero.placement import NOWHERE
from engine.elcaballero.state import State
from engine.elcaballero.turn import AREAS, CASTILLOS, KNIGHTS, REINFORCED

REINFORCE = Action("reinforce")
DONE = Action("done")


def turn_actions(game: State, player: int) -> list[Action]:
    """Every step the acting seat may take in its turn."""
    out: list[Action] = []
    if not game.turn[REINFORCED]:
        out.append(REINFORCE)
    area_kind = NOWHERE
    if area_open(game):
        area_kind, _ = area_spots(game, player)
        out.extend(game.cache.spot_actions)
    court = game.court[player]
    if court > 0 and may_place_card(game, player):
        knight_actions(game, player, court, out)
    own = sorted(k for k, c in game.board.caballeros.items() if c.owner == player)
    if game.turn[KNIGHTS] < 2:
        raise_actions(game, player, court, own, out)
    piece_actions(game, player, court, own, out)
    if game.options.extended:
        out.extend(extended.extended_actions(game, player))
    optional = game.options.second_area_optional and game.turn[AREAS] >= 1
    if not area_open(game) or area_kind == NOWHERE or optional:
        out.append(DONE)
    return out


def piece_actions(game: State, player: int, court: int, own: list[int], out: list[Action]) -> None:
    """Ships and castillos bought, brought back, moved; cards withdrawn."""
    board = game.board
    free_sea = [
        (key, side)
        for key in own
        for side in range(4)
        if not board.caballeros[key].ships >> side & 1 and board.side_kind(key, side) == SEA
    ]
    if can_buy_ship(game, court):
        out.extend(listing.action("ship", k, s) for k, s in free_sea)
    if game.court_ships[player] > 0 and court >= 1:
        out.extend(listing.action("reship", k, s) for k, s in free_sea)
    no_castillo = [k for k in own if not board.caballeros[k].castillo]
    if game.turn[CASTILLOS] < 2 and game.castillo_supply > 0 and court >= 1:
        out.extend(listing.action("castillo", k, -1) for k in no_castillo)
    out.extend(
        listing.action("withdraw", k, -1)
        for k in own
        if k not in game.placed_now
        and (game.options.withdraw_grande_card or not board.caballeros[k].grande)
    )
    for key in own:
        card = board.caballeros[key]
        if card.ships:
            for side in range(4):
                if card.ships >> side & 1:
                    out.append(listing.action("shipback", key, side))
                    if court >= 1:
                        out.extend(
                            listing.pair("moveship", key, side, k, s)
                            for k, s in free_sea
                            if k != key
                        )
        if card.castillo and court >= 1:
            out.extend(
                listing.pair("movecastillo", key, -1, k, -1) for k in no_castillo if k != key
            )


def knight_actions(game: State, player: int, court: int, out: list[Action]) -> None:
    """New caballero cards: next to sea only, each front number (recorded facing north);
    next to one land, each number the court pays that keeps the no-tie rule."""
    front = game.rules.layout[0]
    top = min(court, 8)
    now = totals(game)
    for key, _, _, lands, side in game.board.free_cells():
        if lands == 0:
            out.extend(listing.action("knight", key, 0, n) for n in front)
        elif lands == 1:
            mine, others = standing(game, now, player, key, side)
            for shown in range(1, top + 1):
                if mine + shown not in others:
                    out.append(listing.action("knight", key, side, shown))


def raise_actions(game: State, player: int, court: int, own: list[int], out: list[Action]) -> None:
    """Own cards facing one land turned to a higher number the court pays, keeping the no-tie
    rule."""
    board = game.board
    now_totals = totals(game)
    for key in own:
        card = board.caballeros[key]
        side = land_side(game, key)
        if side < 0 or card.grande:
            continue
        now = number(game, card, side)
        mine, others = standing(game, now_totals, player, key, side)
        for shown in range(now + 1, min(now + court, 8) + 1):
            if mine + shown - now not in others:
                out.append(listing.action("raise", key, side, shown))
