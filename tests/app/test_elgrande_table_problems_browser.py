"""El Grande's open table problems (issue 23, "Every game"), in a real browser (Debian's
headless Chromium, the real app with the simulated tower): a tap on the map that does nothing
says why; the phase badge follows the step; the set-up headings match their questions; colour
names are capitalised with swatches; the scoring dialog has a legend of its tokens; pieces never
cover a name; players' names are not cut at 1024 px; a stuck chute is shown as such; the throw
check's colour buttons are named; a phone says a check is being settled at the table.

The game is played through the app's HTTP commands (the table's and each seat's, as the pages
send them): these tests look at what the pages show at chosen moments, not at how it was played.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.app.ui_browser import (
    PHONE,
    TABLET,
    app_server,
    browser_context,
    chromium_missing,
    get_json,
    post_json,
    watch_errors,
)

MISSING = chromium_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
REPO = Path(__file__).resolve().parents[2]
LANGS = ("en", "cs", "pl", "uk")
PLAYERS = ["purple", "green", "blue", "orange", "red"]
VIEWPORTS = (
    {"width": 1280, "height": 800},
    {"width": 1024, "height": 768},
    {"width": 768, "height": 1024},
)


def words(lang: str) -> dict[str, str]:
    """The shell's and El Grande's strings of a language (what the pages show)."""
    out = json.loads((REPO / f"host/app/static/i18n/{lang}.json").read_text("utf-8"))
    for path in sorted((REPO / f"host/games/elgrande/static/i18n/{lang}").glob("*.json")):
        out.update(json.loads(path.read_text("utf-8")))
    return out


def fmt(template: str, **params: str) -> str:
    for name, value in params.items():
        template = template.replace("{" + name + "}", value)
    return template


# ---------------------------------------------------------------------- playing by HTTP
class Bot:
    """Plays through the app's commands: a full board (the most caballeros taken, every one
    placed), never a throw into the castillo (no cube to drop into the simulated tower)."""

    def __init__(self, base: str, seats: dict[str, str]) -> None:
        self.base = base
        self.seats = seats  # colour -> seat token

    def state(self) -> dict[str, Any]:
        return dict(get_json(self.base + "/api/state"))

    @staticmethod
    def choose(legal: list[str]) -> str:
        usable = [a for a in legal if "castillo" not in a.split()[1:]] or legal
        takes = [a for a in usable if a.startswith("take ")]
        if takes:
            return max(takes, key=lambda a: int(a.split()[1]))
        places = [a for a in usable if a.startswith("place ")]
        return (places or usable)[0]

    def step(self) -> bool:
        state = self.state()
        if state["game"]["phase"] == "over" or state["checks"]["issues"]:
            return False
        if state["legal"]:
            body: dict[str, Any] = {"text": self.choose(state["legal"])}
            if state.get("acting_as"):
                body["as"] = state["acting_as"]
            post_json(self.base + "/api/action", body)
            return True
        for token in self.seats.values():
            legal = get_json(f"{self.base}/api/seat/{token}/state")["legal"]
            if legal:
                post_json(f"{self.base}/api/seat/{token}/action", {"text": self.choose(legal)})
                return True
        return False

    def until(self, moment: Any, limit: int = 2500) -> dict[str, Any]:
        for _ in range(limit):
            state = self.state()
            if moment(state):
                return state
            assert self.step(), f"stuck before the moment: {state['prompt']}"
        raise AssertionError("the moment never came")


def shown(page: Any, rev: int) -> None:
    # the pages draw every state the commands made, one after the other: a backlog to catch up
    page.wait_for_function(
        f"Number(document.body.dataset.rev || -1) >= {rev}", polling=100, timeout=120_000
    )


def set_lang(page: Any, lang: str) -> None:
    page.select_option("#lang", lang)
    page.wait_for_function(f"document.documentElement.lang === {lang!r}")


def close_dialog(page: Any) -> None:
    close = page.locator("#overlay:not([hidden]) button[data-close]")
    if close.count():
        close.first.click()


@dataclass
class Game:
    base: str
    bot: Bot
    table: Any  # the table page
    phone: Any  # purple's seat page
    errors: list[str]


@pytest.fixture(scope="module")
def game() -> Iterator[Game]:
    """A dealer-mode game of 5: the table page and purple's phone."""
    errors: list[str] = []
    with app_server() as base, browser_context(TABLET) as context:
        reply = post_json(base + "/api/games", {"players": PLAYERS, "mode": "dealer", "seed": 11})
        tokens = {s["colour"]: s["url"].rstrip("/").split("/")[-1] for s in reply["seats"]}
        table = context.new_page()
        watch_errors(table, errors)
        table.goto(base + "/")
        table.wait_for_selector("body[data-ready='1'] svg.board")
        phone = context.new_page()
        watch_errors(phone, errors)
        phone.set_viewport_size(PHONE)
        phone.goto(f"{base}/seat/{tokens['purple']}")
        phone.wait_for_selector("body[data-ready='1']")
        yield Game(base, Bot(base, tokens), table, phone, errors)


