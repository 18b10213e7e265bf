"""The checks an action is refused by during a step of a special action (a frame,
engine.elgrande.frames): the verbs the step takes, and each step's rule, read from the frame's
own predicates (what its `legal` lists by). Each check returns None when the step allows the
action, else the refusal with its words.

The one-choice and secret steps list fixed choices (engine.elgrande.effects makes them): an
action among them is allowed (`offered`), any other is explained by what the card allows, read
from the predicates the choices were listed by (engine.elgrande.choice_rules).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.actions import Action
from engine.elgrande.board import Board, Frame
from engine.elgrande.checks import (
    area_name,
    area_of,
    card_name,
    closed,
    court_empty,
    no_such_modifier,
)
from engine.elgrande.choice_rules import (
    grande_destinations,
    grande_may_leave,
    king_targets,
    region_may_be_chosen,
    tile_may_enter,
    tile_may_move,
    viceroy_may_swap,
)
from engine.elgrande.frames import (
    ChoiceFrame,
    DiscFrame,
    EscortFrame,
    MoveFrame,
    PassFrame,
    PlaceFrame,
    RecallFrame,
    ReturnFrame,
    SecretFrame,
)
from engine.elgrande.refusals import Refusal, refusal, sample
from engine.elgrande.verbs import VERBS

STEP_VERBS = VERBS.by_step()  # the verbs each pending step takes


def offered(frame: Frame, player: int, action: Action) -> bool:
    """The action is one of the fixed choices of a one-choice or secret step."""
    if isinstance(frame, ChoiceFrame):
        return action in frame.choices
    if isinstance(frame, SecretFrame):
        return player not in frame.chosen and action in frame.options.get(player, ())
    return False


def frame_check(g: Board, frame: Frame, player: int, action: Action) -> Refusal | None:
    """A step of a special action is finished before anything else (no splitting)."""
    turn = g.turn
    splitting = action.kind == "place" and not isinstance(frame, PlaceFrame)
    if splitting and turn is not None and turn.special == 1:
        return refusal("mid_special", card=turn.card, card_name=card_name(g, turn.card))
    allowed = STEP_VERBS.get(frame.kind)
    if allowed and action.kind not in allowed:
        return refusal("finish_step", step=frame.kind, verb=", ".join(allowed))
    if isinstance(frame, MoveFrame):
        return _move_check(g, frame, action)
    if isinstance(frame, PlaceFrame):
        return _place_check(g, frame, action)
    if isinstance(frame, ReturnFrame):
        return _return_check(g, frame, action)
    if isinstance(frame, RecallFrame):
        return _recall_check(g, frame, action)
    if isinstance(frame, ChoiceFrame):
        return _choice_check(g, frame, action)
    if isinstance(frame, DiscFrame):
        return _disc_check(g, frame, player, action)
    if isinstance(frame, EscortFrame):
        return _escort_check(g, frame, action)
    if isinstance(frame, PassFrame):
        grey = g.data.grey_cards.get(action.arg)
        if grey is None:
            return no_such_modifier(action.arg)
        return refusal("modifier_not_held", modifier=grey.id, modifier_name=grey.name())
    return None  # Veto: the two verbs of the step


def _escort_check(g: Board, frame: EscortFrame, action: Action) -> Refusal | None:
    """Escort: caballeros of any colour go with the King, from his old region only."""
    name = area_name(g, frame.source)
    token = g.tok[frame.source]
    if area_of(g, action.arg2) != frame.source:
        return refusal("escort_source", region=token, name=name)
    colour = g.colour_lookup.get(action.arg.casefold())
    if colour is not None and g.pieces[frame.source][colour]:
        return None
    shown = g.colours[colour] if colour is not None else action.arg
    return refusal("escort_none_left", colour=shown, region=token, arg=action.arg, name=name)


def _move_check(g: Board, frame: MoveFrame, action: Action) -> Refusal | None:
    """Pick a caballero, then say where it goes (frames.MoveFrame.sources, moves_left)."""
    if frame.picked is not None:
        colour, source = frame.picked
        where = area_name(g, source)
        if action.kind != "to":
            return refusal("say_where", colour=g.colours[colour], region=g.tok[source], name=where)
        if area_of(g, action.arg) == source:
            return refusal("move_elsewhere", region=g.tok[source], name=where)
        return None
    if action.kind == "to":
        return refusal("pick_first")
    if action.kind == "pick":
        return _pick_check(g, frame, action)
    return None


def _pick_check(g: Board, frame: MoveFrame, action: Action) -> Refusal | None:
    region = area_of(g, action.arg2)
    colour = g.colour_lookup.get(action.arg.casefold())
    if region is None or colour is None:
        return None
    if region < g.R and not g.pieces[region][colour]:
        return _none_there(g, colour, region, action.arg, action.arg2)
    if region not in frame.sources(g):
        return refusal("from_one_region", region=g.tok[frame.source])
    if frame.moves_left(colour == frame.actor):
        return None
    if colour == frame.actor:
        return refusal("no_more_own")
    return refusal("no_more_foreign")


def _none_there(g: Board, colour: int, area: int, typed: str, where: str) -> Refusal:
    return refusal(
        "none_there", colour=g.colours[colour], region=g.tok[area], arg=typed, name=where
    )


def _place_check(g: Board, frame: PlaceFrame, action: Action) -> Refusal | None:
    """Militia, Delegation: place while the card allows and the supply lasts, where the card
    says (frames.PlaceFrame.may_place, areas)."""
    if action.kind != "place":
        return None
    if not frame.may_place(g) and not g.court[frame.actor]:
        return court_empty()
    area = area_of(g, action.arg)
    if area == g.CASTILLO and area not in frame.areas(g):
        return refusal("regions_only")
    return None


def _return_check(g: Board, frame: ReturnFrame, action: Action) -> Refusal | None:
    """Caballeros of one colour back to the province, from where the card says
    (frames.ReturnFrame.may_return)."""
    colour = g.colour_lookup.get(action.arg.casefold())
    target = g.colours[frame.target]
    if colour is not None and colour != frame.target:
        return refusal(
            "return_other_colour", colour=target, other=g.colours[colour], arg=action.arg
        )
    area = area_of(g, action.arg2)
    if area is None or frame.may_return(g, area):
        return None
    if area == g.COURT:
        if not frame.from_court:
            return refusal("return_regions_only")
        return refusal("court_empty_of", colour=target)
    if not frame.from_regions:
        return refusal("return_court_only")
    if area < g.R:
        return _none_there(g, frame.target, area, target, area_name(g, area))
    return None


def _recall_check(g: Board, frame: RecallFrame, action: Action) -> Refusal | None:
    """Own caballeros from a region (not the King's) to the court."""
    area = area_of(g, action.arg)
    if area is not None and area < g.R and not g.pieces[area][frame.actor]:
        return refusal("recall_none", region=g.tok[area], name=area_name(g, area))
    return None


def _choice_check(g: Board, frame: ChoiceFrame, action: Action) -> Refusal | None:
    """An action not among the step's choices: why the card does not allow it (the
    choice_rules predicate that left it out of the choices)."""
    verb = frame.kind  # a one-choice step is named after its verb (verbs.py: "choice")
    if frame.kind == "grey" or action.kind != verb:
        return refusal("finish_choice", legal=sample(list(frame.choices)))
    # the area: the second argument of `tile <tile> <area>` and `movegrande <colour> <region>`
    second = verb in ("tile", "movegrande")
    area = area_of(g, action[2] if second else action[1]) if action.arg else None
    if verb == "king":
        targets = king_targets(g, frame.purpose)
        return refusal("king_not_there", legal=", ".join(g.tok[a] for a in targets))
    if verb == "grande":
        return _grande_check(g, g.grandes[frame.actor], area)
    if verb == "movegrande":
        return _movegrande_check(g, action, area)
    if verb == "viceroy":
        return _viceroy_check(g, action)
    if verb == "tile":
        return _tile_check(g, action, area)
    if verb == "powerback":
        return refusal("powerback_unavailable", arg=action.arg)
    if verb == "option":
        return refusal("choose_option", legal=sample(list(frame.choices)))
    if verb == "region":
        return _region_check(g, frame, area)
    return None


def _grande_check(g: Board, here: int, area: int | None) -> Refusal | None:
    """The acting player's Grande goes to another region (choice_rules.grande_destinations;
    the King's region and the castillo: engine.elgrande.checks.area_check)."""
    if area is None or area in grande_destinations(g, here):
        return None
    if area == here:
        return refusal("own_grande_already_there", region=g.tok[area], name=area_name(g, area))
    return None


def _movegrande_check(g: Board, action: Action, area: int | None) -> Refusal | None:
    """Power Shift: any Grande that may leave its region, to another region
    (choice_rules.grande_may_leave, grande_destinations)."""
    owner = g.colour_lookup.get(action.arg.casefold())
    if owner is None:
        return refusal("no_grande", arg=action.arg)
    colour = g.colours[owner]
    here = g.grandes[owner]
    if not grande_may_leave(g, here):
        key = "grande_in_king_region" if here == g.king else "grande_not_in_region"
        return refusal(key, colour=colour, arg=action.arg)
    if area is None or area in grande_destinations(g, here):
        return None
    if area == g.king:
        return closed(g, area)
    if area == here:
        name = area_name(g, here)
        return refusal(
            "grande_already_there", colour=colour, region=g.tok[here], arg=action.arg, name=name
        )
    return None


def _viceroy_check(g: Board, action: Action) -> Refusal | None:
    """Viceroy: a Grande standing in a region other than the King's
    (choice_rules.viceroy_may_swap)."""
    owner = g.colour_lookup.get(action.arg.casefold())
    if owner is not None and viceroy_may_swap(g, owner):
        return None
    return refusal("viceroy_only")


def _tile_check(g: Board, action: Action, area: int | None) -> Refusal | None:
    """A tile not in the King's region, to a region (not the King's) or the castillo with no
    tile (choice_rules.tile_may_move, tile_may_enter)."""
    ids = [t.id for t in g.data.tiles]
    if action.arg not in ids:
        return refusal("no_such_tile", arg=action.arg, legal=", ".join(ids))
    if not tile_may_move(g, action.arg):
        return refusal("tile_in_king_region", tile=action.arg)
    if area is None or tile_may_enter(g, area):
        return None
    name = area_name(g, area)
    if g.tiles.get(action.arg) == area:
        return refusal("tile_already_there", tile=action.arg, region=g.tok[area], name=name)
    other = [t for t, where in g.tiles.items() if where == area and t != action.arg]
    if other:
        return refusal("tile_area_taken", region=g.tok[area], tile=other[0], name=name)
    if area == g.king:  # at the castillo (his region: engine.elgrande.checks.area_check)
        return refusal("castillo_shut_by_king")
    return None


def _region_check(g: Board, frame: ChoiceFrame, area: int | None) -> Refusal | None:
    """A region to score (the castillo only if the card says so) or to empty by a coup (not the
    King's): choice_rules.region_may_be_chosen."""
    if area is None:
        return None
    castillo = _card_step(g, "score").get("castillo_allowed", False)
    if region_may_be_chosen(g, area, frame.purpose, bool(castillo)):
        return None
    if area == g.CASTILLO:
        return refusal("castillo_not_scored")
    if frame.purpose == "coup" and area == g.king:
        return closed(g, area)
    return None


def _disc_check(g: Board, frame: DiscFrame, player: int, action: Action) -> Refusal | None:
    """A secret disc not among the player's options: why the card does not allow it."""
    area = area_of(g, action.arg)
    if area is None or area >= g.R:
        return None
    name = area_name(g, area)
    if frame.purpose in ("return", "coup") and area == g.king:
        return closed(g, area)
    if frame.purpose == "coup" and area == frame.payload:
        return refusal("coup_leave", region=g.tok[area], name=name)
    if frame.purpose == "return":
        need = _disc_minimum(g)
        have = g.pieces[area][player]
        return refusal("disc_minimum", count=have, region=g.tok[area], need=need, name=name)
    return None


def _disc_minimum(g: Board) -> int:
    """The fewest own caballeros a region needs for the current card's return disc."""
    return int(_card_step(g, "disc_return").get("min_own", 1))


def _card_step(g: Board, op: str) -> Mapping[str, Any]:
    """The current card's first step `op` (options of an `either` included), {} if none."""
    card = g.data.cards.get(g.turn.card) if g.turn is not None else None
    steps = list(card.effect) if card is not None else []
    while steps:
        step = steps.pop(0)
        if step.get("op") == op:
            return step
        for option in step.get("options", ()):
            steps.extend(option)
    return {}
