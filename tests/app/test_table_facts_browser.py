"""What a Board Game Arena player expects (issue 11), in a real browser (Debian's headless
Chromium): the tablet shows every player's remaining power cards (table option
`open_power_cards`) and the action card each player took this round with its text; each phone
shows every player's score and the game log; the log is one plain sentence per line in every
language, and a general scoring's secret discs are logged once revealed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.app.ui_browser import (
    LANGS,
    PHONE,
    TABLET,
    app_server,
    browser_context,
    chromium_missing,
    post_json,
    watch_errors,
)
from tests.app.ui_driver import Driver

MISSING = chromium_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
PLAYERS = ["purple", "green", "blue", "orange"]


@pytest.fixture(scope="module")
def game() -> Iterator[tuple[Driver, list[str]]]:
    errors: list[str] = []
    with app_server() as base, browser_context(TABLET) as context:
        reply = post_json(
            base + "/api/games",
            {
                "players": PLAYERS,
                "mode": "dealer",
                "seed": 7,
                "short_game": True,
                "open_power_cards": True,
            },
        )
        table = context.new_page()
        watch_errors(table, errors)
        table.goto(base + "/")
        table.wait_for_selector("body[data-ready='1'] svg.board")
        seats: dict[str, Any] = {}
        for seat in reply["seats"]:
            page = context.new_page()
            watch_errors(page, errors)
            page.set_viewport_size(PHONE)
            page.goto(seat["url"] if seat["url"].startswith("http") else base + seat["url"])
            page.wait_for_selector("body[data-ready='1']")
            seats[seat["colour"]] = page
        yield Driver(base, table, seats), errors


def _play_until(driver: Driver, moment: Any) -> dict[str, Any]:
    for _ in range(1500):
        state = driver.state()
        if moment(state) and not state["checks"]["issues"]:
            return state
        assert driver.step(), "the game ended before the moment came"
    raise AssertionError("the moment never came")


def _shown(page: Any, rev: int) -> None:
    """Wait until the page has drawn the state of `rev` (or a newer one)."""
    page.wait_for_function(
        f"Number(document.body.dataset.rev || -1) >= {rev}", polling=50, timeout=20_000
    )


def _log_lines(page: Any, selector: str) -> list[tuple[str, str]]:
    return list(
        page.evaluate(
            f"""() => [...document.querySelectorAll({selector!r})]
                 .map((li) => [li.dataset.kind, li.textContent.trim()])"""
        )
    )


def _sentence_problems(lines: list[tuple[str, str]]) -> list[str]:
    """Action lines that are not one plain sentence (a fragment ends in ':' or lacks a '.')."""
    out = []
    for kind, text in lines:
        body = re.sub(r"^\d+", "", text).strip()  # the round number in front
        if kind in ("action", "reveal") and (not body.endswith(".") or body.endswith(":.")):
            out.append(text)
        if "undefined" in body or "{" in body:
            out.append(text)
    return out


def test_the_tablet_shows_remaining_power_cards_and_the_cards_taken(game: Any) -> None:
    driver, errors = game
    state = _play_until(
        driver,
        lambda s: (
            s["game"]["round"] >= 3
            and s["prompt"]["key"] in ("main.place", "main.placing")
            and len(s["game"]["taken"]) >= 2
        ),
    )
    table = driver.table
    table.bring_to_front()
    _shown(table, state["rev"])
    view = state["game"]
    for colour, cards in view["remaining_power"].items():
        row = f'#power-left .power-row[data-colour="{colour}"]'
        held = table.locator(f'{row} .pc[data-status="held"]').all_text_contents()
        assert [int(v) for v in held] == cards, colour
        played = table.locator(f'{row} .pc[data-status="played"]').all_text_contents()
        assert played == [str(view["played"][colour])], colour
        gone = table.locator(f'{row} .pc[data-status="gone"]').all_text_contents()
        assert [int(v) for v in gone] == view["discarded_power"][colour], colour
        assert len(gone) >= 1  # round 1's card is on the open discard pile
    for colour, card in view["taken"].items():
        shown = table.locator(f'#cards [data-taken-card="{card}"][data-colour="{colour}"]')
        assert shown.count() == 1, (colour, card)
        assert shown.locator(".card-text").text_content().strip(), (colour, card)
    assert errors == []


def test_the_phone_shows_every_score_and_the_log(game: Any) -> None:
    driver, errors = game
    state = driver.state()
    phone = driver.seats["green"]
    phone.bring_to_front()
    _shown(phone, state["rev"])
    for colour, score in state["game"]["scores"].items():
        cell = phone.locator(f'#seat-players .scores-table tr[data-colour="{colour}"] td.score')
        assert cell.text_content() == str(score), colour
    lines = _log_lines(phone, "#seat-log ol.log li")
    assert len(lines) >= 10
    assert any("played power card" in text for _, text in lines), lines[:5]
    assert not _sentence_problems(lines), _sentence_problems(lines)
    assert errors == []


def test_revealed_discs_and_plain_sentences_in_every_language(game: Any) -> None:
    driver, errors = game
    state = _play_until(
        driver,
        lambda s: (
            any(line["kind"] == "reveal" for line in s["log"]) and s["game"]["turn"] is not None
        ),
    )
    reveal = next(line for line in state["log"] if line["kind"] == "reveal")
    table = driver.table
    table.bring_to_front()
    _shown(table, state["rev"])
    driver.close_scoring_dialog()
    table.locator('#tabs [data-tab="log"]').click()
    for lang in LANGS:
        table.select_option("#lang", lang)
        table.wait_for_function(f"document.documentElement.lang === {lang!r}")
        lines = _log_lines(table, "#tab-body ol.log li")
        assert not _sentence_problems(lines), (lang, _sentence_problems(lines))
        revealed = [text for kind, text in lines if kind == "reveal"]
        assert len(revealed) == 1, (lang, revealed)
        assert revealed[0].count("→") == len(reveal["discs"]), (lang, revealed)
    table.select_option("#lang", "en")
    assert errors == []
