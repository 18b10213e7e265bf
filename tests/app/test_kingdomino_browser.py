"""Kingdomino in Chromium through its plugin: a 2-player game started from the lobby with one
seat a computer player, the other played by tapping on a phone (claim, rotate, place, discard,
a hint) to the end-of-game breakdown; and a 4-player game with a phone (a browser context) per
seat. Every wait is for a condition: the page's state revision, a selector, the API's state."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

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
TURN_S = 60_000  # ms: a turn's wait (another player's, the computer's) on a loaded machine
TURN = "button.kd-domino.claimable, #kd-rotate, #kd-discard-why"


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """One Chromium (Playwright gives it a fresh temporary profile); a test opens a context
    per device in it."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def _device(browser: Any, viewport: dict[str, int], errors: list[str], url: str) -> Any:
    page = browser.new_context(viewport=viewport, has_touch=True).new_page()
    watch_errors(page, errors)
    page.goto(url)
    return page


def _rev(page: Any) -> str:
    return str(page.evaluate("() => document.body.dataset.rev ?? ''"))


def _offered(page: Any) -> set[str]:
    squares = page.eval_on_selector_all(
        "button.kd-sq.offer", "els => els.map(e => e.dataset.square)"
    )
    return set(squares)


def play_turn(page: Any) -> str:
    """One move by tapping on the acting seat's phone; what kind of move it was."""
    page.wait_for_selector(TURN, timeout=TURN_S)
    before = _rev(page)
    if page.locator("#kd-discard-why").count():
        kind = "discard"
        page.locator("button[data-action^='discard ']").click()
    elif page.locator("button.kd-domino.claimable").count():
        kind = "claim"
        page.locator("button.kd-domino.claimable").first.click()
    else:
        kind = "place"
        for _ in range(4):  # an orientation with a square to offer
            if page.locator("button.kd-sq.offer").count():
                break
            assert "rotate" in page.locator("#kd-placing-help").inner_text()
            page.click("#kd-rotate")
        # A square already chosen (a hint shows its pick) is dropped as it is: tapping the
        # chosen square again would place at once, and the drop button would then be gone.
        if page.locator("#kd-drop[disabled]").count():
            page.locator("button.kd-sq.offer").first.click()  # shown where it would go
        assert page.locator(".kd-sq.ghost").count() == 2
        page.click("#kd-drop")
    page.wait_for_function("(rev) => document.body.dataset.rev !== rev", arg=before)
    return kind


def _check_offers_are_the_legal_squares(page: Any, base: str, token: str) -> None:
    """The squares lit on the phone are exactly the legal placements in that orientation."""
    page.wait_for_selector("#kd-rotate", timeout=TURN_S)
    legal = get_json(f"{base}/api/seat/{token}/state")["legal"]
    for _ in range(4):
        direction = page.eval_on_selector(".kd-hand .kd-faces", "el => el.className.slice(-1)")
        wanted = {t.split()[2][:-1] for t in legal if t.startswith("place ") and t[-1] == direction}
        same = "els => els[0].outerHTML === els[1].outerHTML"
        twin = page.eval_on_selector_all(".kd-hand .kd-half", same)
        if not twin:
            assert _offered(page) == wanted, direction
        page.click("#kd-rotate")


@pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
def test_two_players_one_a_computer_from_the_lobby_to_the_breakdown() -> None:
    errors: list[str] = []
    with app_server() as base, chromium() as browser:
        table = _device(browser, TABLET, errors, base + "/")
        offered = "#game-pick option[value='kingdomino']"
        table.wait_for_selector(offered, state="attached", timeout=20_000)
        table.select_option("#game-pick", "kingdomino")
        form = table.locator("#new-game[data-game='kingdomino']")
        form.wait_for(timeout=10_000)
        for colour in ("yellow", "green"):
            form.locator(f"input[name='players'][value='{colour}']").uncheck()
        form.locator("select[name='mode']").select_option("dealer")
        form.locator("select[data-computer='blue']").select_option("3")  # 0.25 s a move
        form.locator("#start-game").click()
        table.wait_for_selector("#new-game", state="detached", timeout=10_000)
        state = get_json(base + "/api/state")
        assert state["game_type"] == "kingdomino" and state["options"]["players"] == [
            "pink",
            "blue",
        ]
        seats = {s["colour"]: s for s in state["seats"]}
        assert seats["blue"]["computer"] == 3 and "token" not in seats["blue"]
        table.wait_for_selector("[data-seat='blue'][data-computer='3']", timeout=10_000)
        token = seats["pink"]["token"]
        phone = _device(browser, PHONE, errors, f"{base}/seat/{token}")
        phone.wait_for_selector(".kd-kingdom[data-kingdom='pink']", timeout=20_000)

        moves: list[str] = []
        hinted = False
        while True:
            phone.wait_for_selector(f"{TURN}, #kd-final", timeout=TURN_S)
            if phone.locator("#kd-final").count():
                break
            if phone.locator("#kd-rotate").count() and not hinted:
                # the first placement: two kings seen, lit squares legal, and a hint
                assert phone.locator("[data-my-king]").count() == 2
                _check_offers_are_the_legal_squares(phone, base, token)
                phone.click("#kd-hint")
                phone.wait_for_selector("#kd-hint-text", timeout=TURN_S)
                assert phone.locator(".kd-sq.ghost").count() == 2  # the hint shown in place
                hinted = True
            moves.append(play_turn(phone))
        assert hinted and moves.count("claim") == 12  # 24 dominoes, each claimed once
        assert moves.count("place") + moves.count("discard") == 12

        final = get_json(base + "/api/state")
        assert final["game"]["step"] == "over"
        actors = [line["actor"] for line in final["log"] if line["kind"] == "action"]
        assert actors.count("blue") == actors.count("pink") == 24  # the computer played its own
        table.wait_for_selector("#kd-final", timeout=10_000)
        result = final["game"]["result"]
        assert table.locator(".winner").get_attribute("data-winners") == " ".join(result["winners"])
        for seat in final["game"]["seats"]:
            shown = table.locator(f"[data-breakdown='{seat['colour']}'] li[data-points]")
            assert shown.count() == len(seat["territories"])
        if result["decided_by"] != "score":
            assert table.locator(f"[data-decided-by='{result['decided_by']}']").count() == 1
        assert table.locator("[data-score='pink']").inner_text() == str(final["game"]["totals"][0])
        assert errors == []


@pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
def test_four_players_each_on_their_own_phone_play_a_whole_game() -> None:
    errors: list[str] = []
    with app_server() as base, chromium() as browser:
        body = {"game": "kingdomino", "players": ["pink", "yellow", "green", "blue"]}
        created = post_json(base + "/api/games", {**body, "mode": "dealer", "seed": 12})
        tokens = {s["colour"]: s["token"] for s in created["seats"]}
        table = _device(browser, TABLET, errors, base + "/")
        phones = {c: _device(browser, PHONE, errors, f"{base}/seat/{t}") for c, t in tokens.items()}
        for colour, phone in phones.items():
            phone.wait_for_selector(f".kd-kingdom[data-kingdom='{colour}']", timeout=20_000)
        moves = 0
        while True:
            state = get_json(base + "/api/state")
            if state["game"]["step"] == "over":
                break
            acting = state["game"]["acting"][0]
            play_turn(phones[acting])
            moves += 1
        assert moves == 48 + 48  # every domino claimed once, then placed (or discarded)
        for colour, phone in phones.items():
            phone.wait_for_selector("#kd-final", timeout=10_000)
            assert phone.locator("[data-breakdown]").count() == 4, colour
        table.wait_for_selector("#kd-final", timeout=10_000)
        totals = get_json(base + "/api/state")["game"]["totals"]
        for colour, total in zip(("pink", "yellow", "green", "blue"), totals, strict=True):
            assert table.locator(f"[data-score='{colour}']").inner_text() == str(total)
        assert errors == []


@pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
def test_table_mode_the_tablet_enters_the_draw_and_confirms_the_computers_pick() -> None:
    errors: list[str] = []
    with app_server() as base, chromium() as browser:
        body = {"game": "kingdomino", "players": ["pink", "blue"], "mode": "table"}
        post_json(base + "/api/games", {**body, "computers": {"blue": 2}})
        table = _device(browser, TABLET, errors, base + "/")
        for number in (40, 3, 24, 17):  # the line as drawn; the app sorts it
            table.click(f"#kd-draw button[data-action='draw {number}']")
            table.wait_for_selector(f"[data-line='next'] [data-domino='{number}']")
        line = table.eval_on_selector_all(
            "[data-line='next'] [data-domino]", "els => els.map(e => e.dataset.domino)"
        )
        assert line == ["3", "17", "24", "40"]
        table.click("#kd-kings button[data-action='king blue']")
        confirm = table.wait_for_selector("#kd-confirm", timeout=TURN_S)
        proposal = confirm.get_attribute("data-action")
        assert proposal and proposal.startswith("claim ")
        assert get_json(base + "/api/state")["game"]["step"] == "claim"  # nothing made yet
        confirm.click()
        number = proposal.split()[1]
        table.wait_for_selector(f"[data-line='next'] [data-domino='{number}'] [data-king='blue-1']")
        assert get_json(base + "/api/state")["game"]["step"] == "king"
        assert errors == []
