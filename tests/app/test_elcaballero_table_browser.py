"""El Caballero at a real table (issue 23), in Debian's headless Chromium against the real app.

A 4-player game is played through the API to the first scoring (round 5's power cards: the map
is the scoring's map, 16+ area cards and the caballero cards beside them). There:

- readable: every number on the map (caballero cards, region sizes, gold, fish) is at least
  14 px on the screen at 1280 x 800, 1024 x 768 and 768 x 1024, and the page does not scroll;
  on a phone (390 x 844) at least 11 px, the page no wider than the screen, the map zoomed
  with its buttons and with two fingers, and dragged with one inside its box. A size on the
  screen is the SVG text's font size times the SVG's screen scale (its rendered box is
  measured too);
- every island and sea carries its label on the map, the label the scoring breakdown gives it
  (the breakdown a dialog over the page, which does not scroll);
- the log reads as sentences in en, cs, pl and uk: no catalogue id, no coordinate, no verb of
  the notation.

Then a 2-player table-mode game with a catalogue file is played to its end. It is started from
the lobby's form: the data folder's catalogue files are offered, table mode with the SYNTHETIC
set is warned about beside Start, a broken file is refused on its field naming its line, then
our box's file starts the game. Each card turned up is one tap on the table's entry, which
offers the catalogue's cards with a copy face down, each with its count; the players' steps go
through their seat routes, every scoring's
dialog pops up on the table and is closed by its button; the final scoring shows; after a
restart of the server the finished game is listed in the lobby with its winner and scores.
Measurements: tests/app/artifacts/elcaballero-map-measurements.json.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.elcaballero.catalogue import SYNTHETIC_FILE, load_synthetic
from tests.app.ui_browser import (
    ARTIFACTS,
    LANGS,
    PHONE,
    TABLETS,
    app_server,
    browser_context,
    chromium_missing,
    get_json,
    shown,
    watch_errors,
)
from tests.app.ui_driver import ec_dealer_game, ec_play_until, ec_step

MISSING = chromium_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")

TABLET_MIN_PX = 14.0
PHONE_MIN_PX = 11.0
ISLAND = {"en": "Island", "cs": "Ostrov", "pl": "Wyspa", "uk": "Острів"}
WAIT = 30_000

# Every text of the map: its size on the screen (font size x the SVG's screen scale), its
# rendered box, its class (ec-number: a caballero card; ec-size: a region's badge; ec-gold,
# ec-fish: treasure); the page's and the map box's extents.
MEASURE = """() => {
  const texts = [...document.querySelectorAll('#ec-map svg text')].map((el) => {
    const ctm = el.getScreenCTM();
    const scale = ctm ? Math.hypot(ctm.a, ctm.b) : 0;
    const cls = el.getAttribute('class') || el.parentElement.getAttribute('class') || '';
    return { px: parseFloat(getComputedStyle(el).fontSize) * scale,
             box: el.getBoundingClientRect().height, kind: cls.split(' ')[0] };
  });
  const least = {};
  for (const t of texts) least[t.kind] = Math.min(least[t.kind] ?? 1e9, t.px);
  const box = document.querySelector('#ec-map');
  const root = document.documentElement;
  return { least, min_px: Math.min(...texts.map((t) => t.px)),
           min_box: Math.min(...texts.map((t) => t.box)), texts: texts.length,
           page: [root.scrollWidth, root.scrollHeight], inner: [innerWidth, innerHeight],
           map_box: [box.clientWidth, box.clientHeight],
           map_scroll: [box.scrollWidth, box.scrollHeight],
           scale: Number(box.dataset.scale) };
}"""
RESULTS: dict[str, Any] = {}
# the table's entry: each button's chance step, and its copies left
ACTIONS = "els => els.map((e) => e.dataset.action)"
LEFT = "els => els.map((e) => [e.dataset.action, e.querySelector('[data-left]')?.dataset.left])"


def _settle(page: Any, size: str) -> None:
    """Wait until the map was laid out for the page's size (a map without a layout of its own
    is measured as drawn)."""
    page.wait_for_function(
        """size => { const box = document.querySelector('#ec-map');
                     const drawn = box?.dataset.drawnFor;
                     return box && box.querySelector('svg') && (!drawn || drawn === size); }""",
        arg=size,
        timeout=WAIT,
    )


def _points(points: list[tuple[float, float]]) -> list[dict[str, float]]:
    return [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]


def _touch(page: Any, frames: list[list[tuple[float, float]]]) -> None:
    """Fingers put down at the first frame's points, moved through the others in small steps,
    lifted (Chromium's touch input through the DevTools protocol)."""
    cdp = page.context.new_cdp_session(page)
    touch = "Input.dispatchTouchEvent"
    cdp.send(touch, {"type": "touchStart", "touchPoints": _points(frames[0])})
    for start, end in itertools.pairwise(frames):
        for step in range(1, 11):
            t = step / 10
            moved = [
                (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
                for a, b in zip(start, end, strict=True)
            ]
            cdp.send(touch, {"type": "touchMove", "touchPoints": _points(moved)})
    cdp.send(touch, {"type": "touchEnd", "touchPoints": []})
    cdp.detach()
    page.wait_for_timeout(300)


def _labels(regions: list[dict[str, Any]]) -> dict[int, str]:
    """The label rule (static/labels.js), computed here from a scoring's regions alone:
    islands A, B, ... and seas 1, 2, ..., each kind by its top-left card, reading order."""
    out: dict[int, str] = {}
    for land in (True, False):
        rows = []
        for r in regions:
            if (r["type"] == "land") != land:
                continue
            cells = [tuple(int(v) for v in c.split(",")) for c in r["cards"]]
            first = min((y, x) for x, y in cells)
            treasure = r.get("gold" if land else "fish", 0)
            rows.append((first, treasure, len(r["cards"]), r["region"]))
        for n, row in enumerate(sorted(rows)):
            out[row[3]] = chr(65 + n) if land else str(n + 1)
    return out


@pytest.fixture(scope="module")
def scored() -> Iterator[tuple[str, dict[str, str], dict[str, Any]]]:
    """A 4-player dealer game just after its first scoring: (base URL, seat tokens, state)."""
    with app_server() as base:
        tokens = ec_dealer_game(base)
        state = ec_play_until(base, tokens, random.Random(5), lambda s: bool(s["game"]["scorings"]))
        game = state["game"]
        assert game["phase"] == "power" and len(game["areas"]) >= 16, len(game["areas"])
        assert len(game["caballeros"]) >= 8
        yield base, tokens, state


def test_the_map_numbers_are_readable_on_every_tablet_and_on_a_phone(
    scored: tuple[str, dict[str, str], dict[str, Any]],
) -> None:
    base, tokens, _state = scored
    failures: list[str] = []
    with browser_context(TABLETS["1280x800"]) as context:
        page = context.new_page()
        errors: list[str] = []
        watch_errors(page, errors)
        page.goto(base + "/")
        for name, size in TABLETS.items():
            page.set_viewport_size(size)
            _settle(page, name)
            shown(page, base, WAIT)
            got = page.evaluate(MEASURE)
            RESULTS[f"table {name}"] = got
            if got["min_px"] < TABLET_MIN_PX:
                failures.append(f"{name}: map text {got['least']} px (under {TABLET_MIN_PX})")
            if got["min_box"] < TABLET_MIN_PX * 0.7:
                failures.append(f"{name}: a rendered text box {got['min_box']:.1f} px tall")
            if got["page"][0] > size["width"] + 1 or got["page"][1] > size["height"] + 1:
                failures.append(f"{name}: the page scrolls ({got['page']})")
            assert got["texts"] > 40, got  # the map's numbers are there to measure
        assert errors == []
    with browser_context(PHONE) as context:
        page = context.new_page()
        errors = []
        watch_errors(page, errors)
        page.goto(f"{base}/seat/{tokens['red']}")
        _settle(page, "390x844")
        shown(page, base, WAIT)
        got = page.evaluate(MEASURE)
        RESULTS["phone 390x844"] = got
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "elcaballero-map-measurements.json").write_text(
            json.dumps(RESULTS, indent=1), "utf-8"
        )
        if got["min_px"] < PHONE_MIN_PX:
            failures.append(f"phone: map text {got['least']} px (under {PHONE_MIN_PX})")
        if got["page"][0] > PHONE["width"] + 1:
            failures.append(f"phone: the page scrolls sideways ({got['page']})")
        assert failures == []
        # the map outgrows the phone: it pans inside its box, and the buttons zoom it
        assert got["map_scroll"][0] > got["map_box"][0], got
        page.locator("#ec-map").scroll_into_view_if_needed()
        page.locator("[data-zoom='in']").tap()
        zoomed = page.evaluate(MEASURE)
        assert zoomed["scale"] > got["scale"] and zoomed["min_px"] > got["min_px"], zoomed
        page.locator("[data-zoom='fit']").tap()
        whole = page.evaluate(MEASURE)
        assert whole["map_scroll"][0] <= whole["map_box"][0] + 1, whole  # the whole map
        RESULTS["phone 390x844 whole map"] = whole
        # two fingers spread on the map zoom it in; one finger drags the zoomed map
        box = page.locator("#ec-map").bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        _touch(page, [[(x - 20, y), (x + 20, y)], [(x - 60, y), (x + 60, y)]])
        pinched = page.evaluate(MEASURE)
        assert pinched["scale"] > whole["scale"] * 2, (whole["scale"], pinched["scale"])
        before = page.evaluate("() => document.querySelector('#ec-map').scrollLeft")
        _touch(page, [[(x + 60, y)], [(x - 60, y)]])
        after = page.evaluate("() => document.querySelector('#ec-map').scrollLeft")
        assert after > before + 40, (before, after)
        assert errors == []
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "elcaballero-map-measurements.json").write_text(
        json.dumps(RESULTS, indent=1), "utf-8"
    )
    assert failures == []


