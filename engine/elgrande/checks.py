"""The checks an El Grande action is refused by, outside the steps of a special action: the
board's areas (the King's region, France and Portugal, the castillo, the court) and the phases
of a turn (power card, taking caballeros, the action card, placing and the special action).

Each check is `(board, …, action) -> Refusal | None`: None when that rule allows the action
(every legal action passes), else the refusal with its words (engine.elgrande.refusals). The
rule itself is a predicate of engine.elgrande.rules, the same the legal actions are listed by.
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.elgrande.board import Board
from engine.elgrande.king_rules import open_region
from engine.elgrande.options import Turn
from engine.elgrande.refusals import Refusal, refusal
from engine.elgrande.rules import (
    face_up,
    infiltrating,
    may_finish,
    may_place,
    may_start_special,
    placement_targets,
    take_limit,
    taken_totals,
)
from engine.elgrande.verbs import VERBS

# Where each decision verb names an area (argument index), and the verbs for which the King's
# region is off limits whatever the step (a disc or a scored region may show the King's region).
AREA_ARG = VERBS.arg_positions("area", chance=False)
KING_REGION_CLOSED = frozenset(VERBS.tagged("not-king-region"))


def area_of(g: Board, token: str) -> int | None:
    """The area a token names, None if it names none."""
    try:
        return g.area(token)
    except KeyError:
        return None


def area_name(g: Board, area: int) -> str:
    """An area's display name (for the English reason only; the parameter is its token)."""
    return g.regions[area].name if area < g.R else g.tok[area]


def card_name(g: Board, card_id: str) -> str:
    card = g.data.cards.get(card_id)
    return card.name() if card is not None else card_id


def closed(g: Board, area: int) -> Refusal:
    """The King's region is untouchable (rules.open_region)."""
    return refusal("king_region_closed", region=g.tok[area], name=area_name(g, area))


def no_such_card(card_id: str) -> Refusal:
    return refusal("no_such_card", arg=card_id)


def no_such_modifier(card_id: str) -> Refusal:
    return refusal("no_such_modifier", arg=card_id)


def court_empty() -> Refusal:
    return refusal("court_empty")


# ---------------------------------------------------------------- the board's areas
def area_check(g: Board, action: Action) -> Refusal | None:
    """What the board itself allows an area to take: the King's region, France, the castillo."""
    if action.kind not in AREA_ARG:
        return None
    token = action[1 + AREA_ARG[action.kind]]
    area = area_of(g, token)
    if area is None:
        return None
    kind = action.kind
    if area in (g.FRANCE, g.PORTUGAL):
        return refusal("not_a_region", region=g.tok[area], arg=token)
    if area == g.COURT and kind != "return":
        return refusal("court_not_a_place")
    if kind == "king":
        return _king_check(g, area)
    if not open_region(g.king, area) and g.king < g.CASTILLO and kind in KING_REGION_CLOSED:
        return _king_region_check(g, area, kind)
    if area == g.CASTILLO:
        return _castillo_check(g, kind)
    placing = kind == "place" and g.phase == "main" and g.frame is None
    if placing and area not in placement_targets(g):
        king = g.tok[g.king]
        return refusal("not_next_to_king", region=g.tok[area], king_region=king, arg=token)
    return None


def _king_check(g: Board, area: int) -> Refusal | None:
    if area == g.king:
        return refusal("king_already_there", region=g.tok[area], name=area_name(g, area))
    if area == g.CASTILLO:
        return refusal("king_not_castillo")
    return None


def _king_region_check(g: Board, area: int, kind: str) -> Refusal | None:
    if infiltrating(g, kind):
        return None
    if kind == "place" and _infiltration_unannounced(g):
        return refusal("king_region_infiltration", region=g.tok[area], name=g.regions[area].name)
    return closed(g, area)


def _castillo_check(g: Board, kind: str) -> Refusal | None:
    if g.king == g.CASTILLO and kind in ("place", "to"):
        return refusal("castillo_shut_by_king")
    if kind in ("pick", "recall", "return"):
        if g.phase == "scoring":
            return refusal("castillo_by_discs")
        return refusal("castillo_closed")
    if kind in ("grande", "movegrande"):
        return refusal("grande_not_castillo")
    if kind == "disc":
        return refusal("disc_not_castillo")
    return None


