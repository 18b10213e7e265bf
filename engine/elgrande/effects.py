"""Card effects: one function per step of the effect vocabulary (docs/game-data.md).

`start(g, op, me)` begins a step for the acting player `me`: it either finishes at once (a
scoring, a forced return) or leaves a frame on `g.frame` that waits for decisions. When a frame
finishes, `resolve_choice` / `resolve_discs` apply what it decided.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from engine.core.actions import Action, shared_action
from engine.elgrande.board import Board
from engine.elgrande.board_scoring import record_scoring, score
from engine.elgrande.choice_rules import (
    grande_destinations,
    grande_may_leave,
    king_targets,
    region_choices,
    tile_areas,
    tile_may_move,
    viceroy_swaps,
)
from engine.elgrande.frames import (
    UNLIMITED,
    ChoiceFrame,
    DiscFrame,
    EscortFrame,
    MoveFrame,
    PlaceFrame,
    RecallFrame,
    ReturnFrame,
)
from engine.elgrande.options import Veto
from engine.elgrande.scoring import regions_for_score_op

Op = dict[str, Any]


def start(g: Board, op: Op, me: int) -> None:
    # The frequent steps are called directly (compiled, a native call instead of a call
    # through the STEPS table's Python function objects); the rest through the table.
    name = op["op"]
    if name == "score":
        op_score(g, op, me)
    elif name == "king":
        op_king(g, op, me)
    elif name == "move":
        op_move(g, op, me)
    elif name == "place":
        op_place(g, op, me)
    elif name == "_return_one":
        op_return_one(g, op, me)
    elif name == "return":
        op_return(g, op, me)
    else:
        STEPS[name](g, op, me)


def _limit(value: Any) -> int:
    return UNLIMITED if value == "any" else int(value or 0)


def op_move(g: Board, op: Op, me: int) -> None:
    frame = MoveFrame(
        actor=me,
        own=_limit(op.get("own")),
        foreign=_limit(op.get("foreign")),
        any=_limit(op.get("any")),
        from_one=op.get("from") == "one",
    )
    if any(a.kind == "pick" for a in frame.legal(g, me)):
        g.frame = frame


def op_place(g: Board, op: Op, me: int) -> None:
    source = str(op.get("from", "court"))
    supply = g.province[me] if source == "province" else g.court[me]
    if supply:
        g.frame = PlaceFrame(
            actor=me, left=int(op["count"]), to=str(op.get("to", "regions")), source=source
        )


def op_return(g: Board, op: Op, me: int) -> None:
    for target in reversed(g.opponents_from_left(me, with_dummy=True)):
        g.ops.insert(0, {**op, "op": "_return_one", "target": target})


def op_return_one(g: Board, op: Op, me: int) -> None:
    target = int(op["target"])
    chooser = me if op.get("chooser") == "self" else target
    if chooser == g.dummy:
        return  # a step the dummy would have to decide is skipped
    sources = op.get("from", ["regions", "court"])
    from_court = "court" in sources
    from_regions = "regions" in sources
    court = g.court[target] if from_court else 0
    board = g.board_supply(target) if from_regions else 0
    wanted = court + board if op["count"] == "all" else min(int(op["count"]), court + board)
    if wanted == 0:
        return
    if not from_regions or wanted == court + board:
        # No choice to make: everything goes (or only court caballeros, which are all alike).
        take = min(wanted, court)
        g.court[target] -= take
        g.province[target] += take
        if from_regions:
            for region in g.movable_regions():
                g.province[target] += g.pieces[region][target]
                g.pieces[region][target] = 0
        return
    g.frame = ReturnFrame(
        actor=chooser,
        target=target,
        left=wanted,
        from_court=from_court,
        from_regions=from_regions,
    )


def op_court(g: Board, op: Op, me: int) -> None:
    count = min(int(op["count"]), g.province[me] + g.board_supply(me))
    from_province = min(count, g.province[me])
    g.province[me] -= from_province
    g.court[me] += from_province
    if count > from_province:
        g.frame = RecallFrame(actor=me, left=count - from_province)


def op_score(g: Board, op: Op, me: int) -> None:
    select = op["select"]
    if select == "chosen":
        areas = region_choices(g, "score", bool(op.get("castillo_allowed")))
        choices = [g.region_actions[a] for a in areas]
        g.frame = ChoiceFrame(actor=me, kind="region", choices=choices, purpose="score")
        return
    if select == "castillo":
        chosen = [g.CASTILLO]
    else:
        first_values = [g.values_of(r)[0] for r in range(g.R)]
        totals = [sum(g.pieces[r]) for r in range(g.R)]
        chosen = regions_for_score_op(op, first_values, totals)
    first_only = bool(op.get("first_only", False))
    record_scoring(g, g.card_in_play(), [score(g, a, first_only) for a in chosen])


def op_disc_return(g: Board, op: Op, me: int) -> None:
    players = g.seats if op["who"] == "all" else g.opponents_from_left(me)
    minimum = int(op["min_own"])
    options: dict[int, list[Action]] = {}
    for p in players:
        allowed = [r for r in g.movable_regions() if g.pieces[r][p] >= minimum]
        if allowed:
            options[p] = [g.disc_actions[r] for r in allowed]
    if options:
        g.frame = DiscFrame(options=options, purpose="return", payload=op["count"])


def op_coup(g: Board, op: Op, me: int) -> None:
    choices = [g.region_actions[r] for r in region_choices(g, "coup", False)]
    g.frame = ChoiceFrame(actor=me, kind="region", choices=choices, purpose="coup")


def op_rivalry(g: Board, op: Op, me: int) -> None:
    options = {p: [g.disc_actions[r] for r in range(g.R)] for p in g.seats}
    g.frame = DiscFrame(options=options, purpose="rivalry")


def op_king(g: Board, op: Op, me: int) -> None:
    rule = op["to"]
    if rule == "castillo":  # Revolt
        g.king = g.CASTILLO
        return
    if rule == "infiltrate":
        assert g.turn is not None
        g.turn.infiltrate = True
        return
    if rule == "swap_grande":  # Viceroy
        choices = [shared_action("viceroy", g.colours[p]) for p in viceroy_swaps(g)]
        if choices:
            g.frame = ChoiceFrame(actor=me, kind="viceroy", choices=choices)
        return
    choices = [g.king_actions[r] for r in king_targets(g, rule)]
    if choices:
        g.frame = ChoiceFrame(actor=me, kind="king", choices=choices, purpose=rule)


def op_grande(g: Board, op: Op, me: int) -> None:
    if op.get("any"):  # Power Shift: move any one Grande
        choices = [
            shared_action("movegrande", g.colours[p], g.tok[r])
            for p in range(g.n)
            if grande_may_leave(g, g.grandes[p])
            for r in grande_destinations(g, g.grandes[p])
        ]
        if choices:
            g.frame = ChoiceFrame(actor=me, kind="movegrande", choices=choices)
        return
    here = g.grandes[me]
    if not grande_may_leave(g, here):
        return
    choices = [g.grande_actions[r] for r in grande_destinations(g, here)]
    g.frame = ChoiceFrame(actor=me, kind="grande", choices=choices)


def op_tile(g: Board, op: Op, me: int) -> None:
    free = tile_areas(g)
    choices: list[Action] = []
    for tile in g.data.tiles:
        if tile_may_move(g, tile.id):
            choices.extend(shared_action("tile", tile.id, g.tok[a]) for a in free)
    if choices:
        g.frame = ChoiceFrame(actor=me, kind="tile", choices=choices)


def op_power_back(g: Board, op: Op, me: int) -> None:
    values = set(g.power_discards[me])
    if g.played[me] and g.played[me] not in g.hands[me]:
        values.add(g.played[me])
    choices = [shared_action("powerback", str(v)) for v in sorted(values)]
    # Power Shift: a grey card played earlier may be taken back instead.
    greys = set(g.grey_discards[me])
    if g.played_grey[me] and g.played_grey[me] not in g.grey_hands[me]:
        greys.add(g.played_grey[me])
    choices += [shared_action("powerback", grey) for grey in sorted(greys)]
    if choices:
        g.frame = ChoiceFrame(actor=me, kind="powerback", choices=choices)


def op_either(g: Board, op: Op, me: int) -> None:
    choices = [shared_action("option", str(i + 1)) for i in range(len(op["options"]))]
    g.frame = ChoiceFrame(actor=me, kind="option", choices=choices, payload=op["options"])


def op_veto(g: Board, op: Op, me: int) -> None:
    card = g.card_in_play()
    if card in g.used_cards:
        g.used_cards.remove(card)
    g.vetoes.append(Veto(holder=me, card=card, expires_after_round=g.round_index + 1))


STEPS: Final[dict[str, Callable[[Board, Op, int], None]]] = {
    "move": op_move,
    "place": op_place,
    "return": op_return,
    "_return_one": op_return_one,
    "court": op_court,
    "score": op_score,
    "disc_return": op_disc_return,
    "coup": op_coup,
    "rivalry": op_rivalry,
    "king": op_king,
    "grande": op_grande,
    "tile": op_tile,
    "power_back": op_power_back,
    "either": op_either,
    "veto": op_veto,
}


def resolve_choice(g: Board, frame: ChoiceFrame, action: Action) -> None:
    """Apply a one-off choice made in a ChoiceFrame."""
    me = frame.actor
    kind = frame.kind
    if kind == "king":
        _move_king(g, me, g.area(action.arg), frame.purpose)
    elif kind == "grande":
        g.grandes[me] = g.area(action.arg)
    elif kind == "movegrande":
        g.grandes[g.colour(action.arg)] = g.area(action.arg2)
    elif kind == "viceroy":
        p = g.colour(action.arg)
        g.grandes[p], g.king = g.king, g.grandes[p]
    elif kind == "tile":
        g.tiles[action.arg] = g.area(action.arg2)
    elif kind == "powerback":
        g.take_back(me, action.arg)
    elif kind == "option":
        g.ops[:0] = [dict(step) for step in frame.payload[int(action.arg) - 1]]
    elif kind == "grey":
        if action.kind == "grey":
            g.ops[:0] = [dict(step) for step in frame.payload]
    elif kind == "region" and frame.purpose == "score":
        record_scoring(g, g.card_in_play(), [score(g, g.area(action.arg))])
    elif kind == "region" and frame.purpose == "coup":
        _start_coup(g, me, g.area(action.arg))


def _move_king(g: Board, me: int, target: int, purpose: str) -> None:
    old = g.king
    g.king = target
    if purpose == "tournament":
        for p in range(g.n):
            if g.grandes[p] == target:
                g.grandes[p] = g.CASTILLO
    elif purpose == "escort" and 0 <= old < g.R:
        escorts = min(2, sum(g.pieces[old]))
        if escorts:
            g.frame = EscortFrame(actor=me, source=old, target=target, left=escorts)


def _start_coup(g: Board, me: int, region: int) -> None:
    others = [r for r in g.movable_regions() if r != region]
    options = {
        p: [g.disc_actions[r] for r in others]
        for p in g.opponents_from_left(me)
        if g.pieces[region][p]
    }
    if options:
        g.frame = DiscFrame(options=options, purpose="coup", payload=region)


def resolve_discs(g: Board, frame: DiscFrame) -> None:
    """Reveal the discs of a card's secret step and apply the rest of its effect."""
    chosen = frame.chosen
    if frame.purpose == "return":
        for p, region in chosen.items():
            have = g.pieces[region][p]
            count = have if frame.payload == "all" else min(int(frame.payload), have)
            g.pieces[region][p] -= count
            g.province[p] += count
    elif frame.purpose == "coup":
        source = int(frame.payload)
        for p, region in chosen.items():
            g.pieces[region][p] += g.pieces[source][p]
            g.pieces[source][p] = 0
    elif frame.purpose == "rivalry":
        votes = [0] * g.R
        for region in chosen.values():
            votes[region] += 1
        results = [score(g, r) for r in range(g.R) if votes[r] == 1]
        discs = {g.colours[p]: g.tok[r] for p, r in chosen.items()}
        record_scoring(g, g.card_in_play(), results, discs=discs)
