"""The table page on a second tablet, in Debian's headless Chromium (Playwright): the browser
runs inside a network namespace and the app (`castillo run`, no option) in another, joined by a
private veth pair (tests/app/netns.py), so the tablet is a real network client that must pair.
Also: the Seats tab of a machine without a network, and the confirmations before Start replaces
a game and before New link revokes a seat link (on loopback).
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.app.netns import (
    NETNS_MISSING,
    Served,
    Wire,
    castillo_run,
    chromium_in,
    lone_namespace,
    served_on_wire,
)
from tests.app.netns import needs_netns as in_netns
from tests.app.ui_browser import (
    app_server,
    browser_context,
    chromium_missing,
    get_json,
    post_json,
    watch_errors,
)
from tests.app.ui_strings import shell_strings

MISSING = chromium_missing()
browser = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
if MISSING or NETNS_MISSING:
    print(f"\n[test_pairing_browser] SKIPPING some tests: {MISSING or NETNS_MISSING}")


@pytest.fixture(scope="module")
def lan() -> Iterator[tuple[Wire, Served]]:
    with served_on_wire() as both:
        yield both


def _public(served: Served) -> str:
    line = next(line for line in served.lines if line.startswith("seat codes carry "))
    return line.split()[-1].rstrip("/")


@contextlib.contextmanager
def _tablet(ns: str) -> Iterator[Any]:
    """A browser whose Chromium runs inside the namespace `ns`."""
    with (
        tempfile.TemporaryDirectory(prefix="castillo-wrapper-") as folder,
        browser_context(executable=str(chromium_in(ns, Path(folder)))) as context,
    ):
        yield context


@browser
@in_netns
def test_a_tablet_pairs_in_one_step_from_the_printed_address(lan: tuple[Wire, Served]) -> None:
    wire, served = lan
    public = _public(served)
    errors: list[str] = []
    with _tablet(wire.client_ns) as context:
        page = context.new_page()
        watch_errors(page, errors)
        console: list[str] = []
        page.on("console", lambda msg: console.append(f"{msg.type}: {msg.text}"))
        page.on("requestfailed", lambda req: console.append(f"failed: {req.url} {req.failure}"))
        page.goto(f"{public}/?pair={served.pairing_code}")
        try:
            page.wait_for_selector("body[data-ready='1']")  # the table's state came: paired
        except Exception as exc:  # say what the page saw: a flaky fresh-clone failure's clue
            raise AssertionError(f"not ready; console and failed requests: {console}") from exc
        assert page.locator("#pair-form").count() == 0
        assert "pair=" not in page.url  # the code does not stay in the address bar
        assert page.evaluate("() => localStorage.getItem('castillo.table_token')")
        page.wait_for_selector("#new-game")
        page.locator("#start-game").click()  # POST /api/games with the table token
        page.wait_for_selector("#tab-body .seat-card a[data-seat-link]")
        links = [a.get_attribute("href") for a in page.locator("a[data-seat-link]").all()]
        assert len(links) == 4 and all(link.startswith(f"{public}/seat/") for link in links)
        assert page.locator(".seat-card .qr svg").count() == 4
        assert page.locator("#reach-note").count() == 0  # the network is served: no warning
        page.reload()  # the stored token keeps the tablet paired
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("#pair-form").count() == 0
        page.locator("#games-btn").click()  # the saved games need the token too
        page.locator(".saved ul.games li button").first.click()  # and Continue
        page.wait_for_selector("#overlay", state="hidden")
        page.locator("[data-tab='seats']").click()
        old = page.locator("a[data-seat-link='purple']").get_attribute("href")
        page.locator("[data-seat='purple'] button").click()  # and New link
        page.locator("#confirm-yes").click()
        page.wait_for_function(
            "(old) => document.querySelector(\"a[data-seat-link='purple']\")?.href !== old",
            arg=old,
        )
        # a token that stopped working (the app restarted): the form asks for the code again
        page.evaluate("() => localStorage.setItem('castillo.table_token', 'stale')")
        page.reload()
        page.wait_for_selector("#pair-form")
        assert page.evaluate("() => localStorage.getItem('castillo.table_token')") is None
    errors = [e for e in errors if "403" not in e]  # the browser logs the stale token's refusal
    assert not errors, errors


@browser
@in_netns
def test_a_wrong_code_is_refused_and_the_form_takes_the_right_one(lan: tuple[Wire, Served]) -> None:
    wire, served = lan
    public = _public(served)
    wrong = ("0" if served.pairing_code[0] != "0" else "1") + served.pairing_code[1:]
    english = shell_strings("en")
    with _tablet(wire.client_ns) as context:
        page = context.new_page()
        page.goto(f"{public}/?pair={wrong}")
        page.wait_for_selector("#pair-form")
        assert page.locator("#pair-error").inner_text() == english["pair.wrong"]
        assert page.get_attribute("body", "data-ready") is None  # nothing of the table shown
        page.locator("#pair-code").fill(served.pairing_code)
        page.locator("#pair-submit").click()
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("#pair-form").count() == 0


@browser
@in_netns
def test_without_a_network_the_seats_tab_says_so_instead_of_codes() -> None:
    czech = shell_strings("cs")
    with lone_namespace() as ns, castillo_run(ns) as running, _tablet(ns) as context:
        here = next(u for u in running.urls() if "127.0.0.1" in u)
        page = context.new_page()
        page.goto(here)  # the host's own screen: no pairing
        page.wait_for_selector("#new-game")
        page.locator("#start-game").click()
        page.wait_for_selector("#reach-note[data-reach='none']")
        assert page.locator(".seat-card .qr").count() == 0
        page.select_option("#lang", "cs")
        page.wait_for_function(
            "(text) => document.querySelector('#reach-note')?.textContent === text",
            arg=czech["seats.no_network"],
        )


@pytest.fixture(scope="module")
def local_app() -> Iterator[str]:
    with app_server() as base:
        yield base


@browser
def test_start_and_new_link_ask_before_they_replace_or_revoke(local_app: str) -> None:
    app = local_app
    body = {"players": ["purple", "green", "blue"], "mode": "table"}
    first = post_json(app + "/api/games", body)["id"]
    with browser_context() as context:
        page = context.new_page()
        page.goto(app + "/")
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("#reach-note[data-reach='local']").count() == 0  # on the log tab
        page.locator("#games-btn").click()
        page.wait_for_selector("#new-game #players-field")
        page.locator("#start-game").click()
        page.wait_for_selector("#confirm")
        page.locator("#confirm-no").click()
        assert get_json(app + "/api/state")["game_id"] == first  # nothing replaced
        page.locator("#start-game").click()
        page.locator("#confirm-yes").click()
        page.wait_for_selector("#tab-body .seat-card a[data-seat-link]")
        assert get_json(app + "/api/state")["game_id"] != first
        assert page.locator("#reach-note[data-reach='local']").count() == 1  # --local said

        def purple_token() -> str:
            seats = get_json(app + "/api/seats")["seats"]
            return str(next(s["token"] for s in seats if s["colour"] == "purple"))

        before = purple_token()
        new_link = page.locator("[data-seat='purple'] button")
        new_link.click()
        page.wait_for_selector("#confirm")
        page.locator("#confirm-no").click()
        assert purple_token() == before  # not revoked
        new_link.click()
        page.locator("#confirm-yes").click()
        page.wait_for_function(
            "(old) => !document.querySelector(\"a[data-seat-link='purple']\").href.endsWith(old)",
            arg=before,
        )
        assert purple_token() != before
