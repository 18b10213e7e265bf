"""Why an action is illegal, in words a player understands.

Only called on the slow path (an action that is not in the legal list), so clarity beats speed.
Reasons go to the player who tried the action: they never reveal another player's secrets.
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.elgrande.board import Board, Frame
from engine.elgrande.frames import (
    ChoiceFrame,
    DiscFrame,
    EscortFrame,
    MoveFrame,
    PassFrame,
    PlaceFrame,
    RecallFrame,
    ReturnFrame,
    VetoFrame,
)
from engine.elgrande.verbs import VERBS

PHASE_WORDS = {
    "setup_first": "the first player is to be set",
    "setup_king": "the King's region card is to be revealed",
    "setup_home": "a player's home region card is to be revealed",
    "setup_remove": "a card is set aside for each alternative action card",
    "setup_deal": "the Power Shift modifier cards are being dealt",
    "setup_pass": "every player passes one modifier card face down to the left",
    "dummy_regions": "region cards are drawn for the dummy's caballeros",
    "dummy_power": "the dummy's power card is to be turned up",
    "reveal": "the action cards are being revealed",
    "power": "power cards are being played",
    "take": "the player takes caballeros to the court",
    "card": "the player chooses an action card",
    "main": "the player places caballeros and/or does the special action",
    "scoring": "every player secretly sets a disc for the general scoring",
    "over": "the game is over",
}

# From the verb table: the verbs each pending step takes, the chance verbs, and the verbs that
# only answer a step of a special action.
STEP_VERBS = VERBS.by_step()
CHANCE_VERBS = VERBS.chance
STEP_ONLY_VERBS = frozenset(VERBS.group("step"))


def explain(g: Board, player: int, action: Action) -> str:
    """A specific reason why `action` by `player` is not legal now."""
    if g.frame is None and g.phase != "main":
        # Out of order (e.g. placing during the power cards): the order is the reason.
        reason = _step_reason(g, player, action) or _area_reason(g, action)
    else:
        reason = _area_reason(g, action) or _step_reason(g, player, action)
    if reason:
        return reason
    legal = g.legal_actions(player)
    return f"not possible now ({PHASE_WORDS.get(g.phase, g.phase)}); legal: {_sample(legal)}"


def _sample(actions: list[Action], limit: int = 8) -> str:
    shown = ", ".join(str(a) for a in actions[:limit])
    return shown + (" …" if len(actions) > limit else "")


def _area(g: Board, token: str) -> int | None:
    try:
        return g.area(token)
    except KeyError:
        return None


def _region_name(g: Board, area: int) -> str:
    return g.regions[area].name if area < g.R else g.tok[area]


def _card_name(g: Board, card_id: str) -> str:
    card = g.data.cards.get(card_id)
    return card.name() if card is not None else card_id


# Where each decision verb names an area (argument index), and the verbs for which the King's
# region is off limits whatever the step (a disc or a scored region may show the King's region).
AREA_ARG = VERBS.arg_positions("area", chance=False)
KING_REGION_CLOSED = frozenset(VERBS.tagged("not-king-region"))


def _area_reason(g: Board, action: Action) -> str:
    """Reasons that come from the board itself: the King's region, France, the castillo."""
    if action.kind not in AREA_ARG:
        return ""
    token = action[1 + AREA_ARG[action.kind]]
    area = _area(g, token)
    if area is None:
        return ""
    if area in (g.FRANCE, g.PORTUGAL):
        return f"{token} is not a region: nothing but the King (by Exile) ever goes there"
    if area == g.COURT and action.kind not in ("return",):
        return "the court is not a place on the board: name a region"
    if action.kind == "king":
        if area == g.king:
            return f"the King is already in {_region_name(g, area)}"
        if area == g.CASTILLO:
            return "the King never goes into the castillo"
        return ""
    if area == g.king and g.king < g.CASTILLO and action.kind in KING_REGION_CLOSED:
        name = g.regions[area].name
        if action.kind == "place" and _infiltration_unannounced(g):
            return (
                f"the King's region ({name}) opens only once you announce Infiltration's "
                "special action ('special'): then you may place there this turn"
            )
        return f"the King's region ({name}) is untouchable: nothing may enter or leave it"
    if area == g.CASTILLO == g.king and action.kind in ("place", "to"):
        return "the King stands at the castillo: nothing may be thrown in while he is there"
    if area == g.CASTILLO:
        if action.kind in ("pick", "recall", "return"):
            if g.phase == "scoring":
                return (
                    "at the general scoring the castillo's caballeros leave by the discs only: "
                    "set your disc to the region they go to"
                )
            return "caballeros never come out of the castillo before a general scoring"
        if action.kind in ("grande", "movegrande"):
            return "a Grande never goes into the castillo"
        if action.kind == "disc":
            return "the castillo is not a region: the disc must show a region"
    placing = action.kind == "place" and g.phase == "main" and g.frame is None
    if placing and area not in g.placement_targets():
        king = g.tok[g.king]
        return f"{token} is not next to the King's region ({king}): place there or in the castillo"
    return ""


