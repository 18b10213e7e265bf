"""End to end in a real browser: Debian's headless Chromium (Playwright) against the real table
app with the simulated tower (the real firmware in MicroPython behind a pty).

The main test plays a whole short game by tapping: a new game from the lobby, the seat pages
opened from the links the table shows, power cards and secret discs on the phones, every other
decision on the table, and every throw into the castillo dropped through the dropper panel so the
tower counts it. Screenshots go to tests/app/artifacts/ (gitignored).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.app.ui_browser import (
    ARTIFACTS,
    PHONE,
    TABLET,
    app_server,
    browser_context,
    chromium_missing,
    get_json,
    post_json,
    watch_errors,
)
from tests.app.ui_driver import Driver
from tests.app.ui_strings import GAMES, page_strings, placeholders, shell_strings

LANGS = ("en", "cs", "pl", "uk")
MISSING = chromium_missing()
browser = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")

if MISSING:  # say why on the terminal too, not only in the skip summary
    print(f"\n[test_e2e_browser] SKIPPING the browser tests: {MISSING}")


@pytest.fixture(scope="module")
def app() -> Iterator[str]:
    with app_server() as base:
        yield base


@pytest.fixture(scope="module")
def context() -> Iterator[Any]:
    with browser_context(TABLET) as ctx:
        yield ctx


def _small_controls(page: Any) -> list[str]:
    """Visible buttons, selects and links smaller than 44 × 44 CSS px."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll('button, select, a.seat-link, [role=button]')]
              .filter(el => el.offsetParent !== null && !el.closest('svg'))
              .map(el => [el, el.getBoundingClientRect()])
              .filter(([el, r]) => r.width > 0 && (r.width < 44 || r.height < 44))
              .map(([el, r]) =>
                `${el.tagName} ${el.textContent.trim().slice(0, 30)} ${r.width}x${r.height}`)"""
        )
    )


# ---------------------------------------------------------------------- the translation tables
def test_translation_tables_have_every_key_with_the_same_placeholders() -> None:
    """The shell's strings, and every game's over them, in every language (ui_strings.py)."""
    games = sorted(p.parent.parent.name for p in GAMES.glob("*/static/i18n"))
    assert {"elgrande", "kingdomino", "elcaballero"} <= set(games), games
    pages = [lambda lang, game=game: page_strings(lang, game) for game in games]
    for strings in (shell_strings, *pages):
        tables = {lang: strings(lang) for lang in LANGS}
        for lang in LANGS[1:]:
            assert set(tables[lang]) == set(tables["en"]), lang
            for key, text in tables["en"].items():
                assert placeholders(tables[lang][key]) == placeholders(text), (lang, key)
                assert tables[lang][key].strip(), (lang, key)


def test_server_prompt_keys_are_translated() -> None:
    prompts = json.loads((GAMES / "elgrande" / "data" / "prompts.json").read_text("utf-8"))[
        "prompts"
    ]
    english = page_strings("en")
    missing = [key for key in prompts if f"prompt.{key}" not in english]
    assert not missing


# ---------------------------------------------------------------------- QR codes
@browser
def test_qr_encoder_matches_a_reference_encoder(app: str, context: Any) -> None:
    """The QR codes of the seat links are drawn by static/js/qr.js: module for module the same
    symbol as the `qrcode` package makes for the same text, version, level and mask."""
    import qrcode
    from qrcode.util import MODE_8BIT_BYTE, QRData

    levels = {
        "L": qrcode.constants.ERROR_CORRECT_L,
        "M": qrcode.constants.ERROR_CORRECT_M,
        "Q": qrcode.constants.ERROR_CORRECT_Q,
        "H": qrcode.constants.ERROR_CORRECT_H,
    }
    texts = [
        f"{app}/seat/Zk3_q-9xYpL0aBcDeFgHiJ",
        "http://192.168.1.20:8000/seat/" + "x" * 22,
        "žluťoučký kůň — Україна",
        "a",
        "https://example.org/" + "0123456789" * 30,
    ]
    page = context.new_page()
    page.goto(app + "/")
    cases = [(t, level, mask) for t in texts for level, mask in (("L", 3), ("M", None), ("H", 6))]
    results = page.evaluate(
        """async (cases) => {
            const { qrMatrix } = await import('/static/js/qr.js');
            return cases.map(([text, level, mask]) => {
              const r = qrMatrix(text, { level, mask });
              return { version: r.version, mask: r.mask, rows: r.modules.map(
                row => row.map(b => (b ? '1' : '0')).join('')) };
            });
        }""",
        cases,
    )
    page.close()
    for (text, level, _), result in zip(cases, results, strict=True):
        ref = qrcode.QRCode(
            version=result["version"],
            error_correction=levels[level],
            mask_pattern=result["mask"],
            border=0,
        )
        ref.add_data(QRData(text.encode(), mode=MODE_8BIT_BYTE))
        ref.make(fit=False)
        rows = ["".join("1" if m else "0" for m in row) for row in ref.get_matrix()]
        assert rows == result["rows"], (text, level)


# ---------------------------------------------------------------------- a whole game
@browser
def test_a_short_game_played_through_the_ui(app: str, context: Any) -> None:
    errors: list[str] = []
    ARTIFACTS.mkdir(exist_ok=True)
    table = context.new_page()
    watch_errors(table, errors)
    table.goto(app + "/")
    table.wait_for_selector("body[data-ready='1']")

    # the lobby: a new short game, four players, chance cards turned up at the table
    table.wait_for_selector("#new-game")
    table.locator('#new-game input[name="short_game"]').check()
    table.locator('#new-game input[name="mode"][value="table"]').check()
    table.screenshot(path=str(ARTIFACTS / "lobby-tablet.png"))
    table.locator("#start-game").click()
    table.wait_for_selector("#tab-body .seat-card a[data-seat-link]")
    table.screenshot(path=str(ARTIFACTS / "seats-tablet.png"))
    assert table.locator(".seat-card .qr svg").count() == 4  # QR codes drawn in the page
    links = {
        el.get_attribute("data-seat-link"): el.get_attribute("href")
        for el in table.locator("a[data-seat-link]").all()
    }
    assert set(links) == {"purple", "green", "blue", "orange"}

    seats: dict[str, Any] = {}
    for colour, url in links.items():
        page = context.new_page()
        page.set_viewport_size(PHONE)
        watch_errors(page, errors)
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        seats[colour] = page
    # each phone in its own language
    for colour, lang in zip(("green", "blue", "orange"), ("cs", "pl", "uk"), strict=True):
        seats[colour].select_option("#lang", lang)
    table.wait_for_function(
        "document.querySelectorAll('.seat-card[data-claimed=\"1\"]').length === 4"
    )
    assert table.locator(".seat-card .qr svg").count() == 0  # claimed: links no longer shown

    driver = Driver(app, table, seats)
    driver.play()

    state = get_json(app + "/api/state")
    game = state["game"]
    assert game["phase"] == "over"
    assert len(game["score_history"]) == 6  # the short game's six rounds
    assert [s["kind"] for s in game["scorings"]].count("general") == 3
    assert driver.announced == 3 * 4 and game["castillo"]["total"] == 0
    assert game["throws"] == []  # the public view keeps the current turn's throws only
    assert driver.dropped >= driver.announced  # Revelation's recounts throw some again
    assert driver.taps["seat:disc"] == 3 * 4  # three general scorings, four discs each
    assert driver.taps["seat:power"] == 6 * 4
    assert driver.scorings_seen >= 3  # the breakdown popped up after each general scoring
    assert len(driver.undone) == 1 and driver.taps["undo"] == 1
    print(f"\n[e2e] taps {dict(driver.taps)}; verbs {dict(driver.verbs)}; late cubes {driver.late}")
    # chance cards entered at the table, a turn's steps, and special actions' steps were tapped
    core = {"first", "kingcard", "home", "reveal", "power", "take", "card", "place", "special"}
    assert core <= set(driver.verbs), core - set(driver.verbs)
    assert {"pick", "to"} <= set(driver.verbs)  # a move: pick a caballero, then where it goes
    # every throw was seen by the tower in time: no missing, extra, or miscounted cubes
    assert not {k: n for k, n in driver.issues.items() if k in ("missing", "extra", "count")}

    # the end: final standings on the table, the breakdown and the chart
    final = table.locator("#choices .final")
    assert final.count() == 1
    winner = max(game["scores"].values())
    assert str(winner) in final.inner_text()
    table.screenshot(path=str(ARTIFACTS / "game-over-tablet.png"))
    table.locator('button[data-tab="scoring"]').click()
    breakdowns = table.locator("#tab-body article.scoring")
    assert breakdowns.count() == len(game["scorings"])
    general = table.locator('#tab-body article.scoring[data-kind="general"]').first
    assert general.locator("tr.area-row").count() == 10  # the castillo and nine regions
    table.screenshot(path=str(ARTIFACTS / "scoring-tablet.png"), full_page=True)
    table.locator('button[data-tab="chart"]').click()
    chart = table.locator("#tab-body svg.chart")
    assert chart.locator("polyline.series").count() == 4
    table.screenshot(path=str(ARTIFACTS / "chart-tablet.png"))
    seats["green"].screenshot(path=str(ARTIFACTS / "seat-phone-cs.png"), full_page=True)
    assert "Konec hry" in seats["green"].locator("#prompt").inner_text()  # the Czech phone
    assert not errors, errors
    for page in seats.values():
        page.close()
    table.close()


def _start_game(app: str, table: Any) -> None:
    """Start from the lobby; a game still in play is replaced only once the table says yes."""
    game = get_json(app + "/api/state")["game"]
    table.locator("#start-game").click()
    if game is not None and game["phase"] != "over":
        table.locator("#confirm-yes").click()


@browser
def test_lobby_options_and_a_first_round_of_two_players_with_new_regency(
    app: str, context: Any
) -> None:
    """The lobby offers every option: a 2-player game (the dummy's colour chosen) with New
    Regency is created from it and its first round is played by tapping, the dummy's cards and
    the New Regency deck turned up at the table. A refused request is explained in the lobby."""
    errors: list[str] = []
    table = context.new_page()
    watch_errors(table, errors)
    table.goto(app + "/")
    table.wait_for_selector("body[data-ready='1']")
    if not table.locator("#new-game").count():  # a game is active: open the lobby
        table.locator("#games-btn").click()
    table.wait_for_selector("#new-game #players-field")
    form = table.locator("#new-game")
    # the edition decides the colours and what is offered
    form.locator('input[name="edition"][value="1995"]').check()
    table.wait_for_selector('#new-game input[name="players"][value="yellow"]')
    assert form.locator('input[name="new_regency"], input[name="alternatives"]').count() == 0
    form.locator('input[name="edition"][value="2023"]').check()
    table.wait_for_selector('#new-game input[name="players"][value="purple"]')
    # Delegation, Vetoes (the two of deck 2 are one choice, "Veto (deck 2) ×2"), Rivalry
    assert form.locator('input[name="alternatives"]').count() == 3
    assert form.locator('input[name="alternatives"][value="veto,veto-2"]').count() == 1
    assert form.locator('input[name="merge_decks_2_3"]').count() == 0  # only with 3 players
    form.locator('input[name="players"][value="orange"]').uncheck()
    table.wait_for_selector('#new-game input[name="merge_decks_2_3"]')
    for colour in ("blue", "green"):
        form.locator(f'input[name="players"][value="{colour}"]').uncheck()
    assert form.locator("#start-game").is_disabled()  # one player
    form.locator('input[name="players"][value="green"]').check()
    table.wait_for_selector("#new-game #dummy-field select")
    assert form.locator("#merge-auto").count() == 1  # merged anyway with 2 players
    form.locator('select[name="dummy"]').select_option("red")
    form.locator('input[name="new_regency"]').check()
    assert not _small_controls(table), _small_controls(table)
    # a card the server does not know: its reason is shown in the form, nothing starts
    table.evaluate(
        """() => document.querySelector('#alternatives-field').append(Object.assign(
            document.createElement('input'),
            {type: 'checkbox', name: 'alternatives', value: 'jester', checked: true}))"""
    )
    _start_game(app, table)
    table.wait_for_selector("#lobby-error:not([hidden])")
    assert "jester" in table.locator("#lobby-error").inner_text()
    assert all("status of 400" in e for e in errors), errors  # the browser logs the refusal
    errors.clear()
    table.evaluate("() => document.querySelector('input[value=\"jester\"]').remove()")
    table.screenshot(path=str(ARTIFACTS / "lobby-variants-tablet.png"))
    _start_game(app, table)
    table.wait_for_selector("#tab-body .seat-card a[data-seat-link]")

    state = get_json(app + "/api/state")
    options = state["options"]
    assert options["players"] == ["purple", "green"] and options["dummy"] == "red"
    assert options["new_regency"] and options["merge_decks_2_3"] and options["mode"] == "table"
    links = {
        el.get_attribute("data-seat-link"): el.get_attribute("href")
        for el in table.locator("a[data-seat-link]").all()
    }
    assert set(links) == {"purple", "green"}
    seats: dict[str, Any] = {}
    for colour, url in links.items():
        page = context.new_page()
        page.set_viewport_size(PHONE)
        watch_errors(page, errors)
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        seats[colour] = page

    def second_round(state: dict[str, Any]) -> bool:
        return bool(state["game"]["round"] >= 2 and state["game"]["phase"] == "power")

    driver = Driver(app, table, seats, until=second_round)
    driver.play(max_steps=400)
    game = get_json(app + "/api/state")["game"]
    print(f"\n[e2e 2p] taps {dict(driver.taps)}; verbs {dict(driver.verbs)}")
    assert {"first", "kingcard", "home", "dummycard", "dummypower", "reveal"} <= set(driver.verbs)
    assert driver.taps["seat:power"] >= 2 and {"take", "card"} <= set(driver.verbs)
    assert any(line[1].startswith("reveal 5 ") for line in game["log"])  # New Regency deck
    assert "your-majesty" not in game["face_up"]
    assert sum(where.get("red", 0) for where in game["board"].values()) >= 4  # the dummy's
    assert table.locator('#players tr.dummy[data-colour="red"]').count() == 1
    table.screenshot(path=str(ARTIFACTS / "two-players-round-2-tablet.png"))
    assert not errors, errors
    for page in seats.values():
        page.close()
    table.close()


@browser
def test_touch_targets_on_tablet_and_phone(app: str, context: Any) -> None:
    """Every control is at least 44 × 44 px on a tablet and on a phone, and the table view
    has no horizontal scrolling on a phone."""
    post_json(app + "/api/games", {"players": ["purple", "green", "blue", "orange", "red"]})
    state = get_json(app + "/api/state")
    seat = state["seats"][0]["url"]
    for name, viewport in (("tablet", TABLET), ("phone", PHONE)):
        page = context.new_page()
        page.set_viewport_size(viewport)
        page.goto(app + "/")
        page.wait_for_selector("body[data-ready='1'] #choices button[data-action]")
        assert not _small_controls(page), (name, _small_controls(page))
        for lang in LANGS:  # long Czech and Ukrainian words must not widen the page either
            page.select_option("#lang", lang)
            page.wait_for_function(f"document.documentElement.lang === {lang!r}")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], (name, lang, width)
        page.screenshot(path=str(ARTIFACTS / f"table-{name}.png"), full_page=name == "phone")
        page.locator('button[data-tab="dropper"]').click()
        assert not _small_controls(page), (name, _small_controls(page))
        page.close()
        page = context.new_page()
        page.set_viewport_size(viewport)
        page.goto(seat if seat.startswith("http") else app + seat)
        page.wait_for_selector("body[data-ready='1'] #hand")
        assert not _small_controls(page), (name, _small_controls(page))
        page.screenshot(path=str(ARTIFACTS / f"seat-{name}.png"), full_page=True)
        page.close()
