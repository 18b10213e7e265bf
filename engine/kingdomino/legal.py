"""What may be done now in a Kingdomino game (a `State`), as the platform's actions, and the
notation they are read from: each seat's legal actions, the action a fast integer move stands
for (`State.moves()`: a placement `cell*4+dir`, `DISCARD`, or a claimed domino's number), the
chance outcomes with their probabilities, and the parser. Why an action is refused is
engine.kingdomino.refusals.

>>> from engine.kingdomino.data import load
>>> from engine.kingdomino.options import Options
>>> state = State(Options(players=("pink", "blue"), mode="table"), load())
>>> legal_actions(state)[:2]
[Action(kind='draw', arg='1', arg2=''), Action(kind='draw', arg='2', arg2='')]
>>> str(parse(state, "place 7 C4E"))
'place 7 c4e'
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.core.errors import IllegalAction, NotationError
from engine.core.protocol import CHANCE
from engine.kingdomino import kingdom as kd
from engine.kingdomino.refusals import check_chance, check_move
from engine.kingdomino.state import State
from engine.kingdomino.steps import CLAIM, DISCARD, DRAW, KING
from engine.kingdomino.verbs import VERBS


def legal_actions(state: State, player: int | None = None) -> list[Action]:
    """The actions `player` (None: whoever acts) may take now ([] if it does not act)."""
    actors = state.acting()
    if not actors or (player is not None and player not in actors):
        return []
    if state.step == DRAW:
        return [Action("draw", str(n)) for n in state.data.numbers() if not state.seen[n]]
    if state.step == KING:
        seats = sorted({state.setup.seat_of_king[k] for k in state.kings_left()})
        return [Action("king", state.options.players[seat]) for seat in seats]
    return [move_action(state, move) for move in state.moves()]


def move_action(state: State, move: int) -> Action:
    """The action a move of `state.moves()` stands for."""
    if state.step == CLAIM:
        return Action("claim", str(move))
    number = str(state.current_domino())
    if move == DISCARD:
        return Action("discard", number)
    return Action("place", number, state.placement_text(move))


def is_legal(state: State, player: int, action: Action | str) -> bool:
    """Whether `player` may take `action` now (exactly the actions `legal_actions` lists;
    never raises)."""
    if player not in state.acting():
        return False
    try:
        if isinstance(action, str):
            action = parse(state, action)
        if action.kind not in VERBS:
            return False
        if player == CHANCE:
            check_chance(state, action)
        else:
            check_move(state, action)
    except (IllegalAction, NotationError, ValueError):
        return False
    return True


def chance_outcomes(state: State) -> list[tuple[Action, float]]:
    """At a chance step, each outcome with the probability the dealer draws it with: a domino
    uniformly among those not drawn yet; a king uniformly among those not drawn yet (a seat
    with two kings twice as likely). `[]` when chance does not act now."""
    if state.step == DRAW:
        pool = state.unseen
        return [(Action("draw", str(n)), 1 / len(pool)) for n in pool]
    if state.step == KING:
        left = state.kings_left()
        counts: dict[int, int] = {}
        for king in left:
            seat = state.setup.seat_of_king[king]
            counts[seat] = counts.get(seat, 0) + 1
        players = state.options.players
        return [
            (Action("king", players[seat]), count / len(left))
            for seat, count in sorted(counts.items())
        ]
    return []


# ---------------------------------------------------------------------- notation
def parse(state: State, text: str) -> Action:
    """An action of this game's notation (NotationError if the text is not one); a twin
    domino's placement is named from its first half."""
    action = VERBS.parse(text)
    if action.kind == "king":
        colour = action.arg.lower()
        if colour not in state.options.players:
            raise NotationError(f"{action.arg!r} is not a colour in this game")
        return Action("king", colour)
    if not action.arg.isdigit():
        raise NotationError(f"'{action.kind}' takes a domino number: {text!r}")
    number = str(int(action.arg))
    if action.kind != "place":
        return Action(action.kind, number)
    move = state.parse_placement(action.arg2)
    data, n = state.data, int(number)
    if 1 <= n <= data.count and (data.terrain_a[n], data.crowns_a[n]) == (
        data.terrain_b[n],
        data.crowns_b[n],
    ):
        move = canonical_twin(state, move)
    return Action("place", number, state.placement_text(move))


def canonical_twin(state: State, move: int) -> int:
    """A twin domino named from its second half (west, north) names the same squares from the
    first (east, south)."""
    if move & 3 in (kd.EAST, kd.SOUTH):
        return move
    mirrored = state.kingdoms[0].mirror(move)
    other = mirrored >> 2
    return mirrored if state.kingdoms[0].terrain[other] != kd.BLOCKED else move
