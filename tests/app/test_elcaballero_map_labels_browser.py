"""El Caballero's map: no region's label (island A, sea 1 and their sizes) lies over another
label or over a gold or fish mark's number (issue 23: "pieces never cover a region's name"), in
Debian's headless Chromium against the real app.

A 4-player dealer game (the same as the screenshot set's, tests/app/ui_shots.py) is played
through the seat routes to its first scoring (round 4's end); the table's map is checked every
12 steps. Before this check, two regions' labels on one card lay on each other (the second
label moved off a fish mark back onto the first, "E·1" over "F·2") from the first rounds on.
A card with two labels and a gold or fish can be too small for all three: a label may then
touch the disc's rim (5 of the 14 maps checked), never its number.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.app.ui_browser import (
    TABLET,
    app_server,
    browser_context,
    chromium_missing,
    get_json,
    shown,
    watch_errors,
)
from tests.app.ui_driver import ec_dealer_game, ec_step

MISSING = chromium_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")

# Every label's box against every other label's box and every gold or fish disc (a disc meets a
# box when the box's nearest point lies inside it), in screen pixels; 1 px of slack.
OVERLAPS = """() => {
  const where = (e) => e.closest('[data-area]')?.dataset.area;
  const labels = [...document.querySelectorAll('#ec-map .ec-badge')].map((g) =>
    ({ name: g.querySelector('text').textContent, at: where(g),
       r: g.querySelector('rect').getBoundingClientRect() }));
  const discs = [...document.querySelectorAll('#ec-map .ec-gold circle, #ec-map .ec-fish circle')]
    .map((c) => { const r = c.getBoundingClientRect();
                  return { at: where(c), x: r.left + r.width / 2, y: r.top + r.height / 2,
                           radius: r.width / 2 }; });
  const out = [];
  labels.forEach((a, i) => {
    for (const b of labels.slice(i + 1)) {
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w > 1 && h > 1) out.push(`${a.name} over ${b.name} at ${a.at}`);
    }
    for (const d of discs) {
      const nx = Math.max(a.r.left, Math.min(d.x, a.r.right));
      const ny = Math.max(a.r.top, Math.min(d.y, a.r.bottom));
      // a card too small for two labels and a disc: a label may touch the disc's rim, never
      // its number (the inner half)
      if (Math.hypot(nx - d.x, ny - d.y) < d.radius / 2 - 1)
        out.push(`${a.name} over a disc's number at ${d.at}`);
    }
  });
  return { labels: labels.length, out };
}"""


def test_no_label_covers_another_or_a_treasure_through_a_game() -> None:
    errors: list[str] = []
    seen: list[str] = []
    checked = 0
    with app_server() as base:
        tokens = ec_dealer_game(base)
        rng = random.Random(5)
        with browser_context(TABLET) as context:
            page = context.new_page()
            watch_errors(page, errors)
            page.goto(base + "/")
            page.wait_for_selector("#ec-map svg", timeout=30_000)
            while not get_json(base + "/api/state")["game"]["scorings"]:
                for _ in range(12):
                    assert ec_step(base, tokens, rng), "nobody may act"
                shown(page, base)
                got: dict[str, Any] = page.evaluate(OVERLAPS)
                checked += 1
                seen += [f"step {checked * 12}: {o}" for o in got["out"]]
            assert got["labels"] >= 10, got  # a full map's labels were checked
    assert checked >= 10
    assert seen == [], "\n".join(seen)
    assert errors == []
