"""Views never leak secrets: checked over whole random games, structurally.

Secrets: the castillo's per-colour contents (unless the table plays with `open_castillo`), every
hand, every face-down power discard (unless the table plays with `open_power_cards`: then every
discard pile is open and so every player's remaining power cards are public, docs/variants.md),
a power card being taken back, disc choices before they are revealed, and a dealer game's seed
(it would predict the cards).

Key names alone prove little, so at every step the test plants *canaries* in a copy of the state:
impossible values for each secret (castillo counts like 9711, hand and discard cards like 9803,
a disc showing France). It then serialises each view to JSON and searches the whole text for
them. A canary may appear only where its owner is allowed to see it: a seat sees its own hand,
discards and disc; nobody sees anyone else's; the public sees none.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass

import pytest

from engine.elgrande.actions import Action
from engine.elgrande.frames import ChoiceFrame, DiscFrame, PassFrame
from engine.elgrande.game import CHANCE, Game, Options
from tests.engine.conftest import ALTERNATIVES_2023, players_for, random_step

CASTILLO_CANARY = 9711  # + 11 per seat: 9711, 9722, ...
HAND_CANARY = 9801  # + seat
DISCARD_CANARY = 9901  # + seat
POWERBACK_CANARY = 9950
MODIFIER_CANARY = "zz-modifier-hand-"  # + seat: a Power Shift card in a hand
MODIFIER_DISCARD_CANARY = "zz-modifier-discard-"  # + seat
PASS_CANARY = "zz-passed-"  # + seat: the modifier card being passed to the left
REMOVED_CANARY = "zz-set-aside"  # the action card set aside for an alternative card
DEALER_SEED = 987_654_321
CHECK_EVERY = 6  # steps between checks; every secret disc or power-card choice is checked


@dataclass
class Planted:
    game: Game
    hands: dict[int, str]
    discards: dict[int, str]
    discs: set[int]  # seats whose (unrevealed) disc now shows France
    powerback: int | None  # the seat choosing a power card to take back
    modifiers: dict[int, str]
    modifier_discards: dict[int, str]
    passes: dict[int, str]


def plant(game: Game) -> Planted:
    """A copy of the game with every secret replaced by a canary (public facts unchanged)."""
    g = copy.deepcopy(game, memo={id(game.state.data): game.state.data})
    acting = set(g.current_players())
    for p in range(g.state.n):
        g.state.pieces[g.state.CASTILLO][p] = CASTILLO_CANARY + 11 * p
    hands: dict[int, str] = {}
    discards: dict[int, str] = {}
    for p in range(g.state.n):
        # The acting player's hand feeds their legal power cards: keep it a real card there.
        if g.state.hands[p] and p not in acting:
            g.state.hands[p][0] = HAND_CANARY + p
            hands[p] = str(HAND_CANARY + p)
        g.state.power_discards[p].append(DISCARD_CANARY + p)
        discards[p] = str(DISCARD_CANARY + p)
    modifiers: dict[int, str] = {}
    modifier_discards: dict[int, str] = {}
    for p in range(g.state.n):
        if g.state.grey_hands[p] and p not in acting:  # the actor's feed their legal power plays
            g.state.grey_hands[p][0] = modifiers[p] = f"{MODIFIER_CANARY}{p}"
        g.state.grey_discards[p].append(f"{MODIFIER_DISCARD_CANARY}{p}")
        modifier_discards[p] = f"{MODIFIER_DISCARD_CANARY}{p}"
    # The card set aside when an alternative card was shuffled in is never seen by anyone.
    g.state.history = [
        (p, Action("remove", a.arg, REMOVED_CANARY) if a.kind == "remove" else a)
        for p, a in g.history
    ]
    discs: set[int] = set()
    passes: dict[int, str] = {}
    powerback = None
    frame = g.state.frame
    if isinstance(frame, PassFrame):
        for p in frame.chosen:
            frame.chosen[p] = passes[p] = f"{PASS_CANARY}{p}"
    if isinstance(frame, DiscFrame):
        for p in frame.chosen:
            frame.chosen[p] = g.state.FRANCE
            discs.add(p)
    if isinstance(frame, ChoiceFrame) and frame.kind == "powerback":
        frame.choices = [Action("powerback", str(POWERBACK_CANARY))]
        powerback = frame.actor
    g.state.touched()  # cached legal actions were computed from the real secrets
    return Planted(g, hands, discards, discs, powerback, modifiers, modifier_discards, passes)


def view_text(g: Game, viewer: int | None) -> str:
    view = g.view(viewer)
    text = json.dumps(view, ensure_ascii=False)
    assert json.loads(text) == view, "a view is not plain JSON"
    return text


def check_views(game: Game) -> None:
    planted = plant(game)
    g = planted.game
    open_castillo = g.options.open_castillo
    open_cards = g.options.open_power_cards  # the discard piles and so the hands are public
    castillo = [str(CASTILLO_CANARY + 11 * p) for p in range(g.state.n)]
    for viewer in [None, *range(g.state.n)]:
        text = view_text(g, viewer)
        who = "public" if viewer is None else g.state.colours[viewer]
        for p in range(g.state.n):
            own = viewer == p
            for label, secret, public in (
                ("hand", planted.hands.get(p), open_cards),
                ("power discards", planted.discards.get(p), open_cards),
                ("modifier hand", planted.modifiers.get(p), False),
                ("modifier discards", planted.modifier_discards.get(p), open_cards),
                ("passed modifier", planted.passes.get(p), False),
            ):
                if secret is None:
                    continue
                if label == "modifier discards" and p not in g.state.seats:
                    public = False  # the dummy plays no modifier
                seen = own or public
                assert (secret in text) == seen, f"{who} view: {g.state.colours[p]}'s {label}"
            assert (castillo[p] in text) == open_castillo, f"{who} view: castillo contents"
        disc_visible = viewer in planted.discs
        assert ("France" in text) == disc_visible, f"{who} view: unrevealed discs"
        if planted.powerback is not None:
            visible = viewer == planted.powerback
            assert (str(POWERBACK_CANARY) in text) == visible, f"{who} view: power card back"
        assert str(DEALER_SEED) not in text, f"{who} view: the dealer's seed"
        assert REMOVED_CANARY not in text, f"{who} view: the card set aside"


def check_real_views(game: Game) -> None:
    """The unplanted views: no secret keys, and each seat sees exactly its own secrets."""
    public = game.view(None)
    for key in ("hand", "hands", "power_discards", "legal", "can_undo"):
        assert key not in public, key
    open_cards = game.options.open_power_cards
    assert ("remaining_power" in public) == open_cards
    if open_cards:
        assert public["remaining_power"] == {
            game.state.colours[p]: sorted(game.state.hands[p]) for p in range(game.state.n)
        }
    expected_castillo = {"total"} | ({"contents"} if game.options.open_castillo else set())
    assert set(public["castillo"]) == expected_castillo
    assert public["castillo"]["total"] == sum(game.state.pieces[game.state.CASTILLO])
    for p in range(game.state.n):
        seat = game.view(p)
        assert seat["hand"] == game.state.hands[p]
        assert seat["power_discards"] == game.state.power_discards[p]
        assert "hands" not in seat
        step = seat["step"] or {}
        if isinstance(game.state.frame, DiscFrame) and p in game.state.frame.chosen:
            assert step["my_disc"] == game.state.tok[game.state.frame.chosen[p]]
        else:
            assert "my_disc" not in step
        assert "discs" not in step and "discs" not in (public["step"] or {})


CASES = [
    Options(players=players_for("2023", 4), seed=1),
    Options(players=players_for("2023", 5), seed=2, alternatives=ALTERNATIVES_2023),
    Options(players=players_for("1995", 4), edition="1995", seed=3),
    Options(players=players_for("1995", 5), edition="1995", seed=4, short_game=True),
    Options(players=players_for("2023", 4), seed=5, open_castillo=True),
    Options(players=players_for("2023", 4), seed=DEALER_SEED, mode="dealer"),
    Options(players=players_for("2023", 5), seed=6, power_shift=True, new_regency=True),
    Options(
        players=players_for("2023", 4),
        seed=7,
        mode="dealer",
        power_shift=True,
        alternatives=ALTERNATIVES_2023,
    ),
    Options(players=players_for("2023", 2), seed=8),
    Options(players=players_for("2023", 4), seed=9, open_power_cards=True, power_shift=True),
    Options(players=players_for("2023", 2), seed=10, open_power_cards=True),
]


def case_id(o: Options) -> str:
    flags = [
        f
        for f in ("power_shift", "new_regency", "open_castillo", "open_power_cards")
        if getattr(o, f)
    ]
    return "-".join([o.edition, f"{len(o.players)}p", o.mode, *flags])


@pytest.mark.parametrize("options", CASES, ids=case_id)
def test_views_keep_secrets_over_a_whole_game(options: Options) -> None:
    game = Game(options)
    rng = random.Random(options.seed)
    seen: set[str] = set()
    step = 0
    while not game.is_terminal():
        # One action at a time, so half-set discs are checked too.
        for player, action in random_step(game, rng):
            game.apply(action, player)
            step += 1
            frame = game.state.frame
            if isinstance(frame, (DiscFrame, PassFrame)) and frame.chosen:
                seen.add("half-set discs")
            if isinstance(frame, ChoiceFrame) and frame.kind == "powerback":
                seen.add("powerback")
            secret = isinstance(frame, (DiscFrame, PassFrame)) or (
                getattr(frame, "kind", "") == "powerback"
            )
            if game.current_players() != (CHANCE,) and (secret or step % CHECK_EVERY == 0):
                check_views(game)
                check_real_views(game)
    check_views(game)
    check_real_views(game)
    assert "half-set discs" in seen  # at least the general scorings were checked mid-disc


def test_the_canaries_would_be_found() -> None:
    """The search is not blind: a view that did leak a canary fails."""
    game = Game(Options(seed=1, mode="dealer"))
    while game.state.phase != "scoring":
        for player, action in random_step(game, random.Random(len(game.history))):
            game.apply(action, player)
    game.apply(game.legal_actions(0)[0], 0)
    planted = plant(game)
    public = planted.game.view(None)
    seat = min(planted.hands)
    public["leak"] = {
        "castillo": planted.game.state.pieces[game.state.CASTILLO][1],
        "hand": list(planted.game.state.hands[seat]),
        "disc": planted.game.state.tok[planted.game.state.frame.chosen[0]],  # type: ignore[union-attr]
    }
    text = json.dumps(public)
    assert str(CASTILLO_CANARY + 11) in text
    assert planted.hands[seat] in text
    assert "France" in text


def test_taking_a_power_card_back_stays_secret() -> None:
    from tests.engine.conftest import play_powers, table_game

    game = table_game(reveals=("conspiracy", "fair", "fiesta", "power-of-attorney"))
    play_powers(game, 9, 8, 5, 3)
    game.apply("take 2")
    game.apply("card power-of-attorney")
    game.apply("special")
    assert isinstance(game.state.frame, ChoiceFrame) and game.state.frame.kind == "powerback"
    check_views(game)
    assert "choices" not in game.view(None)["step"]
    assert game.view(0)["step"]["choices"] == ["powerback 9"]
    game.apply("powerback 9")
    check_views(game)
    check_real_views(game)
    assert 9 in game.view(0)["hand"]
