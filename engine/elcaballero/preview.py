"""What an area card's placement would do, before it is made (the table app's placement preview,
docs/game-protocol.md "Previews"): whether the engine takes it (else its refusal), the caballero
cards it knocks off (EC-9, the option remove_on_same_island), what each island it touches holds
before and after (cards, gold, caballeros and their ranking), the caballeros courts lose above
their capacity (EC-10, EC-22) and the map as it would then be, for the page to draw.

Everything is worked out by the engine's own steps on copies of the game (`Game.clone`), never
on the game itself; a copy never deals (a placement is never followed by a draw: the market is
refilled only after a round's last turn), so a preview holds nothing a seat may not see.

>>> from engine.elcaballero.options import Options
>>> game = Game(Options(players=("red", "blue"), mode="dealer", seed=3, catalogue="synthetic"))
>>> game.apply("power 13"); game.apply("power 9", 1)
>>> out = preview(game, 0, game.area_actions(0)[0])
>>> out["legal"], out["lost"], str(game.state.history[-1][1])
(True, [], 'power 9')
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.spec import PreviewError
from engine.elcaballero.board import DELTA, cell_name
from engine.elcaballero.cards import LAND
from engine.elcaballero.checks import totals
from engine.elcaballero.game import Game
from engine.elcaballero.notation import parse_spot
from engine.elcaballero.state import State
from engine.elcaballero.views import areas_view, caballeros_view, regions_view

__all__ = ["PreviewError", "preview"]


def preview(game: Game, seat: int, action: Action | str) -> dict[str, Any]:
    """What `seat` placing an area card (`area SLOT x,yD`) would do; `game` is unchanged.
    NotationError if the text is not an action, PreviewError if it is not an area card's
    placement. An illegal placement answers `legal: false` with the engine's refusal."""
    if isinstance(action, str):
        action = game.parse(action)
    if action.kind != "area":
        raise PreviewError(f"a preview is of an area card's placement, not {action.kind!r}")
    names = game.state.options.players
    out: dict[str, Any] = {"action": str(action), "seat": _seat_name(game.state, seat)}
    before = _copy(game)
    after = _copy(game)
    try:
        after.apply(action, seat)
    except IllegalAction as refused:
        out.update(
            legal=False,
            refusal={"key": refused.key, "params": dict(refused.params), "reason": refused.reason},
        )
        return out
    # the same steps with no court capacity: what each court keeps beyond it
    uncapped = _copy(game)
    uncapped.state.options = dataclasses.replace(game.state.options, court_capacity=False)
    uncapped.apply(action, seat)

    key, _ = parse_spot(action.arg2)
    placed = after.state.board.areas[key]
    lost = [
        key + DELTA[side]
        for side in range(4)
        if key + DELTA[side] in before.state.board.caballeros
        and key + DELTA[side] not in after.state.board.caballeros
    ]
    out.update(
        legal=True,
        ghost={
            "cell": cell_name(key),
            "card": placed.card.text,
            "id": placed.card.id,
            "rotation": placed.rotation,
        },
        lost=[cell_name(k) for k in lost],
        islands=_islands(before.state, after.state, key, lost),
        courts=[
            {"colour": names[p], "lost": uncapped.state.court[p] - after.state.court[p]}
            for p in range(game.state.n)
            if uncapped.state.court[p] > after.state.court[p]
        ],
        map={
            "areas": areas_view(after.state),
            "caballeros": caballeros_view(after.state),
            "regions": regions_view(after.state),
        },
    )
    return out


def _seat_name(state: State, seat: int) -> str | None:
    names = state.options.players
    return names[seat] if 0 <= seat < len(names) else None


def _copy(game: Game) -> Game:
    """A copy of the game that never deals (its dealer could only draw on a chance step, which
    a placement never reaches: this makes sure)."""
    copy = game.clone()
    copy.state.dealing = False
    return copy


def _islands(before: State, after: State, key: int, lost: list[int]) -> list[dict[str, Any]]:
    """Each island the new card at `key` belongs to (its land regions, in the card's order),
    then each island a knocked-off card faced: as it is after, and the islands it was made of
    before (none for new land)."""
    board = after.board
    roots: list[int] = []
    placed = board.areas[key]
    for index, region in enumerate(placed.card.regions):
        root = board.find(placed.nodes[index])
        if region.kind == LAND and root not in roots:
            roots.append(root)
    for cell in lost:
        for side in range(4):
            kind, root = board.facing(cell, side)
            if kind == LAND and root not in roots:
                roots.append(root)
    # each island after is made of the nodes it held before (a placement only adds nodes)
    made_of: dict[int, list[int]] = {}
    old = before.board
    for node in range(len(old.parent)):
        parts = made_of.setdefault(board.find(node), [])
        was = old.find(node)
        if was not in parts:
            parts.append(was)
    return [
        {
            "after": _island(after, root),
            "before": [_island(before, was) for was in made_of.get(root, [])],
        }
        for root in roots
    ]


def _island(state: State, root: int) -> dict[str, Any]:
    """One island: its cards, gold, each colour's caballeros and their ranking (most first,
    colours tied for a place together, by name)."""
    board = state.board
    names = state.options.players
    row = totals(state).get(root, [0] * state.n)
    caballeros = {names[p]: n for p, n in enumerate(row) if n > 0}
    places: dict[int, list[str]] = {}
    for colour, n in caballeros.items():
        places.setdefault(n, []).append(colour)
    return {
        "cells": sorted(cell_name(k) for k in board.root_cells[root]),
        "cards": len(board.root_cells[root]),
        "gold": board.root_treasure[root],
        "caballeros": caballeros,
        "ranking": [[sorted(places[n]), n] for n in sorted(places, reverse=True)],
    }
