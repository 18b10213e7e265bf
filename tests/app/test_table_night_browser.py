"""A table-mode night, end to end over a real network (issue 11, "Done when").

`castillo run` (no option: it serves the network, with the simulated tower: the real firmware
in MicroPython) runs in one network namespace; the phones and the second tablet are Chromium
pages in another, joined by a private veth pair (tests/app/netns.py). The host's own screen is
a Chromium inside the server's namespace, on 127.0.0.1 (the table without pairing).

1. The host's screen starts a short El Grande game in table mode from the lobby (the players
   deal their own cards: the table enters what is turned up).
2. Each seat's QR code on the Seats tab is read (its modules decoded here, as a phone's camera
   would) and a phone context opens the URL it carries: the network address, never localhost.
3. A second tablet opens the pairing link the server printed and is paired in one step.
4. The game is played by tapping (tests/app/ui_driver.py) until the first general scoring:
   the paired tablet is the table (chance cards entered, decisions, the dropper panel that
   throws cubes into the simulated tower, the fixes), the phones play the power cards and discs.
   On the way one player announces a throw and a cube of another colour falls in: the paired
   tablet fixes it with "the tower wins"; another throws two cubes for one announcement: the
   tablet fixes it with "announce" and the player announces the second cube on their phone.
   The second case fixes them the other way: the stray cube is taken out (the castillo lifted
   and its caballeros thrown back), and the tower's count wins for the cube too many.
5. At the general scoring the castillo the game scored equals, colour by colour, what the tower
   counts (its ledger in the server's database: the counts the firmware reported).
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from host.tower.ledger import LedgerEntry
from tests.app.netns import NETNS_MISSING, Served, Wire, browsers_in, castillo_run, wire
from tests.app.netns import needs_netns as in_netns
from tests.app.ui_browser import PHONE, TABLET, chromium_missing
from tests.app.ui_driver import Driver, Stalled

MISSING = chromium_missing()
browser = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
if MISSING or NETNS_MISSING:
    print(f"\n[test_table_night_browser] SKIPPING: {MISSING or NETNS_MISSING}")

PLAYERS = ("purple", "green", "blue")  # three players: the lobby's default four, less orange
WAIT_MS = 30_000  # a page's condition; generous for a loaded 2-core machine
ISSUE_MS = 30_000  # a throw issue comes once the throw windows (5 s) have run out


# ---------------------------------------------------------------------- what the pages said
@dataclass
class Watch:
    """Every page's console messages, script errors and failed requests, to say what the pages
    saw when a wait times out."""

    lines: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def page(self, name: str, page: Any) -> Any:
        def console(msg: Any) -> None:
            self.lines.append(f"{name}: console {msg.type}: {msg.text}")
            if msg.type == "error" and "ERR_NETWORK_CHANGED" not in msg.text:
                self.errors.append(f"{name}: {msg.text}")

        def failed(request: Any) -> None:
            self.lines.append(f"{name}: failed {request.method} {request.url} {request.failure}")

        def crashed(exc: Any) -> None:
            self.lines.append(f"{name}: page error {exc}")
            self.errors.append(f"{name}: page error {exc}")

        page.on("console", console)
        page.on("requestfailed", failed)
        page.on("pageerror", crashed)
        return page

    def report(self) -> str:
        return "; console and failed requests of every page:\n  " + "\n  ".join(
            self.lines[-60:] or ["(none)"]
        )


class Night:
    """The waits of the night: one that times out says what the game was waiting for and what
    the pages saw."""

    def __init__(self, watch: Watch) -> None:
        self.watch = watch
        self.fetch: Callable[[], dict[str, Any]] | None = None  # the table's state, once known

    def report(self) -> str:
        where = ""
        if self.fetch is not None:
            try:
                state = self.fetch()
                game = state.get("game") or {}
                where = (
                    f"; the game: round {game.get('round')}, phase {game.get('phase')}, "
                    f"prompt {state.get('prompt')}, legal {state.get('legal')}, "
                    f"checks {state.get('checks')}"
                )
            except Exception as exc:  # the table page itself is gone: say so
                where = f"; the table's state could not be read ({exc})"
        return where + self.watch.report()

    def wait(self, page: Any, selector: str, what: str, **kwargs: Any) -> None:
        try:
            page.wait_for_selector(selector, timeout=kwargs.pop("timeout", WAIT_MS), **kwargs)
        except Exception as exc:
            raise AssertionError(f"{what}: no {selector!r}{self.report()}") from exc

    def wait_until(self, page: Any, script: str, what: str, arg: Any = None) -> None:
        try:
            page.wait_for_function(script, arg=arg, timeout=WAIT_MS, polling=50)
        except Exception as exc:
            raise AssertionError(f"{what}{self.report()}") from exc


# ---------------------------------------------------------------------- the QR code
def qr_modules(svg: str) -> list[list[bool]]:
    """The dark and light modules of a QR code as the page drew it (static/js/qr.js: one
    `M x y h1v1h-1z` square per dark module, after a 4-module quiet zone)."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1)) - 8  # type: ignore[union-attr]
    rows = [[False] * size for _ in range(size)]
    for x, y in re.findall(r"M(\d+) (\d+)h1v1h-1z", svg):
        rows[int(y) - 4][int(x) - 4] = True
    return rows


