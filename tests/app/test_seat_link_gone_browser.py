"""A seat link that no longer works (issue 23): a replaced, old or mistyped link opens a styled
page in the reader's language (cs, pl, uk, en) that says what happened and how to get a new link,
not a bare English text. The language: the page's own `?lang=`, else the browser's
Accept-Language, else the table's language (host/app/seat_gone.py). A seat page open when its
link is replaced says the same, in the page's language.

The language pages must carry no English word of the English bundle that the language's bundle
does not use itself (names like "Castillo" or "Wi-Fi" are the same in every language).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from host.app.seat_gone import choose_language, page
from host.app.server import STATIC_DIR
from tests.app.ui_browser import (
    PHONE,
    app_server,
    browser_context,
    chromium_missing,
    post_json,
    watch_errors,
)
from tests.app.ui_strings import shell_strings

MISSING = chromium_missing()
browser = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
LANGS = ("cs", "pl", "uk")
WAIT = 20_000


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[^\W\d_]{3,}", text)}


def english_words(text: str, lang: str) -> set[str]:
    """The words of `text` that the English bundle uses and `lang`'s bundle does not."""
    english = _words(" ".join(shell_strings("en").values()))
    own = _words(" ".join(shell_strings(lang).values()))
    return _words(text) & (english - own)


def expected(lang: str) -> dict[str, str]:
    t = shell_strings(lang)
    how = t["gone.how"].format(seats=t["ui.seats"], reissue=t["ui.reissue"])
    return {"title": t["gone.title"], "why": t["gone.why"], "how": how}


# ---------------------------------------------------------------------- the language picked
@pytest.mark.parametrize(
    ("asked", "header", "table", "chosen"),
    [
        (None, "cs-CZ,cs;q=0.9,en;q=0.8", "en", "cs"),
        (None, "de-DE,de;q=0.9,pl;q=0.8,en;q=0.5", "en", "pl"),  # the first the app speaks
        (None, "en;q=0.3,uk;q=0.9", "en", "uk"),  # by q-value, not by place
        (None, "uk-UA", "cs", "uk"),
        (None, "de-DE,fr;q=0.5", "cs", "cs"),  # none spoken: the table's language
        (None, None, "pl", "pl"),
        (None, "", "xx", "en"),  # a table language the app does not speak: English
        (None, "cs;q=0,pl", "en", "pl"),  # q=0: not wanted
        (None, "*;q=0.5, ;;, cs;q=abc, -x, pl", "en", "pl"),  # junk skipped
        ("uk", "cs", "pl", "uk"),  # the page's own language link wins
        ("zz", "cs", "pl", "cs"),  # an unknown one is ignored
    ],
)
def test_the_language_comes_from_the_link_the_browser_or_the_table(
    asked: str | None, header: str | None, table: str, chosen: str
) -> None:
    assert choose_language(asked, header, table) == chosen


@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_an_unknown_seat_link_answers_403_with_a_page_in_the_browsers_language(
    client: TestClient, lang: str
) -> None:
    """`client`: the app with a game (conftest.py); the link is none of its seats'."""
    reply = client.get("/seat/not-a-token", headers={"Accept-Language": f"{lang};q=0.9,de"})
    assert reply.status_code == 403
    assert reply.headers["content-type"].startswith("text/html")
    assert f'<html lang="{lang}">' in reply.text
    for text in expected(lang).values():
        assert text.replace("“", "&ldquo;") in reply.text or text in reply.text
    if lang != "en":
        assert not english_words(re.sub(r"<[^>]+>", " ", reply.text), lang)
    # the names of the table's tab and button, as the table shows them
    assert shell_strings(lang)["ui.reissue"] in reply.text