def _infiltration_unannounced(g: Board) -> bool:
    """The acting player took Infiltration and has not started its special action yet."""
    turn = g.turn
    if turn is None or g.phase != "main" or g.frame is not None or turn.special:
        return False
    card = g.data.cards.get(turn.card)
    return card is not None and any(
        op.get("op") == "king" and op.get("to") == "infiltrate" for op in card.effect
    )


def _step_reason(g: Board, player: int, action: Action) -> str:
    if g.frame is not None:
        return _frame_reason(g, g.frame, player, action)
    if g.is_chance():
        return _chance_reason(g, action)
    if action.kind in CHANCE_VERBS:
        return f"'{action.kind}' enters a revealed card, and no card is to be revealed now"
    if action.kind == "grey":
        return (
            "no modifier card's effect can be used now: it comes right after taking "
            "caballeros, before the action card"
        )
    if action.kind in STEP_ONLY_VERBS:
        return (
            f"'{action.kind}' belongs to a step of a special action, and none is under way "
            f"({PHASE_WORDS.get(g.phase, g.phase)})"
        )
    phase_reason = {
        "power": _power_reason,
        "take": _take_reason,
        "card": _card_reason,
        "main": _main_reason,
    }.get(g.phase)
    return phase_reason(g, player, action) if phase_reason else ""


# ---------------------------------------------------------------- chance steps (table mode)
def _chance_reason(g: Board, action: Action) -> str:
    expected = {
        "setup_first": "first",
        "setup_king": "kingcard",
        "setup_home": "home",
        "setup_remove": "remove",
        "setup_deal": "deal",
        "dummy_regions": "dummycard",
        "dummy_power": "dummypower",
    }.get(g.phase, "reveal")
    if action.kind != expected:
        return f"now {PHASE_WORDS[g.phase]}: enter it with '{expected} …'"
    if action.kind in ("kingcard", "home"):
        if action.kind == "home":
            seat = g.home_seat()
            if g.colour_lookup.get(action.arg.casefold()) != seat:
                return f"it is {g.colours[seat]}'s home region card now"
        region = _area(g, action[1 if action.kind == "kingcard" else 2])
        if region is not None and region >= g.R:
            return "region cards show regions only"
        if region is not None and region not in g.region_cards:
            return (
                f"the {_region_name(g, region)} region card is already out: {_who_has(g, region)}"
            )
    if action.kind == "reveal":
        return _reveal_reason(g, action)
    if action.kind == "remove":
        return _remove_reason(g, action)
    if action.kind == "deal":
        return _deal_reason(g, action)
    if action.kind == "dummycard":
        region = _area(g, action.arg)
        if region is not None and region >= g.R:
            return "region cards show regions only"
        if region is not None and region not in g.dummy_deck:
            name = _region_name(g, region)
            return f"the {name} region card was already drawn for the dummy"
    if action.kind == "dummypower":
        return f"the dummy has no power card {action.arg} left"
    return ""


def _remove_reason(g: Board, action: Action) -> str:
    alternative = g.pending_alternatives[0]
    deck = g.data.cards[alternative].deck
    name = _card_name(g, alternative)
    if action.arg != str(deck):
        return f"the card set aside for {name} comes from deck {deck}"
    card = g.data.cards.get(action.arg2)
    if card is None:
        return f"there is no action card {action.arg2!r}"
    return f"{card.name()} is not in deck {deck}"


