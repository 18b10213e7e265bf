"""In the browser: a seat's own secret disc is named on its own page's log, on nobody else's.

An El Grande game is played over HTTP until several seats choose their secret discs at once (a
scoring's castillo or a Coup); one of them (not the last: nothing is revealed yet) chooses. Its
phone page's log then says "<Colour> set the disc to <region>." with the region in the page's
words, while the table's page and another chooser's page say "<Colour> set a secret disc." and
name no region on that line; after a restart of the server on the same data the seat's page
still names it. Before (53fc6dc) every page got the same public line, `disc ?`, and the seat's
own page said "set a secret disc." too.

The real app (`castillo run --sim`) and Debian's headless Chromium; every wait is on a condition.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
import urllib.error
from pathlib import Path
from typing import Any

import pytest

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
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")

ROOT = Path(__file__).resolve().parents[2]
SHELL_EN = ROOT / "host" / "app" / "static" / "i18n" / "en.json"
ELGRANDE_EN = ROOT / "host" / "games" / "elgrande" / "static" / "i18n" / "en" / "ui.json"
BODY = {
    "game": "elgrande",
    "players": ["purple", "green", "blue"],
    "mode": "dealer",
    "seed": 8,
    "short_game": True,
    "power_shift": False,
}
MAX_STEPS = 800
WAIT = 30_000  # ms


def _post(url: str, body: dict[str, Any]) -> None:
    """POST a step; while a throw check is under way (409 `blocked`), again a moment later."""
    for _ in range(100):
        try:
            post_json(url, body)
            return
        except urllib.error.HTTPError as refused:
            if refused.code != 409 or json.load(refused).get("error") != "blocked":
                raise
        time.sleep(0.1)
    raise AssertionError(f"{url} {body}: still blocked by a throw check")


def _choosing_discs(base: str, tokens: dict[str, str]) -> list[str]:
    """Play at random until two or more seats choose a secret disc at once; those seats. A
    caballero placed in the castillo is thrown into the simulated tower; a throw check's issue
    is settled by the game's count."""
    rng = random.Random(4)
    for _ in range(MAX_STEPS):
        state = get_json(base + "/api/state")
        assert state["game"]["phase"] != "over", "no secret disc choice in this game"
        for issue in state["checks"]["issues"]:
            how = "accept_game" if "accept_game" in issue["options"] else issue["options"][0]
            _post(base + "/api/resolve", {"issue": issue["id"], "how": how})
        if state["checks"]["issues"]:
            continue
        acting = [c for c in state["game"]["acting"] if c != "chance"]
        if state["legal"] and (state["acting_as"] == "chance" or not acting):
            _post(base + "/api/action", {"text": rng.choice(state["legal"])})
            continue
        legal = {c: get_json(f"{base}/api/seat/{tokens[c]}/state")["legal"] for c in acting}
        if len(acting) > 1 and all(t.startswith("disc ") for c in acting for t in legal[c]):
            return acting
        colour = rng.choice(acting)
        assert legal[colour], f"{colour} acts but has no choices: {state['prompt']}"
        # only a placement puts a caballero into the castillo (its cube thrown below)
        usable = [t for t in legal[colour] if t != "to castillo"] or legal[colour]
        text = rng.choice(usable)
        _post(f"{base}/api/seat/{tokens[colour]}/action", {"text": text})
        if text == "place castillo":
            post_json(base + "/api/sim/drop", {"cubes": [colour]})
    raise AssertionError(f"no secret disc choice in {MAX_STEPS} steps")


def _area_name(words: dict[str, str], edition: str, area: str) -> str:
    """A region's English name as the page's i18n words it (words.js, `area`)."""
    if edition == "1995" and f"area1995.{area}" in words:
        return words[f"area1995.{area}"]
    return words[f"area.{area}"]


def _line_text(page: Any, n: int, wanted: str) -> str:
    """The text of the page's log line `n` once it says `wanted` (or as it is after WAIT)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # only with a browser

    line = f'ol.log li[data-n="{n}"]'
    page.wait_for_selector(line, state="attached", timeout=WAIT)
    # on a timeout the assertions say what the line says
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            "([sel, want]) => [...document.querySelectorAll(sel)]"
            ".some((li) => li.textContent.includes(want))",
            arg=[line, wanted],
            timeout=WAIT,
        )
    return " | ".join(str(t) for t in page.locator(line).all_text_contents())


def test_a_seats_page_names_its_own_disc_and_no_other_page_does(tmp_path: Path) -> None:
    shell = json.loads(SHELL_EN.read_text(encoding="utf-8"))
    words = json.loads(ELGRANDE_EN.read_text(encoding="utf-8"))
    errors: list[str] = []
    data_dir = str(tmp_path)  # the same data for both runs of the server
    with app_server(extra=("--data-dir", data_dir)) as base:
        created = post_json(base + "/api/games", BODY)
        tokens = {s["colour"]: s["token"] for s in created["seats"]}
        choosers = _choosing_discs(base, tokens)
        chooser, other = choosers[0], choosers[1]
        legal = get_json(f"{base}/api/seat/{tokens[chooser]}/state")["legal"]
        choice = random.Random(5).choice(legal)
        _post(f"{base}/api/seat/{tokens[chooser]}/action", {"text": choice})
        area = choice.split()[1]
        state = get_json(base + "/api/state")
        assert other in state["game"]["acting"], "the discs were revealed"
        n = max(
            ln["n"]
            for ln in state["log"]
            if ln["actor"] == chooser and str(ln["text"]).startswith("disc ")
        )
        edition = str(state["game"].get("edition", "2023"))
        region = _area_name(words, edition, area)
        who = shell[f"colour.{chooser}"].capitalize()
        mine = words["log.say.disc"].format(actor=who, area=region)
        secret = words["log.say.disc_secret"].format(actor=who)
        with browser_context(PHONE) as context:
            pages = {}
            for name, path in (
                (chooser, f"/seat/{tokens[chooser]}"),
                (other, f"/seat/{tokens[other]}"),
                ("table", "/"),
            ):
                page = context.new_page()
                watch_errors(page, errors)
                page.goto(base + path)
                pages[name] = page
            seen = _line_text(pages[chooser], n, mine)
            assert mine in seen, f"{chooser}'s own page, line {n}: {seen!r}, wanted {mine!r}"
            for name in (other, "table"):
                seen = _line_text(pages[name], n, secret)
                assert secret in seen and region not in seen, (
                    f"{name}'s page names {chooser}'s disc (line {n}): {seen!r}"
                )
    # the server stopped and started again on the same data: the seat's page still names it
    with app_server(extra=("--data-dir", data_dir)) as base, browser_context(PHONE) as context:
        page = context.new_page()
        watch_errors(page, errors)
        page.goto(f"{base}/seat/{tokens[chooser]}")
        seen = _line_text(page, n, mine)
        assert mine in seen, f"after a restart, {chooser}'s page, line {n}: {seen!r}"
    assert errors == [], json.dumps(errors)
