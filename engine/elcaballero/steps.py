"""What one step does to the state (engine.elcaballero.state): `do` sends a step to its phase
(a chance step, a power card, a turn's step). Each turn step checks everything first
(engine.elcaballero.checks, each check raising a `Refusal`) and only then changes the state.
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.core.protocol import CHANCE
from engine.elcaballero import extended, rounds
from engine.elcaballero.board import CaballeroCard
from engine.elcaballero.checks import (
    area_open,
    area_refusal,
    area_spots,
    cap_court,
    castillo_target,
    check_castillo_purchase,
    check_ship_purchase,
    highest_land_number,
    knight_check,
    lands_differ,
    number_before,
    own,
    pay,
    raise_check,
    remove,
    ship_on,
    ship_spot,
)
from engine.elcaballero.notation import parse_cell, parse_spot
from engine.elcaballero.placement import NOWHERE
from engine.elcaballero.refusals import Refusal
from engine.elcaballero.state import State
from engine.elcaballero.turn import AREAS, CASTILLOS, GRANDE_COURT, KNIGHTS, SHIPS, WITHDRAWN

EXTENDED_VERBS = ("governor", "lakeship", "grande", "movegrande", "knightgrande")


def do(game: State, player: int, action: Action) -> None:
    """Do `action` of `player` (CHANCE for a chance step), or raise a Refusal."""
    kind = action.kind
    if player == CHANCE:
        rounds.do_chance(game, action)
        return
    if game.phase == "power":
        if kind != "power":
            raise Refusal("play_power")
        rounds.do_power(game, player, action.arg)
        return
    if kind in ("power", "start", "reveal"):
        raise Refusal("wrong_phase")
    if kind in EXTENDED_VERBS:
        do_extended(game, player, action)
    elif kind == "reinforce":
        rounds.reinforce(game, player)
    elif kind == "area":
        do_area(game, player, action)
    elif kind == "knight":
        do_knight(game, player, action)
    elif kind == "raise":
        do_raise(game, player, action)
    elif kind == "ship":
        do_ship(game, player, action)
    elif kind == "reship":
        do_reship(game, player, action)
    elif kind == "castillo":
        do_castillo(game, player, action)
    elif kind == "withdraw":
        do_withdraw(game, player, action)
    elif kind == "shipback":
        do_shipback(game, player, action)
    elif kind == "moveship":
        do_moveship(game, player, action)
    elif kind == "movecastillo":
        do_movecastillo(game, player, action)
    else:
        do_done(game, player)


def do_extended(game: State, player: int, action: Action) -> None:
    if not game.options.extended:
        raise Refusal("extended_only")
    kind = action.kind
    if kind == "governor":
        extended.do_governor(game, player, action)
    elif kind == "lakeship":
        extended.do_lakeship(game, player, action)
    elif kind == "grande":
        extended.do_grande(game, player, action)
    elif kind == "movegrande":
        extended.do_movegrande(game, player, action)
    else:
        extended.do_knightgrande(game, player, action)


def do_area(game: State, player: int, action: Action) -> None:
    """A market card onto the map; the caballero cards it crowds onto several lands leave."""
    if not area_open(game):
        raise Refusal("area_done")
    slot = int(action.arg)
    if not 1 <= slot <= len(game.market):
        raise Refusal("market_slot", {"count": len(game.market)})
    key, north = parse_spot(action.arg2)
    card = game.market[slot - 1]
    kind, spots = area_spots(game, player)
    if (slot - 1, north, key) not in spots:
        raise area_refusal(game, kind, card, north, key)
    game.board.place_area_key(card, north, key)
    del game.market[slot - 1]
    game.turn[AREAS] += 1
    for crowded in game.board.crowded_around(key):
        if game.options.remove_on_same_island or lands_differ(game, crowded):
            before = number_before(game, game.board.caballeros[crowded], key)
            remove(game, crowded, before)


def do_knight(game: State, player: int, action: Action) -> None:
    key, side = parse_spot(action.arg)
    card_side, rotation, cost = knight_check(game, player, key, side, int(action.arg2))
    pay(game, player, cost)
    game.board.place_caballero(CaballeroCard(player, card_side, rotation, key))
    game.stack[player] -= 1
    game.turn[KNIGHTS] += 1
    game.placed_now.add(key)
    cap_court(game, player)


def do_raise(game: State, player: int, action: Action) -> None:
    key, side = parse_spot(action.arg)
    card, card_side, rotation, cost = raise_check(game, player, key, side, int(action.arg2))
    pay(game, player, cost)
    card.side, card.rotation = card_side, rotation
    game.board.changed()
    game.turn[KNIGHTS] += 1


def do_ship(game: State, player: int, action: Action) -> None:
    check_ship_purchase(game)
    key, side = parse_spot(action.arg)
    card = ship_spot(game, player, key, side)
    pay(game, player, 2)
    card.ships |= 1 << side
    game.ship_supply -= 1
    game.turn[SHIPS] += 1


def do_reship(game: State, player: int, action: Action) -> None:
    if game.court_ships[player] <= 0:
        raise Refusal("no_court_ship")
    key, side = parse_spot(action.arg)
    card = ship_spot(game, player, key, side)
    pay(game, player, 1)
    card.ships |= 1 << side
    game.court_ships[player] -= 1


def do_shipback(game: State, player: int, action: Action) -> None:
    key, side = parse_spot(action.arg)
    card = own(game, player, key)
    ship_on(card, side)
    card.ships &= ~(1 << side)
    game.court_ships[player] += 1


def do_moveship(game: State, player: int, action: Action) -> None:
    key, side = parse_spot(action.arg)
    card = own(game, player, key)
    ship_on(card, side)
    to_key, to_side = parse_spot(action.arg2)
    if to_key == key:
        raise Refusal("same_card")
    target = ship_spot(game, player, to_key, to_side)
    pay(game, player, 1)
    card.ships &= ~(1 << side)
    target.ships |= 1 << to_side


def do_castillo(game: State, player: int, action: Action) -> None:
    check_castillo_purchase(game)
    card = castillo_target(game, player, parse_cell(action.arg))
    pay(game, player, 1)
    card.castillo = True
    game.castillo_supply -= 1
    game.turn[CASTILLOS] += 1


def do_movecastillo(game: State, player: int, action: Action) -> None:
    key = parse_cell(action.arg)
    card = own(game, player, key)
    if not card.castillo:
        raise Refusal("no_castillo")
    to_key = parse_cell(action.arg2)
    if to_key == key:
        raise Refusal("same_card")
    target = castillo_target(game, player, to_key)
    pay(game, player, 1)
    card.castillo = False
    target.castillo = True


def do_withdraw(game: State, player: int, action: Action) -> None:
    key = parse_cell(action.arg)
    card = own(game, player, key)
    if key in game.placed_now:
        raise Refusal("placed_now")
    if card.grande and not game.options.withdraw_grande_card:
        raise Refusal("grande_withdraw")
    game.board.remove_caballero(key)
    game.court_ships[player] += bin(card.ships).count("1")
    if card.castillo:
        game.court[player] += highest_land_number(game, card)
        game.castillo_supply += 1
    if card.grande:  # EC-27: the Grande goes back to the court
        game.grande_at[player] = GRANDE_COURT
    game.stack[player] += 1
    game.turn[WITHDRAWN] += 1
    cap_court(game, player)


def do_done(game: State, player: int) -> None:
    if area_open(game):
        kind, _ = area_spots(game, player)
        optional = game.options.second_area_optional and game.turn[AREAS] >= 1
        if kind != NOWHERE and not optional:
            raise Refusal("area_missing")
    game.turn_saved = None
    rounds.end_turn(game)
