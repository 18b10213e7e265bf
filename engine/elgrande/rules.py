"""El Grande's small rules, each written once as a predicate over the board: what the legal
actions are listed by (engine.elgrande.legal, the frames' `legal`, the Layout's tables built
from them) and what a refused action is checked against (engine.elgrande.checks and
step_checks, which add the words of the refusal).

The King's two rules over the map (his region is untouchable, caballeros are placed next to
him) are in engine.elgrande.king_rules, which the board's Layout builds its tables from.
The rules of a card's one-choice steps (where the King, a Grande or a scoring tile may go, which
region a card scores or empties) are in engine.elgrande.choice_rules.
"""

from __future__ import annotations

from engine.elgrande.board import Board
from engine.elgrande.king_rules import open_region
from engine.elgrande.options import Turn


# ---------------------------------------------------------------- the board
def enterable(g: Board, area: int) -> bool:
    """A caballero may go into `area`: a region or the castillo, never the King's area."""
    return area < g.FRANCE and open_region(g.king, area)


def placement_targets(g: Board) -> list[int]:
    """Where the acting player may place from court: next to the King, or the castillo; with
    Infiltration also the King's region (do not mutate)."""
    targets = g.layout.placement[g.king]
    if g.turn is not None and g.turn.infiltrate and g.king < g.R:
        return [*targets, g.king]
    return targets


def infiltrating(g: Board, kind: str) -> bool:
    """Infiltration opens the King's region to its player's placement from the court."""
    turn = g.turn
    if turn is None or kind != "place" or g.frame is not None or g.phase != "main":
        return False
    return turn.infiltrate


def move_destinations(g: Board, source: int) -> list[int]:
    """Where a caballero picked in `source` may be moved: another region or the castillo."""
    into = [a for a in g.movable_regions() if a != source]  # the table of open_region
    if open_region(g.king, g.CASTILLO):
        into.append(g.CASTILLO)
    return into


# ---------------------------------------------------------------- set-up
def may_go_first(g: Board, colour: int) -> bool:
    """A colour may get the first-player marker: a player's, never the 2-player dummy's (the
    Layout's `first_actions` list the same seats)."""
    return colour in g.seats


# ---------------------------------------------------------------- the phases of a turn
def taken_totals(g: Board) -> list[int]:
    """The powers played this round (a power card, with Power Shift plus its modifier): no two
    players play the same."""
    played = g.played
    return [g.totals[p] for p in range(g.n) if played[p]]


def take_limit(g: Board, turn: Turn, player: int) -> int:
    """How many caballeros the player may take to the court: what the power card allows, at
    most those in the province and the regions (from which a short province is made up)."""
    return min(turn.take, g.province[player] + g.board_supply(player))


def face_up(g: Board, card: str) -> bool:
    """An action card may be chosen: it lies face up, not taken yet this round."""
    return card != "" and card in g.face_up


def may_place(g: Board, turn: Turn) -> bool:
    """The acting player may (still) place from the court: the placement is not finished (it is
    never split), the card allows more and the court is not empty."""
    return not turn.placed and turn.place_left != 0 and g.court[turn.player] != 0


def may_start_special(turn: Turn) -> bool:
    """The special action may be started or skipped: not during the placement, once a turn."""
    return not turn.placing and turn.special == 0


def may_finish(turn: Turn) -> bool:
    """`done` ends the placement under way, or (the special action started or skipped) says
    that no caballero is placed."""
    return turn.placing or (turn.special != 0 and not turn.placed)