def _deal_reason(g: Board, action: Action) -> str:
    seat = g.deal_seat()
    if g.colour_lookup.get(action.arg.casefold()) != seat:
        return f"it is {g.colours[seat]}'s modifier card now"
    if action.arg2 not in g.data.grey_cards:
        return f"there is no modifier card {action.arg2!r}"
    return f"no copy of modifier card {action.arg2} is left to deal"


def _who_has(g: Board, region: int) -> str:
    if region == g.king:
        return "it placed the King"
    owners = [g.colours[p] for p in range(g.n) if g.grandes[p] == region]
    return f"it is {owners[0]}'s home" if owners else "it was drawn already"


def _reveal_reason(g: Board, action: Action) -> str:
    due = next(iter(g.pending_slots()), None)
    if due is None:
        return "no action card is to be revealed now"
    if action.arg != str(due):
        return f"deck {due} is turned up now (the decks in order)"
    card = g.data.cards.get(action.arg2)
    if card is None:
        return f"there is no action card {action.arg2!r}"
    if action.arg2 not in g.decks[due]:
        merged = due == 2 and card.deck == 3 and 3 not in g.slots  # decks 2 and 3 as one
        if card.deck != due and not merged:
            return f"{card.name()} belongs to deck {card.deck}, not deck {due}"
        if card.alternative and card.id not in g.options.alternatives:
            return f"{card.name()} is an alternative card and this game does not use it"
        return f"no copy of {card.name()} is left in deck {due}"
    return ""


# ---------------------------------------------------------------- the phases of a turn
def _power_reason(g: Board, player: int, action: Action) -> str:
    if action.kind not in ("power", "shift"):
        return "play a power card first ('power <value>')"
    value = int(action.arg) if action.arg.isdigit() else -1
    if not 1 <= value <= 13:
        return f"there is no power card {action.arg}: they run from 1 to 13"
    total = value
    if action.kind == "shift":
        grey = g.data.grey_cards.get(action.arg2)
        if grey is None:
            return f"there is no modifier card {action.arg2!r}"
        if action.arg2 not in g.grey_hands[player]:
            return f"you do not hold the modifier card {grey.name()}"
        total = value + grey.value
    for p in range(g.n):
        if g.played[p] and g.totals[p] == total:
            who = g.colours[p]
            if g.played[p] == total and action.kind == "power":
                return f"power card {value} was already played this round (by {who})"
            return f"a power of {total} was already played this round (by {who})"
    if value in g.power_discards[player]:
        return f"you already used power card {value} in an earlier round"
    if value not in g.hands[player]:
        return f"you do not hold power card {action.arg}"
    return ""


def _take_reason(g: Board, player: int, action: Action) -> str:
    turn = g.turn
    assert turn is not None
    if action.kind != "take":
        return (
            f"first take caballeros to your court ('take 0' to 'take {turn.take}'), "
            "then choose an action card"
        )
    if not action.arg.isdigit():
        return "say how many caballeros to take, e.g. 'take 2'"
    if int(action.arg) > turn.take:
        return f"your power card lets you take at most {turn.take} caballero(s)"
    return "there are not that many of your caballeros in the province and regions"


def _card_reason(g: Board, player: int, action: Action) -> str:
    if action.kind == "take":
        return "you have already taken caballeros to your court this turn"
    if action.kind != "card":
        return "choose an action card first ('card <id>')"
    if action.arg not in g.data.cards:
        return f"there is no action card {action.arg!r}"
    name = _card_name(g, action.arg)
    taker = _taken_this_round(g, action.arg)
    if taker is not None:
        return f"{name} was already taken this round (by {g.colours[taker]})"
    return f"{name} is not face up now"


def _taken_this_round(g: Board, card_id: str) -> int | None:
    """Who chose the card since the round's cards were revealed (the last chance step)."""
    for who, done in reversed(g.history):
        if who < 0:
            return None
        if done.kind == "card" and done.arg == card_id:
            return who
    return None


def _main_reason(g: Board, player: int, action: Action) -> str:
    turn = g.turn
    assert turn is not None
    card = _card_name(g, turn.card)
    if action.kind == "place":
        allowed = g.data.cards[turn.card].place
        if not g.court[player]:
            return "your court is empty"
        if turn.placed and turn.place_left == 0:
            return f"{card} lets you place at most {allowed} caballero(s), and you placed them"
        if turn.placed:
            return "your placement is already finished this turn: it may not be split"
        if turn.special == 1:
            return "finish the special action before placing (no splitting)"
    if action.kind in ("special", "skip"):
        if turn.placing:
            return "finish placing (say 'done') before the special action: neither may be split"
        if turn.special:
            return "the special action is already done or skipped this turn"
    if action.kind == "done":
        return (
            "nothing to finish: place caballeros, or start ('special') or skip ('skip') "
            f"the special action of {card}"
        )
    if action.kind in ("power", "shift", "take", "card"):
        return f"you already did that this turn: now place caballeros and/or use {card}"
    return ""


