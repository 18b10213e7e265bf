"""El Caballero at a real table without a catalogue (issue 23, "A real box can be played" and
"Nothing lost without a word"), in Debian's headless Chromium against the real app:

- every card description the engine accepts can be entered by the tablet's taps on pictures:
  the engine's rules enumerate every card (each edge land or sea, the edges joined into regions
  that do not cross, any number of closed lakes and islets within the notation's 40 characters,
  gold and fish), and the plugin's own draft model (entry.js: toggle an edge, pick a drawing, add
  a lake or an islet, count) reaches each one, which the engine then reads back as that card;
- in the page: the start card tapped from the prompt's drawings, then a lake with an islet and
  other cards entered by taps on the edge drawing and the pictures, never notation on a button,
  in Czech; a phone says the table enters the card;
- ending a turn without the reinforcements asks first (a dialog in the page's language);
  with them taken, or with automatic_reinforcements, it does not;
- the court's capacity: what a step would lose above it (reinforcements, a new caballero card)
  as the page computes it equals what the engine takes, over games played to their end; the
  phone's buttons show it. (What an area card knocking off a card with a castillo costs comes
  from the engine's own preview: tests/engine/elcaballero/test_preview.py.)
"""

from __future__ import annotations

import itertools
import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.elcaballero.cards import CardError, card_from_text
from engine.elcaballero.catalogue import load_synthetic
from engine.elcaballero.game import Game
from engine.elcaballero.options import Options
from engine.elcaballero.rules import load_rules
from tests.app.ui_browser import (
    PHONE,
    app_server,
    browser_context,
    chromium_missing,
    get_json,
    post_json,
    watch_errors,
)

MISSING = chromium_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
WAIT = 20_000
STATIC = Path(__file__).resolve().parents[2] / "host" / "games" / "elcaballero" / "static"
MAX_TEXT = 40
# a card's notation as it would show on a button: "LN+SESW", "SNESWf3", "LNESW"
NOTATION = re.compile(r"\b[LS][NESW]{1,4}([gf]\d)?\b|[LS][NESW]*\+[LS]")


def _bundle(lang: str) -> dict[str, str]:
    text = (STATIC / "i18n" / lang / "ui.json").read_text("utf-8")
    bundle: dict[str, str] = json.loads(text)
    return bundle


@pytest.fixture(scope="module")
def app() -> Iterator[str]:
    with app_server() as base:
        yield base


@pytest.fixture(scope="module")
def context() -> Iterator[Any]:
    """One Chromium for the module (Playwright's sync API runs one at a time)."""
    with browser_context() as context:
        yield context


@pytest.fixture(scope="module")
def page(app: str, context: Any) -> Any:
    """A page of the app, for the plugin's modules."""
    page = context.new_page()
    page.goto(app + "/")
    page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=WAIT)
    return page


def _phone(context: Any) -> Any:
    phone = context.new_page()
    phone.set_viewport_size(PHONE)
    return phone


# ---------------------------------------------------------------- every description


def _set_partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _set_partitions(rest):
        yield [[first], *part]
        for i in range(len(part)):
            yield [block if j != i else [first, *block] for j, block in enumerate(part)]


def _text(regions: list[tuple[int, int, int]]) -> str:
    out = []
    for kind, mask, treasure in regions:
        word = "LS"[kind] + "".join("NESW"[d] for d in range(4) if mask >> d & 1)
        if treasure:
            word += ("g" if kind == 0 else "f") + str(treasure)
        out.append(word)
    return "+".join(out)