# ---------------------------------------------------------------------- measuring the board
COVERED = """() => {
  const box = (el) => el.getBoundingClientRect();
  const names = [...document.querySelectorAll(
      '#board .region-name, #board .values, #board .border-name')]
    .map((el) => [el.textContent, box(el)]);
  const pieces = [...document.querySelectorAll(
      '#board [data-pieces] .chip, #board [data-pieces] .king, #board [data-pieces] .grande')]
    .map((el) => [el.closest('[data-pieces]').dataset.pieces + ':'
      + (el.dataset.colour || el.getAttribute('class')), box(el)]);
  const out = [];
  for (const [name, a] of names) for (const [piece, b] of pieces) {
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 1 && h > 1) out.push(`${piece} covers ${name} (${Math.round(w)}x${Math.round(h)} px)`);
  }
  return { out, names: names.length, pieces: pieces.length };
}"""


DRAWN = """() => {
  const board = document.querySelector('#board');
  const svg = board?.querySelector('svg.board');
  return svg && svg.dataset.namesClear !== undefined
    && board.dataset.drawnFor === `${board.clientWidth}x${board.clientHeight}`;
}"""


def covered(page: Any) -> dict[str, Any]:
    """Where a piece covers a name or a values line on the board, as drawn for its size now."""
    page.wait_for_timeout(150)  # a resize reaches the board's observer
    page.wait_for_function(DRAWN, polling=50, timeout=10_000)
    return dict(page.evaluate(COVERED))


def test_the_checklist_heading_asks_its_question_and_no_piece_covers_a_name(game: Game) -> None:
    """Dealer mode: the set-up checklist's heading is the question its button answers; the
    board squeezed under it shows every name uncovered (at 1280×800, 1024×768, 768×1024)."""
    table = game.table
    errors = game.errors
    for lang in ("en", "cs"):
        set_lang(table, lang)
        heading = table.locator("#checklist h3").text_content()
        assert heading == words(lang)["checklist.title"] and heading.endswith("?"), heading
    set_lang(table, "en")
    for viewport in VIEWPORTS:
        table.set_viewport_size(viewport)
        found = covered(table)
        assert found["pieces"] >= 6 and found["names"] >= 12, found
        assert found["out"] == [], (viewport, found["out"])
    table.set_viewport_size(TABLET)
    assert errors == []


def test_a_tap_on_something_not_offered_says_why(game: Game) -> None:
    bot = game.bot
    table = game.table
    errors = game.errors
    en, cs = words("en"), words("cs")
    # the power cards: nothing on the map is chosen
    state = bot.state()
    assert state["prompt"]["key"] == "power", state["prompt"]
    table.locator('#board [data-area="Galicia"] polygon').click()
    note = table.locator("#not-offered")
    assert note.text_content() == fmt(en["ui.not_offered_now"], area="Galicia")
    # a placement: a region not next to the King says so in the engine's refusal words
    state = bot.until(lambda s: s["prompt"]["key"] in ("main.place", "main.placing"))
    shown(table, state["rev"])
    close_dialog(table)
    king = state["game"]["king"]
    offered = {a.split()[1] for a in state["legal"] if a.startswith("place ")}
    unlit = table.evaluate(
        """() => [...document.querySelectorAll('#board g.region[data-area]:not(.tap)')]
             .map((g) => g.dataset.area)"""
    )
    far = [a for a in unlit if a not in offered and a not in (king, "castillo")]
    assert far, (unlit, offered)
    area_names = {"Aragon": "Aragón", "Cataluna": "Cataluña"}
    table.locator(f'#board [data-area="{far[0]}"] polygon').click()
    expected = fmt(
        en["elgrande.refuse.not_next_to_king"],
        region=area_names.get(far[0], far[0]),
        king_region=area_names.get(king, king),
    )
    assert note.text_content() == expected
    # the King's region, and Portugal, in Czech
    set_lang(table, "cs")
    table.locator(f'#board [data-area="{king}"] polygon').click()
    assert note.text_content() == fmt(
        cs["elgrande.refuse.king_region_closed"], region=cs[f"area.{king}"]
    )
    table.locator('#board [data-border="Portugal"] .border-name').click()
    assert note.text_content() == fmt(
        cs["elgrande.refuse.not_a_region"], region=cs["area.Portugal"]
    )
    # the note sits in the prompt, and a tap on a lit region still acts
    assert table.locator("#prompt #not-offered").count() == 1
    set_lang(table, "en")
    assert errors == []


