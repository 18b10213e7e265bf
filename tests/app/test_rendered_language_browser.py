"""In the browser: every screen of every game speaks the page's language (issue 23).

For each registered game with a UI plugin, a dealer-mode game is played at random over HTTP for a
while; then the table page and a seat page are shown in Czech, Polish and Ukrainian, and their
rendered text (what is on the screen, the page title and the labels a screen reader reads) may
hold no English phrase of the English bundles (the shell's and the game's) that the language
translates differently. A phrase is a piece of an English string between its placeholders: two
words or more, or one word of five letters or more found as a whole word ("Players"), that the
language's own strings never use (Polish says "Start" too).

The real app (`castillo run --sim`) and Debian's headless Chromium.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from engine import registry
from tests.app.ui_browser import (
    PHONE,
    TABLET,
    app_server,
    browser_context,
    chromium_missing,
    get_json,
    post_json,
)
from tests.app.ui_strings import page_strings

MISSING = chromium_missing()
browser = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
LANGS = ("cs", "pl", "uk")
STEPS = 60  # random steps played before the pages are read
GAMES = {
    "elgrande": {"players": ["purple", "green", "blue"], "mode": "dealer", "seed": 4},
    "kingdomino": {"players": ["blue", "green", "pink", "yellow"], "mode": "dealer", "seed": 4},
    "elcaballero": {
        "players": ["red", "blue", "green"],
        "mode": "dealer",
        "seed": 4,
        "catalogue": "synthetic",
    },
}
# the words a page shows: its text, its title, and what a screen reader reads of its labels
SHOWN = """() => [
  document.title,
  document.body.innerText,
  ...[...document.querySelectorAll('[aria-label]')].map((el) => el.getAttribute('aria-label')),
  ...[...document.querySelectorAll('[title]')].map((el) => el.getAttribute('title')),
  ...[...document.querySelectorAll('svg text')].map((el) => el.textContent),
].join('\\n')"""


def english_phrases(game: str, lang: str) -> set[str]:
    """The English phrases `lang` says otherwise: pieces of English strings between their
    placeholders (and plural forms), two words or more, found in no string of `lang`."""
    english, other = page_strings("en", game), page_strings(lang, game)
    # the games' titles are names, the same in every language ("El Grande")
    theirs = "\n".join([*other.values(), *(spec.title for spec in registry.specs())])
    phrases: set[str] = set()
    for key, text in english.items():
        if other.get(key, text) == text:
            continue  # the same in both languages (a name, a symbol)
        for piece in re.split(r"[{}#]", text):
            piece = piece.strip(" .,:;()—-–→×+/!?")
            words = piece.split()
            if len(words) >= 2 and len(piece) >= 8 and piece not in theirs:
                phrases.add(piece)
            elif (
                len(words) == 1
                and len(piece) >= 5
                and piece.isalpha()
                and not word_pattern(piece).search(theirs)
            ):
                phrases.add(piece)  # a word alone: found only as a whole word
    return phrases


def word_pattern(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")


def shown_english(phrases: set[str], shown: str) -> list[str]:
    return sorted(
        p for p in phrases if (word_pattern(p).search(shown) if " " not in p else p in shown)
    )


def _play(base: str, tokens: dict[str, str], steps: int, seed: int) -> None:
    """Random legal steps: the table's when it acts (chance, or nobody's seat), else a seat's."""
    rng = random.Random(seed)
    for _ in range(steps):
        state = get_json(base + "/api/state")
        if state["game"].get("finished"):
            return
        acting = [c for c in state["game"].get("acting", []) if c != "chance"]
        if state["legal"] and (state.get("acting_as") == "chance" or not acting):
            post_json(base + "/api/action", {"text": rng.choice(state["legal"])})
            continue
        if not acting:
            return
        colour = rng.choice(acting)
        mine = get_json(f"{base}/api/seat/{tokens[colour]}/state")["legal"]
        # never into the castillo: its throw would wait for the (simulated) tower
        usable = [t for t in mine if "castillo" not in t] or mine
        if not usable:
            return
        post_json(f"{base}/api/seat/{tokens[colour]}/action", {"text": rng.choice(usable)})


@pytest.fixture(scope="module", params=sorted(GAMES))
def played(request: Any) -> Iterator[tuple[str, str, str]]:
    """(game, base URL, a seat's token) after some play."""
    game = request.param
    with app_server() as base:
        created = post_json(base + "/api/games", {"game": game, **GAMES[game]})
        tokens = {s["colour"]: s["token"] for s in created["seats"]}
        _play(base, tokens, STEPS, seed=7)
        yield game, base, next(iter(tokens.values()))


def _shown_in(page: Any, lang: str) -> str:
    page.wait_for_selector("#lang option", state="attached", timeout=20_000)
    page.select_option("#lang", lang)
    page.wait_for_function(f"() => document.documentElement.lang === {lang!r}", timeout=15_000)
    page.wait_for_timeout(300)  # a game's plugin draws after the language's bundle arrives
    return str(page.evaluate(SHOWN))


@browser
@pytest.mark.parametrize("lang", LANGS)
def test_no_english_on_the_table_and_seat_pages(played: tuple[str, str, str], lang: str) -> None:
    game, base, token = played
    phrases = english_phrases(game, lang)
    assert len(phrases) > 20, f"too few phrases to look for: {sorted(phrases)}"
    with browser_context(TABLET) as context:
        table = context.new_page()
        table.goto(base + "/")
        table.wait_for_function("() => document.body.dataset.ready === '1'", timeout=20_000)
        seat = context.new_page()
        seat.set_viewport_size(PHONE)
        seat.goto(f"{base}/seat/{token}")
        seat.wait_for_function("() => document.body.dataset.ready === '1'", timeout=20_000)
        for name, page in (("table", table), ("seat", seat)):
            shown = _shown_in(page, lang)
            english = shown_english(phrases, shown)
            assert english == [], f"{game} {name} page in {lang} shows English: {english}"