def _every_card() -> list[list[tuple[int, int, int]]]:
    """Every card the engine accepts, as its regions (kind, edge mask, gold or fish): each
    assignment of land and sea to the edges, each way to join them into regions of one kind,
    then up to three closed lakes and islets in every mix, and every mix that fills the
    notation's 40 characters (the engine's limit: one more never fits); the gold and fish
    none, nine on as many regions as fit, and a seeded random count each. Each one is checked
    by the engine (a way it refuses is left out: that is the crossing rule)."""
    rng = random.Random(23)
    cards: list[list[tuple[int, int, int]]] = []
    refused = 0
    for kinds in itertools.product((0, 1), repeat=4):
        for blocks in _set_partitions([0, 1, 2, 3]):
            if any(kinds[d] != kinds[b[0]] for b in blocks for d in b):
                continue
            edged = [(kinds[b[0]], sum(1 << d for d in b), 0) for b in blocks]
            for lakes in range(20):
                for islets in range(20):
                    regions = edged + [(1, 0, 0)] * lakes + [(0, 0, 0)] * islets
                    if len(_text(regions)) > MAX_TEXT:
                        continue
                    # up to three lakes and islets, then only as many as fit (the limit)
                    if lakes + islets > 3 and len(_text([*regions, (0, 0, 0)])) <= MAX_TEXT:
                        continue
                    try:
                        card_from_text(_text(regions))
                    except CardError:
                        refused += 1
                        continue
                    cards.append(regions)
                    rich = [(k, m, 0) for k, m, _ in regions]
                    for i, (k, m, _) in enumerate(rich):
                        trial = [*rich[:i], (k, m, 9), *rich[i + 1 :]]
                        if len(_text(trial)) <= MAX_TEXT:
                            rich = trial
                    cards.append(rich)
                    lucky = [(k, m, rng.randint(0, 9)) for k, m, _ in regions]
                    if len(_text(lucky)) <= MAX_TEXT:
                        cards.append(lucky)
    assert refused > 0  # the crossing rule left some out
    cards.append([(0, 15, 0), (1, 0, 2), (0, 0, 1)])  # a lake with two fish, an islet with gold
    return cards


# The taps of the plugin's draft model (entry.js) that enter a card: the edges toggled, the
# drawing whose edge regions are the card's, the lakes and islets added, each region counted.
# A step the model refuses (a disabled button) fails the card (null).
PLAN = """async (cards) => {
  const m = await import('/games/elcaballero/entry.js');
  const key = (rs) => rs.map((r) => `${r[0]}:${r[1]}`).sort().join(',');
  return cards.map((card) => {
    const d = m.newDraft('reveal');
    const edges = [0, 1, 2, 3].map((e) => card.find((r) => r[1] >> e & 1)[0]);
    for (let e = 0; e < 4; e++) if (d.edges[e] !== edges[e]) m.toggleEdge(d, e);
    const closed = [0, 1].map((k) => card.filter((r) => !r[1] && r[0] === k).length);
    const wanted = key(card.filter((r) => r[1]));
    const pick = m.shapesOf(d).findIndex((shape) => {
      const inside = [0, 1].map((k) => shape.filter((r) => !r.mask && r.kind === k).length);
      return key(shape.filter((r) => r.mask).map((r) => [r.kind, r.mask])) === wanted
        && inside[0] <= closed[0] && inside[1] <= closed[1];
    });
    if (pick < 0) return null;
    m.pickShape(d, pick);
    for (const k of [0, 1]) {
      while (m.regionsOf(d).filter((r) => !r.mask && r.kind === k).length < closed[k]) {
        if (!m.addInside(d, k)) return null;
      }
    }
    const pool = card.map((r) => [...r]);
    const regions = m.regionsOf(d);
    for (let i = 0; i < regions.length; i++) {
      const j = pool.findIndex((r) => r[0] === regions[i].kind && r[1] === regions[i].mask);
      if (j < 0) return null;
      const [n] = pool.splice(j, 1).map((r) => r[2]);
      for (let c = 0; c < n; c++) if (!m.step(d, i, 1)) return null;
    }
    return m.textOf(d);
  });
}"""


def _regions_of(text: str) -> list[tuple[int, int, int]]:
    card = card_from_text(text)
    return sorted((r.kind, r.edge_mask, r.treasure) for r in card.regions)