def test_the_page_escapes_what_it_shows_and_reads_a_broken_bundle_as_english(
    tmp_path: Path,
) -> None:
    (tmp_path / "i18n").mkdir()
    (tmp_path / "i18n" / "cs.json").write_text('{"gone.title": "<b>x</b>"}', encoding="utf-8")
    (tmp_path / "i18n" / "pl.json").write_text("[not json", encoding="utf-8")
    assert "&lt;b&gt;x&lt;/b&gt;" in page(tmp_path, "cs") and "<b>" not in page(tmp_path, "cs")
    assert expected("en")["title"] in page(tmp_path, "pl")
    assert expected("en")["title"] in page(STATIC_DIR, "en")


# ---------------------------------------------------------------------- in the browser
@pytest.fixture(scope="module")
def app() -> Iterator[str]:
    with app_server() as base:
        yield base


def _unexpected(errors: list[str]) -> list[str]:
    """The page's errors but the refused link's own 403 (Chromium logs the status)."""
    return [e for e in errors if "status of 403" not in e]


def _page_text(tab: Any) -> str:
    return str(tab.evaluate("() => document.body.innerText"))


@browser
@pytest.mark.parametrize("lang", LANGS)
def test_an_old_seat_link_opens_a_translated_styled_page(app: str, lang: str) -> None:
    with browser_context(PHONE) as context:
        tab = context.new_page()
        errors: list[str] = []
        watch_errors(tab, errors)
        tab.set_extra_http_headers({"Accept-Language": f"{lang}-XX,{lang};q=0.9,en;q=0.8"})
        reply = tab.goto(f"{app}/seat/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
        assert reply is not None and reply.status == 403
        assert reply.headers["content-type"].startswith("text/html"), reply.headers
        tab.wait_for_selector("#gone-title")
        text = _page_text(tab)
        want = expected(lang)
        for part in want.values():
            assert part in text, (lang, part)
        assert not english_words(text, lang), english_words(text, lang)
        assert tab.evaluate("() => document.documentElement.lang") == lang
        # styled: the app's stylesheet, readable text, nothing sideways on a phone
        sizes = tab.evaluate(
            """() => ['#gone-title', '#gone-why', '#gone-how'].map(s =>
                 parseFloat(getComputedStyle(document.querySelector(s)).fontSize))"""
        )
        assert min(sizes) >= 16, sizes
        assert "monospace" not in tab.evaluate("() => getComputedStyle(document.body).fontFamily")
        assert tab.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        # the page's own language links
        tab.click("nav.gone-langs a[hreflang='en']")
        tab.wait_for_function("() => document.documentElement.lang === 'en'")
        assert expected("en")["title"] in _page_text(tab)
        assert _unexpected(errors) == [], errors


@browser
@pytest.mark.parametrize("lang", LANGS)
def test_an_open_seat_page_whose_link_is_replaced_says_how_to_get_a_new_one(
    app: str, lang: str
) -> None:
    created = post_json(app + "/api/games", {"players": ["purple", "green"], "mode": "dealer"})
    token = created["seats"][0]["token"]
    with browser_context(PHONE) as context:
        tab = context.new_page()
        errors: list[str] = []
        watch_errors(tab, errors)
        tab.goto(f"{app}/seat/{token}")
        tab.wait_for_function("document.querySelector('#hand').children.length > 0")
        tab.select_option("#lang", lang)
        tab.wait_for_function(f"() => document.documentElement.lang === {lang!r}")
        post_json(app + "/api/seats/purple/reissue", {})
        tab.wait_for_selector("#gone-how", timeout=WAIT)
        strings = shell_strings(lang)
        assert tab.inner_text("#conn") == strings["err.link_replaced"]
        assert tab.inner_text("#gone-title") == expected(lang)["title"]
        assert tab.inner_text("#gone-how") == expected(lang)["how"]
        assert tab.evaluate("document.querySelector('main').hidden") is True
        assert not english_words(_page_text(tab), lang), english_words(_page_text(tab), lang)
        # a fresh load of the same link: the page for an old link, in the browser's language
        tab.set_extra_http_headers({"Accept-Language": lang})
        reply = tab.goto(f"{app}/seat/{token}")
        assert reply is not None and reply.status == 403
        assert expected(lang)["how"] in _page_text(tab)
        assert _unexpected(errors) == [], errors
