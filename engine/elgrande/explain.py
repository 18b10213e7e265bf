"""Why an action is illegal, in words a player understands, and again as a translation key with
parameters (engine.core.errors.IllegalAction: the page words it in the player's language).

Only called on the slow path (an action that is not in the legal list), so clarity beats speed.
Reasons go to the player who tried the action: they never reveal another player's secrets.

Every key is in REFUSALS with its parameters; a parameter's name says what it holds (PARAM_KINDS):
an area token (`Aragon`, `castillo`), a card id, a colour, a number, never a display name or
notation. The English reason (for the command line and logs) may say more, e.g. the notation to
type; the translations live in host/games/elgrande/static/i18n/<lang>/refusals.json.
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

KEY_PREFIX = "elgrande.refuse."

# What each parameter name holds.
PARAM_KINDS = {
    "region": "area",  # an area token: a region, or castillo / France / Portugal
    "king_region": "area",
    "card": "card",  # an action card id
    "modifier": "modifier",  # a Power Shift modifier card id
    "tile": "tile",  # a scoring tile id
    "colour": "colour",
    "other": "colour",
    "phase": "phase",  # a phase id (the state's "phase")
    "step": "step",  # a pending step's kind
    "deck": "number",
    "card_deck": "number",
    "value": "number",
    "max": "number",
    "count": "number",
    "need": "number",
}

# Every refusal key (without KEY_PREFIX) and its parameters, in the order of the code below.
REFUSALS: dict[str, tuple[str, ...]] = {
    "game_over": (),
    "say_who": (),
    "not_your_turn": (),
    "not_now": ("phase",),
    "not_a_region": ("region",),
    "court_not_a_place": (),
    "king_already_there": ("region",),
    "king_not_castillo": (),
    "king_region_infiltration": ("region",),
    "king_region_closed": ("region",),
    "castillo_shut_by_king": (),
    "castillo_by_discs": (),
    "castillo_closed": (),
    "grande_not_castillo": (),
    "disc_not_castillo": (),
    "not_next_to_king": ("region", "king_region"),
    "no_card_to_enter": (),
    "modifier_not_now": (),
    "no_special_step": ("phase",),
    "chance_expected": ("phase",),
    "home_card_of_other": ("colour",),
    "region_cards_regions_only": (),
    "region_card_king": ("region",),
    "region_card_home": ("region", "colour"),
    "region_card_drawn": ("region",),
    "dummy_card_drawn": ("region",),
    "dummy_power_gone": ("value",),
    "remove_wrong_deck": ("card", "deck"),
    "no_such_card": (),
    "card_not_in_deck": ("card", "deck"),
    "deal_other": ("colour",),
    "no_such_modifier": (),
    "modifier_none_left": ("modifier",),
    "no_reveal_now": (),
    "reveal_deck_order": ("deck",),
    "card_wrong_deck": ("card", "card_deck", "deck"),
    "alternative_unused": ("card",),
    "card_none_left": ("card", "deck"),
    "play_power_first": (),
    "no_power_card": (),
    "modifier_not_held": ("modifier",),
    "power_played": ("value", "colour"),
    "power_total_played": ("value", "colour"),
    "power_used": ("value",),
    "power_not_held": ("value",),
    "take_first": ("max",),
    "take_how_many": (),
    "take_at_most": ("max",),
    "take_not_enough": (),
    "already_took": (),
    "choose_card_first": (),
    "card_taken": ("card", "colour"),
    "card_not_face_up": ("card",),
    "court_empty": (),
    "placed_all": ("card", "max"),
    "placement_finished": (),
    "finish_special_first": (),
    "finish_placing_first": (),
    "special_done": (),
    "nothing_to_finish": ("card",),
    "already_done": ("card",),
    "mid_special": ("card",),
    "finish_step": ("step",),
    "escort_source": ("region",),
    "escort_none_left": ("colour", "region"),
    "say_where": ("colour", "region"),
    "move_elsewhere": ("region",),
    "pick_first": (),
    "none_there": ("colour", "region"),
    "from_one_region": ("region",),
    "no_more_own": (),
    "no_more_foreign": (),
    "regions_only": (),
    "return_other_colour": ("colour", "other"),
    "return_regions_only": (),
    "court_empty_of": ("colour",),
    "return_court_only": (),
    "recall_none": ("region",),
    "finish_choice": (),
    "king_not_there": (),
    "own_grande_already_there": ("region",),
    "viceroy_only": (),
    "powerback_unavailable": (),
    "choose_option": (),
    "castillo_not_scored": (),
    "no_grande": (),
    "grande_in_king_region": ("colour",),
    "grande_not_in_region": ("colour",),
    "grande_already_there": ("colour", "region"),
    "no_such_tile": (),
    "tile_in_king_region": ("tile",),
    "tile_already_there": ("tile", "region"),
    "tile_area_taken": ("region", "tile"),
    "coup_leave": ("region",),
    "disc_minimum": ("count", "region", "need"),
    # the castillo correction (engine.elgrande.castillo_fix)
    "fix_by_table": (),
    "fix_bad_amount": (),
    "fix_bad_reason": (),
    "fix_castillo_short": ("colour",),
    "fix_supply_short": ("colour",),
}


class Refusal:
    """Why an action is refused: the English reason, and the translation key and parameters."""

    def __init__(self, key: str, reason: str, params: dict[str, str | int]) -> None:
        self.key = key
        self.reason = reason
        self.params = params


def refusal(key: str, reason: str, **params: str | int) -> Refusal:
    """A refusal of a key in REFUSALS (the test suite checks each key's parameters)."""
    return Refusal(KEY_PREFIX + key, reason, params)


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


def explain(g: Board, player: int, action: Action) -> Refusal:
    """A specific reason why `action` by `player` is not legal now."""
    if g.frame is None and g.phase != "main":
        # Out of order (e.g. placing during the power cards): the order is the reason.
        reason = _step_reason(g, player, action) or _area_reason(g, action)
    else:
        reason = _area_reason(g, action) or _step_reason(g, player, action)
    if reason is not None:
        return reason
    legal = g.legal_actions(player)
    words = PHASE_WORDS.get(g.phase, g.phase)
    return refusal("not_now", f"not possible now ({words}); legal: {_sample(legal)}", phase=g.phase)


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


def _closed(g: Board, area: int) -> Refusal:
    name = _region_name(g, area)
    return refusal(
        "king_region_closed",
        f"the King's region ({name}) is untouchable: nothing may enter or leave it",
        region=g.tok[area],
    )


# Where each decision verb names an area (argument index), and the verbs for which the King's
# region is off limits whatever the step (a disc or a scored region may show the King's region).
AREA_ARG = VERBS.arg_positions("area", chance=False)
KING_REGION_CLOSED = frozenset(VERBS.tagged("not-king-region"))


def _area_reason(g: Board, action: Action) -> Refusal | None:
    """Reasons that come from the board itself: the King's region, France, the castillo."""
    if action.kind not in AREA_ARG:
        return None
    token = action[1 + AREA_ARG[action.kind]]
    area = _area(g, token)
    if area is None:
        return None
    if area in (g.FRANCE, g.PORTUGAL):
        return refusal(
            "not_a_region",
            f"{token} is not a region: nothing but the King (by Exile) ever goes there",
            region=g.tok[area],
        )
    if area == g.COURT and action.kind not in ("return",):
        return refusal("court_not_a_place", "the court is not a place on the board: name a region")
    if action.kind == "king":
        if area == g.king:
            name = _region_name(g, area)
            return refusal(
                "king_already_there", f"the King is already in {name}", region=g.tok[area]
            )
        if area == g.CASTILLO:
            return refusal("king_not_castillo", "the King never goes into the castillo")
        return None
    if area == g.king and g.king < g.CASTILLO and action.kind in KING_REGION_CLOSED:
        if action.kind == "place" and _infiltration_unannounced(g):
            name = g.regions[area].name
            return refusal(
                "king_region_infiltration",
                f"the King's region ({name}) opens only once you announce Infiltration's "
                "special action ('special'): then you may place there this turn",
                region=g.tok[area],
            )
        return _closed(g, area)
    if area == g.CASTILLO == g.king and action.kind in ("place", "to"):
        return refusal(
            "castillo_shut_by_king",
            "the King stands at the castillo: nothing may be thrown in while he is there",
        )
    if area == g.CASTILLO:
        if action.kind in ("pick", "recall", "return"):
            if g.phase == "scoring":
                return refusal(
                    "castillo_by_discs",
                    "at the general scoring the castillo's caballeros leave by the discs only: "
                    "set your disc to the region they go to",
                )
            return refusal(
                "castillo_closed",
                "caballeros never come out of the castillo before a general scoring",
            )
        if action.kind in ("grande", "movegrande"):
            return refusal("grande_not_castillo", "a Grande never goes into the castillo")
        if action.kind == "disc":
            return refusal(
                "disc_not_castillo", "the castillo is not a region: the disc must show a region"
            )
    placing = action.kind == "place" and g.phase == "main" and g.frame is None
    if placing and area not in g.placement_targets():
        king = g.tok[g.king]
        return refusal(
            "not_next_to_king",
            f"{token} is not next to the King's region ({king}): place there or in the castillo",
            region=g.tok[area],
            king_region=king,
        )
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


def _step_reason(g: Board, player: int, action: Action) -> Refusal | None:
    if g.frame is not None:
        return _frame_reason(g, g.frame, player, action)
    if g.is_chance():
        return _chance_reason(g, action)
    if action.kind in CHANCE_VERBS:
        return refusal(
            "no_card_to_enter",
            f"'{action.kind}' enters a revealed card, and no card is to be revealed now",
        )
    if action.kind == "grey":
        return refusal(
            "modifier_not_now",
            "no modifier card's effect can be used now: it comes right after taking "
            "caballeros, before the action card",
        )
    if action.kind in STEP_ONLY_VERBS:
        return refusal(
            "no_special_step",
            f"'{action.kind}' belongs to a step of a special action, and none is under way "
            f"({PHASE_WORDS.get(g.phase, g.phase)})",
            phase=g.phase,
        )
    if g.phase == "power":
        return _power_reason(g, player, action)
    if g.phase == "take":
        return _take_reason(g, action)
    if g.phase == "card":
        return _card_reason(g, action)
    if g.phase == "main":
        return _main_reason(g, player, action)
    return None


# ---------------------------------------------------------------- chance steps (table mode)
CHANCE_VERB_OF_PHASE = {
    "setup_first": "first",
    "setup_king": "kingcard",
    "setup_home": "home",
    "setup_remove": "remove",
    "setup_deal": "deal",
    "dummy_regions": "dummycard",
    "dummy_power": "dummypower",
}


def _chance_reason(g: Board, action: Action) -> Refusal | None:
    expected = CHANCE_VERB_OF_PHASE.get(g.phase, "reveal")
    if action.kind != expected:
        return refusal(
            "chance_expected",
            f"now {PHASE_WORDS[g.phase]}: enter it with '{expected} …'",
            phase=g.phase,
        )
    if action.kind in ("kingcard", "home"):
        if action.kind == "home":
            seat = g.home_seat()
            if g.colour_lookup.get(action.arg.casefold()) != seat:
                colour = g.colours[seat]
                return refusal(
                    "home_card_of_other", f"it is {colour}'s home region card now", colour=colour
                )
        region = _area(g, action[1 if action.kind == "kingcard" else 2])
        if region is not None and region >= g.R:
            return refusal("region_cards_regions_only", "region cards show regions only")
        if region is not None and region not in g.region_cards:
            return _region_card_out(g, region)
    if action.kind == "reveal":
        return _reveal_reason(g, action)
    if action.kind == "remove":
        return _remove_reason(g, action)
    if action.kind == "deal":
        return _deal_reason(g, action)
    if action.kind == "dummycard":
        region = _area(g, action.arg)
        if region is not None and region >= g.R:
            return refusal("region_cards_regions_only", "region cards show regions only")
        if region is not None and region not in g.dummy_deck:
            name = _region_name(g, region)
            return refusal(
                "dummy_card_drawn",
                f"the {name} region card was already drawn for the dummy",
                region=g.tok[region],
            )
    if action.kind == "dummypower":
        value = int(action.arg) if action.arg.isdigit() else 0
        return refusal(
            "dummy_power_gone", f"the dummy has no power card {action.arg} left", value=value
        )
    return None


def _region_card_out(g: Board, region: int) -> Refusal:
    out = f"the {_region_name(g, region)} region card is already out"
    token = g.tok[region]
    if region == g.king:
        return refusal("region_card_king", f"{out}: it placed the King", region=token)
    owners = [g.colours[p] for p in range(g.n) if g.grandes[p] == region]
    if owners:
        return refusal(
            "region_card_home", f"{out}: it is {owners[0]}'s home", region=token, colour=owners[0]
        )
    return refusal("region_card_drawn", f"{out}: it was drawn already", region=token)


def _no_such_card(action_id: str) -> Refusal:
    return refusal("no_such_card", f"there is no action card {action_id!r}")


def _remove_reason(g: Board, action: Action) -> Refusal:
    alternative = g.pending_alternatives[0]
    deck = g.data.cards[alternative].deck
    name = _card_name(g, alternative)
    if action.arg != str(deck):
        return refusal(
            "remove_wrong_deck",
            f"the card set aside for {name} comes from deck {deck}",
            card=alternative,
            deck=deck,
        )
    card = g.data.cards.get(action.arg2)
    if card is None:
        return _no_such_card(action.arg2)
    return refusal(
        "card_not_in_deck", f"{card.name()} is not in deck {deck}", card=card.id, deck=deck
    )


def _no_such_modifier(card_id: str) -> Refusal:
    return refusal("no_such_modifier", f"there is no modifier card {card_id!r}")


def _deal_reason(g: Board, action: Action) -> Refusal:
    seat = g.deal_seat()
    if g.colour_lookup.get(action.arg.casefold()) != seat:
        colour = g.colours[seat]
        return refusal("deal_other", f"it is {colour}'s modifier card now", colour=colour)
    if action.arg2 not in g.data.grey_cards:
        return _no_such_modifier(action.arg2)
    return refusal(
        "modifier_none_left",
        f"no copy of modifier card {action.arg2} is left to deal",
        modifier=action.arg2,
    )


def _reveal_reason(g: Board, action: Action) -> Refusal | None:
    due = next(iter(g.pending_slots()), None)
    if due is None:
        return refusal("no_reveal_now", "no action card is to be revealed now")
    if action.arg != str(due):
        return refusal(
            "reveal_deck_order", f"deck {due} is turned up now (the decks in order)", deck=due
        )
    card = g.data.cards.get(action.arg2)
    if card is None:
        return _no_such_card(action.arg2)
    if action.arg2 not in g.decks[due]:
        merged = due == 2 and card.deck == 3 and 3 not in g.slots  # decks 2 and 3 as one
        if card.deck != due and not merged:
            return refusal(
                "card_wrong_deck",
                f"{card.name()} belongs to deck {card.deck}, not deck {due}",
                card=card.id,
                card_deck=card.deck,
                deck=due,
            )
        if card.alternative and card.id not in g.options.alternatives:
            return refusal(
                "alternative_unused",
                f"{card.name()} is an alternative card and this game does not use it",
                card=card.id,
            )
        return refusal(
            "card_none_left",
            f"no copy of {card.name()} is left in deck {due}",
            card=card.id,
            deck=due,
        )
    return None


# ---------------------------------------------------------------- the phases of a turn
def _power_reason(g: Board, player: int, action: Action) -> Refusal | None:
    if action.kind not in ("power", "shift"):
        return refusal("play_power_first", "play a power card first ('power <value>')")
    value = int(action.arg) if action.arg.isdigit() else -1
    if not 1 <= value <= 13:
        return refusal(
            "no_power_card", f"there is no power card {action.arg}: they run from 1 to 13"
        )
    total = value
    if action.kind == "shift":
        grey = g.data.grey_cards.get(action.arg2)
        if grey is None:
            return _no_such_modifier(action.arg2)
        if action.arg2 not in g.grey_hands[player]:
            return refusal(
                "modifier_not_held",
                f"you do not hold the modifier card {grey.name()}",
                modifier=grey.id,
            )
        total = value + grey.value
    for p in range(g.n):
        if g.played[p] and g.totals[p] == total:
            who = g.colours[p]
            if g.played[p] == total and action.kind == "power":
                return refusal(
                    "power_played",
                    f"power card {value} was already played this round (by {who})",
                    value=value,
                    colour=who,
                )
            return refusal(
                "power_total_played",
                f"a power of {total} was already played this round (by {who})",
                value=total,
                colour=who,
            )
    if value in g.power_discards[player]:
        return refusal(
            "power_used", f"you already used power card {value} in an earlier round", value=value
        )
    if value not in g.hands[player]:
        return refusal("power_not_held", f"you do not hold power card {value}", value=value)
    return None


def _take_reason(g: Board, action: Action) -> Refusal:
    turn = g.turn
    assert turn is not None
    if action.kind != "take":
        return refusal(
            "take_first",
            f"first take caballeros to your court ('take 0' to 'take {turn.take}'), "
            "then choose an action card",
            max=turn.take,
        )
    if not action.arg.isdigit():
        return refusal("take_how_many", "say how many caballeros to take, e.g. 'take 2'")
    if int(action.arg) > turn.take:
        return refusal(
            "take_at_most",
            f"your power card lets you take at most {turn.take} caballero(s)",
            max=turn.take,
        )
    return refusal(
        "take_not_enough", "there are not that many of your caballeros in the province and regions"
    )


def _card_reason(g: Board, action: Action) -> Refusal:
    if action.kind == "take":
        return refusal("already_took", "you have already taken caballeros to your court this turn")
    if action.kind != "card":
        return refusal("choose_card_first", "choose an action card first ('card <id>')")
    if action.arg not in g.data.cards:
        return _no_such_card(action.arg)
    name = _card_name(g, action.arg)
    taker = _taken_this_round(g, action.arg)
    if taker is not None:
        who = g.colours[taker]
        return refusal(
            "card_taken",
            f"{name} was already taken this round (by {who})",
            card=action.arg,
            colour=who,
        )
    return refusal("card_not_face_up", f"{name} is not face up now", card=action.arg)


def _taken_this_round(g: Board, card_id: str) -> int | None:
    """Who chose the card since the round's cards were revealed (the last chance step)."""
    for who, done in reversed(g.history):
        if who < 0:
            return None
        if done.kind == "card" and done.arg == card_id:
            return who
    return None


def _court_empty() -> Refusal:
    return refusal("court_empty", "your court is empty")


def _main_reason(g: Board, player: int, action: Action) -> Refusal | None:
    turn = g.turn
    assert turn is not None
    card = _card_name(g, turn.card)
    if action.kind == "place":
        allowed = g.data.cards[turn.card].place
        if not g.court[player]:
            return _court_empty()
        if turn.placed and turn.place_left == 0:
            return refusal(
                "placed_all",
                f"{card} lets you place at most {allowed} caballero(s), and you placed them",
                card=turn.card,
                max=allowed,
            )
        if turn.placed:
            return refusal(
                "placement_finished",
                "your placement is already finished this turn: it may not be split",
            )
        if turn.special == 1:
            return refusal(
                "finish_special_first", "finish the special action before placing (no splitting)"
            )
    if action.kind in ("special", "skip"):
        if turn.placing:
            return refusal(
                "finish_placing_first",
                "finish placing (say 'done') before the special action: neither may be split",
            )
        if turn.special:
            return refusal(
                "special_done", "the special action is already done or skipped this turn"
            )
    if action.kind == "done":
        return refusal(
            "nothing_to_finish",
            "nothing to finish: place caballeros, or start ('special') or skip ('skip') "
            f"the special action of {card}",
            card=turn.card,
        )
    if action.kind in ("power", "shift", "take", "card"):
        return refusal(
            "already_done",
            f"you already did that this turn: now place caballeros and/or use {card}",
            card=turn.card,
        )
    return None


# ---------------------------------------------------------------- steps of a special action
def _frame_reason(g: Board, frame: Frame, player: int, action: Action) -> Refusal | None:
    turn = g.turn
    splitting = action.kind == "place" and not isinstance(frame, PlaceFrame)
    if splitting and turn is not None and turn.special == 1:
        return refusal(
            "mid_special",
            f"you are in the middle of the special action of {_card_name(g, turn.card)}: "
            "finish it before placing (no splitting)",
            card=turn.card,
        )
    allowed = STEP_VERBS.get(frame.kind)
    if allowed and action.kind not in allowed:
        return refusal(
            "finish_step",
            f"finish the current step first ({frame.kind}): use {', '.join(allowed)}",
            step=frame.kind,
        )
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
            return _no_such_modifier(action.arg)
        return refusal(
            "modifier_not_held",
            f"you do not hold the modifier card {grey.name()}",
            modifier=grey.id,
        )
    if isinstance(frame, VetoFrame):
        return None
    return None


def _escort_reason(g: Board, frame: EscortFrame, action: Action) -> Refusal:
    source = _region_name(g, frame.source)
    token = g.tok[frame.source]
    if _area(g, action.arg2) != frame.source:
        return refusal(
            "escort_source",
            f"the King's escort comes from his old region ({source}) only",
            region=token,
        )
    colour = g.colour_lookup.get(action.arg.casefold())
    return refusal(
        "escort_none_left",
        f"there is no {action.arg} caballero left in {source}",
        colour=g.colours[colour] if colour is not None else action.arg,
        region=token,
    )


def _move_reason(g: Board, frame: MoveFrame, action: Action) -> Refusal | None:
    if frame.picked is not None:
        colour, source = frame.picked
        where = _region_name(g, source)
        if action.kind != "to":
            picked = f"{g.colours[colour]} caballero from {where}"
            return refusal(
                "say_where",
                f"say first where the picked {picked} goes ('to <area>')",
                colour=g.colours[colour],
                region=g.tok[source],
            )
        if _area(g, action.arg) == source:
            return refusal(
                "move_elsewhere",
                f"that caballero is already in {where}: move it to another region or the castillo",
                region=g.tok[source],
            )
        return None
    if action.kind == "to":
        return refusal("pick_first", "pick a caballero first ('pick <colour> <region>')")
    if action.kind == "pick":
        return _pick_reason(g, frame, action)
    return None


def _none_there(g: Board, colour: int, area: int, name: str, where: str) -> Refusal:
    return refusal(
        "none_there",
        f"there is no {name} caballero in {where}",
        colour=g.colours[colour],
        region=g.tok[area],
    )


def _pick_reason(g: Board, frame: MoveFrame, action: Action) -> Refusal | None:
    region = _area(g, action.arg2)
    colour = g.colour_lookup.get(action.arg.casefold())
    if region is None or colour is None:
        return None
    if region < g.R and not g.pieces[region][colour]:
        return _none_there(g, colour, region, action.arg, action.arg2)
    if frame.from_one and frame.source not in (-1, region):
        return refusal(
            "from_one_region",
            f"this card moves caballeros out of one region only ({g.tok[frame.source]})",
            region=g.tok[frame.source],
        )
    if colour == frame.actor:
        return refusal("no_more_own", "this card does not let you move more of your own caballeros")
    return refusal("no_more_foreign", "this card does not let you move more opponents' caballeros")


def _place_step_reason(g: Board, frame: PlaceFrame, action: Action) -> Refusal | None:
    if action.kind != "place":
        return None
    if not g.court[frame.actor]:
        return _court_empty()
    if _area(g, action.arg) == g.CASTILLO and frame.to == "regions":
        return refusal(
            "regions_only", "this card places caballeros into regions only, not into the castillo"
        )
    return None


def _return_reason(g: Board, frame: ReturnFrame, action: Action) -> Refusal | None:
    colour = g.colour_lookup.get(action.arg.casefold())
    target = g.colours[frame.target]
    if colour is not None and colour != frame.target:
        return refusal(
            "return_other_colour",
            f"now {target}'s caballeros go back to the province, not {action.arg}'s",
            colour=target,
            other=g.colours[colour],
        )
    area = _area(g, action.arg2)
    if area is None:
        return None
    if area == g.COURT:
        if not frame.from_court:
            return refusal(
                "return_regions_only",
                "this card returns caballeros from regions only, not from the court",
            )
        return refusal("court_empty_of", f"{target} has no caballero in the court", colour=target)
    if not frame.from_regions:
        return refusal("return_court_only", "this card returns caballeros from the court only")
    if area < g.R and not g.pieces[area][frame.target]:
        return _none_there(g, frame.target, area, target, _region_name(g, area))
    return None


def _recall_reason(g: Board, frame: RecallFrame, action: Action) -> Refusal | None:
    area = _area(g, action.arg)
    if area is not None and area < g.R and not g.pieces[area][frame.actor]:
        return refusal(
            "recall_none",
            f"you have no caballero in {_region_name(g, area)} to bring to your court",
            region=g.tok[area],
        )
    return None


def _choice_reason(g: Board, frame: ChoiceFrame, action: Action) -> Refusal | None:
    verb = frame.kind  # a one-choice step is named after its verb (verbs.py: "choice")
    if frame.kind == "grey" or action.kind != verb:
        return refusal(
            "finish_choice",
            f"finish the current step first: choose one of {_sample(frame.choices)}",
        )
    area = _area(g, action[2] if verb == "tile" else action[1]) if action.arg else None
    if verb == "king":
        targets = ", ".join(c.arg for c in frame.choices)
        return refusal("king_not_there", f"this card moves the King only to: {targets}")
    if verb == "grande" and area is not None and area == g.grandes[frame.actor]:
        return refusal(
            "own_grande_already_there",
            f"your Grande is already in {_region_name(g, area)}",
            region=g.tok[area],
        )
    if verb == "movegrande":
        return _movegrande_reason(g, action, area)
    if verb == "viceroy":
        return refusal(
            "viceroy_only", "Viceroy swaps the King only with a Grande standing in another region"
        )
    if verb == "tile":
        return _tile_reason(g, action, area)
    if verb == "powerback":
        return refusal(
            "powerback_unavailable",
            f"power card {action.arg} is neither in your discard pile nor the one you played "
            "this round",
        )
    if verb == "option":
        return refusal("choose_option", f"choose one of {_sample(frame.choices)}")
    if verb == "region":
        if area == g.CASTILLO:
            return refusal(
                "castillo_not_scored", "the castillo is not a region: this card does not score it"
            )
        if frame.purpose == "coup" and area is not None and area == g.king:
            return _closed(g, area)
    return None


def _movegrande_reason(g: Board, action: Action, area: int | None) -> Refusal | None:
    owner = g.colour_lookup.get(action.arg.casefold())
    if owner is None:
        return refusal("no_grande", f"there is no {action.arg} Grande in this game")
    colour = g.colours[owner]
    here = g.grandes[owner]
    if here == g.king:
        return refusal(
            "grande_in_king_region",
            f"the {action.arg} Grande stands in the King's region and may not leave it",
            colour=colour,
        )
    if not 0 <= here < g.R:
        return refusal(
            "grande_not_in_region", f"the {action.arg} Grande is not in a region", colour=colour
        )
    if area == here:
        return refusal(
            "grande_already_there",
            f"the {action.arg} Grande is already in {_region_name(g, here)}",
            colour=colour,
            region=g.tok[here],
        )
    return None


def _tile_reason(g: Board, action: Action, area: int | None) -> Refusal | None:
    ids = [t.id for t in g.data.tiles]
    if action.arg not in ids:
        return refusal(
            "no_such_tile", f"there is no scoring tile {action.arg!r} (tiles: {', '.join(ids)})"
        )
    here = g.tiles.get(action.arg)
    if here is not None and here == g.king:
        return refusal(
            "tile_in_king_region",
            f"the {action.arg} tile lies in the King's region and may not be taken out",
            tile=action.arg,
        )
    if area is None:
        return None
    if here == area:
        return refusal(
            "tile_already_there",
            f"the {action.arg} tile already lies in {_region_name(g, area)}",
            tile=action.arg,
            region=g.tok[area],
        )
    other = [t for t, where in g.tiles.items() if where == area and t != action.arg]
    if other:
        return refusal(
            "tile_area_taken",
            f"{_region_name(g, area)} already holds the {other[0]} tile: one tile per area",
            region=g.tok[area],
            tile=other[0],
        )
    return None


def _disc_reason(g: Board, frame: DiscFrame, player: int, action: Action) -> Refusal | None:
    area = _area(g, action.arg)
    if area is None or area >= g.R:
        return None
    name = _region_name(g, area)
    if frame.purpose in ("return", "coup") and area == g.king:
        return _closed(g, area)
    if frame.purpose == "coup" and area == frame.payload:
        return refusal(
            "coup_leave",
            f"your caballeros must leave {name}: choose another region",
            region=g.tok[area],
        )
    if frame.purpose == "return":
        need = _disc_minimum(g)
        have = g.pieces[area][player]
        return refusal(
            "disc_minimum",
            f"you have {have} caballero(s) in {name}; this card needs at least {need} there",
            count=have,
            region=g.tok[area],
            need=need,
        )
    return None


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