def test_every_region_carries_the_label_of_the_scoring_breakdown(
    scored: tuple[str, dict[str, str], dict[str, Any]],
) -> None:
    base, _tokens, state = scored
    scoring = state["game"]["scorings"][0]
    expected = _labels(scoring["regions"])
    # the log names the last area card's islands by the same labels (the adapter's own rule;
    # the caballero cards placed after it did not change the map)
    last = [line for line in state["log"] if line["text"].startswith("area ")][-1]
    cell = last["text"].split()[2][:-1]
    islands = {expected[r["region"]] for r in scoring["regions"] if r["type"] == "land"}
    touched = {
        expected[r["region"]]
        for r in scoring["regions"]
        if r["type"] == "land" and cell in r["cards"]
    }
    assert last["facts"]["about"] == last["text"] and set(last["facts"]["islands"]) == touched
    assert touched <= islands
    with browser_context(TABLETS["1280x800"]) as context:
        page = context.new_page()
        errors: list[str] = []
        watch_errors(page, errors)
        page.goto(base + "/")
        page.wait_for_selector("#ec-map svg", timeout=WAIT)
        shown(page, base, WAIT)
        badges = page.evaluate(
            """() => [...document.querySelectorAll('#ec-map .ec-badge')].map((b) =>
                 [b.dataset.kind, b.dataset.label, b.closest('[data-area]').dataset.area])"""
        )
        on_map = {(kind, label): cell for kind, label, cell in badges}
        assert len(badges) == len(on_map) == len(scoring["regions"]), badges
        for region in scoring["regions"]:
            label = expected[region["region"]]
            # the badge lies on one of the region's own cards
            assert on_map.get((region["type"], label)) in region["cards"], (region, badges)
        # the breakdown: a dialog over the page, each region named as on the map
        page.locator("[data-open-scoring='4']").click()
        dialog = page.locator("#overlay:not([hidden]) #ec-scoring-dialog")
        dialog.wait_for(timeout=WAIT)
        rows = dialog.locator("tr[data-region]")
        assert rows.count() >= sum(1 for r in scoring["regions"] if r["type"] == "land")
        for i in range(rows.count()):
            row = rows.nth(i)
            number = int(row.get_attribute("data-region") or 0)
            assert row.get_attribute("data-label") == expected[number]
            kind = next(r["type"] for r in scoring["regions"] if r["region"] == number)
            word = "Island" if kind == "land" else "Sea"
            assert row.inner_text().startswith(f"{word} {expected[number]} ·"), row.inner_text()
        for ship in dialog.locator("tr[data-ship]").all():
            assert re.search(r"Sea \d+", ship.inner_text()), ship.inner_text()
            assert not re.search(r"-?\d+,-?\d+", ship.inner_text())  # no coordinates
        root = page.evaluate("[document.documentElement.scrollHeight, innerHeight]")
        assert root[0] <= root[1] + 1, root  # the page itself does not scroll
        box = dialog.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 801, box
        dialog.locator("[data-close]").click()
        page.wait_for_selector("#overlay[hidden]", state="attached", timeout=WAIT)
        assert errors == []


