"""El Grande's round: the dummy's regions, the action cards revealed, the power cards played
(turn order), each player's turn started in that order (phase_turn plays it), the end of the
round and the general scoring. Each `do_<phase>` applies a legal action of its phase.
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.elgrande.board import Board
from engine.elgrande.board_scoring import record_scoring, score
from engine.elgrande.frames import DiscFrame
from engine.elgrande.options import Turn


def record_reveal(g: Board, frame: DiscFrame) -> None:
    """The discs are turned face up: who chose which region becomes public."""
    general = frame.purpose == "general"
    g.disc_reveals.append(
        {
            "card": "general" if general else g.card_in_play(),
            "round": g.rounds[g.round_index - 1] if general else g.round_number,
            "discs": {g.colours[p]: g.tok[r] for p, r in sorted(frame.chosen.items())},
        }
    )


def start_round(g: Board) -> None:
    g.face_up[4] = g.king_card
    g.played = [0] * g.n
    g.totals = [0] * g.n
    g.played_grey = [""] * g.n
    g.taken = [""] * g.n
    seats = g.seats
    start = seats.index(g.first)
    g.power_order = [seats[(start + i) % len(seats)] for i in range(len(seats))]
    g.power_pos = 0
    if g.dummy >= 0 and g.province[g.dummy] and g.dummy_deck:
        g.dummy_draws = 2
        g.phase = "dummy_regions"
    else:
        begin_reveals(g)


def do_dummy_regions(g: Board, player: int, action: Action) -> None:
    region = g.area(action.arg)
    g.dummy_deck.remove(region)
    if region != g.king:
        count = min(2, g.province[g.dummy])
        g.province[g.dummy] -= count
        g.pieces[region][g.dummy] += count
    g.dummy_draws -= 1
    if not g.dummy_draws or not g.province[g.dummy] or not g.dummy_deck:
        begin_reveals(g)


def begin_reveals(g: Board) -> None:
    g.phase = "reveal"
    next_reveal(g)


def next_reveal(g: Board) -> None:
    if g.next_pending_slot():
        return
    g.phase = "dummy_power" if g.dummy >= 0 else "power"


def do_reveal(g: Board, player: int, action: Action) -> None:
    slot = int(action.arg)
    g.decks[slot].remove(action.arg2)
    g.face_up[slot - 1] = action.arg2
    next_reveal(g)


def do_dummy_power(g: Board, player: int, action: Action) -> None:
    value = int(action.arg)
    g.hands[g.dummy].remove(value)
    g.played[g.dummy] = g.totals[g.dummy] = value
    g.phase = "power"


def do_power(g: Board, player: int, action: Action) -> None:
    value = int(action.arg)
    g.hands[player].remove(value)
    g.played[player] = g.totals[player] = value
    if action.kind == "shift":
        grey = action.arg2
        g.grey_hands[player].remove(grey)
        g.played_grey[player] = grey
        g.totals[player] = value + g.data.grey_cards[grey].value
    g.power_pos += 1
    if g.power_pos == len(g.power_order):
        players = [p for p in range(g.n) if g.played[p]]
        # highest total first; stable, as a sort on the negated total would be
        g.turn_order = sorted(players, key=g.totals.__getitem__, reverse=True)
        g.turn_pos = 0
        start_turn(g)


def start_turn(g: Board) -> None:
    while g.turn_pos < len(g.turn_order):
        player = g.turn_order[g.turn_pos]
        if player != g.dummy:
            take = g.data.power_caballeros[g.played[player] - 1]
            g.turn = Turn(
                player=player,
                take=take,
                first_action=len(g.history),
                first_throw=len(g.throws),
            )
            g.phase = "take"
            return
        dummy_turn(g)
        g.turn_pos += 1
    g.turn = None
    end_round(g)


def dummy_turn(g: Board) -> None:
    """The dummy takes the face-up card that places the most caballeros and discards it."""
    cards = g.data.cards
    slots = [s for s in range(5) if g.face_up[s]]
    if not slots:
        return
    slot = max(slots, key=lambda s: (cards[g.face_up[s]].place, s))
    card = g.face_up[slot]
    g.face_up[slot] = ""
    g.taken[g.dummy] = card
    if card != g.king_card:
        g.used_cards.append(card)


def end_round(g: Board) -> None:
    for slot in range(5):
        card = g.face_up[slot]
        if card and card != g.king_card:
            g.used_cards.append(card)
        g.face_up[slot] = ""
    # the lowest total starts the next round; a tie goes to the earlier seat
    totals = g.totals
    first = g.seats[0]
    for p in g.seats:
        if totals[p] < totals[first]:
            first = p
    g.first = first
    for p in range(g.n):
        value = g.played[p]
        if value and value not in g.hands[p]:  # not taken back by Power of attorney
            g.power_discards[p].append(value)
        grey = g.played_grey[p]
        if grey and grey not in g.grey_hands[p]:
            g.grey_discards[p].append(grey)
    for veto in [v for v in g.vetoes if v.expires_after_round <= g.round_index]:
        g.vetoes.remove(veto)
        g.used_cards.append(veto.card)
    number = g.round_number
    g.score_history.append({"round": number, "scores": list(g.scores)})
    g.round_index += 1
    if number in g.data.scoring_after:
        start_general_scoring(g)
    else:
        start_round(g)


def start_general_scoring(g: Board) -> None:
    g.phase = "scoring"
    if g.king == g.CASTILLO:
        finish_general_scoring(g, {})  # Revolt: the castillo keeps its pieces
        return
    options = {p: [g.disc_actions[r] for r in range(g.R)] for p in g.seats}
    g.frame = DiscFrame(options=options, purpose="general")


def finish_general_scoring(g: Board, discs: dict[int, int]) -> None:
    results = [score(g, g.CASTILLO)]
    moved: dict[str, str] = {}
    castillo = g.pieces[g.CASTILLO]
    for p in range(g.n):
        if p not in discs:
            continue
        count, castillo[p] = castillo[p], 0
        target = discs[p]
        to_court = target == g.king
        if to_court:
            g.court[p] += count
        else:
            g.pieces[target][p] += count
            if g.grandes[p] == g.CASTILLO:  # Tournament: it leaves with its owner's
                g.grandes[p] = target
        moved[g.colours[p]] = "court" if to_court else g.tok[target]
    if g.dummy >= 0 and discs:
        # The dummy sets no disc: its castillo caballeros go back to its supply.
        g.province[g.dummy] += castillo[g.dummy]
        castillo[g.dummy] = 0
    results += [score(g, r) for r in range(g.R)]
    revealed = {g.colours[p]: g.tok[r] for p, r in discs.items()}
    record_scoring(g, "general", results, discs=revealed, moved=moved)
    if g.dummy >= 0:
        g.dummy_deck = list(range(g.R))  # reshuffled after each general scoring
    if g.round_index >= len(g.rounds):
        g.phase = "over"
    else:
        start_round(g)
