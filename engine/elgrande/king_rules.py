"""The King's rules over the map, as predicates the board's Layout builds its tables from
(engine.elgrande.board: the regions pieces may leave or enter, where caballeros are placed)
and the checks explain a refusal by (engine.elgrande.checks). No import: the board uses them.

>>> open_region(king=3, region=3), open_region(king=3, region=4)
(False, True)
>>> near_king([[1], [0, 2], [1]], {}, king=1), near_king([[1], [0, 2], [1]], {}, king=3)
([0, 2, 3], [0, 1, 2])
"""

from __future__ import annotations


def open_region(king: int, region: int) -> bool:
    """The King's region is untouchable: no caballero enters or leaves it (nor a Grande or a
    scoring tile). Every other region is open."""
    return region != king


def near_king(adjacent: list[list[int]], border: dict[int, list[int]], king: int) -> list[int]:
    """Where caballeros are placed from the court with the King at `king` (an index of the
    Layout): the regions next to the King's (those on France's or Portugal's border when he is
    exiled there) and the castillo; every region when he stands at the castillo (Revolt)."""
    castillo = len(adjacent)
    if king == castillo:
        return list(range(castillo))
    return [*(border[king] if king in border else adjacent[king]), castillo]