def test_players_names_are_never_cut_at_1024(game: Game) -> None:
    table = game.table
    errors = game.errors
    table.set_viewport_size({"width": 1024, "height": 768})
    try:
        for lang in LANGS:
            set_lang(table, lang)
            table.wait_for_timeout(200)
            cut = table.evaluate(
                """() => [...document.querySelectorAll('.player-table tbody th[scope=row]')]
                     .filter((th) => th.scrollWidth > th.clientWidth + 1
                       || th.querySelector('.pname')?.getBoundingClientRect().right
                          > th.getBoundingClientRect().right + 1)
                     .map((th) => th.textContent)"""
            )
            assert cut == [], (lang, cut)
            names = table.locator(".player-table tbody .pname").all_text_contents()
            assert names == [words(lang)[f"colour.{c}"].capitalize() for c in PLAYERS], names
    finally:
        set_lang(table, "en")
        table.set_viewport_size(TABLET)
    assert errors == []


def test_general_scoring_badge_colours_legend_and_crowded_board(game: Game) -> None:
    bot = game.bot
    table = game.table
    errors = game.errors
    en = words("en")
    state = bot.until(lambda s: s["prompt"]["key"] == "disc.general")
    shown(table, state["rev"])
    close_dialog(table)
    # the badge says what the prompt asks (the engine's phase may still be the turn's)
    badge = table.locator("#prompt .phase")
    assert badge.text_content() == en["phase.scoring"], (
        badge.text_content(),
        state["game"]["phase"],
    )
    # the prompt names the colours it waits for, capitalised, with their swatches
    waiting = state["prompt"]["params"]["waiting_for"]
    named = table.locator("#prompt-text .colour-name")
    assert named.all_text_contents() == [en[f"colour.{c}"].capitalize() for c in waiting]
    assert table.locator("#prompt-text .colour-name .swatch").count() == len(waiting)
    # a crowded board after three rounds: no piece covers a name at any tablet size
    for viewport in VIEWPORTS:
        table.set_viewport_size(viewport)
        found = covered(table)
        assert found["pieces"] >= 12, found
        assert found["out"] == [], (viewport, found["out"])
    table.set_viewport_size(TABLET)
    # the scoring: its dialog's heads and discs name the colours; a legend of its tokens
    state = bot.until(lambda s: any(x["kind"] == "general" for x in s["game"]["scorings"]))
    shown(table, state["rev"])
    close_dialog(table)
    for lang in ("en", "cs"):
        strings = words(lang)
        set_lang(table, lang)
        table.locator('#tabs [data-tab="scoring"]').click()
        article = table.locator('#tab-body article.scoring[data-kind="general"]').first
        heads = article.locator("th.player-col .colour-name").all_text_contents()
        assert heads == [strings[f"colour.{c}"].capitalize() for c in PLAYERS], heads
        assert article.locator("th.player-col .swatch").count() == len(PLAYERS)
        discs = article.locator("p.discs .colour-name")
        assert discs.count() == len(PLAYERS)
        assert all(t[0].isupper() for t in discs.all_text_contents())
        legend = article.locator(".scoring-legend .legend-item")
        texts = legend.all_text_contents()
        tokens = article.locator(".scoring-legend .token").all_text_contents()
        rank = strings["score.rank_n"]
        assert tokens == [
            "2×",
            fmt(rank, n="1"),
            f"{fmt(rank, n='2')} {strings['score.tied']}",
            "+4",
            f"+2 {strings['score.bonus']}",
        ], tokens
        for text, key in zip(texts, ("count", "rank", "tied", "points", "bonus"), strict=True):
            assert text.endswith(strings[f"score.legend.{key}"]), (text, key)
        # every token the table's cells show is one the legend explains
        cells = article.locator("td.cell .count").all_text_contents()
        assert cells and all(c.endswith("×") for c in cells)
        # the log: a colour named in a sentence is capitalised with its swatch
        table.locator('#tabs [data-tab="log"]').click()
        general = next(x for x in state["log"][::-1] if x.get("kind") == "reveal")
        newest = table.locator('#tab-body ol.log li[data-kind="reveal"]').first
        revealed = newest.locator(".colour-name")
        assert revealed.count() == len(general["discs"]), newest.text_content()
        assert all(t[0].isupper() for t in revealed.all_text_contents())
        assert newest.locator(".colour-name .swatch").count() == len(general["discs"])
    set_lang(table, "en")
    assert errors == []


