"""El Caballero's table in all four languages at the three tablet sizes (issue 23: "the layout
tests measure all three games at the three tablet sizes and a phone, in all four languages"),
in Debian's headless Chromium against the real app.

A 4-player dealer game is played through the seat routes into round 2. The table page is then
measured at 1280 x 800, 1024 x 768 and 768 x 1024 in en, cs, pl and uk: the page does not scroll,
every number on the map is at least 14 px on the screen (font size x the SVG's screen scale),
and the courts table lies inside its panel (before, at 1024 x 768 its last column, "Turn",
"Kolejność", "Черга", was cut at the panel's edge in every language). The phone's seat page
(390 x 844) in the four languages: no sideways scrolling, the map's numbers at least 11 px.
The mover's dot stays beside the prompt (it stood alone on a line above a long prompt), and
every player's row of the courts is on the panel's first screen (at 768 x 1024 the courts lay
below the market, out of sight until the panel was scrolled). No word of a courts heading is
broken over two lines (in pl and uk "Pozostałe" and others were).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.app.ui_browser import (
    LANGS,
    PHONE,
    TABLET,
    TABLETS,
    app_server,
    browser_context,
    chromium_missing,
    shown,
    watch_errors,
)
from tests.app.ui_driver import ec_dealer_game, ec_step
from tests.app.ui_shots import _use_lang

MISSING = chromium_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")

MEASURE = r"""() => {
  const px = [...document.querySelectorAll('#ec-map svg text')].map((el) => {
    const ctm = el.getScreenCTM();
    return parseFloat(getComputedStyle(el).fontSize) * (ctm ? Math.hypot(ctm.a, ctm.b) : 0);
  });
  const courts = document.querySelector('.ec-courts table');
  // the column holding it (a landscape page's columns are laid out as one: its pane)
  let column = courts?.parentElement;
  while (column && !(column.matches('.play-col, .info-col, .side-pane')
                     && column.getBoundingClientRect().width > 0)) column = column.parentElement;
  const edge = column ? column.getBoundingClientRect().right : innerWidth;
  const cut = courts ? [...courts.querySelectorAll('th, td')]
    .filter((c) => c.getBoundingClientRect().right > edge + 1)
    .map((c) => c.textContent.trim()) : ['no courts table'];
  // the mover's dot beside the prompt's first line, not alone on a line above it
  const dot = document.querySelector('#prompt > .ec-dot')?.getBoundingClientRect();
  const text = document.querySelector('#prompt > .prompt-text')?.getBoundingClientRect();
  const dotAlone = Boolean(dot && text && dot.bottom <= text.top + 2);
  // every player's row of the courts (their points) on the panel's first screen
  const box = column?.getBoundingClientRect();
  const hidden = courts && box ? [...courts.querySelectorAll('tr[data-court]')]
    .filter((r) => r.getBoundingClientRect().bottom > Math.min(box.bottom, innerHeight) + 1)
    .map((r) => r.dataset.court) : [];
  // a courts heading's word broken over two lines ("Pozo/stałe")
  const broken = [];
  for (const th of courts ? courts.querySelectorAll('th') : []) {
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.textContent.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(word[0]);
      }
    }
  }
  const root = document.documentElement;
  return { least: Math.min(...px), texts: px.length, cut, lang: root.lang, dotAlone, hidden,
           broken, page: [root.scrollWidth, root.scrollHeight] };
}"""


def test_the_table_fits_every_tablet_in_every_language_and_the_phone_too() -> None:
    failures: list[str] = []
    errors: list[str] = []
    with app_server() as base:
        tokens = ec_dealer_game(base)
        rng = random.Random(5)
        for _ in range(40):
            assert ec_step(base, tokens, rng), "nobody may act"
        with browser_context(TABLET) as context:
            page = context.new_page()
            watch_errors(page, errors)
            page.goto(base + "/")
            page.wait_for_selector("#ec-map svg", timeout=30_000)
            shown(page, base)
            for size, viewport in TABLETS.items():
                page.set_viewport_size(viewport)
                for lang in LANGS:
                    _use_lang(page, lang)
                    m: dict[str, Any] = page.evaluate(MEASURE)
                    where = f"{size} {lang}"
                    if m["page"][0] > viewport["width"] or m["page"][1] > viewport["height"]:
                        failures.append(f"{where}: the page scrolls {m['page']}")
                    if m["least"] < 14 - 0.01 or m["texts"] < 20:
                        failures.append(f"{where}: map text {m['least']:.1f} px ({m['texts']})")
                    if m["dotAlone"]:
                        failures.append(f"{where}: the mover's dot on a line of its own")
                    if m["hidden"]:
                        failures.append(f"{where}: courts out of sight {m['hidden']}")
                    if m["cut"]:
                        failures.append(f"{where}: the courts cut at the panel's edge {m['cut']}")
                    if m["broken"]:
                        failures.append(f"{where}: heading words broken {m['broken']}")
            phone = context.new_page()
            watch_errors(phone, errors)
            phone.set_viewport_size(PHONE)
            phone.goto(f"{base}/seat/{tokens['red']}")
            phone.wait_for_selector("#ec-map svg", timeout=30_000)
            for lang in LANGS:
                _use_lang(phone, lang)
                m = phone.evaluate(MEASURE)
                if (
                    m["page"][0] > PHONE["width"]
                    or m["least"] < 11 - 0.01
                    or m["dotAlone"]
                    or m["broken"]
                ):
                    failures.append(f"phone {lang}: {m}")
    assert failures == [], "\n".join(failures)
    assert errors == []
