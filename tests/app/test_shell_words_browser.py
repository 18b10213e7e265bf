"""In the browser: what the shell shows without a key of its own is translated too (issue 23):
a refusal with no key ("not connected" while the socket is down, a request that never reached
the app, an HTTP refusal without the app's JSON) and the labels a screen reader reads of the
page frame (the language picker, the round track)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.app.ui_browser import TABLET, app_server, browser_context, chromium_missing
from tests.app.ui_strings import shell_strings

MISSING = chromium_missing()
browser = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
LANGS = ("en", "cs", "pl", "uk")

REFUSALS = """async (lang) => {
  const { I18n } = await import('/static/js/i18n.js');
  const words = new I18n();
  await words.use(lang);
  return [
    words.refusal({ code: 'closed', reason: 'not connected' }),  // net.js: the socket is down
    words.refusal({ code: 'network', reason: 'Failed to fetch' }),  // getJson: no answer
    words.refusal({ code: 502, reason: 'Bad Gateway' }),  // an answer without the app's JSON
  ];
}"""


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    with app_server() as base, browser_context(TABLET) as context:
        tab = context.new_page()
        tab.goto(base + "/")
        tab.wait_for_function("() => document.body.dataset.ready === '1'", timeout=20_000)
        yield tab


@browser
@pytest.mark.parametrize("lang", LANGS)
def test_refusals_without_a_key_come_in_the_pages_language(page: Any, lang: str) -> None:
    strings = shell_strings(lang)
    closed, network, http = page.evaluate(REFUSALS, lang)
    assert closed == strings["err.closed"]
    assert network == strings["err.network"]
    assert http == strings["err.http"].format(status=502)
    if lang != "en":
        for shown in (closed, network, http):
            for english in ("not connected", "Failed to fetch", "Bad Gateway"):
                assert english not in shown


@browser
@pytest.mark.parametrize("lang", LANGS)
def test_the_page_frames_labels_follow_the_language(page: Any, lang: str) -> None:
    strings = shell_strings(lang)
    page.select_option("#lang", lang)
    page.wait_for_function(f"() => document.documentElement.lang === {lang!r}")
    labels = page.evaluate(
        """() => [document.querySelector('#lang').getAttribute('aria-label'),
                  document.querySelector('#round-track').getAttribute('aria-label')]"""
    )
    assert labels == [strings["ui.language"], strings["ui.rounds"]]


PLURALS = """async () => {
  const { I18n, format } = await import('/static/js/i18n.js');
  const words = new I18n();
  await words.use('en', 'elgrande');
  const cs = '{n, plural, one {# karta} few {# karty} other {# karet}}';
  return [
    words.t('prompt.take', { actor: 'Blue', max: 1 }),
    words.t('prompt.take', { actor: 'Blue', max: 3 }),
    words.t('prompt.return', { actor: 'Blue', left: 1, colour: 'red' }),
    [1, 3, 5].map((n) => format(cs, { n }, 'cs')),
    format('{n, plural, =0 {none} other {# left}}', { n: 0 }, 'en'),
    format('{n, plural, one {# card} other {# cards}}', {}, 'en'),
  ];
}"""


@browser
def test_a_count_takes_the_languages_plural_form(page: Any) -> None:
    """ "place up to 1 caballeros" (issue 23): a string may give each plural form (ICU's plural
    syntax, chosen by the language's plural rules); a missing count leaves the text as it is."""
    one, three, ret, czech, none, missing = page.evaluate(PLURALS)
    assert one == "Blue: take up to 1 caballero from the province to your court"
    assert three == "Blue: take up to 3 caballeros from the province to your court"
    assert ret == "Blue: return 1 red caballero to the province"
    assert czech == ["1 karta", "3 karty", "5 karet"]
    assert none == "none"
    assert missing == "{n, plural, one {# card} other {# cards}}"