def test_the_log_reads_as_sentences_in_every_language(
    scored: tuple[str, dict[str, str], dict[str, Any]],
) -> None:
    base, _tokens, _state = scored
    ids = [card["id"] for card in get_json(base + "/api/elcaballero/catalogue")["cards"]]
    verbs = re.compile(
        r"\b(area|knight|raise|ship|reship|shipback|moveship|castillo|withdraw) -?\d"
    )
    with browser_context(TABLETS["1280x800"]) as context:
        page = context.new_page()
        errors: list[str] = []
        watch_errors(page, errors)
        page.goto(base + "/")
        page.wait_for_selector("#tab-body li", timeout=WAIT)
        for lang in LANGS:
            page.select_option("#lang", lang)
            page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
            shown(page, base, WAIT)
            lines = page.locator("#tab-body li").all_inner_texts()
            assert len(lines) > 30, lines
            text = "\n".join(lines)
            assert not [i for i in ids if i in text], (lang, text[:400])
            assert not re.search(r"-?\d+,-?\d+", text), (lang, text[:400])
            assert not verbs.search(text), (lang, text[:400])
            # the caballero cards and area cards are placed next to named islands
            assert re.search(ISLAND[lang] + r" [A-Z]", text), (lang, text[:400])
        assert errors == []