def qr_text(modules: list[list[bool]]) -> str:
    """What a QR code carries, read from its modules the way a phone's camera app reads them
    once it has found the symbol: the format (error-correction level and mask) from beside the
    top-left finder, the data modules in their zigzag order, unmasked, the blocks
    de-interleaved, then the byte segment. Only the layout tables (where the function patterns
    are, the blocks of each version) come from the `qrcode` package; nothing is re-encoded, so
    any encoder's symbol reads the same."""
    from qrcode import base, util
    from qrcode.main import QRCode

    n = len(modules)
    version = (n - 17) // 4
    layout = QRCode(version=version)  # only its function patterns: None marks a data module
    layout.modules_count = n
    layout.modules = [[None] * n for _ in range(n)]
    for row, col in ((0, 0), (n - 7, 0), (0, n - 7)):
        layout.setup_position_probe_pattern(row, col)
    layout.setup_position_adjust_pattern()
    layout.setup_timing_pattern()
    layout.setup_type_info(True, 0)  # reserves the format modules and the dark module
    if version >= 7:
        layout.setup_type_number(True)
    rows = [i if i < 6 else i + 1 if i < 8 else n - 15 + i for i in range(15)]
    bits = sum(int(modules[row][8]) << i for i, row in enumerate(rows))
    formats = [(lv, mk) for lv in range(4) for mk in range(8)]
    found = [(lv, mk) for lv, mk in formats if util.BCH_type_info((lv << 3) | mk) == bits]
    assert found, f"no QR format information ({bits:015b})"
    ((level, mask),) = found
    masked = util.mask_func(mask)
    stream: list[int] = []
    step, row = -1, n - 1
    for right in range(n - 1, 0, -2):
        col = right - 1 if right <= 6 else right  # the vertical timing pattern is skipped
        while True:
            for c in (col, col - 1):
                if layout.modules[row][c] is None:
                    stream.append(int(modules[row][c]) ^ int(bool(masked(row, c))))
            row += step
            if not 0 <= row < n:
                row -= step
                step = -step
                break
    words = [int("".join(map(str, stream[i : i + 8])), 2) for i in range(0, len(stream) - 7, 8)]
    blocks = base.rs_blocks(version, level)
    data: list[list[int]] = [[] for _ in blocks]
    taken = iter(words)
    for i in range(max(block.data_count for block in blocks)):
        for j, block in enumerate(blocks):
            if i < block.data_count:
                data[j].append(next(taken))
    payload = "".join(f"{word:08b}" for block in data for word in block)
    assert payload[:4] == "0100", f"not a byte segment ({payload[:4]})"
    width = 8 if version < 10 else 16
    length = int(payload[4 : 4 + width], 2)
    start = 4 + width
    raw = bytes(int(payload[start + 8 * i : start + 8 * i + 8], 2) for i in range(length))
    return raw.decode("utf-8")


def test_the_qr_reader_reads_what_another_encoder_wrote() -> None:
    """The reader above against `segno` (the server's encoder, not the page's): every level,
    short and long texts (several blocks; version 7 and up carry their version too)."""
    import segno

    texts = [
        "http://10.231.7.1:40123/seat/Zk3_q-9xYpL0aBcDeFgHiJ",
        "a",
        "žluťoučký kůň — Україна",
        "https://example.org/" + "0123456789" * 25,
    ]
    for text in texts:
        for level in "lmqh":
            for mask in (0, 5, 7):
                symbol = segno.make(
                    text, error=level, mode="byte", boost_error=False, mask=mask, micro=False
                )
                modules = [[bool(b) for b in row] for row in symbol.matrix]
                assert qr_text(modules) == text, (text, level, mask, symbol.version)