# ---------------------------------------------------------------- steps of a special action
def _frame_reason(g: Board, frame: Frame, player: int, action: Action) -> str:
    turn = g.turn
    splitting = action.kind == "place" and not isinstance(frame, PlaceFrame)
    if splitting and turn is not None and turn.special == 1:
        return (
            f"you are in the middle of the special action of {_card_name(g, turn.card)}: "
            "finish it before placing (no splitting)"
        )
    allowed = STEP_VERBS.get(frame.kind)
    if allowed and action.kind not in allowed:
        return f"finish the current step first ({frame.kind}): use {', '.join(allowed)}"
    if isinstance(frame, MoveFrame):
        return _move_reason(g, frame, action)
    if isinstance(frame, PlaceFrame):
        return _place_step_reason(g, frame, action)
    if isinstance(frame, ReturnFrame):
        return _return_reason(g, frame, action)
    if isinstance(frame, RecallFrame):
        return _recall_reason(g, frame, action)
    if isinstance(frame, ChoiceFrame):
        return _choice_reason(g, frame, action)
    if isinstance(frame, DiscFrame):
        return _disc_reason(g, frame, player, action)
    if isinstance(frame, EscortFrame):
        return _escort_reason(g, frame, action)
    if isinstance(frame, PassFrame):
        grey = g.data.grey_cards.get(action.arg)
        if grey is None:
            return f"there is no modifier card {action.arg!r}"
        return f"you do not hold the modifier card {grey.name()}"
    if isinstance(frame, VetoFrame):
        return ""
    return ""


def _escort_reason(g: Board, frame: EscortFrame, action: Action) -> str:
    source = _region_name(g, frame.source)
    if _area(g, action.arg2) != frame.source:
        return f"the King's escort comes from his old region ({source}) only"
    return f"there is no {action.arg} caballero left in {source}"


def _move_reason(g: Board, frame: MoveFrame, action: Action) -> str:
    if frame.picked is not None:
        colour, source = frame.picked
        where = _region_name(g, source)
        if action.kind != "to":
            picked = f"{g.colours[colour]} caballero from {where}"
            return f"say first where the picked {picked} goes ('to <area>')"
        if _area(g, action.arg) == source:
            return (
                f"that caballero is already in {where}: move it to another region or the castillo"
            )
        return ""
    if action.kind == "to":
        return "pick a caballero first ('pick <colour> <region>')"
    if action.kind == "pick":
        return _pick_reason(g, frame, action)
    return ""


def _pick_reason(g: Board, frame: MoveFrame, action: Action) -> str:
    region = _area(g, action.arg2)
    colour = g.colour_lookup.get(action.arg.casefold())
    if region is None or colour is None:
        return ""
    if region < g.R and not g.pieces[region][colour]:
        return f"there is no {action.arg} caballero in {action.arg2}"
    if frame.from_one and frame.source not in (-1, region):
        return f"this card moves caballeros out of one region only ({g.tok[frame.source]})"
    if colour == frame.actor:
        return "this card does not let you move more of your own caballeros"
    return "this card does not let you move more opponents' caballeros"


def _place_step_reason(g: Board, frame: PlaceFrame, action: Action) -> str:
    if action.kind != "place":
        return ""
    if not g.court[frame.actor]:
        return "your court is empty"
    if _area(g, action.arg) == g.CASTILLO and frame.to == "regions":
        return "this card places caballeros into regions only, not into the castillo"
    return ""


def _return_reason(g: Board, frame: ReturnFrame, action: Action) -> str:
    colour = g.colour_lookup.get(action.arg.casefold())
    target = g.colours[frame.target]
    if colour is not None and colour != frame.target:
        return f"now {target}'s caballeros go back to the province, not {action.arg}'s"
    area = _area(g, action.arg2)
    if area is None:
        return ""
    if area == g.COURT:
        if not frame.from_court:
            return "this card returns caballeros from regions only, not from the court"
        return f"{target} has no caballero in the court"
    if not frame.from_regions:
        return "this card returns caballeros from the court only"
    if area < g.R and not g.pieces[area][frame.target]:
        return f"there is no {target} caballero in {_region_name(g, area)}"
    return ""


