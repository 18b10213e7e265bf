"""The lobby's game picker and the options form generated from a game's schema: every game of
the catalogue is offered, each option labelled from the game's i18n bundle in all four
languages, a refused combination shown beside its field, and the chosen game started."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import registry
from tests.app.ui_browser import (
    app_server,
    browser_context,
    chromium_missing,
    get_json,
    watch_errors,
)

MISSING = chromium_missing()
GAMES_DIR = Path(__file__).resolve().parents[2] / "host" / "games"
LANGS = ("en", "cs", "pl", "uk")
GAMES_WITH_BUNDLES = ("elgrande", "kingdomino", "elcaballero")


@pytest.mark.parametrize("game", GAMES_WITH_BUNDLES)
def test_every_option_is_labelled_in_every_language(game: str) -> None:
    names = {option["name"] for option in registry.get(game).options_schema()}
    folder = GAMES_DIR / game / "static" / "i18n"
    bundles = {
        lang: json.loads((folder / lang / "options.json").read_text("utf-8")) for lang in LANGS
    }
    assert {f"options.{name}" for name in names} <= set(bundles["en"])
    for lang in LANGS[1:]:
        assert set(bundles[lang]) == set(bundles["en"]), lang
        assert all(text.strip() for text in bundles[lang].values()), lang


@pytest.fixture(scope="module")
def app() -> Iterator[str]:
    with app_server() as base:
        yield base


def _open_lobby(page: Any, base: str) -> None:
    page.goto(base + "/")
    offered = "#game-pick option[value='kingdomino']"
    page.wait_for_selector(offered, state="attached", timeout=20_000)


@pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
def test_kingdomino_from_the_generated_form_refusal_beside_its_field(app: str) -> None:
    with browser_context() as context:
        page = context.new_page()
        errors: list[str] = []
        watch_errors(page, errors)
        _open_lobby(page, app)
        offered = page.eval_on_selector_all("#game-pick option", "els => els.map(e => e.value)")
        assert {"elgrande", "kingdomino", "elcaballero"} <= set(offered)
        page.select_option("#game-pick", "kingdomino")
        form = page.locator("#new-game[data-game='kingdomino']")
        form.wait_for(timeout=10_000)
        # labelled from the game's bundle, a select for the named values, the castles as boxes
        assert "Mighty Duel" in form.locator("[data-option='mighty_duel']").inner_text()
        assert form.locator("select[name='mode'] option").count() == 2
        for colour in ("yellow", "green"):
            form.locator(f"input[name='players'][value='{colour}']").uncheck()
        form.locator("input[name='mighty_duel']").check()
        form.locator("input[name='wider_draft']").check()
        form.locator("#start-game").click()
        page.wait_for_selector("#error-wider_draft:not([hidden])", timeout=10_000)
        assert "Mighty Duel" in page.locator("#error-wider_draft").inner_text()
        assert page.locator("#error-mighty_duel").is_hidden()
        # without the refused variant the game starts, with the Mighty Duel
        form.locator("input[name='wider_draft']").uncheck()
        assert page.locator("#error-wider_draft").is_hidden()
        form.locator("#start-game").click()
        page.wait_for_selector("#new-game", state="detached", timeout=10_000)
        state = get_json(app + "/api/state")
        assert state["game_type"] == "kingdomino"
        assert state["options"]["players"] == ["pink", "blue"]
        assert state["options"]["mighty_duel"] is True and state["options"]["wider_draft"] is False
        assert get_json(app + "/api/games")["games"][0]["game"] == "kingdomino"
        # the saved games list names each game by its title
        page.locator("#games-btn").click()
        page.wait_for_selector(".saved li[data-game='kingdomino']", timeout=10_000)
        line = page.locator(".saved li[data-game='kingdomino']").first
        assert "Kingdomino" in line.inner_text()
        assert line.locator(".tag").all_inner_texts() == [
            "The Mighty Duel (2 players, 7×7, all 48 dominoes)"
        ]
        # the one refused request is the browser's logged 400; nothing else went wrong
        refused = [e for e in errors if "status of 400" in e]
        assert len(refused) == 1 and len(errors) == 1, errors


@pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
def test_a_game_without_a_bundle_gets_its_option_names_and_a_number_input() -> None:
    """The test-only Nim (registered in the engine only): labels are the bare option names."""
    with app_server(module="tests.app.nim_app") as base, browser_context() as context:
        page = context.new_page()
        page.goto(base + "/")
        page.wait_for_selector("#game-pick option[value='nim']", state="attached", timeout=20_000)
        page.select_option("#game-pick", "nim")
        form = page.locator("#new-game[data-game='nim']")
        form.wait_for(timeout=10_000)
        heaps = form.locator("[data-option='heaps']")
        assert heaps.locator("span").inner_text() == "heaps"
        assert heaps.locator("input[type='number']").input_value() == "3"
        heaps.locator("input").fill("12")
        form.locator("#start-game").click()
        page.wait_for_selector("#error-heaps:not([hidden])", timeout=10_000)
        assert page.locator("#error-heaps").inner_text() == "must be 1 to 9"
        heaps.locator("input").fill("1")
        form.locator("#start-game").click()
        page.wait_for_selector("#new-game", state="detached", timeout=10_000)
        state = get_json(base + "/api/state")
        assert state["game_type"] == "nim" and state["options"]["heaps"] == 1
