"""In the browser: a game with no plugin of its own (the test-only Nim, registered in the engine
registry only) is shown by the shell's generic plugin: the prompt in words, the legal actions as
buttons at the table and on the seat's page, played to its end."""

from __future__ import annotations

from typing import Any

import pytest

from tests.app.ui_browser import (
    app_server,
    browser_context,
    chromium_missing,
    post_json,
    watch_errors,
)

MISSING = chromium_missing()


def _prompt(page: Any) -> str:
    return str(page.evaluate("() => document.querySelector('#prompt-text')?.textContent ?? ''"))


@pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
def test_nim_plays_in_the_browser_through_the_generic_plugin() -> None:
    with app_server(module="tests.app.nim_app") as base, browser_context() as context:
        created = post_json(base + "/api/games", {"game": "nim", "heaps": 1, "size": 2})
        tokens = {seat["colour"]: seat["token"] for seat in created["seats"]}
        table = context.new_page()
        errors: list[str] = []
        watch_errors(table, errors)
        table.goto(base + "/")
        table.wait_for_selector("button[data-action='take 0 2']", timeout=20_000)
        assert _prompt(table) == "left: your move"
        assert table.locator("[data-field='heaps']").text_content() == "[2]"
        table.click("button[data-action='take 0 1']")
        table.wait_for_function(
            "() => document.querySelector('#prompt-text')?.textContent === 'right: your move'",
            timeout=10_000,
        )
        seat = context.new_page()
        watch_errors(seat, errors)
        seat.goto(f"{base}/seat/{tokens['right']}")
        seat.wait_for_selector("button[data-action='take 0 1']", timeout=20_000)
        seat.click("button[data-action='take 0 1']")
        table.wait_for_function(
            "() => document.querySelector('#prompt-text')?.textContent.startsWith('Game over')",
            timeout=10_000,
        )
        assert _prompt(table) == "Game over: left 0, right 1"
        assert table.locator("button[data-action]").count() == 0
        assert errors == []
