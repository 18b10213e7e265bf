"""Why an El Grande action is refused, in words: one English template per translation key.

A refusal's key is `elgrande.refuse.<name>`; its parameters (REFUSALS: the names, PARAM_KINDS:
what each holds) are tokens, never display names or notation: an area token (`Aragon`,
`castillo`), a card id, a colour, a number. The table app words each key in the player's language
(host/games/elgrande/static/i18n/<lang>/refusals.json). The English reason (the command line,
logs) may say more than the parameters, e.g. a region's display name or the notation to type:
such words fill the template too but are not parameters.

The rules that decide a refusal live in engine.elgrande.checks and engine.elgrande.step_checks;
engine.elgrande.explain finds the first one that refuses an action.

>>> refused = refusal("power_used", value=7)
>>> refused.key, refused.params, refused.reason
('elgrande.refuse.power_used', {'value': 7}, 'you already used power card 7 in an earlier round')
"""

from __future__ import annotations

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

# Every refusal key (without KEY_PREFIX) and its parameters.
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
    "dummy_not_first": ("colour",),
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

# The English reason of each key refused by the rules' checks (the keys refused by the rules
# driver itself, engine.elgrande.game, and by the castillo correction word their reasons there).
# Besides the parameters a template may use: `name` (an area's display name), `card_name`,
# `modifier_name`, `words` (what happens in the phase), `legal`, `verb`, `arg` (what was typed).
TEXTS: dict[str, str] = {
    "not_now": "not possible now ({words}); legal: {legal}",
    "not_a_region": "{arg} is not a region: nothing but the King (by Exile) ever goes there",
    "court_not_a_place": "the court is not a place on the board: name a region",
    "king_already_there": "the King is already in {name}",
    "king_not_castillo": "the King never goes into the castillo",
    "king_region_infiltration": "the King's region ({name}) opens only once you announce "
    "Infiltration's special action ('special'): then you may place there this turn",
    "king_region_closed": "the King's region ({name}) is untouchable: nothing may enter or "
    "leave it",
    "castillo_shut_by_king": "the King stands at the castillo: nothing may be thrown in while he "
    "is there",
    "castillo_by_discs": "at the general scoring the castillo's caballeros leave by the discs "
    "only: set your disc to the region they go to",
    "castillo_closed": "caballeros never come out of the castillo before a general scoring",
    "grande_not_castillo": "a Grande never goes into the castillo",
    "disc_not_castillo": "the castillo is not a region: the disc must show a region",
    "not_next_to_king": "{arg} is not next to the King's region ({king_region}): place there or "
    "in the castillo",
    "no_card_to_enter": "'{verb}' enters a revealed card, and no card is to be revealed now",
    "modifier_not_now": "no modifier card's effect can be used now: it comes right after taking "
    "caballeros, before the action card",
    "no_special_step": "'{verb}' belongs to a step of a special action, and none is under way "
    "({words})",
    "chance_expected": "now {words}: enter it with '{verb} …'",
    "home_card_of_other": "it is {colour}'s home region card now",
    "region_cards_regions_only": "region cards show regions only",
    "region_card_king": "the {name} region card is already out: it placed the King",
    "region_card_home": "the {name} region card is already out: it is {colour}'s home",
    "region_card_drawn": "the {name} region card is already out: it was drawn already",
    "dummy_card_drawn": "the {name} region card was already drawn for the dummy",
    "dummy_power_gone": "the dummy has no power card {arg} left",
    "dummy_not_first": "the dummy ({colour}) never gets the first-player marker: name a player",
    "remove_wrong_deck": "the card set aside for {card_name} comes from deck {deck}",
    "no_such_card": "there is no action card {arg!r}",
    "card_not_in_deck": "{card_name} is not in deck {deck}",
    "deal_other": "it is {colour}'s modifier card now",
    "no_such_modifier": "there is no modifier card {arg!r}",
    "modifier_none_left": "no copy of modifier card {modifier} is left to deal",
    "no_reveal_now": "no action card is to be revealed now",
    "reveal_deck_order": "deck {deck} is turned up now (the decks in order)",
    "card_wrong_deck": "{card_name} belongs to deck {card_deck}, not deck {deck}",
    "alternative_unused": "{card_name} is an alternative card and this game does not use it",
    "card_none_left": "no copy of {card_name} is left in deck {deck}",
    "play_power_first": "play a power card first ('power <value>')",
    "no_power_card": "there is no power card {arg}: they run from 1 to 13",
    "modifier_not_held": "you do not hold the modifier card {modifier_name}",
    "power_played": "power card {value} was already played this round (by {colour})",
    "power_total_played": "a power of {value} was already played this round (by {colour})",
    "power_used": "you already used power card {value} in an earlier round",
    "power_not_held": "you do not hold power card {value}",
    "take_first": "first take caballeros to your court ('take 0' to 'take {max}'), then choose "
    "an action card",
    "take_how_many": "say how many caballeros to take, e.g. 'take 2'",
    "take_at_most": "your power card lets you take at most {max} caballero(s)",
    "take_not_enough": "there are not that many of your caballeros in the province and regions",
    "already_took": "you have already taken caballeros to your court this turn",
    "choose_card_first": "choose an action card first ('card <id>')",
    "card_taken": "{card_name} was already taken this round (by {colour})",
    "card_not_face_up": "{card_name} is not face up now",
    "court_empty": "your court is empty",
    "placed_all": "{card_name} lets you place at most {max} caballero(s), and you placed them",
    "placement_finished": "your placement is already finished this turn: it may not be split",
    "finish_special_first": "finish the special action before placing (no splitting)",
    "finish_placing_first": "finish placing (say 'done') before the special action: neither may "
    "be split",
    "special_done": "the special action is already done or skipped this turn",
    "nothing_to_finish": "nothing to finish: place caballeros, or start ('special') or skip "
    "('skip') the special action of {card_name}",
    "already_done": "you already did that this turn: now place caballeros and/or use {card_name}",
    "mid_special": "you are in the middle of the special action of {card_name}: finish it before "
    "placing (no splitting)",
    "finish_step": "finish the current step first ({step}): use {verb}",
    "escort_source": "the King's escort comes from his old region ({name}) only",
    "escort_none_left": "there is no {arg} caballero left in {name}",
    "say_where": "say first where the picked {colour} caballero from {name} goes ('to <area>')",
    "move_elsewhere": "that caballero is already in {name}: move it to another region or the "
    "castillo",
    "pick_first": "pick a caballero first ('pick <colour> <region>')",
    "none_there": "there is no {arg} caballero in {name}",
    "from_one_region": "this card moves caballeros out of one region only ({region})",
    "no_more_own": "this card does not let you move more of your own caballeros",
    "no_more_foreign": "this card does not let you move more opponents' caballeros",
    "regions_only": "this card places caballeros into regions only, not into the castillo",
    "return_other_colour": "now {colour}'s caballeros go back to the province, not {arg}'s",
    "return_regions_only": "this card returns caballeros from regions only, not from the court",
    "court_empty_of": "{colour} has no caballero in the court",
    "return_court_only": "this card returns caballeros from the court only",
    "recall_none": "you have no caballero in {name} to bring to your court",
    "finish_choice": "finish the current step first: choose one of {legal}",
    "king_not_there": "this card moves the King only to: {legal}",
    "own_grande_already_there": "your Grande is already in {name}",
    "viceroy_only": "Viceroy swaps the King only with a Grande standing in another region",
    "powerback_unavailable": "power card {arg} is neither in your discard pile nor the one you "
    "played this round",
    "choose_option": "choose one of {legal}",
    "castillo_not_scored": "the castillo is not a region: this card does not score it",
    "no_grande": "there is no {arg} Grande in this game",
    "grande_in_king_region": "the {arg} Grande stands in the King's region and may not leave it",
    "grande_not_in_region": "the {arg} Grande is not in a region",
    "grande_already_there": "the {arg} Grande is already in {name}",
    "no_such_tile": "there is no scoring tile {arg!r} (tiles: {legal})",
    "tile_in_king_region": "the {tile} tile lies in the King's region and may not be taken out",
    "tile_already_there": "the {tile} tile already lies in {name}",
    "tile_area_taken": "{name} already holds the {tile} tile: one tile per area",
    "coup_leave": "your caballeros must leave {name}: choose another region",
    "disc_minimum": "you have {count} caballero(s) in {name}; this card needs at least {need} "
    "there",
}


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


class Refusal:
    """Why an action is refused: the English reason, and the translation key and parameters."""

    def __init__(self, key: str, reason: str, params: dict[str, str | int]) -> None:
        self.key = key
        self.reason = reason
        self.params = params


def refusal(key: str, /, **fields: str | int) -> Refusal:
    """The refusal `key` (of TEXTS, without KEY_PREFIX): its parameters are the fields REFUSALS
    names, its English reason the template filled with every field."""
    params = {param: fields[param] for param in REFUSALS[key]}
    return Refusal(KEY_PREFIX + key, TEXTS[key].format(**fields), params)


def sample(actions: list[object], limit: int = 8) -> str:
    """A few actions, for a reason (`…` when there are more)."""
    shown = ", ".join(str(a) for a in actions[:limit])
    return shown + (" …" if len(actions) > limit else "")
