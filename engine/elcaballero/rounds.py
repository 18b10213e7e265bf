"""The course of a game over a state (engine.elcaballero.state): the set-up and the market's
chance steps (`start CARD`, `reveal CARD`, entered at the table or drawn by the dealer), the
power cards played one by one, the turns in order of the cards, the scorings and the refill of
the market between rounds (docs/elcaballero-rules.md).
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.core.chance import dealer_draw
from engine.core.protocol import CHANCE
from engine.elcaballero.cards import CardDesc, CardError, card_from_text
from engine.elcaballero.checks import cap_court
from engine.elcaballero.refusals import Refusal
from engine.elcaballero.scoring import score_map
from engine.elcaballero.state import State
from engine.elcaballero.turn import REINFORCED, new_turn

CHANCE_PHASES = ("start", "reveal")

# table mode without a catalogue: the plain shapes offered as examples of a revealed card
PLAIN_SHAPES = (
    "SNESW",
    "SNESW+L",
    "LN+SESW",
    "LNE+SSW",
    "LN+LE+SSW",
    "LNS+SE+SW",
    "LN+LS+SEW",
    "LNES+SW",
    "LNESW",
    "LNESW+S",
)


# ---------------------------------------------------------------- chance
def chance_actions(game: State) -> list[Action]:
    """The chance step's actions: each card id the step may turn up, or (no catalogue) the
    plain shapes."""
    verb = game.phase
    if game.catalogue is not None:
        return [Action(verb, card_id) for card_id in sorted(set(pool(game)))]
    # without a catalogue any valid description is accepted; these are the plain shapes
    return [Action(verb, text) for text in PLAIN_SHAPES if verb == "reveal" or "L" in text]


def pool(game: State) -> list[str]:
    """The card ids (a copy each) the chance step may turn up (with a catalogue)."""
    if game.phase == "start":
        catalogue = game.catalogue
        assert catalogue is not None
        return [c for c in game.pile if start_ok(game, catalogue.cards[c])]
    return game.pile


def start_ok(game: State, card: CardDesc) -> bool:
    """`card` may be the start card."""
    if game.options.start_card_needs_land:
        return card.start_ok
    return card.gold() == 0 and card.fish() == 0


def auto_chance(game: State) -> None:
    """A dealer game's chance steps, drawn at once (a chance step is never undone)."""
    if not game.dealing:
        return
    while game.phase in CHANCE_PHASES:
        cards = pool(game)
        index = dealer_draw(game.dealer_seed, len(game.history), len(cards))
        chosen = Action(game.phase, cards[index])
        do_chance(game, chosen)
        game.history.append((CHANCE, chosen))
        game.turn_saved = None


def known_card(game: State, text: str) -> CardDesc:
    """A revealed card: a catalogue id with a copy left, or (no catalogue) a description."""
    if game.catalogue is not None:
        card = game.catalogue.get(text)
        if card is None:
            raise Refusal("not_in_catalogue", {"card": text})
        if text not in game.pile:
            raise Refusal("no_copy_left", {"card": text})
        return card
    try:
        return card_from_text(text)
    except CardError as bad:
        raise Refusal("bad_card", {"card": text, "reason": str(bad)}) from None


def do_chance(game: State, action: Action) -> None:
    """The start card, or a card revealed into the market."""
    if action.kind != game.phase:
        raise Refusal("wrong_chance", {"step": game.phase})
    if action.kind == "start":
        card = known_card(game, action.arg)
        if not start_ok(game, card):
            raise Refusal("start_card", {"card": action.arg})
        if game.catalogue is not None:
            game.pile.remove(action.arg)
        game.board.place_area(card, 0, 0, 0)
        game.log.append(f"start card {card.text}")
        game.phase = "reveal"
        return
    if game.pile_left <= 0 or (game.catalogue is not None and not game.pile):
        raise Refusal("pile_empty")
    card = known_card(game, action.arg)
    if game.catalogue is not None:
        game.pile.remove(action.arg)
    game.market.append(card)
    game.pile_left -= 1
    if len(game.market) >= game.size.market or game.pile_left <= 0:
        begin_powers(game)


# ---------------------------------------------------------------- power cards and turns
def begin_powers(game: State) -> None:
    game.phase = "power"
    game.power_turn = 0
    game.played = [0] * game.n


def do_power(game: State, player: int, value_text: str) -> None:
    """The player's power card, face up; after the last, the turns in order of the cards."""
    value = int(value_text)
    if value not in game.hands[player]:
        raise Refusal("power_not_in_hand", {"value": value})
    if value in game.played:
        raise Refusal("power_taken", {"value": value})
    game.hands[player].remove(value)
    game.played[player] = value
    game.power_turn += 1
    if game.power_turn == game.n:
        played = game.played
        game.order = sorted(range(game.n), key=lambda p: -played[p])
        game.turn_index = 0
        game.phase = "turn"
        begin_turn(game)


def begin_turn(game: State) -> None:
    player = game.order[game.turn_index]
    due = 2 if game.played[player] == game.rules.two_area_cards else 1
    game.turn = new_turn(due)
    game.placed_now = set()
    if game.options.automatic_reinforcements:
        auto_reinforce(game)


def reinforce(game: State, player: int) -> None:
    """The caballeros of the player's power card join the court (once a turn)."""
    if game.turn[REINFORCED]:
        raise Refusal("reinforced")
    game.turn[REINFORCED] = 1
    game.court[player] += game.rules.power_caballeros[game.played[player] - 1]
    cap_court(game, player)


def auto_reinforce(game: State) -> None:
    if not game.turn[REINFORCED]:
        reinforce(game, game.order[game.turn_index])


def end_turn(game: State) -> None:
    """The next turn; after the round's last, the scoring (when due), the end of the game or
    the next round (the market refilled as far as the pile allows: EC-11)."""
    game.turn_index += 1
    if game.turn_index < game.n:
        begin_turn(game)
        return
    if game.round in game.size.scorings:
        score(game)
    if game.round == game.size.rounds:
        game.phase = "over"
        return
    game.power_starter = game.order[-1]  # the last in turn order starts the next round
    game.round += 1
    wanted = game.size.market - len(game.market)
    can = game.pile_left if game.catalogue is None else min(game.pile_left, len(game.pile))
    if wanted > 0 and can > 0:
        game.phase = "reveal"
    else:
        begin_powers(game)


def score(game: State) -> None:
    """A scoring of the map: its points added to the scores, its breakdown kept."""
    names = list(game.options.players)
    result = score_map(
        game.board, game.rules.layout, names, game.board.governors, game.options.two_player_tie
    )
    for p, name in enumerate(names):
        game.scores[p] += int(result["totals"][name])
    result["round"] = game.round
    game.scorings.append(result)
    game.log.append(f"scoring after round {game.round}")