def test_every_description_the_engine_accepts_is_reachable_by_taps(page: Any) -> None:
    cards = _every_card()
    assert len(cards) > 2000, len(cards)
    started = time.monotonic()
    texts: list[str | None] = []
    for start in range(0, len(cards), 4000):
        texts += page.evaluate(PLAN, cards[start : start + 4000])
    print(f"{len(cards)} cards planned in {time.monotonic() - started:.1f} s (shared load)")
    missing = [_text(card) for card, text in zip(cards, texts, strict=True) if text is None]
    assert not missing, (len(missing), missing[:10])
    for card, text in zip(cards, texts, strict=True):
        assert text is not None
        assert _regions_of(text) == sorted(card), (text, _text(card))
    # a lake with an islet, two islets, a channel with an islet: among them
    entered = {tuple(_regions_of(text)) for text in texts if text}
    for text in ("LNESW+S+L", "SNESW+L+L", "LN+LS+SEW+L", "LNESW+Sf2+Lg1"):
        assert tuple(_regions_of(text)) in entered, text
    # every drawing offered is a card the engine reads; the start card's show land
    drawings = page.evaluate(
        """async () => {
          const m = await import('/games/elcaballero/entry.js');
          const out = [];
          for (let bits = 0; bits < 16; bits++) {
            for (const phase of ['start', 'reveal']) {
              const d = m.newDraft(phase);
              d.edges = [0, 1, 2, 3].map((e) => bits >> e & 1);
              m.shapesOf(d).forEach((_, i) => {
                m.pickShape(d, i);
                out.push([phase, m.textOf(d)]);
              });
            }
          }
          return out;
        }"""
    )
    for phase, text in drawings:
        assert phase == "reveal" or card_from_text(text).start_ok, text
    assert {text for phase, text in drawings if phase == "start"} >= {"LN+SESW", "SNESW+L"}


# ---------------------------------------------------------------- in the page, by taps


def _switch(page: Any, lang: str) -> None:
    page.select_option("#lang", lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)


def _rev(base: str) -> int:
    rev: int = get_json(base + "/api/state")["rev"]
    return rev


def _after(page: Any, rev: int) -> None:
    page.wait_for_function(
        "rev => Number(document.body.dataset.rev ?? -1) > rev", arg=rev, timeout=WAIT, polling=50
    )


def _no_notation(page: Any, scope: str) -> None:
    for text in page.locator(f"{scope} button").all_inner_texts():
        assert not NOTATION.search(text), (scope, text)


def test_a_table_enters_cards_by_taps_on_pictures(app: str, context: Any) -> None:
    created = post_json(app + "/api/games", {"game": "elcaballero", "players": ["red", "blue"]})
    token = created["seats"][0]["token"]
    cs = _bundle("cs")
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(app + "/")
    page.wait_for_selector("#ec-editor", timeout=WAIT)
    _switch(page, "cs")
    assert page.locator("#ec-editor h4").inner_text() == cs["ec.describe_start"]
    # the start card's prompt: its possible cards drawn, a tap each; no notation
    choices = page.locator("#prompt [data-action^='start ']")
    assert choices.count() >= 3
    assert choices.first.locator("svg").count() == 1
    _no_notation(page, "#prompt")
    _no_notation(page, "#ec-entry")
    # a phone has nothing to enter: it says the table does
    phone = _phone(context)
    phone.goto(f"{app}/seat/{token}")
    phone.wait_for_selector("#prompt-text", timeout=WAIT)
    _switch(phone, "cs")
    phone.wait_for_function(
        "text => document.querySelector('#prompt-text')?.textContent === text",
        arg=cs["ec.prompt.start_table"],
        timeout=WAIT,
    )
    page.bring_to_front()  # a page behind another gets no animation frames to wait on
    start = choices.first.get_attribute("data-action")
    rev = _rev(app)
    choices.first.click()
    _after(page, rev)
    game = get_json(app + "/api/state")["game"]
    assert game["phase"] == "reveal" and game["areas"][0]["card"] == start.split()[1]
    # the edges tapped on the drawing show their kind in the page's language
    edge = page.locator("#ec-editor [data-edge='N']")
    assert edge.get_attribute("data-kind") == "S"
    assert edge.text_content() == cs["ec.edge_sea"]

    def enter(lands: str, drawing: str, inside: str, counts: dict[int, int], text: str) -> None:
        for side in lands:
            page.locator(f"#ec-editor [data-edge='{side}']").click()
            page.wait_for_selector(f"#ec-editor [data-edge='{side}'][data-kind='L']")
        page.locator(f"#ec-editor [data-topology='{drawing}']").click()
        page.wait_for_selector(f"#ec-editor [data-topology='{drawing}'][aria-pressed='true']")
        for n, kind in enumerate(inside, start=1):
            page.locator(f"#ec-editor [data-add-inside='{kind}']").click()
            page.wait_for_function(
                "n => document.querySelectorAll('#ec-editor [data-remove-inside]').length === n",
                arg=n,
            )
        for region, count in counts.items():
            for n in range(1, count + 1):
                page.locator(f"#ec-editor [data-more='{region}']").click()
                page.wait_for_selector(f"#ec-editor [data-count='{region}']:text-is('{n}')")
        assert page.locator("#ec-editor").get_attribute("data-text") == text
        _no_notation(page, "#ec-entry")
        enter_button = page.locator(f"#ec-editor [data-enter='{text}']")
        assert enter_button.inner_text() == cs["ec.enter_this_card"]
        rev = _rev(app)
        enter_button.click()
        _after(page, rev)

    # a ring of land around a lake with two fish and an islet with one gold in it
    enter("NESW", "LNESW+S", "L", {1: 2, 2: 1}, "LNESW+Sf2+Lg1")
    # open sea around two islets; a channel between two land tips with an islet
    enter("", "SNESW+L", "L", {1: 1}, "SNESW+Lg1+L")
    enter("NS", "LN+LS+SEW", "L", {}, "LN+LS+SEW+L")
    market = [c["card"] for c in get_json(app + "/api/state")["game"]["market"]]
    assert market == ["LNESW+Sf2+Lg1", "SNESW+Lg1+L", "LN+LS+SEW+L"]
    assert errors == []


