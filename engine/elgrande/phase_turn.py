"""El Grande's turn: caballeros taken to court (`take`), an action card chosen (`card`), then
the placements and the card's special action (`main`), with the Vetoes and the card's steps
(engine.elgrande.effects) in between. The turn ends in phase_round.start_turn (the next one).
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.elgrande import effects, phase_round
from engine.elgrande.board import Board
from engine.elgrande.frames import ChoiceFrame, RecallFrame, VetoFrame
from engine.elgrande.legal import GREY, SKIP


def do_take(g: Board, player: int, action: Action) -> None:
    count = int(action.arg)
    from_province = min(count, g.province[player])
    g.province[player] -= from_province
    g.court[player] += from_province
    g.phase = "card"
    if count > from_province:
        g.frame = RecallFrame(actor=player, left=count - from_province)
    else:
        after_take(g)


def after_take(g: Board) -> None:
    """Power Shift: a played modifier's special effect comes before the action card."""
    turn = g.turn
    assert turn is not None
    grey = g.played_grey[turn.player]
    effect = g.data.grey_cards[grey].effect if grey else ()
    if effect:
        g.ops_context = "grey"
        g.frame = ChoiceFrame(actor=turn.player, choices=[GREY, SKIP], kind="grey", payload=effect)


def do_card(g: Board, player: int, action: Action) -> None:
    turn = g.turn
    assert turn is not None
    slot = g.face_up.index(action.arg)
    g.face_up[slot] = ""
    if action.arg != g.king_card:
        g.used_cards.append(action.arg)
    turn.card = action.arg
    g.taken[player] = action.arg
    card = g.data.cards[action.arg]
    turn.place_left = card.place
    g.phase = "main"
    if any(op["op"] == "veto" for op in card.effect):
        # "Having chosen the Veto card, you lay it face up in front of you": no special
        # action to do or skip; it is the card itself that acts later.
        effects.op_veto(g, {"op": "veto"}, player)
        turn.special = 2


def do_main(g: Board, player: int, action: Action) -> None:
    turn = g.turn
    assert turn is not None
    kind = action.kind
    if kind == "place":
        area = g.layout.exact_area[action.arg]
        court = g.court
        court[player] -= 1
        g.pieces[area][player] += 1
        if area == g.CASTILLO:
            g.announce_throw(player, player)
        turn.place_left -= 1
        if turn.place_left and court[player]:
            turn.placing = True
            return  # still placing: the turn cannot end yet
        turn.placing = False
        turn.placed = True
    elif kind == "done":
        turn.placing = False
        turn.placed = True
    elif kind == "skip":
        turn.special = 2
    elif kind == "special":
        turn.special = 1
        g.veto_queue = veto_holders(g, player) if g.vetoes else []
        ask_veto_or_run(g)
        return
    maybe_end_turn(g)


def veto_holders(g: Board, player: int) -> list[int]:
    """Who may veto `player`'s special action, clockwise from their left: each holder is
    asked once, however many Vetoes they hold."""
    holders = {v.holder for v in g.vetoes if v.holder != player}
    return sorted(holders, key=lambda h: (h - player) % g.n)


def ask_veto_or_run(g: Board) -> None:
    turn = g.turn
    assert turn is not None
    if g.veto_queue:
        g.frame = VetoFrame(actor=g.veto_queue.pop(0), against=turn.player)
        return
    g.ops = [dict(op) for op in g.data.cards[turn.card].effect]
    g.ops_context = "special"
    run_ops(g)


def resolve_veto(g: Board, frame: VetoFrame, vetoed: bool) -> None:
    if not vetoed:
        return  # driver.after_frame asks the next holder or runs the special action
    # A holder of two Vetoes spends the one that expires first.
    veto = min(
        (v for v in g.vetoes if v.holder == frame.actor), key=lambda v: v.expires_after_round
    )
    g.vetoes.remove(veto)
    g.used_cards.append(veto.card)
    g.veto_queue = []
    g.ops = []
    assert g.turn is not None
    g.turn.special = 2


def run_ops(g: Board) -> None:
    turn = g.turn
    assert turn is not None
    while g.frame is None and g.ops:
        effects.start(g, g.ops.pop(0), turn.player)
    if g.frame is not None:
        return
    context, g.ops_context = g.ops_context, ""
    if context == "special":
        turn.special = 2
        maybe_end_turn(g)
    elif turn.special == 2:  # a vetoed special action
        maybe_end_turn(g)


def maybe_end_turn(g: Board) -> None:
    turn = g.turn
    assert turn is not None
    nothing_to_place = not turn.place_left or not g.court[turn.player]
    if turn.special == 2 and not turn.placing and not turn.placed and nothing_to_place:
        turn.placed = True
    if turn.placed and turn.special == 2:
        g.turn_pos += 1
        phase_round.start_turn(g)
