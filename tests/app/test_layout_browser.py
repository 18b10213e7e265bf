"""Readable from 1 m, fits the tablet (issue 11): the table page measured in a real browser.

Debian's headless Chromium (Playwright) against the real table app with the simulated tower. A
game is played by the browser test's driver (tests/app/ui_driver.py) to a few moments: a turn with
the map's regions to tap, the secret discs of a general scoring, and the table after that
scoring. At each moment the table page is measured at 1280 x 800 and 1024 x 768 (landscape) and
768 x 1024 (portrait), in each of the four languages:

- no scrolling: the page is no taller and no wider than the screen;
- everything needed to play is on the screen and not covered or clipped: the board, the prompt,
  every legal choice, the players with their scores (checked with elementFromPoint);
- rendered sizes: the board's region names >= 18 px, the counts on the board (caballeros, the
  castillo's total) and the players' scores >= 24 px, the region values >= 18 px. Text on the
  board is SVG text scaled by the SVG's viewBox: its size on the screen is its font size times
  the SVG's screen scale (and its rendered box is at least that tall);
- every control outside the map is at least 44 x 44 px.
- the tabs (log, scoring, chart, seats, tower) in one row: a row too long for its panel scrolls
  sideways, none is cut below.

The seat pages (phones, 390 x 844) are measured too: the map's text at least 12 px on the screen,
no horizontal scrolling. The measurements are written to
tests/app/artifacts/layout-measurements.json.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.app.ui_browser import (
    ARTIFACTS,
    LANGS,
    PHONE,
    TABLET,
    TABLETS,
    app_server,
    browser_context,
    chromium_missing,
    post_json,
)
from tests.app.ui_driver import Driver
from tests.app.ui_strings import page_strings

MISSING = chromium_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")

TABLE_MIN = {"name": 18.0, "value": 18.0, "count": 24.0, "score": 24.0, "tap": 44.0}
PHONE_MIN = {"name": 12.0, "value": 12.0, "count": 12.0}

# One page's measurements. Text sizes on the board: computed font size (user units) times the
# SVG's screen scale; `box`: the smallest rendered box height of those texts.
MEASURE = """() => {
  const svgText = (sel) => [...document.querySelectorAll(sel)].map((el) => {
    const ctm = el.getScreenCTM();
    const scale = ctm ? Math.hypot(ctm.a, ctm.b) : 0;
    return { px: parseFloat(getComputedStyle(el).fontSize) * scale,
             box: el.getBoundingClientRect().height, text: el.textContent };
  });
  const least = (items) => items.length ? Math.min(...items.map((i) => i.px)) : null;
  const leastBox = (items) => items.length ? Math.min(...items.map((i) => i.box)) : null;
  const names = svgText('svg.board .region-name');
  const values = svgText('svg.board .values');
  const counts = svgText('svg.board .chip-n, svg.board .castillo-total');
  const scores = [...document.querySelectorAll('#players td.score')]
    .map((el) => parseFloat(getComputedStyle(el).fontSize));
  // on the screen, neither covered nor clipped: the element (or a child) is hit at its centre
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return false;
    if (r.left < -1 || r.top < -1) return false;
    if (r.right > innerWidth + 1 || r.bottom > innerHeight + 1) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && (el === hit || el.contains(hit) || hit.contains(el));
  };
  const unseen = [];
  const all = (sel, name) => [...document.querySelectorAll(sel)].map((el) => [name(el), el]);
  const need = [['#prompt', document.querySelector('#prompt')],
                ['svg.board', document.querySelector('svg.board')],
                ...all('#choices button, #undo-row button',
                       (b) => `choice ${b.dataset.action ?? b.textContent.trim()}`),
                ...all('#players tbody tr', (r) => `player ${r.dataset.colour}`),
                ...all('#players td.score', (c) => `score ${c.parentElement.dataset.colour}`)];
  for (const [what, el] of need) if (!el || !shown(el)) unseen.push(what);
  // a panel scrolled sideways hides part of what it holds
  for (const el of document.querySelectorAll('#players .table-wrap, #prompt, #choices'))
    if (el.scrollWidth > el.clientWidth + 1)
      unseen.push(`${el.id || el.className} cut at its side`);
  const controls = [...document.querySelectorAll('button, select, a.seat-link, [role=button]')]
    .filter((el) => el.offsetParent !== null && !el.closest('svg'))
    .map((el) => [el, el.getBoundingClientRect()]).filter(([, r]) => r.width > 0);
  const sides = controls.map(([, r]) => Math.min(r.width, r.height));
  const smallest = sides.length ? Math.min(...sides) : null;
  const small = controls.filter(([, r]) => r.width < 44 || r.height < 44)
    .map(([el, r]) => `${el.tagName} ${el.textContent.trim().slice(0, 30)} ${r.width}x${r.height}`);
  const root = document.documentElement;
  // the tabs in one row (a row too long for its panel scrolls sideways; none is cut below)
  const tabTops = [...document.querySelectorAll('#tabs .tab')].map((el) => el.offsetTop);
  const tabRows = new Set(tabTops).size;
  return {
    name: least(names), name_box: leastBox(names),
    value: least(values), value_box: leastBox(values),
    count: least(counts), count_box: leastBox(counts),
    score: scores.length ? Math.min(...scores) : null,
    height: root.scrollHeight, width: root.scrollWidth, inner: [innerWidth, innerHeight],
    unseen, smallest_tap: smallest, small, lang: root.lang, regions: names.length,
    tab_rows: tabRows,
  };
}"""

RESULTS: dict[str, Any] = {}


def _measure(page: Any) -> dict[str, Any]:
    return dict(page.evaluate(MEASURE))


def _settle(page: Any) -> None:
    """Wait until the board was drawn for the page's current size (it redraws on a resize)."""
    page.wait_for_function(
        """() => { const b = document.querySelector('#board');
                   return document.body.dataset.ready === '1' && b && b.querySelector('svg.board')
                     && (b.dataset.drawnFor ?? '') === `${b.clientWidth}x${b.clientHeight}`; }""",
        timeout=20_000,
    )


