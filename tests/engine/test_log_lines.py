"""The log as lines of key + params, per viewer (engine.core.log; docs/table-api.md `state.log`).

Over random games of every game (El Grande in both editions, with Power Shift, open power cards
and the castillo open or closed): every line names its verb (`key`) and each argument by the
verb table's name (`params`); a secret argument is None for the public and shown to its owner
only (El Grande: a seat's own disc, modifier passed, card taken back, the card dealt to its
colour; never a card set aside); and the notation text derived from the public lines is the
text of the public log as it was before the lines existed (the old `public_step` and
`public_log`, copied below as the reference).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import registry
from engine.core.actions import Action
from engine.core.protocol import CHANCE, GameState
from engine.core.spec import GameSpec
from engine.core.verbs import VerbTable
from engine.elgrande import data as gamedata
from engine.elgrande.frames import DiscFrame
from engine.elgrande.game import Game as ElGrande
from engine.elgrande.options import Options as ElGrandeOptions
from engine.elgrande.views import hidden_steps, public_step

CHECK_EVERY = 40  # steps between whole-log checks (each step's own line is checked at once)


# ---------------------------------------------------------------- the reference: the old text
def old_redact(verbs: VerbTable, action: Action) -> str:
    """VerbTable.redact as it was: secret arguments from `secret_from` on as one "?"."""
    start = verbs[action.kind].secret_from
    if start is None:
        return str(action)
    return " ".join([action.kind, *[a for a in action[1 : 1 + start] if a], "?"])


def old_public_step(action: Action, options: ElGrandeOptions) -> str:
    if action.kind == "powerback" and options.open_power_cards:
        return str(action)
    return old_redact(registry.get("elgrande").verbs, action)


def old_public_log(g: ElGrande) -> list[list[str]]:
    """El Grande's public log as it was: disc choices shown once revealed, castillo steps of
    earlier turns left out."""
    history = g.history
    hidden = hidden_steps(g.state)
    frame = g.state.frame
    unrevealed = len(frame.chosen) if isinstance(frame, DiscFrame) else 0
    shown: set[int] = set()
    for i in range(len(history) - 1, -1, -1):
        if history[i][1].kind == "disc":
            if unrevealed:
                unrevealed -= 1
            else:
                shown.add(i)
    return [
        [
            "chance" if player < 0 else g.state.colours[player],
            str(action) if i in shown else old_public_step(action, g.options),
        ]
        for i, (player, action) in enumerate(history)
        if i not in hidden
    ]


def owns(state: GameState, player: int, action: Action, viewer: int) -> bool:
    """Whether `viewer` owns the secret argument of `action` (taken by `player`)."""
    if isinstance(state, ElGrande):
        if action.kind == "remove":
            return False  # set aside unseen: nobody's
        if action.kind == "deal":
            return action.arg == state.state.colours[viewer]
    return player == viewer


# ---------------------------------------------------------------- the checks
class Seen:
    def __init__(self) -> None:
        self.secret_lines = 0  # secret arguments checked for a viewer
        self.own_shown = 0  # … shown to their owner
        self.kinds: set[str] = set()


def check_lines(spec: GameSpec, state: GameState, seen: Seen) -> None:
    verbs = spec.verbs
    history = state.history
    names = state.seat_names()
    public = spec.log_lines(state, None)
    for line in public:
        verb = verbs[line["key"]]
        player, action = history[line["step"]]
        assert line["key"] == action.kind
        assert list(line["params"]) == list(verb.params)  # every argument by its name
        assert line["actor"] == ("chance" if player == CHANCE else names[player])
    texts = [[line["actor"], verbs.text(line)] for line in public]
    if isinstance(state, ElGrande):
        assert texts == old_public_log(state)
    else:
        assert texts == [["chance" if p == CHANCE else names[p], str(a)] for p, a in history], (
            "no secret in this game: the lines are the history"
        )
    assert state.view(None)["log"] == texts
    for viewer in range(len(names)):
        lines = spec.log_lines(state, viewer)
        assert [line["step"] for line in lines] == [line["step"] for line in public]
        for mine, theirs in zip(lines, public, strict=True):
            player, action = history[mine["step"]]
            verb = verbs[action.kind]
            args = dict(zip(verb.params, action[1:], strict=False))
            start = verb.secret_from
            for i, name in enumerate(verb.params):
                if start is None or i < start:
                    assert mine["params"][name] == theirs["params"][name] == args[name]
                    continue
                seen.secret_lines += 1
                seen.kinds.add(action.kind)
                if owns(state, player, action, viewer):
                    assert mine["params"][name] == args[name], (viewer, action)
                    seen.own_shown += 1
                else:  # another's secret: as the public reads it
                    assert mine["params"][name] == theirs["params"][name], (viewer, action)


def check_step(spec: GameSpec, state: GameState, player: int, action: Action) -> None:
    """The line of a step just taken: the public's text is the old `public_step`'s."""
    line = spec.log_line(state, player, action, None)
    assert line["key"] == action.kind
    if isinstance(state, ElGrande):
        assert spec.verbs.text(line) == old_public_step(action, state.options)
        assert public_step(action, state.options) == old_public_step(action, state.options)
    else:
        assert spec.verbs.text(line) == old_redact(spec.verbs, action) == str(action)
    for seat in range(len(state.seat_names())):
        mine = spec.log_line(state, player, action, seat)
        if owns(state, player, action, seat):
            assert spec.verbs.text(mine) == str(action)


def play(spec: GameSpec, options: Any, seed: int, max_steps: int = 4000) -> Seen:
    """One random game to its end, its lines checked along the way."""
    rng = random.Random(seed)
    state = spec.new_state(options)
    seen = Seen()
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        actors = state.current_players()
        if actors == (CHANCE,):
            outcomes = state.chance_outcomes()
            moves = [(CHANCE, rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])]
        else:
            moves = [(p, rng.choice(state.legal_actions(p))) for p in actors]
        for player, action in moves:
            if state.is_terminal() or player not in state.current_players():
                break
            state.apply(action, player)
            check_step(spec, state, player, action)
            steps += 1
            if steps % CHECK_EVERY == 0:
                check_lines(spec, state, seen)
    assert state.is_terminal(), f"no end in {max_steps} steps"
    check_lines(spec, state, seen)
    return seen


def el_grande_options() -> list[ElGrandeOptions]:
    colours = gamedata.load("2023").colours[:4]
    old = gamedata.load("1995").colours[:4]
    return [
        ElGrandeOptions(players=colours[:3], mode="dealer", seed=3),
        ElGrandeOptions(players=old, edition="1995", mode="dealer", seed=4),
        ElGrandeOptions(
            players=colours[:3], mode="dealer", seed=5, power_shift=True, open_power_cards=True
        ),
        ElGrandeOptions(
            players=colours, mode="dealer", seed=6, power_shift=True, open_castillo=True
        ),
    ]


@pytest.mark.parametrize("index", range(4))
def test_el_grande_lines_show_secrets_to_their_owner_only(index: int) -> None:
    options = el_grande_options()[index]
    for seed in range(3):
        seen = play(registry.get("elgrande"), options, seed=seed)
        assert seen.own_shown and seen.secret_lines > seen.own_shown  # owners and others met
        assert "disc" in seen.kinds
        if options.power_shift:
            assert {"deal", "pass"} <= seen.kinds


@pytest.mark.parametrize("game_id", ["kingdomino", "elcaballero"])
def test_every_games_lines_name_the_verbs_arguments(game_id: str) -> None:
    spec = registry.get(game_id)
    players = spec.player_counts[0]
    for index, options in enumerate(spec.test_options(players)[:2]):
        play(spec, options, seed=index)


def test_a_secret_argument_is_none_and_its_text_one_mark() -> None:
    """The verb table's line of a secret step: None for the public, its value when shown; the
    text of either is the notation the log has always shown."""
    verbs = registry.get("elgrande").verbs
    deal = Action("deal", "purple", "g+1-court")
    assert verbs.line(deal) == {
        "key": "deal",
        "params": {"colour": "purple", "modifier": None},
    }
    assert verbs.text(verbs.line(deal)) == "deal purple ?"
    assert verbs.text(verbs.line(deal, shown=True)) == "deal purple g+1-court"
    assert verbs.line(Action("powerback", "5"))["params"] == {"card_or_modifier": None}
    assert [verb.params for verb in registry.get("elcaballero").verbs if verb.name == "moveship"]
    assert registry.get("elcaballero").verbs["moveship"].params == ("from", "to")
