"""El Grande's set-up phases: the first player, the alternative cards' swaps, the King, the home
regions, Power Shift's modifiers dealt and passed. Each `do_<phase>` applies a legal action of
its phase (Game.apply has checked it); the last one starts the first round (phase_round).
"""

from __future__ import annotations

from engine.core.actions import Action, shared_action
from engine.elgrande import phase_round
from engine.elgrande.board import UNSEEN, Board
from engine.elgrande.frames import PassFrame


def do_setup_first(g: Board, player: int, action: Action) -> None:
    g.first = g.colour(action.arg)
    g.phase = "setup_remove" if g.pending_alternatives else "setup_king"
    if not g.pending_alternatives:
        merge_decks(g)


def do_setup_remove(g: Board, player: int, action: Action) -> None:
    g.pending_alternatives.pop(0)
    if action.arg2 == UNSEEN:
        # The deck's list keeps every candidate, one of them no longer there.
        g.unseen_set_aside[int(action.arg)] += 1
    else:
        g.decks[int(action.arg)].remove(action.arg2)
    if not g.pending_alternatives:
        # Every card is set aside before the alternative cards go in: none is set aside.
        for alternative in g.options.alternatives:
            g.decks[g.data.cards[alternative].deck].append(alternative)
        merge_decks(g)
        g.phase = "setup_king"


def merge_decks(g: Board) -> None:
    if 3 not in g.slots:
        g.decks[2] += g.decks[3]
        g.decks[3] = []
        g.unseen_set_aside[2] += g.unseen_set_aside[3]
        g.unseen_set_aside[3] = 0


def do_setup_king(g: Board, player: int, action: Action) -> None:
    g.king = g.area(action.arg)
    g.region_cards.remove(g.king)
    g.phase = "setup_home"


def do_setup_home(g: Board, player: int, action: Action) -> None:
    seat = g.home_seat()
    region = g.area(action.arg2)
    g.region_cards.remove(region)
    g.grandes[seat] = region
    g.pieces[region][seat] += g.data.start_caballeros
    g.court[seat] += g.data.court_at_start
    g.province[seat] -= g.data.start_caballeros + g.data.court_at_start
    g.home_pos += 1
    if g.home_pos < len(g.seats):
        return
    g.region_cards = list(range(g.R))  # back in the box, or the dummy's deck
    if g.dummy >= 0:
        g.dummy_deck = list(range(g.R))
    if g.options.power_shift:
        g.phase = "setup_deal"
    else:
        phase_round.start_round(g)


def do_setup_deal(g: Board, player: int, action: Action) -> None:
    seat = g.deal_seat()
    g.grey_deck.remove(action.arg2)
    g.grey_hands[seat].append(action.arg2)
    g.deal_pos += 1
    if g.deal_pos == 3 * len(g.seats):
        options = {
            p: [shared_action("pass", grey) for grey in dict.fromkeys(g.grey_hands[p])]
            for p in g.seats
        }
        g.phase = "setup_pass"
        g.frame = PassFrame(options=options)


def finish_pass(g: Board, chosen: dict[int, str]) -> None:
    for p, grey in chosen.items():
        g.grey_hands[p].remove(grey)
    for p, grey in chosen.items():
        left = g.opponents_from_left(p)[0]
        g.grey_hands[left].append(grey)
    phase_round.start_round(g)
