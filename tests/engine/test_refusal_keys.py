"""Every refusal of El Grande carries a translation key and parameters (engine.core.errors:
IllegalAction), and the table app's bundles translate each key in en, cs, pl and uk.

The bundles: host/games/elgrande/static/i18n/<lang>/refusals.json, one flat object key -> template
with {param} placeholders. Parameters are tokens (an area token, a card id, a colour, a number),
never display names or notation: the page words them in the player's language.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.elgrande.errors import IllegalAction
from engine.elgrande.explain import KEY_PREFIX, PARAM_KINDS, PHASE_WORDS, REFUSALS
from engine.elgrande.game import CHANCE, Game, Options
from engine.elgrande.verbs import VERBS
from tests.app.ui_strings import placeholders
from tests.engine.conftest import ALTERNATIVES_2023, players_for, random_step

BUNDLES = Path(__file__).resolve().parents[2] / "host" / "games" / "elgrande" / "static" / "i18n"
LANGUAGES = ("en", "cs", "pl", "uk")


def bundle(lang: str) -> dict[str, str]:
    data = json.loads((BUNDLES / lang / "refusals.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict) and all(isinstance(v, str) for v in data.values())
    return data


def check_refusal(game: Game, refused: IllegalAction) -> None:
    """The refusal's key is known and its parameters are the key's, each a token of its kind."""
    assert refused.key.startswith(KEY_PREFIX), refused.reason
    name = refused.key.removeprefix(KEY_PREFIX)
    assert name in REFUSALS, refused.key
    assert sorted(refused.params) == sorted(REFUSALS[name]), (refused.key, refused.params)
    for param, value in refused.params.items():
        kind = PARAM_KINDS[param]
        if kind == "number":
            assert isinstance(value, int), (refused.key, param, value)
            continue
        assert isinstance(value, str), (refused.key, param, value)
        known = {
            "area": set(game.state.area_tokens),
            "card": set(game.state.data.cards),
            "modifier": set(game.state.data.grey_cards),
            "tile": {t.id for t in game.state.data.tiles},
            "colour": set(game.state.colours),
            "phase": set(PHASE_WORDS),
            "step": set(VERBS.by_step()) | set(VERBS.verbs),
        }[kind]
        assert value in known, (refused.key, param, value)


def test_every_refusal_key_is_translated_in_all_four_languages_with_its_placeholders() -> None:
    expected = {KEY_PREFIX + name: set(params) for name, params in REFUSALS.items()}
    for lang in LANGUAGES:
        texts = bundle(lang)
        assert set(texts) == set(expected), (lang, set(texts) ^ set(expected))
        for key, text in texts.items():
            assert placeholders(text) == expected[key], (lang, key, text)
            assert text.strip() == text and text, (lang, key)


def test_no_translation_is_the_english_text() -> None:
    english = bundle("en")
    for lang in ("cs", "pl", "uk"):
        same = [key for key, text in bundle(lang).items() if text == english[key]]
        assert same == [], (lang, same)


def test_every_parameter_name_says_what_it_holds() -> None:
    used = {param for params in REFUSALS.values() for param in params}
    assert used <= set(PARAM_KINDS), used - set(PARAM_KINDS)


def _candidates(game: Game, rng: random.Random) -> list[str]:
    """Actions typed at random: every verb with arguments drawn from the game's own tokens."""
    words = [
        *game.state.area_tokens,
        *game.state.colours,
        *rng.sample(sorted(game.state.data.cards), 6),
        *list(game.state.data.grey_cards)[:3],
        *[t.id for t in game.state.data.tiles],
        *[str(n) for n in range(0, 15)],
        "court",
        "?",
    ]
    out = []
    for verb, arity in sorted(VERBS.arity.items()):
        for _ in range(2):
            out.append(" ".join([verb, *(rng.choice(words) for _ in range(arity))]))
    return out


@pytest.mark.parametrize(
    "options",
    [
        Options(players=players_for("2023", 4), mode="table", alternatives=ALTERNATIVES_2023),
        Options(players=players_for("2023", 2), mode="table", new_regency=True, power_shift=True),
        Options(players=players_for("1995", 3), edition="1995", mode="table"),
    ],
    ids=["2023-alternatives", "2023-2p-variants", "1995"],
)
def test_refusals_in_random_games_carry_a_known_key_and_token_parameters(
    options: Options,
) -> None:
    seen: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        game = Game(options)
        steps = 0
        while not game.is_terminal() and steps < 400:
            actors = game.current_players()
            player = rng.choice(actors)
            legal = {str(a) for a in game.legal_actions(player)}
            for text in rng.sample(_candidates(game, rng), 12):
                try:
                    action = game.parse(text)
                except ValueError:
                    continue  # not notation at all: a NotationError, not a refusal
                if str(action) in legal:
                    continue
                with pytest.raises(IllegalAction) as info:
                    game.apply(action, None if player == CHANCE else player)
                check_refusal(game, info.value)
                seen.add(info.value.key)
            for who, action in random_step(game, rng):
                game.apply(action, who)
            steps += 1
    assert len(seen) >= 15, sorted(seen)