def _close_scoring(page: Any, rounds: set[int]) -> None:
    """The scoring dialog popped up on the table: note its round and close it."""
    dialog = page.locator("#overlay:not([hidden]) [data-scoring]")
    dialog.wait_for(timeout=WAIT)
    rounds.add(int(dialog.get_attribute("data-scoring") or 0))
    page.locator("#overlay [data-close]").click()
    page.wait_for_selector("#overlay[hidden]", state="attached", timeout=WAIT)


def _catalogue_files(data: str) -> dict[str, int]:
    """The data folder's catalogues: our-box.toml (a box's 48 cards typed in: here the shipped
    set's, relabelled) and broken.toml (a count of none); the cards' copies by id."""
    folder = Path(data) / "catalogues"
    folder.mkdir()
    ours = SYNTHETIC_FILE.read_text(encoding="utf-8")
    ours = ours.replace('label = "SYNTHETIC: not the real cards"', 'label = "Our box"')
    ours = ours.replace("synthetic = true", "synthetic = false")
    (folder / "our-box.toml").write_text(ours, encoding="utf-8")
    (folder / "broken.toml").write_text(ours.replace("count = 3", "count = 0", 1), "utf-8")
    return {card.id: card.count for card in load_synthetic().cards.values()}


def _start_from_the_lobby(page: Any) -> None:
    """The lobby's El Caballero form: two players, table mode; the SYNTHETIC set warned about
    beside Start, a broken file refused on its field with its line, then our box started."""
    page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=WAIT)
    if not page.locator("#new-game").count():
        page.locator("#games-btn").click()
    page.select_option("#game-field select", "elcaballero")
    form = page.locator("#new-game[data-game='elcaballero']")
    form.locator("select[name='catalogue']").wait_for(timeout=WAIT)
    for colour in ("green", "yellow"):
        form.locator(f"input[name='players'][value='{colour}']").uncheck()
    assert form.locator("select[name='mode']").input_value() == "table"
    choices = form.locator("select[name='catalogue'] option").evaluate_all(
        "els => els.map((e) => e.value)"
    )
    assert choices == ["", "synthetic", "broken.toml", "our-box.toml"], choices
    warning = form.locator("#lobby-warning")
    assert warning.is_hidden()
    form.locator("select[name='catalogue']").select_option("synthetic")
    warning.wait_for(state="visible", timeout=WAIT)
    assert "SYNTHETIC" in warning.inner_text()
    # beside Start: right above it, both in sight
    above = warning.bounding_box()
    start = form.locator("#start-game").bounding_box()
    assert above and start and 0 <= start["y"] - (above["y"] + above["height"]) < 40
    form.locator("select[name='mode']").select_option("dealer")
    warning.wait_for(state="hidden", timeout=WAIT)  # the app deals: nothing to warn about
    form.locator("select[name='mode']").select_option("table")
    form.locator("select[name='catalogue']").select_option("broken.toml")
    assert warning.is_hidden()
    form.locator("#start-game").click()
    refused = form.locator("#error-catalogue")
    refused.wait_for(state="visible", timeout=WAIT)
    text = refused.inner_text()
    assert "broken.toml" in text and re.search(r"line \d+", text), text
    assert "count must be" in text, text
    form.locator("select[name='catalogue']").select_option("our-box.toml")
    form.locator("#start-game").click()
    page.wait_for_selector("#ec-entry", timeout=WAIT)


