"""In the browser: the tower is El Grande's (issue 23). With the simulated tower on, a Kingdomino
and an El Caballero table show no tower pill, no tower warning and no Dropper or Tower tab (their
adapters declare neither `tower` nor `lights`: GET /api/catalogue); El Grande's table, and the
lobby before any game, still show the tower and its dropper.

The real app (`castillo run --sim`) and Debian's headless Chromium.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.app.ui_browser import (
    TABLET,
    app_server,
    browser_context,
    chromium_missing,
    get_json,
    post_json,
    watch_errors,
)
from tests.app.ui_strings import shell_strings

MISSING = chromium_missing()
EN = shell_strings("en")
WAIT = 20_000


def _shown(page: Any, title: str) -> None:
    """Wait until the table draws the game `title` (render() sets the title, then the pill)."""
    page.wait_for_function(
        f"() => document.title.startsWith({json.dumps(title + ' —')})", timeout=WAIT
    )


def _tower_on_screen(page: Any) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """(simulated) => {
              const pill = document.querySelector('#tower-pill');
              return {
                pill: pill.offsetParent !== null || pill.getClientRects().length > 0,
                pillText: pill.textContent,
                dropper: document.querySelectorAll('button[data-tab="dropper"]').length,
                towerTab: document.querySelectorAll('button[data-tab="tower"]').length,
                words: document.body.innerText.toLowerCase().includes(simulated),
              };
            }""",
            EN["tower.mode.sim"].lower(),
        )
    )


@pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
def test_only_el_grande_shows_the_tower_pill_and_the_dropper() -> None:
    errors: list[str] = []
    with app_server() as base, browser_context(TABLET) as context:
        catalogue = {g["id"]: g for g in get_json(base + "/api/catalogue")["games"]}
        assert catalogue["elgrande"]["tower"] is True
        assert not catalogue["kingdomino"]["tower"] and not catalogue["kingdomino"]["lights"]
        assert not catalogue["elcaballero"]["tower"] and not catalogue["elcaballero"]["lights"]
        page = context.new_page()
        watch_errors(page, errors)
        page.goto(base + "/")
        connected = f"{EN['tower.mode.sim'].capitalize()}: {EN['tower.state.connected']}"
        # the lobby (no game): the table sees the tower is there before starting El Grande
        page.wait_for_function(
            f"() => document.querySelector('#tower-pill').textContent === {connected!r}",
            timeout=WAIT,
        )
        assert page.locator('button[data-tab="dropper"]').count() == 1

        games = [
            ("kingdomino", "Kingdomino", {"players": ["pink", "blue"]}),
            ("elcaballero", "El Caballero", {"players": ["red", "blue"]}),
        ]
        for game, title, body in games:
            post_json(base + "/api/games", {"game": game, **body})
            _shown(page, title)
            seen = _tower_on_screen(page)
            assert seen == {
                "pill": False,
                "pillText": "",
                "dropper": 0,
                "towerTab": 0,
                "words": False,
            }, (game, seen)
            # the server keeps the tower's state (the link still runs): only the page hides it
            assert get_json(base + "/api/state")["tower"]["state"] == "connected"
            # the tabs the game does have still work
            page.click('button[data-tab="seats"]')
            page.wait_for_selector("[data-seat='blue']", timeout=WAIT)

        post_json(base + "/api/games", {"game": "elgrande", "players": ["purple", "green"]})
        _shown(page, "El Grande")
        page.wait_for_function(
            f"() => document.querySelector('#tower-pill').textContent === {connected!r}",
            timeout=WAIT,
        )
        seen = _tower_on_screen(page)
        assert seen["pill"] and seen["dropper"] == 1 and seen["words"], seen
        page.click('button[data-tab="dropper"]')
        page.wait_for_selector("#dropper #drop-btn", timeout=WAIT)
        assert errors == []
