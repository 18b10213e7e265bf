"""The counters of one turn (`State.turn`, a list indexed by these names), and where a seat's
Grande is when it is on no card (`State.grande_at`)."""

from __future__ import annotations

REINFORCED = 0  # 1 once the reinforcements are taken
AREAS = 1  # area cards placed
AREAS_DUE = 2  # area cards to place (2 with the power card 9)
KNIGHTS = 3  # caballero cards placed or raised (0-2)
SHIPS = 4  # ships bought (1-2)
CASTILLOS = 5  # castillos bought (1-2)
WITHDRAWN = 6  # caballero cards withdrawn (they come back next turn at the earliest)
GRANDE_MOVED = 7  # 1 once the Grande was moved (extended game)
COUNTERS = 8

GRANDE_COURT = -1  # the Grande waits at its owner's court
GRANDE_NONE = -2  # the base game: no Grande


def new_turn(areas_due: int) -> list[int]:
    out = [0] * COUNTERS
    out[AREAS_DUE] = areas_due
    return out
