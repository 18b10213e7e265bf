"""What El Grande allows now: the legal actions of each phase (a pending step's come from its
frame, engine.elgrande.frames) and the chance steps' outcomes. `driver.legal_actions` caches
them on the board.
"""

from __future__ import annotations

from typing import Final

from engine.core.actions import Action, shared_action
from engine.elgrande.board import CHANCE_PHASES, UNSEEN, Board
from engine.elgrande.frames import DONE
from engine.elgrande.options import Turn
from engine.elgrande.rules import (
    may_finish,
    may_place,
    may_start_special,
    placement_targets,
    take_limit,
    taken_totals,
)

SPECIAL: Final = Action("special")
SKIP: Final = Action("skip")
GREY: Final = Action("grey")
_CARD_ACTIONS: Final[dict[str, Action]] = {}
# `reveal <slot> <card>` per slot (1-5) and card: made once, shared (actions are immutable)
_REVEAL_ACTIONS: Final[list[dict[str, Action]]] = [{} for _ in range(6)]


def reveal_action(slot: int, card: str) -> Action:
    known = _REVEAL_ACTIONS[slot]
    action = known.get(card)
    if action is None:
        action = known[card] = Action("reveal", str(slot), card)
    return action


def chance_pool(g: Board) -> list[str] | None:
    """For a card draw, the cards (one per copy) it is drawn from; None for other steps."""
    if g.phase == "reveal":
        return g.decks[reveal_slot(g)]
    if g.phase == "setup_remove":
        return removal_pool(g)
    if g.phase == "setup_deal":
        return g.grey_deck
    return None


def removal_pool(g: Board) -> list[str]:
    deck = g.data.cards[g.pending_alternatives[0]].deck
    return g.decks[deck]


def chance_actions(g: Board) -> list[Action]:
    phase = g.phase
    if phase == "setup_first":
        return list(g.layout.first_actions)
    if phase == "setup_remove":
        deck = str(g.data.cards[g.pending_alternatives[0]].deck)
        named = [shared_action("remove", deck, c) for c in dict.fromkeys(removal_pool(g))]
        # At the table the card goes back in the box unseen: `remove <deck> ?`.
        return named if g._dealer else [*named, Action("remove", deck, UNSEEN)]
    if phase == "setup_king":
        kingcards = g.layout.kingcard_actions
        return [kingcards[r] for r in g.region_cards]
    if phase == "setup_home":
        homes = g.layout.home_actions[g.home_seat()]
        return [homes[r] for r in g.region_cards]
    if phase == "setup_deal":
        colour = g.colours[g.deal_seat()]
        return [shared_action("deal", colour, grey) for grey in dict.fromkeys(g.grey_deck)]
    if phase == "dummy_regions":
        dummycards = g.layout.dummycard_actions
        return [dummycards[r] for r in g.dummy_deck]
    if phase == "dummy_power":
        return [shared_action("dummypower", str(v)) for v in g.hands[g.dummy]]
    slot = reveal_slot(g)
    return [reveal_action(slot, c) for c in dict.fromkeys(g.decks[slot])]


def card_action(card_id: str) -> Action:
    action = _CARD_ACTIONS.get(card_id)
    if action is None:
        action = _CARD_ACTIONS[card_id] = Action("card", card_id)
    return action


def compute_legal(g: Board, player: int) -> list[Action]:
    if g.frame is not None:
        return g.frame.legal(g, player)
    phase = g.phase
    if phase == "main":
        assert g.turn is not None
        return main_actions(g, g.turn)
    if phase in CHANCE_PHASES:
        return chance_actions(g)
    if phase == "power":
        return power_actions(g, player)
    turn = g.turn
    assert turn is not None
    if phase == "take":
        return g.take_actions[: take_limit(g, turn, player) + 1]
    return [card_action(c) for c in g.face_up if c]  # phase "card": the cards rules.face_up


def power_actions(g: Board, player: int) -> list[Action]:
    taken = taken_totals(g)
    if taken:
        plain = [g.power_actions[v] for v in g.hands[player] if v not in taken]
    else:  # nobody has played yet: the whole hand
        plain = [g.power_actions[v] for v in g.hands[player]]
    if not g.grey_hands[player]:
        return plain
    cards = g.data.grey_cards
    return plain + [
        shared_action("shift", str(v), grey)
        for v in g.hands[player]
        for grey in dict.fromkeys(g.grey_hands[player])
        if v + cards[grey].value not in taken
    ]


def main_actions(g: Board, turn: Turn) -> list[Action]:
    if not may_place(g, turn):
        acts = []
    elif turn.infiltrate:
        acts = [g.place_actions[a] for a in placement_targets(g)]
    else:  # the table of placement_targets without Infiltration
        acts = list(g.layout.place_actions_by_king[g.king])
    if may_start_special(turn):
        acts.append(SPECIAL)
        acts.append(SKIP)
    if may_finish(turn):
        acts.append(DONE)
    return acts


def reveal_slot(g: Board) -> int:
    slot = g.next_pending_slot()
    if not slot:
        raise AssertionError("no deck to reveal")
    return slot
