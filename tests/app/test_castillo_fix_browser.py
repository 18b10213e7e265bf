"""In the browser (issue 11): a wrong-colour throw shows fixes that say what to do with the
pieces, in the table's language, and the one that lets the tower's count win records the
castillo correction. The real app (`castillo run --sim`: the real firmware in MicroPython) and
Debian's headless Chromium."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.app.ui_browser import (
    app_server,
    browser_context,
    chromium_missing,
    get_json,
    post_json,
    watch_errors,
)

MISSING = chromium_missing()
BUNDLE = Path(__file__).resolve().parents[2] / "host/games/elgrande/static/i18n"
CS = json.loads((BUNDLE / "cs" / "checks.json").read_text("utf-8"))
EN = json.loads((BUNDLE / "en" / "checks.json").read_text("utf-8"))
PLAYERS = ["purple", "green", "blue", "orange"]


def act(base: str, text: str) -> None:
    assert post_json(base + "/api/action", {"text": text})["ok"]


def to_castillo_placement(base: str) -> str:
    """Play on from the table (nothing thrown) until the acting player may place into the
    castillo; returns their colour."""
    for _ in range(400):
        state = get_json(base + "/api/state")
        legal: list[str] = state["legal"]
        if "place castillo" in legal:
            return str(state["acting_as"])
        takes = [t for t in legal if t.startswith("take ")]
        if takes:
            act(base, max(takes, key=lambda t: int(t.split()[1])))
            continue
        for wanted in ("skip", "done"):
            if wanted in legal:
                act(base, wanted)
                break
        else:
            act(base, next(t for t in legal if "castillo" not in t))
    raise AssertionError("no castillo placement came up")


def prefix(template: str) -> str:
    """The template's text before its first placeholder."""
    return template.split("{", 1)[0]


@pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
def test_a_wrong_colour_is_fixed_from_the_table_in_czech() -> None:
    with app_server() as base, browser_context() as context:
        page = context.new_page()
        errors: list[str] = []
        watch_errors(page, errors)
        post_json(base + "/api/games", {"players": PLAYERS, "mode": "dealer", "seed": 4})
        page.goto(base + "/")
        page.wait_for_selector("#lang option[value=cs]", state="attached")
        page.select_option("#lang", "cs")
        page.wait_for_function("() => document.documentElement.lang === 'cs'")
        colour = to_castillo_placement(base)
        stray = next(c for c in PLAYERS if c != colour)
        act(base, "place castillo")
        assert post_json(base + "/api/sim/drop", {"cubes": [stray]})["ok"]
        issue = '.issue[data-issue-kind="wrong_colour"]'
        page.wait_for_selector(issue, timeout=30_000)  # after the throw windows (5 s)
        buttons: dict[str, Any] = {
            how: page.locator(f'{issue} button[data-resolve="{how}"]').inner_text()
            for how in ("misread", "tower_wins", "take_out")
        }
        for how, text in buttons.items():
            key = f"check.how.wrong_colour.{how}"
            assert text.startswith(prefix(CS[key])), (how, text)
            assert not text.startswith(prefix(EN[key])), (how, text)
        page.locator(f'{issue} button[data-resolve="tower_wins"]').click()
        page.wait_for_selector(issue, state="detached", timeout=15_000)
        texts = [line["text"] for line in get_json(base + "/api/state")["log"]]
        assert f"castillo-fix {stray}+1 wrong-colour" in texts
        assert f"castillo-fix {colour}-1 wrong-colour" in texts
        assert get_json(base + "/api/state")["checks"]["warnings"] == {}
        assert errors == []