# ---------------------------------------------------------------------- the tower's count
def tower_counts(served: Served) -> dict[str, int]:
    """What the tower counts now, per colour: the latest entry of the tower ledger in the
    server's database (the firmware's count vector, with earlier boots' carried counts)."""
    db = sqlite3.connect(f"file:{served.data_dir / 'castillo.db'}?mode=ro", uri=True, timeout=10)
    try:
        row = db.execute("SELECT entry FROM ledger ORDER BY id DESC LIMIT 1").fetchone()
    finally:
        db.close()
    assert row is not None, "the tower never reported"
    totals = LedgerEntry.from_json(row[0]).totals
    return {colour: n for colour, n in totals.items() if colour in PLAYERS and n}


def scored_castillo(game: dict[str, Any]) -> dict[str, int]:
    general = next(s for s in game["scorings"] if s["kind"] == "general")
    area = next(a for a in general["areas"] if a["area"] == "castillo")
    return {colour: n for colour, n in area["counts"].items() if n}


# ---------------------------------------------------------------------- the test
@pytest.fixture
def night() -> Iterator[tuple[Wire, Served, list[Any]]]:
    with (
        wire() as made,
        castillo_run(made.server_ns) as served,
        browsers_in(made.server_ns, made.client_ns) as browsers,
    ):
        yield made, served, browsers


def castillo_turn(exclude: set[str], placements: int = 1) -> Callable[[dict[str, Any]], bool]:
    """Stop the driver where a player (not in `exclude`) may place into the castillo with at
    least `placements` placements left, nothing in flight; or at the general scoring."""

    def ready(state: dict[str, Any]) -> bool:
        game, checks = state["game"], state["checks"]
        if any(s["kind"] == "general" for s in game["scorings"]):
            return True
        left = int((state.get("prompt") or {}).get("params", {}).get("left") or 0)
        return (
            "place castillo" in state["legal"]
            and state["acting_as"] not in exclude
            and left >= placements
            and not checks["issues"]
            and not checks["open"]
        )

    return ready


# How the tablet fixes the wrong colour, then the one cube too many: the tower's count wins and
# the player announces the cube; or the table lifts the castillo to take the stray cube out and
# throws the rest back, and the tower's count wins.
FIXES = [("tower_wins", "announce"), ("take_out", "tower_wins")]