# ---------------------------------------------------------------- the end of a turn


def _to_turn(base: str, tokens: dict[str, str]) -> str:
    """Power cards played through the seats' routes until a turn starts; the acting colour."""
    for _ in range(20):
        state = get_json(base + "/api/state")
        if state["game"]["phase"] == "turn":
            acting: str = state["game"]["acting"][0]
            return acting
        for token in tokens.values():
            legal = get_json(f"{base}/api/seat/{token}/state")["legal"]
            if legal:
                post_json(f"{base}/api/seat/{token}/action", {"text": legal[-1]})
                break
    raise AssertionError("no turn")


def _area(base: str, token: str) -> None:
    legal = get_json(f"{base}/api/seat/{token}/state")["legal"]
    post_json(
        f"{base}/api/seat/{token}/action", {"text": next(t for t in legal if t.startswith("area "))}
    )


def test_ending_a_turn_without_the_reinforcements_asks_first(app: str, context: Any) -> None:
    created = post_json(
        app + "/api/games",
        {
            "game": "elcaballero",
            "players": ["red", "blue"],
            "mode": "dealer",
            "catalogue": "synthetic",
            "seed": 5,
        },
    )
    tokens = {seat["colour"]: seat["token"] for seat in created["seats"]}
    phones = {colour: _phone(context) for colour in tokens}
    errors: list[str] = []
    for colour, phone in phones.items():
        watch_errors(phone, errors)
        phone.goto(f"{app}/seat/{tokens[colour]}")
        phone.wait_for_selector("#prompt-text", timeout=WAIT)
    acting = _to_turn(app, tokens)
    phone = phones[acting]
    _switch(phone, "uk")
    _area(app, tokens[acting])
    legal = get_json(f"{app}/api/seat/{tokens[acting]}/state")["legal"]
    assert "reinforce" in legal and "done" in legal
    state = get_json(app + "/api/state")
    phone.wait_for_function("rev => Number(document.body.dataset.rev) >= rev", arg=state["rev"])
    phone.locator("#ec-done").click()
    dialog = phone.locator("#confirm")
    dialog.wait_for(timeout=WAIT)
    rules = load_rules()
    played = state["game"]["power_played"][acting]
    n = rules.power_caballeros[played - 1]
    uk = _bundle("uk")
    assert phone.locator("#confirm-question").inner_text() == uk["ec.confirm_done"].replace(
        "{n}", str(n)
    )
    assert phone.locator("#confirm-yes").inner_text() == uk["ec.end_anyway"]
    phone.locator("#confirm-no").click()
    phone.wait_for_selector("#confirm", state="detached")
    assert _rev(app) == state["rev"]  # nothing sent: still this turn, reinforcements open
    # the fold's "end the turn" asks too; this time the answer is yes
    phone.locator("#ec-controls details.ec-all summary").click()
    phone.locator("#ec-controls [data-any='done']").click()
    phone.locator("#confirm-yes").click()
    _after(phone, state["rev"])
    game = get_json(app + "/api/state")["game"]
    assert game["acting"] != [acting]
    # the next player takes them first: no question
    other = game["acting"][0]
    post_json(f"{app}/api/seat/{tokens[other]}/action", {"text": "reinforce"})
    _area(app, tokens[other])
    rev = _rev(app)
    phones[other].wait_for_function("rev => Number(document.body.dataset.rev) >= rev", arg=rev)
    phones[other].locator("#ec-done").click()
    _after(phones[other], rev)
    assert phones[other].locator("#confirm").count() == 0
    assert errors == []
    # automatic reinforcements: nothing to forget, nothing asked
    created = post_json(
        app + "/api/games",
        {
            "game": "elcaballero",
            "players": ["red", "blue"],
            "mode": "dealer",
            "catalogue": "synthetic",
            "seed": 5,
            "automatic_reinforcements": True,
        },
    )
    tokens = {seat["colour"]: seat["token"] for seat in created["seats"]}
    acting = _to_turn(app, tokens)
    _area(app, tokens[acting])
    phone = _phone(context)
    phone.goto(f"{app}/seat/{tokens[acting]}")
    phone.wait_for_selector("#ec-done", timeout=WAIT)
    rev = _rev(app)
    phone.locator("#ec-done").click()
    _after(phone, rev)
    assert phone.locator("#confirm").count() == 0


