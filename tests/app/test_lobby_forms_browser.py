"""In the browser (issue 23, the open table problems): each game's new-game form shows Start
without scrolling at the three tablet sizes, never shows the shuffle seed (a test field), folds
El Caballero's rulebook gaps under one "rule details", and offers El Grande's two Vetos of deck 2
as one choice that takes both cards."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engine import registry
from tests.app.ui_browser import TABLET, app_server, browser_context, chromium_missing, get_json
from tests.app.ui_strings import shell_strings

MISSING = chromium_missing()
browser = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
VIEWPORTS = (
    {"width": 1280, "height": 800},
    {"width": 1024, "height": 768},
    {"width": 768, "height": 1024},
)
GAMES = ("elgrande", "kingdomino", "elcaballero")

# Start is in sight when the point at its centre shows the button itself (nothing over it) and
# its box lies inside the window.
START_IN_SIGHT = """() => {
  const start = document.querySelector('#new-game #start-game');
  if (!start) return 'no start button';
  const box = start.getBoundingClientRect();
  if (box.top < 0 || box.bottom > innerHeight || box.left < 0 || box.right > innerWidth)
    return `outside the window: ${JSON.stringify(box)}`;
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return hit === start || start.contains(hit) ? '' : `covered by ${hit?.outerHTML?.slice(0, 80)}`;
}"""


@pytest.fixture(scope="module")
def app() -> Iterator[str]:
    with app_server() as base:
        yield base


def _lobby(context: Any, base: str, game: str, viewport: dict[str, int]) -> Any:
    page = context.new_page()
    page.set_viewport_size(viewport)
    page.goto(base + "/")
    page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=20_000)
    if not page.locator("#new-game").count():
        page.locator("#games-btn").click()
    page.wait_for_selector("#game-field select")
    page.select_option("#game-field select", game)
    page.wait_for_selector("#new-game #start-game")
    if game == "elgrande":  # its form is drawn from the edition's data
        page.wait_for_selector('#new-game input[name="players"]')
    return page


@browser
@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v['width']}x{v['height']}")
@pytest.mark.parametrize("game", GAMES)
def test_start_is_in_sight_without_scrolling(app: str, game: str, viewport: dict[str, int]) -> None:
    with browser_context(TABLET) as context:
        page = _lobby(context, app, game, viewport)
        assert page.evaluate(START_IN_SIGHT) == ""


@browser
@pytest.mark.parametrize("game", GAMES)
def test_no_form_shows_the_shuffle_seed(app: str, game: str) -> None:
    hidden = [o["name"] for o in registry.get(game).options_schema() if o["section"] == "hidden"]
    assert "seed" in hidden
    with browser_context(TABLET) as context:
        page = _lobby(context, app, game, VIEWPORTS[0])
        for name in hidden:
            assert page.locator(f'#new-game [name="{name}"]').count() == 0


@browser
@pytest.mark.parametrize("lang", ("en", "cs", "pl", "uk"))
def test_el_caballeros_gaps_are_folded_under_rule_details(app: str, lang: str) -> None:
    gaps = [
        o["name"] for o in registry.get("elcaballero").options_schema() if o["section"] == "details"
    ]
    assert "court_capacity" in gaps and "lake_ship" in gaps
    with browser_context(TABLET) as context:
        page = _lobby(context, app, "elcaballero", VIEWPORTS[0])
        page.select_option("#lang", lang)
        page.wait_for_function(f"() => document.documentElement.lang === {lang!r}")
        page.select_option("#game-field select", "elcaballero")
        fold = page.locator("#new-game details#rule-details")
        page.wait_for_selector("#new-game details#rule-details summary")
        assert fold.get_attribute("open") is None  # folded until opened
        assert (
            fold.locator("summary").inner_text().strip() == shell_strings(lang)["ui.rule_details"]
        )
        for name in gaps:
            assert fold.locator(f'[data-option="{name}"]').count() == 1, name
        outside = page.locator('#new-game > .option [name="extended"]')
        assert outside.count() == 1  # the extended game is a choice, not a gap


@browser
def test_el_grandes_two_vetos_are_one_choice_taking_both(app: str) -> None:
    with browser_context(TABLET) as context:
        page = _lobby(context, app, "elgrande", VIEWPORTS[0])
        page.wait_for_selector('#new-game input[name="alternatives"]')
        labels = page.locator("#alternatives-field label").all_inner_texts()
        assert len(labels) == len(set(labels)) == 3, labels
        assert any("×2" in label for label in labels), labels
        page.locator('input[name="alternatives"][value="veto,veto-2"]').check()
        page.locator("#new-game #start-game").click()
        page.wait_for_function("() => !document.querySelector('#new-game')", timeout=20_000)
        options = get_json(app + "/api/state")["options"]
        assert sorted(options["alternatives"]) == ["veto", "veto-2"]


@browser
@pytest.mark.parametrize("game", GAMES)
def test_computer_levels_are_named_by_their_time_a_turn(app: str, game: str) -> None:
    """Issue 24: every game's lobby offers computer seats, each level named by its seconds a
    turn (or its kind: random moves, best next move), in the page's language; El Grande's own
    form too, and a seat chosen there is a computer seat of the game started."""
    spec = registry.get(game)
    assert spec.computer_levels and set(spec.computer_seconds) | set(spec.computer_kinds) == set(
        spec.computer_levels
    )
    with browser_context(TABLET) as context:
        page = _lobby(context, app, game, VIEWPORTS[0])
        for lang in ("en", "cs"):
            strings = shell_strings(lang)
            page.select_option("#lang", lang)
            page.wait_for_function(f"() => document.documentElement.lang === {lang!r}")
            page.select_option("#game-field select", game)
            page.wait_for_selector(
                "#new-game select[data-computer] option[value='1']", state="attached"
            )
            first = page.locator("#new-game select[data-computer]").first
            labels = first.locator("option").all_inner_texts()
            seconds = spec.computer_seconds[spec.computer_default]
            shown = strings["ui.computer_seconds"].replace(
                "{seconds}", f"{seconds:g}".replace(".", ",")
            )
            if lang == "en":
                shown = strings["ui.computer_seconds"].replace("{seconds}", f"{seconds:g}")
            assert shown in labels, labels
            assert strings["ui.computer_kind.random"] in labels, labels
            assert not any("level" in label for label in labels), labels
    if game == "elgrande":  # its own form: a seat chosen there is a computer seat
        with app_server() as fresh, browser_context(TABLET) as context:
            page = _lobby(context, fresh, game, VIEWPORTS[0])
            first = page.locator("#new-game select[data-computer]").first
            colour = first.get_attribute("data-computer")
            first.select_option(str(spec.computer_default))
            page.locator("#new-game #start-game").click()
            page.wait_for_function("() => !document.querySelector('#new-game')", timeout=20_000)
            seats = {s["colour"]: s for s in get_json(fresh + "/api/state")["seats"]}
            assert seats[colour].get("computer") == spec.computer_default, seats
