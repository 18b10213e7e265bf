"""What a state (engine.elcaballero.state) shows: the public view every seat and the table see
(nothing in El Caballero is secret but the hands, which the game adds for their seat)."""

from __future__ import annotations

from typing import Any

from engine.core.log import text_log
from engine.core.protocol import CHANCE
from engine.elcaballero.board import DIRS, Governor, cell_name
from engine.elcaballero.cards import LAND
from engine.elcaballero.checks import number, totals
from engine.elcaballero.state import State
from engine.elcaballero.turn import (
    AREAS,
    AREAS_DUE,
    CASTILLOS,
    GRANDE_COURT,
    GRANDE_MOVED,
    GRANDE_NONE,
    KNIGHTS,
    REINFORCED,
    SHIPS,
)
from engine.elcaballero.verbs import VERBS


def public_view(game: State, acting: tuple[int, ...]) -> dict[str, Any]:
    """The map, the market, the seats and the turn as everyone sees them (`acting`: who acts
    now)."""
    names = game.options.players
    board = game.board
    return {
        "game": "elcaballero",
        "phase": game.phase,
        "round": game.round,
        "rounds": game.size.rounds,
        "scoring_rounds": list(game.size.scorings),
        "catalogue": None if game.catalogue is None else game.catalogue.label,
        "acting": [("chance" if p == CHANCE else names[p]) for p in acting],
        "areas": areas_view(game),
        "caballeros": caballeros_view(game),
        "regions": regions_view(game),
        "governors": [governor_view(game, g) for g in board.governors],
        "market": [{"card": c.text, "id": c.id} for c in game.market],
        "pile": game.pile_left,
        "power_played": {names[p]: game.played[p] for p in range(game.n) if game.played[p]},
        "order": [names[p] for p in game.order] if game.phase == "turn" else [],
        "players": [player_view(game, p) for p in range(game.n)],
        "supply": {"ships": game.ship_supply, "castillos": game.castillo_supply},
        "turn": turn_view(game),
        "scorings": game.scorings,
        "log": text_log(VERBS, game.history, names, None),
        "events": list(game.log),
    }


def areas_view(game: State) -> list[dict[str, Any]]:
    """The area cards on the map; `regions`: for each region of the card (in its description's
    order), the index of the map's region it belongs to in `regions_view` (a page draws and
    names the regions from these, never joining them itself)."""
    board = game.board
    index = {root: i for i, root in enumerate(board.roots())}
    return [
        {
            "cell": cell_name(k),
            "card": a.card.text,
            "id": a.card.id,
            "rotation": a.rotation,
            "regions": [index[board.find(node)] for node in a.nodes],
        }
        for k, a in sorted(board.areas.items())
    ]


def caballeros_view(game: State) -> list[dict[str, Any]]:
    names = game.options.players
    return [
        {
            "cell": cell_name(k),
            "owner": names[c.owner],
            "side": "front" if c.side == 0 else "back",
            "rotation": c.rotation,
            "numbers": [number(game, c, s) for s in range(4)],
            "ships": [DIRS[s] for s in range(4) if c.ships >> s & 1],
            "castillo": c.castillo,
            "grande": c.grande,
        }
        for k, c in sorted(game.board.caballeros.items())
    ]


def regions_view(game: State) -> list[dict[str, Any]]:
    """The map's regions in the order of `Map.roots` (`areas_view` refers to them by index)."""
    names = game.options.players
    board = game.board
    now = totals(game)
    return [
        {
            "type": "land" if board.kind[r] == LAND else "sea",
            "size": len(board.root_cells[r]),
            "gold" if board.kind[r] == LAND else "fish": board.root_treasure[r],
            "closed": board.is_closed(r),
            "cards": sorted(cell_name(k) for k in board.root_cells[r]),
            "caballeros": {names[p]: t for p, t in enumerate(now.get(r, [])) if t},
        }
        for r in board.roots()
    ]


def player_view(game: State, p: int) -> dict[str, Any]:
    return {
        "colour": game.options.players[p],
        "court": game.court[p],
        "cards_off_map": game.stack[p],
        "court_ships": game.court_ships[p],
        "hand_size": len(game.hands[p]),
        "score": game.scores[p],
        "governors_left": game.governors_left[p],
        "grande": grande_view(game, p),
    }


def turn_view(game: State) -> dict[str, Any]:
    turn = game.turn
    return {
        "reinforced": bool(turn[REINFORCED]),
        "areas": turn[AREAS],
        "areas_due": turn[AREAS_DUE],
        "caballero_cards": turn[KNIGHTS],
        "ships": turn[SHIPS],
        "castillos": turn[CASTILLOS],
        "grande_moved": bool(turn[GRANDE_MOVED]),
    }


def governor_view(game: State, governor: Governor) -> dict[str, Any]:
    board = game.board
    root = board.find(governor.node)
    key = min(board.root_cells[root])
    return {
        "owner": game.options.players[governor.owner],
        "cell": cell_name(key),
        "region": board.region_index(key, root),
        "type": "land" if board.kind[root] == LAND else "sea",
        "ship": governor.ship,
    }


def grande_view(game: State, player: int) -> str | None:
    """Where the player's Grande is: a cell, "court", or None (the base game)."""
    where = game.grande_at[player]
    if where == GRANDE_NONE:
        return None
    return "court" if where == GRANDE_COURT else cell_name(where)
