"""The rules of a card's one-choice steps, each written once: engine.elgrande.effects lists a
step's choices by them (a ChoiceFrame), engine.elgrande.step_checks explains by the same
predicates why a choice not listed is refused. Where the King may go, which Grande may move and
where to, which scoring tile may move and where to, which region a card scores or empties.

The King's region is untouchable (king_rules.open_region): no Grande and no scoring tile leaves
or enters it. Each rule is a list of the candidates in the order the choices are offered (what
effects builds from, on the computer players' hot path); the `…_may_…` predicate beside it is
membership in that list (what a check asks, on the slow path of a refused action).
"""

from __future__ import annotations

from engine.elgrande.board import Board
from engine.elgrande.king_rules import open_region
from engine.elgrande.rules import move_destinations


# ---------------------------------------------------------------- the King
def king_targets(g: Board, rule: str) -> list[int]:
    """Where a card's King step (its `to` rule) may send the King: next to his region (to
    France's or Portugal's border regions when he is there, anywhere from the castillo); Exile:
    France or Portugal; Summer Residence: the emptiest occupied region(s); else any other
    region."""
    king = g.king
    if rule == "adjacent":
        if king in g.border_regions:
            return list(g.border_regions[king])
        if king == g.CASTILLO:
            return list(range(g.R))
        return list(g.adjacent[king])
    if rule == "border":  # Exile
        return [a for a in (g.FRANCE, g.PORTUGAL) if a != king]
    if rule == "fewest":  # Summer Residence: the emptiest occupied region; a tie is a choice
        totals = [sum(g.pieces[r]) for r in range(g.R)]
        occupied = [t for t in totals if t > 0]
        if not occupied:
            return []
        fewest = min(occupied)
        return [r for r in range(g.R) if totals[r] == fewest]
    return [r for r in range(g.R) if r != king]  # "any", "escort", "tournament"


# ---------------------------------------------------------------- the Grandes
def grande_may_leave(g: Board, here: int) -> bool:
    """A Grande may be moved out of `here`: a region, not the King's (Tournament's Grandes in
    the castillo stay there)."""
    return 0 <= here < g.R and open_region(g.king, here)


def grande_destinations(g: Board, here: int) -> list[int]:
    """Where a Grande standing in `here` may go: another region, not the King's."""
    return [r for r in g.movable_regions() if r != here]


def viceroy_swaps(g: Board) -> list[int]:
    """The colours whose Grande Viceroy may swap with the King: both must stand in regions (the
    Grande not in the King's, from which it may not leave)."""
    if g.king >= g.R:
        return []
    return [p for p in range(g.n) if grande_may_leave(g, g.grandes[p])]


def viceroy_may_swap(g: Board, colour: int) -> bool:
    return colour in viceroy_swaps(g)


# ---------------------------------------------------------------- the scoring tiles
def tile_may_move(g: Board, tile: str) -> bool:
    """A scoring tile may be moved: it does not lie in the King's region."""
    return open_region(g.king, g.tiles.get(tile, -1))


def tile_areas(g: Board) -> list[int]:
    """Where a scoring tile may go: a region (not the King's) or the castillo where no tile lies
    (rules.move_destinations from no region: every area a piece may enter)."""
    occupied = set(g.tiles.values())
    return [a for a in move_destinations(g, -1) if a not in occupied]


def tile_may_enter(g: Board, area: int) -> bool:
    return area in tile_areas(g)


# ---------------------------------------------------------------- a region to score or empty
def region_choices(g: Board, purpose: str, castillo: bool) -> list[int]:
    """A card's region choice: to score ("score"), any region, then the castillo only if the
    card says so (`castillo`); to empty by a coup ("coup"), a region not the King's (the
    Layout's table of open_region)."""
    if purpose == "coup":
        return list(g.movable_regions())
    return [*range(g.R), g.CASTILLO] if castillo else list(range(g.R))


def region_may_be_chosen(g: Board, area: int, purpose: str, castillo: bool) -> bool:
    return area in region_choices(g, purpose, castillo)