@browser
@in_netns
@pytest.mark.parametrize(("wrong_fix", "extra_fix"), FIXES, ids=["tower-announce", "lift-tower"])
def test_a_table_night_phones_join_by_qr_a_tablet_pairs_and_the_fixes_keep_the_castillo_true(
    night: tuple[Wire, Served, list[Any]], wrong_fix: str, extra_fix: str
) -> None:
    started = time.monotonic()
    net, served, (host_browser, guest_browser) = night
    public = served.printed("seat codes carry ").rstrip("/")
    assert public.startswith(f"http://{net.server_ip}:")  # the network address, not loopback
    here = next(u for u in served.urls() if u.startswith("http://127.0.0.1:")).rstrip("/")
    watch = Watch()
    pages = Night(watch)

    # 1. the host's own screen: a short game in table mode from the lobby
    host = watch.page("host", host_browser.new_context(viewport=TABLET).new_page())
    host.goto(here + "/")
    pages.wait(host, "body[data-ready='1'] #new-game #players-field", "the lobby")
    host.locator('#new-game input[name="players"][value="orange"]').uncheck()
    # the form is drawn again for three players (it offers merging decks 2 and 3 then)
    pages.wait(host, '#new-game input[name="merge_decks_2_3"]', "the form for three players")
    host.locator('#new-game input[name="short_game"]').check()
    host.locator('#new-game input[name="mode"][value="table"]').check()
    pages.wait(host, "#start-game:not([disabled])", "Start enabled")
    host.locator("#start-game").click()
    pages.wait(host, "#tab-body .seat-card .qr svg", "the Seats tab's QR codes")

    def fetch() -> dict[str, Any]:  # the test cannot reach the server's namespace: the host can
        return dict(host.evaluate("() => fetch('/api/state').then((r) => r.json())"))

    pages.fetch = fetch
    state = fetch()
    assert state["options"]["players"] == list(PLAYERS)
    assert state["options"]["short_game"] and state["options"]["mode"] == "table"

    # 2. each phone opens what its seat's QR code carries
    phones: dict[str, Any] = {}
    for colour in PLAYERS:
        card = host.locator(f'.seat-card[data-seat="{colour}"]')
        svg = card.locator(".qr svg").evaluate("(el) => el.outerHTML")
        url = card.locator("a[data-seat-link]").get_attribute("href")
        assert url is not None and url.startswith(f"{public}/seat/"), url
        assert qr_text(qr_modules(svg)) == url, f"{colour}'s QR code does not carry {url}"
        context = guest_browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        phone = watch.page(colour, context.new_page())
        phone.goto(url)
        pages.wait(phone, "body[data-ready='1'] #hand", f"{colour}'s phone page")
        phones[colour] = phone
    pages.wait_until(
        host,
        "(n) => document.querySelectorAll('.seat-card[data-claimed=\"1\"]').length === n",
        "every seat claimed on the table",
        len(PLAYERS),
    )
    joined = time.monotonic() - started

    # 3. a second tablet pairs from the printed link
    pairing = served.printed("a tablet pairs by opening ")
    assert pairing == f"{public}/?pair={served.pairing_code}"
    tablet = watch.page("tablet", guest_browser.new_context(viewport=TABLET).new_page())
    tablet.goto(pairing)
    pages.wait(tablet, "body[data-ready='1']", "the paired tablet ready")
    assert tablet.locator("#pair-form").count() == 0
    assert "pair=" not in tablet.url
    assert tablet.evaluate("() => localStorage.getItem('castillo.table_token')")
    for colour in PLAYERS:  # it shows the game the host's screen started
        pages.wait(tablet, f'#players [data-colour="{colour}"]', f"{colour} on the tablet")

    # 4. the paired tablet is the table from here on: every decision, chance card, throw and
    # fix is tapped on it (over the network, with its table token); the phones play the power
    # cards and the secret discs
    driver = Driver(public, tablet, phones, fetch=fetch)

    def play(until: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        driver.until = until
        try:
            driver.play(max_steps=1500)
        except (Stalled, AssertionError) as exc:
            raise AssertionError(f"{exc}{pages.report()}") from exc
        return fetch()

    def throw(colour: str, announced: str) -> None:
        """`announced` taps its castillo placement on the table; `colour` cubes fall in."""
        state = fetch()
        period = sum(1 for s in state["game"]["scorings"] if s["kind"] == "general")
        driver.thrown.add((period, announced))  # the driver throws no more for them
        driver._tap(tablet, '#choices button[data-action="place castillo"]', "table")
        driver.announced += 1
        driver.heard.append((int(state["game"]["round"]), announced))
        if colour == announced:
            driver.drop(colour, 2)  # one too many
        else:
            driver.drop(colour)  # the wrong colour

    def fix(kind: str, how: str) -> dict[str, Any]:
        issue = f'.issue[data-issue-kind="{kind}"]'
        pages.wait(tablet, issue, f"the {kind} issue on the tablet", timeout=ISSUE_MS)
        shown = tablet.locator(f"{issue} button[data-resolve]").all()
        options = [button.get_attribute("data-resolve") for button in shown]
        tablet.locator(f'{issue} button[data-resolve="{how}"]').click()
        pages.wait(tablet, issue, f"the {kind} issue fixed", state="detached")
        pages.wait(host, issue, f"the {kind} issue gone from the host's screen", state="detached")
        return {"options": options, "state": fetch()}

    state = play(castillo_turn(set()))
    assert "place castillo" in state["legal"], "no castillo placement before the scoring"
    wrong = str(state["acting_as"])
    stray = next(c for c in PLAYERS if c != wrong)

    # a wrong colour
    throw(stray, announced=wrong)
    fixed = fix("wrong_colour", wrong_fix)
    assert fixed["options"] == ["misread", "tower_wins", "take_out"]
    texts = [line["text"] for line in fixed["state"]["log"]]
    if wrong_fix == "tower_wins":  # the stray cube stays: the game's castillo is corrected
        assert f"castillo-fix {stray}+1 wrong-colour" in texts, texts[-12:]
        assert f"castillo-fix {wrong}-1 wrong-colour" in texts, texts[-12:]
        driver.heard[-1] = (driver.heard[-1][0], stray)  # what the castillo holds from it
    else:  # lift the castillo, take the stray cube out, throw back what the game holds
        assert not any(text.startswith("castillo-fix") for text in texts), texts[-12:]
        (take_out,) = fixed["state"]["checks"]["issues"]
        assert take_out["kind"] == "take_out" and take_out["colours"] == {stray: 1}, take_out
        driver.lift_castillo()
        pages.wait(tablet, '.issue[data-issue-kind="take_out"]', "lifted", state="detached")
        back = driver.castillo_contents(fetch()["game"])
        assert back[wrong] >= 1, back
        for colour, count in back.items():
            driver.drop(colour, count)
    pages.wait_until(
        host,
        "() => fetch('/api/state').then((r) => r.json()).then((s) => "
        "!s.checks.open.length && !s.checks.issues.length && !('disagree' in s.checks.warnings))",
        "the wrong colour fixed: nothing in flight, and the tower and the game agree",
    )

    # too many: two cubes for one announcement, thrown with a placement still to come after it
    # (with the last one, "announce" is still offered, but nothing could announce the cube:
    # it comes back as the same issue 60 s later)
    state = play(castillo_turn({wrong}, placements=2))
    assert "place castillo" in state["legal"], "no second castillo turn before the scoring"
    many = str(state["acting_as"])
    throw(many, announced=many)
    fixed = fix("extra", extra_fix)
    assert fixed["options"] == ["announce", "tower_wins", "take_out", "accept_game"]
    assert not fixed["state"]["checks"]["blocked"]
    if extra_fix == "announce":  # the player announces the second cube on their own phone
        assert "place castillo" in fixed["state"]["legal"]  # the announcement is still to come
        assert fixed["state"]["acting_as"] == many
        announce = '#choices button[data-action="place castillo"]'
        pages.wait(phones[many], announce, f"{many}'s phone offers the castillo placement")
        driver._tap(phones[many], announce, "seat:announce")
        driver.announced += 1
    else:  # the second cube stays: the game records it
        texts = [line["text"] for line in fixed["state"]["log"]]
        assert f"castillo-fix {many}+1 too-many" in texts, texts[-12:]
    driver.heard.append((int(fixed["state"]["game"]["round"]), many))
    pages.wait_until(
        host,
        "() => fetch('/api/state').then((r) => r.json()).then((s) => "
        "!s.checks.open.length && !s.checks.issues.length && !('disagree' in s.checks.warnings))",
        "too many fixed: nothing in flight, and the tower and the game agree",
    )

    # 5. on to the general scoring: the castillo scored is the one in the tower
    state = play(lambda s: any(x["kind"] == "general" for x in s["game"]["scorings"]))
    game = state["game"]
    counted = tower_counts(served)
    scored = scored_castillo(game)
    assert counted == scored, f"the tower counts {counted}, the game scored {scored}"
    heard = Counter(colour for _, colour in driver.heard)
    assert scored == dict(heard), (scored, driver.heard)
    assert scored[many] >= 2
    assert scored.get(stray, 0) >= 1 if wrong_fix == "tower_wins" else scored[wrong] >= 1
    # the tower still holds them: the table is asked to lift the castillo, nothing else; the
    # host's own screen, idle since the start, shows the same
    assert [i["kind"] for i in state["checks"]["issues"]] == ["empty"], state["checks"]
    pages.wait(host, '.issue[data-issue-kind="empty"]', "the host's screen asks to empty it")
    # the app's own check at the scoring agreed too: no count issue, nothing lost or extra
    settled = {k: n for k, n in driver.issues.items() if k not in ("empty", "recount")}
    assert not settled, driver.issue_log
    assert "disagree" not in state["checks"]["warnings"]
    assert driver.taps["seat:power"] >= 2 * len(PLAYERS)  # two rounds of power cards
    assert driver.taps["seat:disc"] >= len(PLAYERS)  # the general scoring's discs
    assert {"first", "kingcard", "home", "reveal"} <= set(driver.verbs)  # dealt at the table

    # the table lifts the castillo as asked: the tower counts nothing any more, like the game
    driver.until = None
    driver.settle_issue(state["checks"]["issues"][0])
    pages.wait_until(
        host,
        "() => fetch('/api/state').then((r) => r.json()).then((s) => !s.checks.issues.length)",
        "the castillo emptied",
    )
    assert tower_counts(served) == {}
    assert fetch()["game"]["castillo"]["total"] == 0
    assert not watch.errors, watch.errors
    print(
        f"\n[table night] joined in {joined:.0f} s, scored after {time.monotonic() - started:.0f}"
        f" s; wrong colour: {wrong} announced, {stray} thrown, {wrong_fix}; too many: {many},"
        f" {extra_fix}; castillo"
        f" {json.dumps(scored)}; taps {dict(driver.taps)}; late cubes {driver.late}"
    )
