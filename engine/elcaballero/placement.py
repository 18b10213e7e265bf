"""Where an area card may go (the reference's §4.1): next to an area card, land on land and sea
on sea; only if no market card fits anywhere so, next to one of the player's own caballero
cards, then next to another player's (EC-17); if nothing fits at all, no card (EC-12).

>>> from engine.elcaballero.board import Map
>>> from engine.elcaballero.cards import card_from_text
>>> board = Map()
>>> board.place_area(card_from_text("LN+SESW"), 0, 0, 0)
>>> kind, spots = area_placements(board, [card_from_text("LNESW")], player=0)
>>> kind, sorted(spots)[0][2] == board_key(0, -1)
('area', True)
"""

from __future__ import annotations

from engine.elcaballero.board import DELTA, Map, key_of
from engine.elcaballero.cards import CardDesc, rotated_mask

NEXT_TO_AREA = "area"
NEXT_TO_OWN = "own"  # fallback 1: next to one of the player's caballero cards
NEXT_TO_OTHER = "other"  # fallback 2: next to another player's caballero card
NOWHERE = "none"  # EC-12: the player places no area card


def board_key(x: int, y: int) -> int:
    return key_of(x, y)


def _fitting(
    cards: list[CardDesc], cells: list[tuple[int, int, int, int, int]]
) -> list[tuple[int, int, int]]:
    """Every (card index, rotation, cell) where the card's land meets land and its sea meets
    sea on each side touching an area card (bit masks: a few integer operations per try).
    `cells`: (cell, sides with an area card, sides facing land, ...) as Map.free_cells."""
    turned = [[rotated_mask(card.land_mask, r) for r in range(4)] for card in cards]
    out = []
    for key, present, land, _, _ in cells:
        for index in range(len(cards)):
            masks = turned[index]
            for rotation in range(4):
                if masks[rotation] & present == land:
                    out.append((index, rotation, key))
    out.sort()
    return out


def cells_next_to_caballeros(board: Map, player: int, own: bool) -> list[int]:
    """Empty cells next to the player's own (or the others') caballero cards, in key order."""
    cells: set[int] = set()
    for key, card in board.caballeros.items():
        if (card.owner == player) != own:
            continue
        for side in range(4):
            neighbour = key + DELTA[side]
            if board.is_empty(neighbour):
                cells.add(neighbour)
    return sorted(cells)


def area_placements(
    board: Map, cards: list[CardDesc], player: int
) -> tuple[str, list[tuple[int, int, int]]]:
    """Which rule applies and every (card index, rotation, cell key) it allows."""
    spots = _fitting(cards, board.free_cells())
    if spots:
        return NEXT_TO_AREA, spots
    for kind, own in ((NEXT_TO_OWN, True), (NEXT_TO_OTHER, False)):
        cells = []
        for key in cells_next_to_caballeros(board, player, own):
            present, land = board.neighbour_masks(key)
            cells.append((key, present, land, 0, 0))
        spots = _fitting(cards, cells)
        if spots:
            return kind, spots
    return NOWHERE, []
