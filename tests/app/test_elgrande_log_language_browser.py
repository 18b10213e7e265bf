"""In the browser: El Grande's log names every card in the page's language (issue 23).

A dealer-mode game with Power Shift and an alternative card is played over HTTP until several
action cards were taken; a seat page in cs, pl and uk then shows the log. Before the fix the
seat page's log worded its lines through a second, empty layer of El Grande's words (no game
data) and named the cards by their English ids ("Power of attorney", "Revelation").

The real app (`castillo run --sim`) and Debian's headless Chromium; every wait is on a condition.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
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

MISSING = chromium_missing()
PLAYERS = ["purple", "green", "blue"]
CARDS_TAKEN = 6  # two rounds of three players
MAX_STEPS = 600


def _play_until_cards_taken(base: str, tokens: dict[str, str]) -> list[str]:
    """Act at random (a card whenever one is offered) until CARDS_TAKEN cards were taken."""
    rng = random.Random(3)
    for _ in range(MAX_STEPS):
        state = get_json(base + "/api/state")
        taken = [e["text"][5:] for e in state["log"] if str(e.get("text", "")).startswith("card ")]
        if len(taken) >= CARDS_TAKEN:
            return taken
        acting = [c for c in state["game"]["acting"] if c != "chance"]
        if state["legal"] and (state["acting_as"] == "chance" or not acting):
            post_json(base + "/api/action", {"text": rng.choice(state["legal"])})
            continue
        colour = rng.choice(acting)
        mine = get_json(f"{base}/api/seat/{tokens[colour]}/state")["legal"]
        assert mine, f"{colour} acts but has no choices: {state['prompt']}"
        cards = [t for t in mine if t.startswith("card ")]
        usable = [t for t in mine if t != "place castillo"] or mine
        post_json(f"{base}/api/seat/{tokens[colour]}/action", {"text": rng.choice(cards or usable)})
    raise AssertionError(f"{CARDS_TAKEN} cards not taken in {MAX_STEPS} steps")


def _english_names(lang: str) -> dict[str, str]:
    """Each card's English name that the language names differently (→ that language's name)."""
    data = gamedata.load("2023")
    cards = [*data.cards.values(), *data.grey_cards.values()]
    return {
        c.names["en"]: c.names[lang]
        for c in cards
        if c.names.get(lang) and c.names[lang] != c.names["en"]
    }


def _log_text(page: Any, selector: str, names: list[str]) -> str:
    """The log's text once it names every one of `names` (or as it is after 20 s)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # only with a browser

    page.wait_for_selector(f"{selector} li", timeout=20_000)
    # on a timeout the assertions below say what is wrong
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            "([sel, names]) => { const log = document.querySelector(sel);"
            " return !!log && names.every((n) => log.textContent.includes(n)); }",
            arg=[selector, names],
            timeout=20_000,
        )
    return str(page.locator(selector).first.text_content())


def _pick_language(page: Any, lang: str) -> None:
    page.wait_for_selector("#lang option", state="attached", timeout=20_000)
    page.select_option("#lang", lang)
    page.wait_for_function(f"() => document.documentElement.lang === {lang!r}", timeout=15_000)


@pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
def test_the_seat_log_names_cards_in_the_page_language() -> None:
    data = gamedata.load("2023")
    with app_server() as base:
        created = post_json(
            base + "/api/games",
            {
                "players": PLAYERS,
                "mode": "dealer",
                "seed": 9,
                "power_shift": True,
                "alternatives": ["delegation"],
            },
        )
        tokens = {s["colour"]: s["token"] for s in created["seats"]}
        taken = _play_until_cards_taken(base, tokens)
        with browser_context(PHONE) as context:
            errors: list[str] = []
            phone = context.new_page()
            watch_errors(phone, errors)
            phone.goto(f"{base}/seat/{tokens[PLAYERS[0]]}")
            table = context.new_page()
            watch_errors(table, errors)
            table.goto(base + "/")
            for lang in ("cs", "pl", "uk"):
                # every taken card's name in this language is in the log, no English one is
                wanted = sorted({data.cards[c].names[lang] for c in taken if c in data.cards})
                for page, log in ((phone, "ol.log"), (table, "#tab-body ol.log")):
                    _pick_language(page, lang)
                    text = _log_text(page, log, wanted)
                    where = f"{lang} {'seat' if page is phone else 'table'} log"
                    english = [
                        name
                        for name in _english_names(lang)
                        if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text)
                    ]
                    assert english == [], f"{where} names cards in English: {english}\n{text}"
                    assert [n for n in wanted if n not in text] == [], f"{where}:\n{text}"
            assert errors == [], json.dumps(errors)
