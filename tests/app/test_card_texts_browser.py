"""In the browser: El Grande's cards speak the page's language. A table-mode game with Delegation
is played over HTTP until its owner chooses between its two options; the owner's phone in Czech
and the table in Polish show the card's name and effect text in that language for the turn, and
the option buttons say what each option does (never "Option 1").

The real app (`castillo run --sim`) and Debian's headless Chromium; every wait is on a condition.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.elgrande import data as gamedata
from tests.app.ui_browser import (
    PHONE,
    app_server,
    browser_context,
    chromium_missing,
    get_json,
    post_json,
    watch_errors,
)
from tests.app.ui_strings import page_strings

MISSING = chromium_missing()
# the generic label a choice falls back to ("Option 1"): never shown for a card with labels
GENERIC_OPTION = {lang: page_strings(lang)["act.option"] for lang in ("cs", "pl")}
CARD = "delegation"
MAX_STEPS = 400


def _choose(legal: list[str], game: dict[str, Any], rng: random.Random) -> str:
    """Steer towards Delegation: reveal it, take it, start its special action; else random."""
    for wanted in ("reveal 1 delegation", "card delegation"):
        if wanted in legal:
            return wanted
    if "special" in legal and (game.get("turn") or {}).get("card") == CARD:
        return "special"
    usable = [t for t in legal if t != "place castillo" and CARD not in t.split()[1:]]
    return rng.choice(usable or legal)


def _play_to_the_choice(base: str, tokens: dict[str, str]) -> str:
    """Play until a seat must choose one of Delegation's options; returns that seat's token."""
    rng = random.Random(7)
    for _ in range(MAX_STEPS):
        state = get_json(base + "/api/state")
        game = state["game"]
        acting = [c for c in game["acting"] if c != "chance"]
        for colour in acting:
            mine = get_json(f"{base}/api/seat/{tokens[colour]}/state")["legal"]
            if "option 1" in mine:
                return tokens[colour]
        if state["legal"] and (state["acting_as"] == "chance" or not acting):
            post_json(base + "/api/action", {"text": _choose(state["legal"], game, rng)})
            continue
        colour = rng.choice(acting)
        mine = get_json(f"{base}/api/seat/{tokens[colour]}/state")["legal"]
        assert mine, f"{colour} acts but has no choices: {state['prompt']}"
        post_json(f"{base}/api/seat/{tokens[colour]}/action", {"text": _choose(mine, game, rng)})
    raise AssertionError(f"Delegation's choice not reached in {MAX_STEPS} steps")


def _pick_language(page: Any, lang: str) -> None:
    page.wait_for_selector("#lang option", state="attached", timeout=20_000)
    page.select_option("#lang", lang)
    page.wait_for_function(f"() => document.documentElement.lang === {lang!r}", timeout=15_000)


def _wait_for_text(page: Any, selector: str, text: str) -> str:
    page.wait_for_function(
        "([sel, text]) => document.querySelector(sel)?.textContent.includes(text)",
        arg=[selector, text],
        timeout=20_000,
    )
    return str(page.locator(selector).first.text_content())


@pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
def test_a_card_and_its_options_are_shown_in_the_page_language() -> None:
    card = gamedata.load("2023").cards[CARD]
    with app_server() as base:
        created = post_json(
            base + "/api/games",
            {"players": ["purple", "green", "blue"], "alternatives": [CARD], "mode": "table"},
        )
        tokens = {s["colour"]: s["token"] for s in created["seats"]}
        token = _play_to_the_choice(base, tokens)
        with browser_context(PHONE) as context:
            errors: list[str] = []
            phone = context.new_page()
            watch_errors(phone, errors)
            phone.goto(f"{base}/seat/{token}")
            _pick_language(phone, "cs")
            taken = f'[data-taken-card="{CARD}"]'
            assert card.names["cs"] in _wait_for_text(
                phone, f"{taken} .card-name", card.names["cs"]
            )
            _wait_for_text(phone, f"{taken} .card-text", card.texts["cs"])
            for n, label in enumerate(card.option_labels, start=1):
                shown = _wait_for_text(phone, f'button[data-action="option {n}"]', label["cs"])
                assert GENERIC_OPTION["cs"].replace("{n}", str(n)) not in shown, shown
            table = context.new_page()
            watch_errors(table, errors)
            table.goto(base + "/")
            _pick_language(table, "pl")
            _wait_for_text(table, f"#cards {taken} .card-name", card.names["pl"])
            _wait_for_text(table, f"#cards {taken} .card-text", card.texts["pl"])
            assert card.text not in str(table.locator(taken).text_content())  # not English
            for n, label in enumerate(card.option_labels, start=1):  # the table may enter it too
                buttons = table.locator(f'button[data-action="option {n}"]')
                if buttons.count():
                    shown = _wait_for_text(table, f'button[data-action="option {n}"]', label["pl"])
                    assert GENERIC_OPTION["pl"].replace("{n}", str(n)) not in shown, shown
            # the choice is made: the log names it in words, the card stays up for the turn
            first = card.option_labels[0]
            phone.locator('button[data-action="option 1"]').click()
            _wait_for_text(table, "#tab-body ol.log", first["pl"])
            assert GENERIC_OPTION["pl"].replace("{n}", "1") not in str(
                table.locator("#tab-body ol.log").text_content()
            )
            _wait_for_text(table, f"#cards {taken} .card-text", card.texts["pl"])
            _wait_for_text(phone, f"{taken} .card-text", card.texts["cs"])
            assert errors == [], json.dumps(errors)
