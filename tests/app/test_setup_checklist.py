"""The dealer's set-up checklist (issue "A real table": dealer mode opens with a set-up
checklist: the King, each player's Grande and 2 caballeros, the first player, the cards to lay
out): what it lists, when it shows, who gets it, and the table page in Chromium."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from engine.elgrande.game import Game, Options
from host.games.elgrande.checklist import setup_checklist
from tests.app.conftest import PLAYERS, new_game
from tests.app.ui_browser import (
    app_server,
    browser_context,
    chromium_missing,
    post_json,
    watch_errors,
)
from tests.app.ui_strings import page_strings

MISSING = chromium_missing()


def _params(items: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    return [item["params"] for item in items if item["key"] == key]


def test_a_dealer_start_lists_the_king_homes_reserves_first_player_and_cards() -> None:
    game = Game(Options(players=tuple(PLAYERS), mode="dealer", seed=3))
    items = setup_checklist(game)
    assert items is not None
    assert _params(items, "checklist.king") == [{"area": game.state.tok[game.state.king]}]
    homes = {p["colour"]: p["area"] for p in _params(items, "checklist.home")}
    assert homes == {
        game.state.colours[p]: game.state.tok[game.state.grandes[p]] for p in range(len(PLAYERS))
    }
    # every player starts alike: one line for all
    assert _params(items, "checklist.reserve_all") == [{"court": 7, "province": 21, "power": 13}]
    assert _params(items, "checklist.reserve") == []
    assert _params(items, "checklist.first") == [{"colour": game.state.colours[game.state.first]}]
    (cards,) = _params(items, "checklist.cards")
    assert cards["cards"] == game.view(None)["face_up"] and len(cards["cards"]) == 5


def test_the_checklist_goes_once_a_player_acts_and_table_mode_has_none() -> None:
    game = Game(Options(players=tuple(PLAYERS), mode="dealer", seed=3))
    player = game.current_players()[0]
    game.apply(game.legal_actions(player)[0], player)
    assert setup_checklist(game) is None
    assert setup_checklist(Game(Options(players=tuple(PLAYERS), mode="table"))) is None


def test_only_the_table_gets_the_checklist(client: TestClient) -> None:
    created = new_game(client)
    assert client.get("/api/state").json()["checklist"][0]["key"] == "checklist.king"
    token = created["seats"][0]["token"]
    with client.websocket_connect(f"/ws?seat={token}") as ws:
        while (msg := ws.receive_json())["type"] != "state":
            pass
        assert msg["state"]["checklist"] is None


@pytest.mark.parametrize("lang", ["en", "cs", "pl", "uk"])
def test_every_checklist_key_is_translated(lang: str) -> None:
    table = page_strings(lang)
    keys = ("title", "king", "home", "reserve", "reserve_all", "first", "cards", "done")
    assert all(f"checklist.{key}" in table for key in keys)


@pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
def test_the_table_shows_the_checklist_until_it_is_ticked_off() -> None:
    cs = page_strings("cs")
    with app_server() as base, browser_context() as context:
        post_json(base + "/api/games", {"players": list(PLAYERS), "mode": "dealer", "seed": 3})
        page = context.new_page()
        errors: list[str] = []
        watch_errors(page, errors)
        page.goto(base + "/")
        page.wait_for_selector("#checklist li[data-item='checklist.king']")
        page.select_option("#lang", "cs")
        title = cs["checklist.title"]
        page.wait_for_function(
            f"() => document.querySelector('#checklist h3')?.textContent === {title!r}"
        )
        assert page.locator("#checklist li[data-item='checklist.home']").count() == len(PLAYERS)
        king = page.locator("#checklist li[data-item='checklist.king']").inner_text()
        assert "{" not in king and king != cs["checklist.king"]
        page.click("#checklist-done")
        page.wait_for_selector("#checklist", state="detached")
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("#checklist").count() == 0  # ticked off on this device
        assert errors == []
