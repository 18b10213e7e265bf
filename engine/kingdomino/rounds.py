"""The rules of a Kingdomino round, as functions that change a `State` (engine.kingdomino.state).

A game is a sequence of rounds. The set-up round: a line is drawn (`draw`, one domino at a time,
the line sorted by number), then the kings are drawn one by one (`king`) and each drawn king
claims a domino of it. Every later round: the next line is drawn, and each king in the order of
the current line places its domino (`place`, or `discard` when it fits nowhere) and claims one
of the next line (`claim`). When the pile is used up, a last round of placements only. A
domino nobody claims (the wider draft) is discarded when the line becomes current. A Dynasty
match plays its games one after the other (`State.past` keeps the finished games' scores).

Nothing here checks an action (engine.kingdomino.refusals does, for engine.kingdomino.game):
`play(state, move)` applies a legal move of `state.moves()` (the computer players' fast form),
`chance(state, action)` a legal chance step, and `auto_chance` lets the dealer (or a playout
copy's generator) draw while chance acts.

>>> from engine.kingdomino.data import load
>>> from engine.kingdomino.options import Options
>>> state = State(Options(players=("pink", "blue"), mode="dealer", seed=3), load())
>>> auto_chance(state)
>>> state.acting(), len(state.line_next)
((0,), 4)
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.core.chance import dealer_draw
from engine.core.protocol import CHANCE
from engine.kingdomino.scoring import breakdown
from engine.kingdomino.state import State
from engine.kingdomino.steps import CLAIM, DISCARD, DRAW, KING, OVER, PLACE


# ---------------------------------------------------------------------- the kings' moves
def play(state: State, move: int) -> None:
    """Apply a move of `state.moves()` (no check; the computer players' playouts), then let
    chance act if it draws."""
    if state.step == PLACE:
        place(state, move)
    else:
        claim(state, move)
    auto_chance(state)


def place(state: State, move: int) -> None:
    """The acting king places its domino (`move`: a placement, or DISCARD)."""
    seat = state.setup.seat_of_king[state.order[state.turn]]
    if move == DISCARD:
        state.discarded[seat] += 1
    else:
        n, data = state.current_domino(), state.data
        state.kingdoms[seat].place(
            move, data.terrain_a[n], data.crowns_a[n], data.terrain_b[n], data.crowns_b[n]
        )
    if state.line_next:
        state.step = CLAIM
    else:
        advance(state)


def claim(state: State, number: int) -> None:
    """The acting king claims domino `number` of the next line."""
    state.next_kings[state.line_next.index(number)] = state.order[state.turn]
    advance(state)


# ---------------------------------------------------------------------- the round's course
def line_drawn(state: State) -> None:
    """A full line is out: sorted; the first of a game is picked in a drawn king order."""
    state.line_next.sort()
    state.next_kings = [-1] * len(state.line_next)
    if not state.line:
        state.step = KING
    else:
        begin_round(state)


def begin_round(state: State) -> None:
    """The kings of the current line place in its order."""
    state.order = [king for king in state.line_kings if king >= 0]
    state.turn = 0
    state.step = PLACE


def advance(state: State) -> None:
    """The acting king is done: the next king, or the end of the round."""
    state.turn += 1
    if not state.line and state.kings_left():
        state.step = KING  # the set-up round: the next king is drawn
        return
    if state.turn < len(state.order):
        state.step = PLACE if state.line else CLAIM
        return
    claimed = [slot for slot, king in enumerate(state.next_kings) if king >= 0]
    for slot, king in enumerate(state.next_kings):
        if king < 0:  # nobody claimed it (the wider draft): out of the game
            state.left_over.append(state.line_next[slot])
    state.line = [state.line_next[slot] for slot in claimed]
    state.line_kings = [state.next_kings[slot] for slot in claimed]
    state.line_next, state.next_kings = [], []
    state.order, state.turn = [], 0
    if not state.line:
        end_game(state)
    elif state.drawn < state.setup.dominoes:
        state.step = DRAW
    else:
        begin_round(state)  # the last round: placements only


def end_game(state: State) -> None:
    """A game is over: its scores are kept; a Dynasty's next game begins, or the match ends."""
    state.past.append([breakdown(state, seat).total for seat in range(state.setup.players)])
    if len(state.past) < state.setup.games:
        state.game_number += 1
        state.new_game()
    else:
        state.step = OVER


# ---------------------------------------------------------------------- chance
def auto_chance(state: State) -> None:
    """While chance acts and something draws (the dealer, or a playout copy's generator), it
    draws: the next domino of the line, or the next king of the set-up round."""
    while state.step in (DRAW, KING) and (state.dealer or state.chance_rng is not None):
        if state.step == DRAW:
            pool = state.unseen
            chance(state, Action("draw", str(pool[draw_index(state, len(pool))])))
        else:
            left = state.kings_left()
            seat = state.setup.seat_of_king[left[draw_index(state, len(left))]]
            chance(state, Action("king", state.options.players[seat]))


def draw_index(state: State, count: int) -> int:
    """A draw in 0..count-1: the copy's generator, else the seeded dealer's draw for this
    step."""
    if state.chance_rng is not None:
        return state.chance_rng.randrange(count)
    return dealer_draw(state.options.seed, state.steps, count)


def chance(state: State, action: Action) -> None:
    """A legal chance step (`draw N` or `king COLOUR`), recorded in the history if it is."""
    if state.recording:
        state.history.append((CHANCE, action))
    state.steps += 1
    if action.kind == "draw":
        number = int(action.arg)
        state.seen[number] = True
        state.unseen.remove(number)
        state.drawn += 1
        state.line_next.append(number)
        if len(state.line_next) == state.setup.line:
            line_drawn(state)
    else:
        seat = state.options.players.index(action.arg)
        king = next(k for k in state.kings_left() if state.setup.seat_of_king[k] == seat)
        state.kings_drawn.append(king)
        state.order = state.kings_drawn[:]
        state.turn = len(state.kings_drawn) - 1
        state.step = CLAIM