def test_a_table_mode_game_with_a_catalogue_plays_to_its_end_and_is_listed_after_a_restart() -> (
    None
):
    data = tempfile.mkdtemp(prefix="castillo-ec-")
    rng = random.Random(7)
    copies = _catalogue_files(data)
    try:
        with (
            app_server(extra=("--data-dir", data)) as base,
            browser_context(TABLETS["1280x800"]) as context,
        ):
            page = context.new_page()
            errors: list[str] = []
            watch_errors(page, errors)
            page.goto(base + "/")
            _start_from_the_lobby(page)
            # the broken file's refusal, the one answer of 400 expected
            assert len(errors) == 1 and "400" in errors[0], errors
            errors.clear()
            options = get_json(base + "/api/state")["options"]
            assert options["mode"] == "table" and options["catalogue"] == "our-box.toml"
            seats = get_json(base + "/api/seats")
            tokens = {seat["colour"]: seat["token"] for seat in seats["seats"]}
            assert sorted(tokens) == ["blue", "red"], tokens
            taps = 0
            placed_by_tap = False
            seen_scorings = 0
            shown_rounds: set[int] = set()
            for _ in range(3000):
                state = get_json(base + "/api/state")
                game = state["game"]
                if len(game["scorings"]) > seen_scorings:
                    shown(page, base, WAIT)
                    _close_scoring(page, shown_rounds)
                    seen_scorings = len(game["scorings"])
                if state["prompt"]["key"] == "over":
                    break
                if game["acting"] == ["chance"]:  # a card turned up: a tap on its picture
                    text = rng.choice(state["legal"])
                    assert text.split()[0] in ("start", "reveal"), text
                    shown(page, base, WAIT)
                    # the catalogue's cards with a copy face down, each with its count
                    used = Counter(c["id"] for c in [*game["areas"], *game["market"]])
                    offered = page.locator("#ec-entry [data-action]")
                    assert sorted(offered.evaluate_all(ACTIONS)) == sorted(state["legal"])
                    for action, left in offered.evaluate_all(LEFT):
                        card = action.split()[1]
                        assert int(left) == copies[card] - used[card] > 0, (action, left)
                    page.locator(f"#ec-entry [data-action='{text}']").click()
                    page.wait_for_function(
                        "rev => Number(document.body.dataset.rev ?? -1) > rev",
                        arg=state["rev"],
                        timeout=WAIT,
                        polling=100,
                    )
                    taps += 1
                elif not placed_by_tap and game["phase"] == "turn" and state["legal"]:
                    # the table plays a turn's area card for its player: the market card,
                    # a lit cell, the panel naming the place in words, Place
                    shown(page, base, WAIT)
                    # every action of the turn in words too, the fold's fallback buttons
                    words = page.locator("#ec-controls .ec-any").all_text_contents()
                    assert len(words) == len(state["legal"]), words
                    assert not [w for w in words if re.search(r"-?\d+,-?\d+", w)], words
                    page.locator("#ec-market button.can").first.click()
                    page.locator("#ec-map [data-cell]").first.click()
                    heading = page.locator("#ec-place-panel h4").inner_text()
                    assert not re.search(r"-?\d+,-?\d+", heading), heading
                    page.locator("#ec-place-panel [data-place]").click()
                    page.wait_for_function(
                        "rev => Number(document.body.dataset.rev ?? -1) > rev",
                        arg=state["rev"],
                        timeout=WAIT,
                        polling=100,
                    )
                    placed_by_tap = True
                else:
                    assert ec_step(base, tokens, rng), state["prompt"]
            else:
                raise AssertionError("the game does not end")
            game = state["game"]
            scores = {p["colour"]: p["score"] for p in game["players"]}
            # the start card and every card turned up: each one tap at the table
            entered = [text for actor, text in game["log"] if actor == "chance"]
            assert taps == len(entered) >= 15, (taps, entered)
            assert shown_rounds == {s["round"] for s in game["scorings"]}, shown_rounds
            # the final scoring shows: reopened from its button, its totals the scores' last
            shown(page, base, WAIT)
            last = game["scorings"][-1]
            page.locator(f"[data-open-scoring='{last['round']}']").click()
            dialog = page.locator(f"#overlay:not([hidden]) [data-scoring='{last['round']}']")
            dialog.wait_for(timeout=WAIT)
            for colour, total in last["totals"].items():
                chip = dialog.locator(f"[data-total='{colour}']").inner_text()
                assert chip.endswith(f"+{total}"), chip
            assert "over" in page.locator("#prompt").inner_text()
            page.locator("#overlay [data-close]").click()
            # the final map, the game's largest, is as readable as the first scoring's
            for name in ("1024x768", "768x1024"):
                page.set_viewport_size(TABLETS[name])
                _settle(page, name)
                got = page.evaluate(MEASURE)
                assert got["min_px"] >= TABLET_MIN_PX, (name, got["least"])
                assert got["page"][1] <= TABLETS[name]["height"] + 1, (name, got["page"])
            assert placed_by_tap
            assert errors == []
        # a restart: the finished game is listed with its result
        with app_server(extra=("--data-dir", data)) as base:
            games = get_json(base + "/api/games")["games"]
            mine = [g for g in games if g["game"] == "elcaballero"]
            assert len(mine) == 1 and mine[0]["finished"] and mine[0]["scores"] == scores, mine
            with browser_context(TABLETS["1280x800"]) as context:
                page = context.new_page()
                page.goto(base + "/")
                page.wait_for_selector("#games-btn", timeout=WAIT)
                page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=WAIT)
                if not page.locator(".saved li").count():
                    page.locator("#games-btn").click()
                row = page.locator(".saved li[data-game='elcaballero'][data-finished='1']")
                row.wait_for(timeout=WAIT)
                result = row.locator(".saved-result").inner_text()
                best = max(scores.values())
                winners = [c.capitalize() for c, s in scores.items() if s == best]
                assert all(w in result for w in winners), result
                for colour, score in scores.items():
                    assert f"{colour.capitalize()} {score}" in result, result
                assert row.locator("[data-continue]").count() == 0  # no Continue when finished
    finally:
        shutil.rmtree(data, ignore_errors=True)