# ---------------------------------------------------------------- the court's capacity

LOST = re.compile(r"^(\w+) loses (\d+) caballeros \(court full\)$")
# a seat's steps, most wanted first: many caballero cards (the court's capacity shrinks), area
# cards next to them, castillos
PREFER = ("reinforce", "knightgrande", "knight", "area", "castillo", "grande", "done")


def _engine_losses(game: Game, player: int, text: str) -> dict[str, int]:
    trial = game.clone()
    before = len(trial.state.log)
    trial.apply(text, player)
    out: dict[str, int] = {}
    for line in trial.state.log[before:]:
        match = LOST.match(line)
        if match:
            out[match[1]] = out.get(match[1], 0) + int(match[2])
    return out


def _cases(options: Options, seed: int) -> list[dict[str, Any]]:
    """Every reinforcement and new caballero card offered along one game played to its end,
    with what the engine takes from each court for it."""
    rng = random.Random(seed)
    game = Game(options, load_synthetic())
    opts = {
        name: getattr(options, name)
        for name in (
            "court_capacity",
            "last_card_empties_court",
            "remove_on_same_island",
            "grande_pays_its_price",
            "automatic_reinforcements",
        )
    }
    cases: list[dict[str, Any]] = []
    while not game.is_terminal():
        (player,) = game.current_players()[:1]
        legal = [str(a) for a in game.legal_actions(player)]
        if game.state.phase == "turn":
            view = game.view(player)
            for text in legal:
                kind = text.split()[0]
                if kind in ("reinforce", "knight", "knightgrande"):
                    cases.append(
                        {
                            "state": {"game": view, "options": opts},
                            "colour": options.players[player],
                            "text": text,
                            "lost": _engine_losses(game, player, text),
                        }
                    )
        choice = None
        for kind in PREFER:
            options_now = [t for t in legal if t.split()[0] == kind]
            if options_now and rng.random() < 0.9:
                choice = min(
                    options_now, key=lambda t: int(t.split()[-1]) if kind == "knight" else 0
                )
                break
        game.apply(choice or rng.choice(legal), player)
    return cases


COURT = """async ({ cases, rules }) => {
  const court = await import('/games/elcaballero/court.js');
  return cases.map(({ state, colour, text }) => {
    const [kind] = text.split(' ');
    if (kind === 'reinforce') {
      const n = rules.power_caballeros[state.game.power_played[colour] - 1];
      const lost = court.reinforceLoss(state, rules, colour, n);
      return lost ? { [colour]: lost } : {};
    }
    const lost = court.knightLoss(state, rules, colour, text);
    return lost ? { [colour]: lost } : {};
  });
}"""


