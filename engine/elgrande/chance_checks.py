"""The checks a chance step is refused by (a card or region card entered at the table): the
step the game waits for, and the card drawn from what is left. Each check returns None when
the outcome may be drawn now (engine.elgrande.legal lists the same outcomes from the same
piles), else the refusal with its words.
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.elgrande.board import UNSEEN, Board
from engine.elgrande.checks import area_name, area_of, card_name, no_such_card, no_such_modifier
from engine.elgrande.legal import removal_pool
from engine.elgrande.refusals import PHASE_WORDS, Refusal, refusal
from engine.elgrande.rules import may_go_first

CHANCE_VERB_OF_PHASE = {
    "setup_first": "first",
    "setup_king": "kingcard",
    "setup_home": "home",
    "setup_remove": "remove",
    "setup_deal": "deal",
    "dummy_regions": "dummycard",
    "dummy_power": "dummypower",
}


def chance_check(g: Board, action: Action) -> Refusal | None:
    """The outcome of the chance step the game waits for, one still to be drawn."""
    expected = CHANCE_VERB_OF_PHASE.get(g.phase, "reveal")
    if action.kind != expected:
        return refusal("chance_expected", phase=g.phase, words=PHASE_WORDS[g.phase], verb=expected)
    if action.kind == "first":
        colour = g.colour_lookup.get(action.arg.casefold())
        if colour is not None and not may_go_first(g, colour):
            return refusal("dummy_not_first", colour=g.colours[colour])
        return None
    if action.kind in ("kingcard", "home"):
        return _region_card_check(g, action)
    if action.kind == "reveal":
        return _reveal_check(g, action)
    if action.kind == "remove":
        return _remove_check(g, action)
    if action.kind == "deal":
        return _deal_check(g, action)
    if action.kind == "dummycard":
        region = area_of(g, action.arg)
        if region is not None and region >= g.R:
            return refusal("region_cards_regions_only")
        if region is not None and region not in g.dummy_deck:
            name = area_name(g, region)
            return refusal("dummy_card_drawn", region=g.tok[region], name=name)
    if action.kind == "dummypower":
        value = int(action.arg) if action.arg.isdigit() else 0
        if value not in g.hands[g.dummy]:
            return refusal("dummy_power_gone", value=value, arg=action.arg)
    return None


def _region_card_check(g: Board, action: Action) -> Refusal | None:
    """The King's or a home region card: one not drawn yet; a home card for its seat in turn."""
    if action.kind == "home":
        seat = g.home_seat()
        if g.colour_lookup.get(action.arg.casefold()) != seat:
            return refusal("home_card_of_other", colour=g.colours[seat])
    region = area_of(g, action[1 if action.kind == "kingcard" else 2])
    if region is not None and region >= g.R:
        return refusal("region_cards_regions_only")
    if region is not None and region not in g.region_cards:
        return _region_card_out(g, region)
    return None


def _region_card_out(g: Board, region: int) -> Refusal:
    token = g.tok[region]
    name = area_name(g, region)
    if region == g.king:
        return refusal("region_card_king", region=token, name=name)
    owners = [g.colours[p] for p in range(g.n) if g.grandes[p] == region]
    if owners:
        return refusal("region_card_home", region=token, colour=owners[0], name=name)
    return refusal("region_card_drawn", region=token, name=name)


def _remove_check(g: Board, action: Action) -> Refusal | None:
    """A card set aside for an alternative card: from that card's deck (unseen at the table)."""
    alternative = g.pending_alternatives[0]
    deck = g.data.cards[alternative].deck
    name = card_name(g, alternative)
    if action.arg != str(deck):
        return refusal("remove_wrong_deck", card=alternative, deck=deck, card_name=name)
    if action.arg2 in removal_pool(g) or (action.arg2 == UNSEEN and not g._dealer):
        return None
    card = g.data.cards.get(action.arg2)
    if card is None:
        return no_such_card(action.arg2)
    return refusal("card_not_in_deck", card=card.id, deck=deck, card_name=card.name())


def _deal_check(g: Board, action: Action) -> Refusal | None:
    """Power Shift's modifier cards, dealt seat by seat from the modifier deck."""
    seat = g.deal_seat()
    if g.colour_lookup.get(action.arg.casefold()) != seat:
        return refusal("deal_other", colour=g.colours[seat])
    if action.arg2 in g.grey_deck:
        return None
    if action.arg2 not in g.data.grey_cards:
        return no_such_modifier(action.arg2)
    return refusal("modifier_none_left", modifier=action.arg2)


def _reveal_check(g: Board, action: Action) -> Refusal | None:
    """The next deck's card (the decks in order), one of the cards left in it."""
    due = next(iter(g.pending_slots()), None)
    if due is None:
        return refusal("no_reveal_now")
    if action.arg != str(due):
        return refusal("reveal_deck_order", deck=due)
    card = g.data.cards.get(action.arg2)
    if card is None:
        return no_such_card(action.arg2)
    if action.arg2 not in g.decks[due]:
        name = card.name()
        merged = due == 2 and card.deck == 3 and 3 not in g.slots  # decks 2 and 3 as one
        if card.deck != due and not merged:
            return refusal(
                "card_wrong_deck", card=card.id, card_deck=card.deck, deck=due, card_name=name
            )
        if card.alternative and card.id not in g.options.alternatives:
            return refusal("alternative_unused", card=card.id, card_name=name)
        return refusal("card_none_left", card=card.id, deck=due, card_name=name)
    return None
