"""In the browser (issue 23, the open table problems): the lobby's saved-games list shows each
game's date in the page's language, a finished game's winner and scores with its record to export
instead of Continue, and which game is on the table now; and the tower pill stops claiming
"connected" once the page's socket to the server is closed."""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.app.ui_browser import (
    REPO,
    TABLET,
    app_server,
    browser_context,
    chromium_missing,
    get_json,
    post_json,
    stop_process,
    watch_errors,
)
from tests.app.ui_strings import shell_strings

MISSING = chromium_missing()
browser = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
PLAYERS = ["purple", "green", "blue"]


def _finished_record() -> dict[str, Any]:
    from engine.elgrande.bots import random_game
    from engine.elgrande.game import Options
    from engine.elgrande.record import to_record

    game = random_game(Options(players=tuple(PLAYERS), mode="dealer", seed=11, short_game=True))
    assert game.is_terminal()
    record: dict[str, Any] = to_record(game)
    return record


def _open_in(page: Any, base: str, lang: str) -> None:
    """The table page in `lang` (the table's language is the server's: picked, not stored)."""
    page.goto(base + "/")
    page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=20_000)
    page.select_option("#lang", lang)
    page.wait_for_function(f"() => document.documentElement.lang === {lang!r}", timeout=20_000)


@browser
@pytest.mark.parametrize("lang", ["en", "cs"])
def test_saved_games_show_date_result_and_the_game_on_the_table(lang: str) -> None:
    strings = shell_strings(lang)
    with app_server() as base, browser_context(TABLET) as context:
        earlier = post_json(base + "/api/games", {"players": PLAYERS, "mode": "dealer"})["id"]
        finished = post_json(base + "/api/games/import", _finished_record())["id"]
        running = post_json(base + "/api/games", {"game": "kingdomino"})["id"]
        listed = get_json(base + "/api/games")
        assert listed["active"] == running
        saved = {g["id"]: g for g in listed["games"]}
        assert saved[finished]["finished"] and not saved[earlier]["finished"]
        scores: dict[str, int] = saved[finished]["scores"]

        page = context.new_page()
        errors: list[str] = []
        watch_errors(page, errors)
        _open_in(page, base, lang)
        page.click("#games-btn")
        page.wait_for_selector(f".games li[data-id='{finished}']", timeout=20_000)

        def item(game_id: int) -> Any:
            return page.locator(f".games li[data-id='{game_id}']")

        # the finished game: its date in the page's language, the winner, every score, and its
        # record to export instead of Continue
        done = item(finished)
        text = done.inner_text()
        updated = saved[finished]["updated"]
        date = page.evaluate(
            "([lang, s]) => new Intl.DateTimeFormat(lang, {dateStyle: 'medium', "
            "timeStyle: 'short'}).format(new Date(s * 1000))",
            [lang, updated],
        )
        assert strings["ui.last_played"].format(date=date) in text
        assert str(time.gmtime(updated).tm_year) in text
        best = max(scores.values())
        leaders = [c for c, s in scores.items() if s == best]
        names = {c: strings[f"colour.{c}"].capitalize() for c in scores}
        if len(leaders) == 1:
            assert strings["ui.won"].format(names=names[leaders[0]]) in text
        else:
            assert strings["ui.tied"].split(":")[0] in text
        for colour, score in scores.items():
            assert f"{names[colour]} {score}" in text
        assert done.locator("[data-continue]").count() == 0
        assert strings["ui.continue"] not in text
        assert done.locator("[data-export]").inner_text() == strings["ui.export_record"]
        assert done.get_attribute("data-on-table") == "0"
        with page.expect_download() as download:
            done.locator("[data-export]").click()
        exported = json.loads(Path(download.value.path()).read_text("utf-8"))
        assert exported["actions"] == _finished_record()["actions"]

        # the game on the table is marked; it and the earlier unfinished game offer Continue
        now = item(running)
        assert now.get_attribute("data-on-table") == "1"
        assert strings["ui.on_table"] in now.inner_text()
        assert now.locator("[data-continue]").inner_text() == strings["ui.continue"]
        before = item(earlier)
        assert before.get_attribute("data-on-table") == "0"
        assert strings["ui.on_table"] not in before.inner_text()
        assert before.locator("[data-continue]").inner_text() == strings["ui.continue"]
        assert before.locator("[data-export]").count() == 0
        assert errors == []


@pytest.fixture
def server() -> Iterator[tuple[subprocess.Popen[str], str]]:
    """`castillo run --sim --local` that the test may stop: (its process, its base URL)."""
    data_dir = tempfile.mkdtemp(prefix="castillo-down-")
    cmd = [sys.executable, "-m", "host.cli", "run", "--sim", "--local", "--port", "0"]
    proc = subprocess.Popen(
        [*cmd, "--data-dir", data_dir],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    stdout = proc.stdout
    threading.Thread(target=lambda: [lines.put(line) for line in stdout], daemon=True).start()
    deadline = time.monotonic() + 90
    base = ""
    try:
        while not base and time.monotonic() < deadline and proc.poll() is None:
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                continue
            if line.startswith("listening on "):
                base = line.split()[-1].rstrip("/")
        assert base, "the table app did not start"
        yield proc, base
    finally:
        if proc.poll() is None:
            stop_process(proc)
        shutil.rmtree(data_dir, ignore_errors=True)


@browser
@pytest.mark.parametrize("lang", ["en", "uk"])
def test_the_tower_pill_says_the_server_is_out_of_reach(
    server: tuple[subprocess.Popen[str], str], lang: str
) -> None:
    proc, base = server
    strings = shell_strings(lang)
    # a game that uses the tower on the table (no lobby over the tabs)
    post_json(base + "/api/games", {"players": PLAYERS, "mode": "dealer"})
    with browser_context(TABLET) as context:
        page = context.new_page()
        _open_in(page, base, lang)
        page.wait_for_function(
            "word => { const p = document.querySelector('#tower-pill');"
            " return !p.hidden && p.dataset.state === 'connected'"
            " && p.textContent.includes(word); }",
            arg=strings["tower.state.connected"],
            timeout=60_000,
        )
        page.click("#tabs [data-tab='dropper']")
        stop_process(proc)
        page.wait_for_function(
            "() => document.querySelector('#tower-pill').dataset.state === 'unreachable'",
            timeout=20_000,
        )
        pill = page.locator("#tower-pill")
        text = pill.inner_text()
        assert strings["tower.state.unreachable"] in text
        assert strings["tower.mode.sim"] in text.lower()
        for shown in (text, pill.get_attribute("title") or ""):
            rest = shown.replace(strings["tower.state.unreachable"], "")
            assert strings["tower.state.connected"] not in rest, shown
        assert page.locator("#conn").is_visible()
        # the simulated tower's tab says so too
        heading = page.locator(".tower-info h3").inner_text()
        assert strings["tower.state.unreachable"] in heading
        rest = heading.replace(strings["tower.state.unreachable"], "")
        assert strings["tower.state.connected"] not in rest, heading
