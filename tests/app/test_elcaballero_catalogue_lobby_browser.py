"""El Caballero's catalogue in the lobby, in the browser, in cs, pl and uk (issue 23): the app
started with `castillo run --catalogue FILE` preselects that file; table mode with the SYNTHETIC
set shows the warning beside Start in the page's language; a broken file of the data folder is
refused on the catalogue field in the page's language, naming the line, the card and its
problem (the problem's key nested in the refusal's parameters: no English sentence inside)."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.elcaballero.catalogue import SYNTHETIC_FILE
from tests.app.ui_browser import TABLET, app_server, browser_context, chromium_missing

MISSING = chromium_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
BUNDLES = Path(__file__).resolve().parents[2] / "host" / "games" / "elcaballero" / "static" / "i18n"
WAIT = 20_000


def strings(lang: str) -> dict[str, str]:
    texts: dict[str, str] = json.loads((BUNDLES / lang / "ui.json").read_text(encoding="utf-8"))
    return texts


@pytest.fixture(scope="module")
def app() -> Iterator[tuple[str, int]]:
    """The app with `--catalogue` (family-box.toml, elsewhere) and the data folder's
    broken.toml; (base URL, the broken line)."""
    data = tempfile.mkdtemp(prefix="castillo-ec-lobby-")
    try:
        ours = SYNTHETIC_FILE.read_text(encoding="utf-8")
        ours = ours.replace('label = "SYNTHETIC: not the real cards"', 'label = "Family box"')
        ours = ours.replace("synthetic = true", "synthetic = false")
        given = Path(data) / "elsewhere" / "family-box.toml"
        given.parent.mkdir()
        given.write_text(ours, encoding="utf-8")
        broken = ours.replace('edges = "SSSS"', 'edges = "SSSX"', 1)
        folder = Path(data) / "catalogues"
        folder.mkdir()
        (folder / "broken.toml").write_text(broken, encoding="utf-8")
        line = next(n + 1 for n, text in enumerate(broken.splitlines()) if "SSSX" in text)
        with app_server(extra=("--data-dir", data, "--catalogue", str(given))) as base:
            yield base, line
    finally:
        shutil.rmtree(data, ignore_errors=True)


@pytest.mark.parametrize("lang", ["cs", "pl", "uk"])
def test_the_catalogue_warning_and_refusal_in_the_pages_language(
    app: tuple[str, int], lang: str
) -> None:
    base, line = app
    words = strings(lang)
    with browser_context(TABLET) as context:
        page = context.new_page()
        page.goto(base + "/")
        page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=WAIT)
        page.select_option("#lang", lang)
        page.wait_for_function(f"() => document.documentElement.lang === {lang!r}")
        if not page.locator("#new-game").count():
            page.locator("#games-btn").click()
        page.select_option("#game-field select", "elcaballero")
        form = page.locator("#new-game[data-game='elcaballero']")
        picker = form.locator("select[name='catalogue']")
        picker.wait_for(timeout=WAIT)
        # --catalogue's file first among the files, and chosen
        assert picker.input_value() == "family-box.toml"
        values = picker.locator("option").evaluate_all("els => els.map((e) => e.value)")
        assert values == ["", "synthetic", "family-box.toml", "broken.toml"], values
        warning = form.locator("#lobby-warning")
        assert warning.is_hidden()
        picker.select_option("synthetic")
        warning.wait_for(state="visible", timeout=WAIT)
        assert warning.inner_text().strip() == words["ec.lobby.synthetic_table"]
        picker.select_option("broken.toml")
        assert warning.is_hidden()
        form.locator("#start-game").click()
        refused = form.locator("#error-catalogue")
        refused.wait_for(state="visible", timeout=WAIT)
        text = refused.inner_text()
        frame = words["ec.catalogue_refused_line"]
        lead = frame.split("{file}")[0]
        assert text.startswith(lead), (lang, text)
        expected = frame.replace("{file}", "broken.toml").replace("{line}", str(line))
        assert text.startswith(expected.split("{problem}")[0]), (lang, text)
        # the problem too: the card (#1, SYN-SEA) and what is wrong with it, in the page's
        # language, not the checker's English sentence
        card = words["ec.catalogue.card_id"].replace("{n}", "1").replace("{id}", "SYN-SEA")
        problem = card.replace("{problem}", words["ec.card.edges_letters"])
        assert text == expected.replace("{problem}", problem), (lang, text)
        assert "edges must be four letters" not in text and "card #1" not in text, text