def test_what_the_court_loses_is_what_the_page_shows(app: str, page: Any) -> None:
    rules = load_rules()
    rules_json = {
        "power_caballeros": list(rules.power_caballeros),
        "court_per_card": rules.court_per_card,
    }
    cases: list[dict[str, Any]] = []
    colours = ("red", "blue")
    variants: list[dict[str, Any]] = [
        {},
        {"last_card_empties_court": False},
        {"extended": True},
        {"court_capacity": False},
    ]
    for seed, extra in enumerate(variants):
        options = Options(players=colours, mode="dealer", seed=seed, catalogue="synthetic", **extra)
        cases += _cases(options, seed)
    shown = page.evaluate(COURT, {"cases": cases, "rules": rules_json})
    wrong = [
        (c["text"], c["colour"], c["lost"], got)
        for c, got in zip(cases, shown, strict=True)
        if c["lost"] != got
    ]
    assert not wrong, (len(wrong), wrong[:5])
    kinds = {c["text"].split()[0] for c in cases if c["lost"]}
    assert {"reinforce", "knight"} <= kinds, kinds  # the losses the test saw


NUMBERED = ("power", "knight")


def _step(base: str, tokens: dict[str, str], order: tuple[str, ...]) -> tuple[str, str] | None:
    """One step of the seat that may act, by the kinds in `order` (the cheapest caballero card,
    the power card bringing most); (colour, its legal knights) when knights are offered."""
    for colour, token in tokens.items():
        legal = get_json(f"{base}/api/seat/{token}/state")["legal"]
        if not legal:
            continue
        for kind in order:
            options = [t for t in legal if t.split()[0] == kind]
            if options:
                pick = min(options, key=lambda t: int(t.split()[-1]) if kind in NUMBERED else 0)
                post_json(f"{base}/api/seat/{token}/action", {"text": pick})
                return colour, pick
        post_json(f"{base}/api/seat/{token}/action", {"text": legal[0]})
        return colour, legal[0]
    return None


def test_a_phone_shows_what_a_new_caballero_card_would_lose(app: str, context: Any) -> None:
    """The last caballero card off the map empties the court (EC-21): the phone's button for it
    says how many caballeros go, the number the engine then takes."""
    created = post_json(
        app + "/api/games",
        {
            "game": "elcaballero",
            "players": ["red", "blue"],
            "mode": "dealer",
            "catalogue": "synthetic",
            "seed": 3,
        },
    )
    tokens = {seat["colour"]: seat["token"] for seat in created["seats"]}
    order = ("power", "reinforce", "knight", "area", "done")
    for _ in range(400):
        state = get_json(app + "/api/state")
        game = state["game"]
        assert game["phase"] != "over", "no caballero card lost a court"
        if game["phase"] == "turn":
            colour = game["acting"][0]
            me = next(p for p in game["players"] if p["colour"] == colour)
            legal = get_json(f"{app}/api/seat/{tokens[colour]}/state")["legal"]
            knights = [t for t in legal if t.startswith("knight ")]
            if me["cards_off_map"] == 1 and knights and me["court"] >= 3:
                break
        _step(app, tokens, order)
    else:
        raise AssertionError("no turn with the last card")
    text = min(knights, key=lambda t: int(t.split()[-1]))
    cell = text.split()[1][:-1]
    phone = _phone(context)
    phone.goto(f"{app}/seat/{tokens[colour]}")
    phone.wait_for_selector(f"#ec-map [data-cell='{cell}']", timeout=WAIT)
    phone.locator(f"#ec-map [data-cell='{cell}']").click()
    button = phone.locator(f"#ec-cell-panel [data-action='{text}']")
    button.wait_for(timeout=WAIT)
    shown = int(button.locator("[data-court-loss]").get_attribute("data-court-loss"))
    assert shown > 0 and str(shown) in button.inner_text()
    post_json(f"{app}/api/seat/{tokens[colour]}/action", {"text": text})
    events = get_json(app + "/api/state")["game"]["events"]
    assert f"{colour} loses {shown} caballeros (court full)" in events, events[-3:]
