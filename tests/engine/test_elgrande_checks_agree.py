"""El Grande's two views of the rules agree: the legal actions (engine.elgrande.legal, the
frames) and the checks a refusal is explained by (engine.elgrande.explain.check) are written over
the same predicates (engine.elgrande.rules), so in every position of random games each listed
action passes every check, and each action near a legal one (an argument changed) or typed at
random that is not listed is refused by a specific check, with a key of REFUSALS and its
parameters: the last resort `not_now` ("not possible now") is never needed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.core.actions import Action
from engine.elgrande.effects import STEPS
from engine.elgrande.errors import IllegalAction
from engine.elgrande.explain import KEY_PREFIX, REFUSALS, check, explain
from engine.elgrande.frames import ChoiceFrame
from engine.elgrande.game import CHANCE, Game, Options
from engine.elgrande.verbs import VERBS
from tests.engine.conftest import ALTERNATIVES_2023, players_for, random_step

OPTIONS = [
    Options(players=players_for("2023", 4), mode="table", alternatives=ALTERNATIVES_2023),
    Options(players=players_for("2023", 2), mode="table", new_regency=True, power_shift=True),
    Options(players=players_for("1995", 3), edition="1995", mode="table", merge_decks_2_3=True),
    Options(players=players_for("2023", 5), mode="table", power_shift=True, short_game=True),
    Options(players=players_for("1995", 4), edition="1995", mode="dealer", seed=3),
    Options(players=players_for("1995", 2), edition="1995", mode="table"),
]
IDS = ["2023-4p-alternatives", "2023-2p-regency-shift", "1995-3p-merged", "2023-5p-shift-short"]
IDS += ["1995-4p-dealer", "1995-2p"]


def _tokens(game: Game) -> list[str]:
    """Every kind of argument, from the game's own tokens."""
    return [
        *sorted(game.state.area_tokens),
        *game.state.colours,
        *sorted(game.state.data.cards)[::4],
        *sorted(game.state.data.grey_cards)[:4],
        *[t.id for t in game.state.data.tiles],
        *[str(n) for n in range(15)],
        "?",
    ]


def _near_misses(game: Game, legal: list[Action], rng: random.Random) -> set[str]:
    """Legal actions with one argument changed, and each verb with random arguments."""
    tokens = _tokens(game)
    out: set[str] = set()
    for action in rng.sample(legal, min(5, len(legal))):
        words = str(action).split()
        for i in range(1, len(words)):
            for token in rng.sample(tokens, 8):
                out.add(" ".join([*words[:i], token, *words[i + 1 :]]))
    for verb, arity in VERBS.arity.items():
        if VERBS.verbs[verb].group != "table":  # the castillo correction: its own checks
            out.add(" ".join([verb, *(rng.choice(tokens) for _ in range(arity))]))
    return out


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_legal_actions_pass_every_check_and_the_others_are_refused_specifically(
    options: Options,
) -> None:
    rng = random.Random(7)
    game = Game(options)
    refused: set[str] = set()
    steps = 0
    while not game.is_terminal() and steps < 300:
        player = rng.choice(game.current_players())
        legal = game.legal_actions(player)
        for action in legal:
            found = check(game.state, player, action)
            assert found is None, (steps, str(action), found.key, found.reason)
        listed = {str(a) for a in legal}
        for text in sorted(_near_misses(game, legal, rng) - listed):
            try:
                action = game.parse(text)
            except ValueError:
                continue  # not notation: a NotationError, not a refusal
            if str(action) in listed:
                continue
            found = check(game.state, player, action)
            assert found is not None, (steps, game.state.phase, text, [str(a) for a in legal][:8])
            assert explain(game.state, player, action).key == found.key
            name = found.key.removeprefix(KEY_PREFIX)
            assert found.key.startswith(KEY_PREFIX) and name in REFUSALS, found.key
            assert sorted(found.params) == sorted(REFUSALS[name]), (found.key, found.params)
            assert found.reason and "{" not in found.reason, found.reason
            refused.add(name)
        for who, action in random_step(game, rng):
            game.apply(action, who)
        steps += 1
    assert len(refused) >= 20, sorted(refused)