def _infiltration_unannounced(g: Board) -> bool:
    """The acting player took Infiltration and has not started its special action yet."""
    turn = g.turn
    if turn is None or g.phase != "main" or g.frame is not None or turn.special:
        return False
    card = g.data.cards.get(turn.card)
    return card is not None and any(
        op.get("op") == "king" and op.get("to") == "infiltrate" for op in card.effect
    )


# ---------------------------------------------------------------- the phases of a turn
def power_check(g: Board, player: int, action: Action) -> Refusal | None:
    """A power card (with Power Shift, plus a modifier) from the hand, its power not played yet
    this round (rules.taken_totals)."""
    if action.kind not in ("power", "shift"):
        return refusal("play_power_first")
    value = int(action.arg) if action.arg.isdigit() else -1
    if not 1 <= value <= 13:
        return refusal("no_power_card", arg=action.arg)
    total = value
    if action.kind == "shift":
        grey = g.data.grey_cards.get(action.arg2)
        if grey is None:
            return no_such_modifier(action.arg2)
        if action.arg2 not in g.grey_hands[player]:
            return refusal("modifier_not_held", modifier=grey.id, modifier_name=grey.name())
        total = value + grey.value
    if total in taken_totals(g):
        return _power_taken(g, action, value, total)
    if value in g.power_discards[player]:
        return refusal("power_used", value=value)
    if value not in g.hands[player]:
        return refusal("power_not_held", value=value)
    return None


def _power_taken(g: Board, action: Action, value: int, total: int) -> Refusal:
    who = next(p for p in range(g.n) if g.played[p] and g.totals[p] == total)
    colour = g.colours[who]
    if g.played[who] == total and action.kind == "power":
        return refusal("power_played", value=value, colour=colour)
    return refusal("power_total_played", value=total, colour=colour)


def take_check(g: Board, player: int, action: Action) -> Refusal | None:
    """Caballeros to the court: as many as the power card allows and the player has
    (rules.take_limit)."""
    turn = g.turn
    assert turn is not None
    if action.kind != "take":
        return refusal("take_first", max=turn.take)
    if not action.arg.isdigit():
        return refusal("take_how_many")
    count = int(action.arg)
    if count > turn.take:
        return refusal("take_at_most", max=turn.take)
    if count > take_limit(g, turn, player):
        return refusal("take_not_enough")
    return None


def card_check(g: Board, action: Action) -> Refusal | None:
    """An action card face up, not taken yet this round (rules.face_up)."""
    if action.kind == "take":
        return refusal("already_took")
    if action.kind != "card":
        return refusal("choose_card_first")
    if face_up(g, action.arg):
        return None
    if action.arg not in g.data.cards:
        return no_such_card(action.arg)
    name = card_name(g, action.arg)
    taker = _taken_this_round(g, action.arg)
    if taker is not None:
        return refusal("card_taken", card=action.arg, colour=g.colours[taker], card_name=name)
    return refusal("card_not_face_up", card=action.arg, card_name=name)


def _taken_this_round(g: Board, card_id: str) -> int | None:
    """Who chose the card since the round's cards were revealed (the last chance step)."""
    for who, done in reversed(g.history):
        if who < 0:
            return None
        if done.kind == "card" and done.arg == card_id:
            return who
    return None


def main_check(g: Board, player: int, action: Action) -> Refusal | None:
    """Placing from the court and the special action, each once and unsplit, in either order
    (rules.may_place, may_start_special, may_finish)."""
    turn = g.turn
    assert turn is not None
    kind = action.kind
    if kind == "place" and not may_place(g, turn):
        return _place_refusal(g, player, turn)
    if kind in ("special", "skip") and not may_start_special(turn):
        if turn.placing:
            return refusal("finish_placing_first")
        return refusal("special_done")
    if kind == "done" and not may_finish(turn):
        return refusal("nothing_to_finish", card=turn.card, card_name=card_name(g, turn.card))
    if kind in ("power", "shift", "take", "card"):
        return refusal("already_done", card=turn.card, card_name=card_name(g, turn.card))
    return None


def _place_refusal(g: Board, player: int, turn: Turn) -> Refusal | None:
    if not g.court[player]:
        return court_empty()
    name = card_name(g, turn.card)
    if turn.placed and turn.place_left == 0:
        allowed = g.data.cards[turn.card].place
        return refusal("placed_all", card=turn.card, max=allowed, card_name=name)
    if turn.placed:
        return refusal("placement_finished")
    if turn.special == 1:
        return refusal("finish_special_first")
    return None
