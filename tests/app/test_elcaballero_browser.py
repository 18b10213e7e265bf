"""In the browser: El Caballero from the lobby, and a 3-player base game in dealer mode played
with a phone per seat (each its own browser context) to its first scoring, every step a tap on
the plugin's UI (power cards, market card, map cell, turn, place, caballero card, end turn)."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, unquote

import pytest

from tests.app.ui_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    TABLET,
    app_server,
    chromium_missing,
    get_json,
    post_json,
    watch_errors,
)

MISSING = chromium_missing()
PLAYERS = ["red", "blue", "green"]
WAIT = 15_000  # ms: the longest a page may take to show a pushed state
# Pages wait by polling every 50 ms: a page of another browser context is not in front, so it
# gets no animation frames (Playwright's default polling).


@contextlib.contextmanager
def devices(count: int) -> Iterator[list[Any]]:
    """A tablet and `count` phones: one Chromium, a fresh browser context each (no shared
    storage, as separate devices have none)."""
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="castillo-chromium-")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
            )
            try:
                contexts = [browser.new_context(viewport=TABLET, has_touch=True)]
                contexts += [
                    browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
                    for _ in range(count)
                ]
                yield [context.new_page() for context in contexts]
            finally:
                browser.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def _shown(page: Any, rev: int) -> None:
    """Wait until the page has drawn the state of revision `rev` (or a later one)."""
    page.wait_for_function(
        "rev => Number(document.body.dataset.rev ?? -1) >= rev", arg=rev, timeout=WAIT, polling=50
    )


def _tap_and_wait(page: Any, base: str, selector: str) -> dict[str, Any]:
    """Tap a control that sends an action; the server's state after it, once this page shows it."""
    rev = get_json(base + "/api/state")["rev"]
    page.locator(selector).first.tap()
    page.wait_for_function(
        "rev => Number(document.body.dataset.rev ?? -1) > rev", arg=rev, timeout=WAIT, polling=50
    )
    state: dict[str, Any] = get_json(base + "/api/state")
    return state


def _play_turn(page: Any, base: str, token: str) -> None:
    """One turn on the acting phone: reinforcements, the area card(s) through the market and the
    map (turned once where it may be), one caballero card where the court allows, end turn."""
    page.wait_for_selector("#prompt[data-phase='turn'][data-mine='1']", timeout=WAIT)
    if page.locator("#ec-controls [data-action='reinforce']").count():
        _tap_and_wait(page, base, "#ec-controls [data-action='reinforce']")
    while page.locator("#ec-market button.can").count():
        page.locator("#ec-market button.can").first.tap()
        page.wait_for_selector("#ec-market button.chosen", timeout=WAIT)
        page.locator("#ec-map [data-cell]").first.tap()
        panel = page.locator("#ec-place-panel")
        panel.wait_for(timeout=WAIT)
        assert page.locator("#ec-preview").count() == 1
        if page.locator("#ec-place-panel [data-rotate]").count():
            side = panel.get_attribute("data-side")
            page.locator("#ec-place-panel [data-rotate]").tap()
            page.wait_for_function(
                "side => document.querySelector('#ec-place-panel')?.dataset.side !== side",
                arg=side,
                timeout=WAIT,
                polling=50,
            )
        _tap_and_wait(page, base, "#ec-place-panel [data-place]")
    legal = get_json(f"{base}/api/seat/{token}/state")["legal"]
    knights = [text for text in legal if text.startswith("knight ")]
    if knights:
        text = knights[-1]  # the highest number at the last cell offered
        cell = text.split()[1][:-1]
        page.locator(f"#ec-map [data-cell='{cell}']").tap()
        page.wait_for_selector(f"#ec-cell-panel[data-focus='{cell}']", timeout=WAIT)
        _tap_and_wait(page, base, f"#ec-cell-panel [data-action='{text}']")
    page.wait_for_selector("#ec-done", timeout=WAIT)
    _tap_and_wait(page, base, "#ec-done")


@pytest.fixture(scope="module")
def app() -> Iterator[str]:
    with app_server() as base:
        yield base


@pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
def test_el_caballero_from_the_lobby_dealer_mode_needs_a_catalogue(app: str) -> None:
    with devices(0) as (page,):
        errors: list[str] = []
        watch_errors(page, errors)
        page.goto(app + "/")
        page.wait_for_selector("#game-pick option[value='elcaballero']", state="attached")
        page.select_option("#game-pick", "elcaballero")
        form = page.locator("#new-game[data-game='elcaballero']")
        form.wait_for(timeout=WAIT)
        assert "Cards" in form.locator("[data-option='mode']").inner_text()
        catalogue = form.locator("select[name='catalogue'] option")
        assert catalogue.all_inner_texts() == [
            "none: each revealed card is described",
            "SYNTHETIC set (not the real cards)",
        ]
        for option in ("two_player_tie", "remove_on_same_island", "court_capacity"):
            assert form.locator(f"[data-option='{option}']").count() == 1
        form.locator("input[name='players'][value='yellow']").uncheck()
        page.select_option("select[name='mode']", "dealer")
        form.locator("#start-game").click()
        page.wait_for_selector("#error-catalogue:not([hidden])", timeout=WAIT)
        assert "synthetic" in page.locator("#error-catalogue").inner_text()
        page.select_option("select[name='catalogue']", "synthetic")
        form.locator("#start-game").click()
        page.wait_for_selector("#ec-map svg", timeout=WAIT)
        assert (
            page.locator("[data-synthetic]").inner_text() == "SYNTHETIC cards: not the real cards"
        )
        state = get_json(app + "/api/state")
        assert state["game_type"] == "elcaballero" and state["options"]["players"] == PLAYERS
        refused = [e for e in errors if "status of 400" in e]
        assert len(refused) == 1 and len(errors) == 1, errors


@pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
def test_three_phones_play_a_dealer_game_to_its_first_scoring(app: str) -> None:
    base = app
    with devices(len(PLAYERS)) as pages:
        created = post_json(
            base + "/api/games",
            {
                "game": "elcaballero",
                "players": PLAYERS,
                "mode": "dealer",
                "catalogue": "synthetic",
                "seed": 11,
            },
        )
        tokens = {seat["colour"]: seat["token"] for seat in created["seats"]}
        table, *phone_pages = pages
        errors: list[str] = []
        phones = dict(zip(PLAYERS, phone_pages, strict=True))
        table.goto(base + "/")
        watch_errors(table, errors)
        for colour, page in phones.items():
            watch_errors(page, errors)
            page.goto(f"{base}/seat/{tokens[colour]}")
        for page in pages:
            page.wait_for_selector("#ec-map svg", timeout=20_000)
            assert page.locator("[data-synthetic]").count() >= 1  # "not the real cards"
        state = get_json(base + "/api/state")
        while not state["game"]["scorings"]:
            game = state["game"]
            actor = game["acting"][0]
            page = phones[actor]
            _shown(page, state["rev"])
            if game["phase"] == "power":
                page.wait_for_selector("#prompt[data-phase='power'][data-mine='1']", timeout=WAIT)
                # the other phones offer no power card now
                for other, other_page in phones.items():
                    if other != actor:
                        _shown(other_page, state["rev"])
                        assert other_page.locator("#ec-hand [data-action]").count() == 0
                state = _tap_and_wait(page, base, "#ec-hand button[data-action]")
            else:
                assert game["phase"] == "turn", game["phase"]
                _play_turn(page, base, tokens[actor])
                state = get_json(base + "/api/state")
        game = state["game"]
        scoring = game["scorings"][0]
        assert scoring["round"] == 4 and game["round"] == 5
        assert any(region["points"] for region in scoring["regions"])  # someone scored
        # the tablet and every phone show the breakdown: each island, each ship, the totals
        for page in pages:
            _shown(page, state["rev"])
            shown = page.locator("[data-scoring='4']")
            shown.wait_for(timeout=WAIT)
            lands = [r for r in scoring["regions"] if r["type"] == "land"]
            assert shown.locator("[data-region]").count() >= len(lands)
            assert shown.locator("[data-ship]").count() == len(scoring["ships"])
            for colour, total in scoring["totals"].items():
                assert shown.locator(f"[data-total='{colour}']").inner_text().endswith(f"+{total}")
        scores = {p["colour"]: p["score"] for p in game["players"]}
        assert scores == scoring["totals"]
        for colour, total in scores.items():
            row = table.locator(f"#ec-courts [data-court='{colour}'] td").nth(1)
            assert row.inner_text() == str(total)
        assert "ended the turn" in table.locator("#tab-body").inner_text()  # the log in sentences
        assert errors == []


@pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
def test_table_mode_cards_are_described_in_a_few_taps(app: str) -> None:
    """No catalogue: the start card and the market are entered at the tablet by their edges,
    their drawing among those that fit, and their gold and fish."""
    post_json(app + "/api/games", {"game": "elcaballero", "players": ["red", "blue"]})
    with devices(0) as (page,):
        errors: list[str] = []
        watch_errors(page, errors)
        page.goto(app + "/")
        editor = page.locator("#ec-editor")
        editor.wait_for(timeout=WAIT)
        assert page.locator("[data-synthetic]").count() == 0  # the players' own cards

        def enter(lands: str, topology: str, counts: dict[int, int], text: str) -> None:
            for side in lands:
                page.locator(f"#ec-editor [data-edge='{side}']").click()
                page.wait_for_selector(f"#ec-editor [data-edge='{side}'][data-kind='L']")
            page.locator(f"#ec-editor [data-topology='{topology}']").click()
            page.wait_for_selector(f"#ec-editor [data-topology='{topology}'][aria-pressed='true']")
            for region, count in counts.items():
                for n in range(1, count + 1):
                    page.locator(f"#ec-editor [data-more='{region}']").click()
                    page.wait_for_selector(f"#ec-editor [data-count='{region}']:text-is('{n}')")
            assert editor.get_attribute("data-text") == text
            _tap_and_wait(page, app, f"#ec-editor [data-enter='{text}']")

        enter("N", "LN+SESW", {}, "LN+SESW")
        enter("NS", "LNS+SE+SW", {0: 2}, "LNSg2+SE+SW")
        enter("NESW", "LNESW+S", {1: 1}, "LNESW+Sf1")
        enter("", "SNESW", {0: 3}, "SNESWf3")
        for shape in ("SNESW", "LNE+SSW"):  # the common shapes: one tap each
            _tap_and_wait(page, app, f"#ec-entry [data-action='reveal {shape}']")
        game = get_json(app + "/api/state")["game"]
        assert game["areas"][0]["card"] == "LN+SESW"
        assert [c["card"] for c in game["market"]] == [
            "LNSg2+SE+SW",
            "LNESW+Sf1",
            "SNESWf3",
            "SNESW",
            "LNE+SSW",
        ]
        assert game["phase"] == "power"
        page.wait_for_selector("#ec-market [data-slot='5']", timeout=WAIT)
        assert errors == []