def _recall_reason(g: Board, frame: RecallFrame, action: Action) -> str:
    area = _area(g, action.arg)
    if area is not None and area < g.R and not g.pieces[area][frame.actor]:
        return f"you have no caballero in {_region_name(g, area)} to bring to your court"
    return ""


def _choice_reason(g: Board, frame: ChoiceFrame, action: Action) -> str:
    verb = frame.kind  # a one-choice step is named after its verb (verbs.py: "choice")
    if frame.kind == "grey" or action.kind != verb:
        return f"finish the current step first: choose one of {_sample(frame.choices)}"
    area = _area(g, action[2] if verb == "tile" else action[1]) if action.arg else None
    if verb == "king":
        targets = ", ".join(c.arg for c in frame.choices)
        return f"this card moves the King only to: {targets}"
    if verb == "grande" and area is not None and area == g.grandes[frame.actor]:
        return f"your Grande is already in {_region_name(g, area)}"
    if verb == "movegrande":
        return _movegrande_reason(g, action, area)
    if verb == "viceroy":
        return "Viceroy swaps the King only with a Grande standing in another region"
    if verb == "tile":
        return _tile_reason(g, action, area)
    if verb == "powerback":
        return (
            f"power card {action.arg} is neither in your discard pile nor the one you played "
            "this round"
        )
    if verb == "option":
        return f"choose one of {_sample(frame.choices)}"
    if verb == "region":
        if area == g.CASTILLO:
            return "the castillo is not a region: this card does not score it"
        if frame.purpose == "coup" and area == g.king:
            name = _region_name(g, area)
            return f"the King's region ({name}) is untouchable: nothing may enter or leave it"
    return ""


def _movegrande_reason(g: Board, action: Action, area: int | None) -> str:
    owner = g.colour_lookup.get(action.arg.casefold())
    if owner is None:
        return f"there is no {action.arg} Grande in this game"
    here = g.grandes[owner]
    if here == g.king:
        return f"the {action.arg} Grande stands in the King's region and may not leave it"
    if not 0 <= here < g.R:
        return f"the {action.arg} Grande is not in a region"
    if area == here:
        return f"the {action.arg} Grande is already in {_region_name(g, area)}"
    return ""


def _tile_reason(g: Board, action: Action, area: int | None) -> str:
    ids = [t.id for t in g.data.tiles]
    if action.arg not in ids:
        return f"there is no scoring tile {action.arg!r} (tiles: {', '.join(ids)})"
    here = g.tiles.get(action.arg)
    if here is not None and here == g.king:
        return f"the {action.arg} tile lies in the King's region and may not be taken out"
    if area is None:
        return ""
    if here == area:
        return f"the {action.arg} tile already lies in {_region_name(g, area)}"
    other = [t for t, where in g.tiles.items() if where == area and t != action.arg]
    if other:
        return f"{_region_name(g, area)} already holds the {other[0]} tile: one tile per area"
    return ""


def _disc_reason(g: Board, frame: DiscFrame, player: int, action: Action) -> str:
    area = _area(g, action.arg)
    if area is None or area >= g.R:
        return ""
    name = _region_name(g, area)
    if frame.purpose in ("return", "coup") and area == g.king:
        return f"the King's region ({name}) is untouchable: nothing may enter or leave it"
    if frame.purpose == "coup" and area == frame.payload:
        return f"your caballeros must leave {name}: choose another region"
    if frame.purpose == "return":
        need = _disc_minimum(g)
        have = g.pieces[area][player]
        return f"you have {have} caballero(s) in {name}; this card needs at least {need} there"
    return ""


def _disc_minimum(g: Board) -> int:
    """The fewest own caballeros a region needs for the current card's return disc."""
    card = g.data.cards.get(g.turn.card) if g.turn is not None else None
    steps = list(card.effect) if card is not None else []
    while steps:
        step = steps.pop(0)
        if step.get("op") == "disc_return":
            return int(step.get("min_own", 1))
        for option in step.get("options", ()):
            steps.extend(option)
    return 1