@pytest.mark.parametrize("edition", ["2023", "1995"])
def test_the_dummy_named_first_player_is_refused_by_its_own_key(edition: str) -> None:
    game = Game(Options(players=players_for(edition, 2), edition=edition, mode="table"))
    assert game.state.phase == "setup_first" and game.state.dummy >= 0
    dummy = game.state.colours[game.state.dummy]
    action = game.parse(f"first {dummy}")
    assert action not in game.legal_actions(CHANCE)
    found = explain(game.state, CHANCE, action)
    assert found.key == KEY_PREFIX + "dummy_not_first", found.key
    assert found.params == {"colour": dummy}
    assert "never gets the first-player marker" in found.reason
    with pytest.raises(IllegalAction) as refused:
        game.apply(action, CHANCE)
    assert refused.value.key == found.key and refused.value.params == found.params
    for player in game.state.seats:  # a player may go first: no check refuses it
        assert check(game.state, CHANCE, game.parse(f"first {game.state.colours[player]}")) is None


# A card's one-choice steps (engine.elgrande.effects lists their choices by
# engine.elgrande.choice_rules, step_checks explains a refused choice by the same rules).
CHOICE_STEPS: list[dict[str, Any]] = [
    *({"op": "king", "to": to} for to in ("any", "adjacent", "fewest", "border", "escort")),
    {"op": "king", "to": "swap_grande"},  # Viceroy
    {"op": "grande"},
    {"op": "grande", "any": True},  # Power Shift: any Grande
    {"op": "tile"},
    {"op": "coup"},
    {"op": "score", "select": "chosen"},
]


def _choice_probes(game: Game, verb: str) -> list[Action]:
    """Every action of the step's verb with one or two arguments of the game's tokens."""
    board = game.state
    tokens = [*sorted(board.area_tokens), *board.colours, *[t.id for t in board.data.tiles]]
    texts = [f"{verb} {a}" for a in tokens] + [f"{verb} {a} {b}" for a in tokens for b in tokens]
    out = []
    for text in texts:
        try:
            out.append(game.parse(text))
        except ValueError:
            continue
    return out


def test_every_choice_a_one_choice_step_leaves_out_is_refused_specifically() -> None:
    """Each one-choice step started on boards of random games (the King at the castillo, the
    Grandes sent there by Tournament, tiles in the King's region...): every action of its verb
    is a listed choice passing every check, or is refused by a specific key, never `not_now`."""
    kinds: dict[str, int] = {}
    keys: set[str] = set()
    for seed in range(6):
        options = Options(
            players=players_for("2023", 4), mode="dealer", seed=seed, new_regency=True
        )
        game = Game(options)
        rng = random.Random(seed)
        while not game.is_terminal():
            for who, action in random_step(game, rng):
                game.apply(action, who)
            if game.state.phase != "main" or game.state.frame is not None or rng.random() > 0.1:
                continue
            for step in CHOICE_STEPS:
                trial = game.clone()
                board = trial.state
                assert board.turn is not None
                me = board.turn.player
                STEPS[step["op"]](board, step, me)
                frame = board.frame
                if not isinstance(frame, ChoiceFrame):
                    continue  # nothing to choose (e.g. no Grande may move)
                kinds[frame.kind] = kinds.get(frame.kind, 0) + 1
                legal = trial.legal_actions(me)
                for action in _choice_probes(trial, frame.kind):
                    found = check(board, me, action)
                    if action in legal:
                        assert found is None, (str(action), found)
                        continue
                    assert found is not None, (step, str(action), board.tok[board.king])
                    assert sorted(found.params) == sorted(
                        REFUSALS[found.key.removeprefix(KEY_PREFIX)]
                    )
                    keys.add(found.key.removeprefix(KEY_PREFIX))
    assert set(kinds) == {"king", "viceroy", "grande", "movegrande", "tile", "region"}, kinds
    assert len(keys) >= 12, sorted(keys)