def _knock_off(base: str, tokens: dict[str, str]) -> tuple[str, str, dict[str, Any]]:
    """A 2-player dealer game played by the API (caballero cards first, many of them) until an
    area card offered would knock one off, as the engine's preview says: (colour, action, its
    preview)."""
    order = ("reinforce", "knight", "area", "done")
    for _ in range(800):
        game = get_json(base + "/api/state")["game"]
        assert game["phase"] != "over", "no placement knocked a caballero card off"
        colour = game["acting"][0]
        legal = get_json(f"{base}/api/seat/{tokens[colour]}/state")["legal"]
        if game["phase"] == "turn":
            for text in (t for t in legal if t.startswith("area ")):
                url = f"{base}/api/seat/{tokens[colour]}/preview?action={quote(text)}"
                answer: dict[str, Any] = get_json(url)
                if answer["lost"]:
                    return colour, text, answer
        pick = next((t for kind in order for t in legal if t.split()[0] == kind), legal[0])
        post_json(f"{base}/api/seat/{tokens[colour]}/action", {"text": pick})
    raise AssertionError("no placement knocked a caballero card off")


@pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
def test_the_phone_shows_the_engines_preview_of_a_placement(app: str) -> None:
    """The card tried on the map is previewed by the engine (GET .../preview, asked once the taps
    settle): the phone names the caballero card it knocks off and each island's ranking, and
    draws the map the engine says it makes (the card crossed out, the new card placed)."""
    created = post_json(
        app + "/api/games",
        {
            "game": "elcaballero",
            "players": ["red", "blue"],
            "mode": "dealer",
            "catalogue": "synthetic",
            "seed": 2,
        },
    )
    tokens = {seat["colour"]: seat["token"] for seat in created["seats"]}
    colour, text, answer = _knock_off(app, tokens)
    _, slot, spot = text.split()
    cell, side = spot[:-1], spot[-1]
    with devices(1) as (_, phone):
        errors: list[str] = []
        watch_errors(phone, errors)
        asked: list[str] = []
        phone.on("request", lambda r: asked.append(r.url) if "/preview?" in r.url else None)
        phone.goto(f"{app}/seat/{tokens[colour]}")
        phone.wait_for_selector("#prompt[data-phase='turn'][data-mine='1']", timeout=WAIT)
        phone.locator(f"#ec-market button[data-slot='{slot}']").tap()
        phone.wait_for_selector("#ec-market button.chosen", timeout=WAIT)
        phone.locator(f"#ec-map [data-cell='{cell}']").tap()
        panel = phone.locator("#ec-place-panel")
        panel.wait_for(timeout=WAIT)
        assert phone.locator("#ec-preview").count() == 1  # at once, before the answer
        for _ in range(4):
            if panel.get_attribute("data-side") == side:
                break
            phone.locator("#ec-place-panel [data-rotate]").tap()
        assert panel.get_attribute("data-side") == side
        phone.wait_for_selector(
            f"#ec-preview[data-pending=''] [data-knocked='{answer['lost'][0]}']", timeout=WAIT
        )
        knocked = phone.locator("#ec-preview [data-knocked]")
        assert [knocked.nth(i).get_attribute("data-knocked") for i in range(knocked.count())] == (
            answer["lost"]
        )
        assert phone.locator("#ec-preview .ec-change").count() == len(answer["islands"])
        for lost in answer["lost"]:  # crossed out, its card no longer drawn
            assert phone.locator(f"#ec-map [data-lost='{lost}']").count() == 1
            assert phone.locator(f"#ec-map .ec-caballero[data-cabcell='{lost}']").count() == 0
        assert phone.locator("#ec-map .ec-ghost").count() == 1
        assert phone.locator(f"#ec-map [data-area='{cell}']").count() == 1
        # the engine was asked for this placement, once (taps settle; an answer is kept)
        wanted = [url for url in asked if unquote(url.split("action=")[1]) == text]
        assert len(wanted) == 1, asked
        assert all(f"/api/seat/{tokens[colour]}/preview?" in url for url in asked)
        assert errors == []
