"""The Kingdomino scoring assistant at the table (issue 23), in Chromium: the castle button moves
the one castle, every refusal is shown in the page's language from its key and parameters (never
the server's English), the terrain brushes carry their names and the eraser can be seen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.app.ui_browser import app_server, browser_context, chromium_missing, watch_errors

MISSING = chromium_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")

BUNDLES = Path(__file__).resolve().parents[2] / "host" / "games" / "kingdomino" / "static" / "i18n"


def _texts(lang: str) -> dict[str, str]:
    texts: dict[str, str] = {}
    for name in ("engine.json", "ui.json", "score.json"):
        texts.update(json.loads((BUNDLES / lang / name).read_text("utf-8")))
    return texts


def _castles(page: Any) -> list[str]:
    return list(
        page.eval_on_selector_all(
            "button[data-value='C']", "els => els.map((e) => e.dataset.square)"
        )
    )


def test_castle_moves_refusals_translated_brushes_named_eraser_seen() -> None:
    errors: list[str] = []
    with app_server() as base, browser_context() as context:
        page = context.new_page()
        watch_errors(page, errors)
        page.goto(base + "/games/kingdomino/score.html")
        page.wait_for_selector("body[data-ready='1'] button[data-square='c3'][data-value='C']")
        # the castle moves: one castle, on the square tapped last
        page.click("button[data-brush='C']")
        page.click("button[data-square='a1']")
        assert _castles(page) == ["a1"]
        page.click("button[data-square='e5']")
        assert _castles(page) == ["e5"]
        assert page.get_attribute("button[data-square='c3']", "data-value") == "."
        for lang in ("cs", "uk", "pl", "en"):
            page.select_option("#lang", lang)
            page.wait_for_function(f"document.documentElement.lang === {lang!r}")
            texts = _texts(lang)
            # each terrain's brushes under its name; the eraser shown with its name, dark on light
            names = page.eval_on_selector_all(
                ".kd-brush-row", "els => els.map((e) => [e.dataset.terrain, e.textContent.trim()])"
            )
            assert [t for t, _ in names] == ["W", "F", "L", "G", "S", "M"]
            for terrain, text in names:
                assert text.lower().startswith(texts[f"kingdomino.terrain.{terrain}"].lower())
            eraser = page.locator("button.kd-brush.eraser")
            box = eraser.bounding_box()
            assert box and box["width"] >= 44 and box["height"] >= 44
            assert texts["kingdomino.score.empty"] in eraser.inner_text()
            colour = eraser.evaluate("(e) => getComputedStyle(e).color")
            assert colour == "rgb(34, 34, 34)", colour
            # no castle: the refusal in the page's language, from its key
            page.click("button[data-brush='.']")
            page.click("button[data-square='e5']")
            page.click("#kd-score")
            error = page.wait_for_selector("#kd-error[data-key='kingdomino.position.no_castle']")
            colour_name = texts.get("colour.pink") or "pink"
            reason = texts["kingdomino.position.no_castle"].replace("{colour}", colour_name)
            assert error.inner_text() == texts["kingdomino.score.refused"].replace(
                "{reason}", reason
            )
            # too many of a kind for the real dominoes: terrain named, no "M3" notation
            page.click("button[data-brush='C']")
            page.click("button[data-square='c3']")
            page.click("button[data-brush='M3']")
            page.click("button[data-square='a1']")
            page.click("button[data-square='b1']")
            page.check("input[name='check_tiles']")
            page.click("#kd-score")
            error = page.wait_for_selector(
                "#kd-error[data-key='kingdomino.position.too_many_squares']"
            )
            text = error.inner_text()
            assert texts["kingdomino.terrain.M"] in text and "M3" not in text, text
            page.uncheck("input[name='check_tiles']")
            page.click("button[data-brush='.']")
            page.click("button[data-square='a1']")
            page.click("button[data-square='b1']")
            page.click("button[data-brush='C']")
            page.click("button[data-square='e5']")
            assert _castles(page) == ["e5"]
    refused = [e for e in errors if "status of 400" in e]
    assert len(refused) == len(errors) == 8, errors