def test_a_throw_check_names_its_colours_and_the_phone_waits_for_the_table(game: Game) -> None:
    base = game.base
    bot = game.bot
    table = game.table
    phone = game.phone
    errors = game.errors
    bot.until(lambda s: s["prompt"]["key"] == "power" and not s["checks"]["issues"])
    set_lang(phone, "cs")
    # a cube of a colour not in the game: the tower cannot tell it, the table confirms it
    post_json(base + "/api/sim/drop", {"cubes": ["yellow"], "how": "single"})
    table.wait_for_selector('.issue[data-issue-kind="confirm"]', timeout=20_000)
    buttons = table.locator('.issue[data-issue-kind="confirm"] button[data-confirm-colour]')
    colours = [b.get_attribute("data-confirm-colour") for b in buttons.all()]
    assert colours == PLAYERS
    en = words("en")
    assert buttons.all_text_contents() == [en[f"colour.{c}"].capitalize() for c in colours]
    assert buttons.locator(".swatch").count() == len(colours)
    # the phone says the table is settling it, in the phone's language
    phone.wait_for_selector("#check-at-table", timeout=20_000)
    assert phone.locator("#check-at-table").text_content() == words("cs")["ui.check_at_table"]
    # the badge follows the prompt: a throw check
    assert table.locator("#prompt .phase").text_content() == en["phase.check"]
    assert errors == []


def test_a_stuck_chute_is_shown_as_a_stuck_chute(game: Game) -> None:
    base = game.base
    bot = game.bot
    table = game.table
    errors = game.errors
    en = words("en")
    post_json(base + "/api/sim/drop", {"cubes": ["purple"], "how": "stuck"})
    # the tower reports the jam (the simulated cube falls through at once: the warning is up
    # for a few milliseconds, the tower's log keeps it)
    deadline = time.monotonic() + 20
    reported = False
    while not reported and time.monotonic() < deadline:
        state = bot.state()
        reported = "stuck" in (state["checks"].get("warnings") or {}) or any(
            e.get("kind") == "tower" and e.get("text") == "stuck" for e in state["log"]
        )
        time.sleep(0.05)
    assert reported, "the simulated tower never reported the stuck chute"
    warnings = {"stuck": "A cube is stuck in the chute: tap the tower"}  # host/app/checks.py
    # the table's check view draws that warning as a stuck chute (the page's own module and
    # words; the real one shows for about a second only)
    seen = table.evaluate(
        """async (warnings) => {
          const { checksView } = await import('/static/js/checks.js');
          const { i18n } = await import('/static/js/i18n.js');
          const view = checksView(i18n, { open: [], issues: [], warnings }, { send: () => null });
          const box = view.querySelector('#stuck-chute');
          return box && {
            title: box.querySelector('.stuck-title')?.textContent,
            how: box.querySelector('.stuck-how')?.textContent,
            drawing: box.querySelectorAll('.chute-icon svg').length,
            role: box.getAttribute('role'),
            generic: view.querySelectorAll('p.check-warning').length,
          };
        }""",
        {"stuck": warnings["stuck"], "sensor": "a sensor fault"},
    )
    assert seen == {
        "title": en["check.stuck.title"],
        "how": en["check.warn.stuck"],
        "drawing": 1,
        "role": "alert",
        "generic": 1,  # the other warning keeps the plain line
    }
    assert errors == []


def test_the_set_up_headings_name_the_card_the_prompt_asks_for(game: Game) -> None:
    """Table mode: each set-up step's buttons sit under a heading naming what the prompt asks
    for (the first player, the King's region card, a home region card), not "Cards turned up";
    the badge says Set-up. (A new game on the same table: the last test of the module.)"""
    base = game.base
    bot = game.bot
    table = game.table
    errors = game.errors
    for kind in ("issues",):
        state = bot.state()
        for issue in state["checks"][kind]:
            options = issue.get("options") or []
            if options:
                post_json(base + "/api/resolve", {"issue": issue["id"], "how": options[0]})
    reply = post_json(base + "/api/games", {"players": PLAYERS, "mode": "table", "seed": 5})
    assert reply["seats"]
    for verb, key in (("first", "setup.first"), ("kingcard", "setup.king"), ("home", "setup.home")):
        state = bot.state()
        assert state["prompt"]["key"] == key, state["prompt"]
        shown(table, state["rev"])
        for lang in ("en", "cs"):
            strings = words(lang)
            set_lang(table, lang)
            heading = table.locator("#choices .g-chance h3").text_content()
            assert heading == strings[f"group.chance.{verb}"], (lang, verb, heading)
            assert heading != strings["group.chance"]
            assert table.locator("#prompt .phase").text_content() == strings["phase.setup_first"]
        table.locator(f'#choices button[data-action^="{verb} "]').first.click()
        table.wait_for_function(f"Number(document.body.dataset.rev) > {state['rev']}")
    set_lang(table, "en")
    assert errors == []