def _check_table(page: Any, moment: str) -> list[str]:
    """Measure the table page at every tablet size in every language; the failures, in words."""
    failures: list[str] = []
    for size, viewport in TABLETS.items():
        page.set_viewport_size(viewport)
        for lang in LANGS:
            page.select_option("#lang", lang)
            page.wait_for_function(f"document.documentElement.lang === {lang!r}")
            _settle(page)
            m = _measure(page)
            RESULTS.setdefault(moment, {}).setdefault(size, {})[lang] = m
            where = f"{moment} {size} {lang}"
            if m["height"] > viewport["height"] or m["width"] > viewport["width"]:
                failures.append(f"{where}: the page is {m['width']}x{m['height']}")
            if m["unseen"]:
                failures.append(f"{where}: not on the screen: {m['unseen']}")
            for key in ("name", "value", "count", "score"):
                if m[key] is None or m[key] < TABLE_MIN[key] - 0.01:
                    failures.append(f"{where}: {key} {m[key]} px < {TABLE_MIN[key]}")
            if m["small"]:
                failures.append(f"{where}: small controls {m['small']}")
            if m["tab_rows"] != 1:
                failures.append(f"{where}: the tabs take {m['tab_rows']} rows")
    page.set_viewport_size(TABLET)
    return failures


@pytest.fixture(scope="module")
def game() -> Iterator[tuple[Driver, dict[str, Any]]]:
    with app_server() as base, browser_context(TABLET) as context:
        reply = post_json(
            base + "/api/games",
            {"players": ["purple", "green", "blue", "orange", "red"], "mode": "dealer", "seed": 11},
        )
        table = context.new_page()
        table.goto(base + "/")
        table.wait_for_selector("body[data-ready='1'] svg.board")
        seats: dict[str, Any] = {}
        for seat in reply["seats"]:
            page = context.new_page()
            page.set_viewport_size(PHONE)
            page.goto(seat["url"] if seat["url"].startswith("http") else base + seat["url"])
            page.wait_for_selector("body[data-ready='1']")
            seats[seat["colour"]] = page
        yield Driver(base, table, seats), seats
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "layout-measurements.json").write_text(json.dumps(RESULTS, indent=1), "utf-8")


def _play_until(driver: Driver, moment: Any) -> None:
    for _ in range(800):
        state = driver.state()
        if moment(state) and not state["checks"]["issues"]:
            return
        assert driver.step(), "the game ended before the moment came"
    raise AssertionError("the moment never came")


def test_a_turn_fits_every_tablet_in_every_language(game: Any) -> None:
    driver, _ = game
    _play_until(driver, lambda s: s["prompt"]["key"] in ("main.place", "main.placing"))
    driver.table.bring_to_front()
    failures = _check_table(driver.table, "turn")
    assert not failures, "\n".join(failures)


def test_the_phone_map_is_readable_without_horizontal_scrolling(game: Any) -> None:
    _, seats = game
    failures = []
    for colour, page in seats.items():
        page.bring_to_front()
        for lang in LANGS:
            page.select_option("#lang", lang)
            page.wait_for_function(f"document.documentElement.lang === {lang!r}")
            _settle_phone(page)
            m = _measure(page)
            RESULTS.setdefault("phone", {}).setdefault(colour, {})[lang] = m
            if m["width"] > PHONE["width"]:
                failures.append(f"{colour} {lang}: the page is {m['width']} px wide")
            for key in ("name", "value", "count"):
                if m[key] is not None and m[key] < PHONE_MIN[key] - 0.01:
                    failures.append(f"{colour} {lang}: {key} {m[key]} px < {PHONE_MIN[key]}")
            if m["name"] is None:
                failures.append(f"{colour} {lang}: no map")
            if m["small"]:
                failures.append(f"{colour} {lang}: small controls {m['small']}")
        break  # one seat page: every seat page is laid out alike
    assert not failures, "\n".join(failures)


def _settle_phone(page: Any) -> None:
    page.wait_for_function(
        """() => { const b = document.querySelector('#board');
                   return b && b.querySelector('svg.board')
                     && (b.dataset.drawnFor ?? '') === `${b.clientWidth}x${b.clientHeight}`; }""",
        timeout=20_000,
    )


def test_a_general_scoring_fits_every_tablet_in_every_language(game: Any) -> None:
    driver, _ = game
    # the secret discs of the first general scoring: the table waits for the phones
    _play_until(driver, lambda s: (s["game"].get("step") or {}).get("purpose") == "general")
    driver.table.bring_to_front()
    failures = _check_table(driver.table, "discs")
    # the scoring itself: its breakdown pops up; once closed, the table after the scoring
    while not driver.table.locator("#overlay:not([hidden]) article.scoring").count():
        assert driver.step(), "the game ended before the scoring"
    # the breakdown follows the table's language while it is open
    table = driver.table
    for lang in ("cs", "en"):
        table.select_option("#lang", lang)
        close = page_strings(lang)["ui.close"]
        table.wait_for_function(
            "(text) => document.querySelector('#overlay button[data-close]')?.textContent"
            ".includes(text)",
            arg=close,
        )
    driver.close_scoring_dialog()
    driver.table.wait_for_selector("#overlay", state="hidden")
    failures += _check_table(driver.table, "after-scoring")
    assert not failures, "\n".join(failures)
