"""Screenshots of the UI at interesting moments, for a person to look at:
`python -m tests.app.ui_shots` (or `make shots`) writes PNGs to tests/app/artifacts/shots/
(ignored by git).

The real app with the simulated tower. At each moment the table page is shot at the three tablet
sizes (1280 x 800 and 1024 x 768 landscape, 768 x 1024 portrait) and on a phone (390 x 844, the
whole page), and a seat page on a phone, each in the four languages.

- El Grande (a 5-player dealer game played by the browser test's driver): a turn in progress, a
  special action's step, the secret discs of a general scoring, its breakdown, and the table
  after it with the score chart: `shot-<moment>-<size>-<lang>.png` and
  `shot-<moment>-seat-phone-<lang>.png` (96 shots).
- Kingdomino (4 players, played through the API): mid-game and the game's end:
  `shot-kingdomino-<moment>-<size>-<lang>.png`, `shot-kingdomino-<moment>-seat-phone-<lang>.png`.
- El Caballero (4 players, dealer mode): a turn of round 2 and the first scoring with its
  breakdown open: `shot-elcaballero-<moment>-...` as above.

`--game kingdomino` (or elgrande, elcaballero) shoots one game; `--lang en` and `--size 1280x800`
(repeatable) a subset, for a quick look on a loaded machine.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from typing import Any

from tests.app.ui_browser import (
    ARTIFACTS,
    LANGS,
    PHONE,
    TABLET,
    TABLETS,
    app_server,
    browser_context,
    get_json,
    post_json,
    shown,
)
from tests.app.ui_driver import Driver, ec_dealer_game, ec_play_until, ec_step, kd_play

Moment = Callable[[dict[str, Any]], bool]
GAMES = ("elgrande", "kingdomino", "elcaballero")
SIZES = (*TABLETS, "phone")
SHOTS = ARTIFACTS / "shots"
# the subset asked for on the command line (main() narrows these)
CHOSEN: dict[str, tuple[str, ...]] = {"langs": LANGS, "sizes": SIZES}
MADE: list[str] = []


def _moments() -> list[tuple[str, Moment]]:
    def step_kind(kind: str) -> Moment:
        return lambda s: (s["game"].get("step") or {}).get("step") == kind

    return [
        ("placing", lambda s: s["prompt"]["key"] in ("main.place", "main.placing")),
        ("move", step_kind("move")),
        ("disc", lambda s: (s["game"].get("step") or {}).get("purpose") == "general"),
    ]


def _use_lang(page: Any, lang: str) -> None:
    page.select_option("#lang", lang)
    page.wait_for_function(f"document.documentElement.lang === {lang!r}")
    _drawn(page)


def _drawn(page: Any) -> None:
    """Wait until the board (El Grande's map, Kingdomino's kingdoms, El Caballero's map) was
    drawn for the page's current size; a page that never says so is shot as it stands."""
    try:
        page.wait_for_function(
            """() => { const b = document.querySelector('#board');
                       const ec = document.querySelector('#ec-map');
                       if (ec) return (ec.dataset.drawnFor ?? '') === `${innerWidth}x${innerHeight}`
                         || !ec.dataset.drawnFor;
                       if (!b || !b.firstElementChild) return true;
                       const size = `${b.clientWidth}x${b.clientHeight}`;
                       return (b.dataset.drawnFor ?? '') === size; }""",
            timeout=10_000,
        )
    except Exception:  # playwright's TimeoutError
        page.wait_for_timeout(500)
    page.wait_for_timeout(150)  # the last frame painted


def _shoot(page: Any, file: str, full_page: bool) -> None:
    page.screenshot(path=str(SHOTS / file), full_page=full_page)
    MADE.append(file)


def shoot_table(table: Any, name: str, tablet_tab: str | None = None) -> None:
    """The table page at every tablet size and on a phone, in every language."""
    table.bring_to_front()
    if tablet_tab:
        table.locator(f'button[data-tab="{tablet_tab}"]').click()
    for size, viewport in [*TABLETS.items(), ("phone", PHONE)]:
        if size not in CHOSEN["sizes"]:
            continue
        table.set_viewport_size(viewport)
        for lang in CHOSEN["langs"]:
            _use_lang(table, lang)
            _shoot(table, f"shot-{name}-{size}-{lang}.png", full_page=size == "phone")
    table.set_viewport_size(TABLET)
    _use_lang(table, "en")


def shoot_seat(page: Any, name: str) -> None:
    if "phone" not in CHOSEN["sizes"]:
        return
    page.bring_to_front()
    for lang in CHOSEN["langs"]:
        _use_lang(page, lang)
        _shoot(page, f"shot-{name}-seat-phone-{lang}.png", full_page=True)


def _open(context: Any, url: str, viewport: dict[str, int]) -> Any:
    page = context.new_page()
    page.set_viewport_size(viewport)
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    return page


# ------------------------------------------------------------------ El Grande
def shoot_elgrande(base: str) -> None:
    reply = post_json(
        base + "/api/games",
        {"players": ["purple", "green", "blue", "orange", "red"], "mode": "dealer", "seed": 11},
    )
    with browser_context(TABLET) as context:
        table = _open(context, base + "/", TABLET)
        seats = {s["colour"]: _open(context, s["url"], PHONE) for s in reply["seats"]}
        driver = Driver(base, table, seats)
        for name, moment in _moments():
            for _ in range(600):
                state = driver.state()
                if moment(state) and not state["checks"]["issues"]:
                    break
                if not driver.step():
                    break
            shoot_table(table, name, tablet_tab="log")
            actor = (state.get("acting_as") or "").strip()
            if name == "disc":
                shoot_seat(seats["purple"], name)
            elif actor in seats:
                shoot_seat(seats[actor], name)
        # the breakdown dialog after the first general scoring
        while driver.step():
            if table.locator("#overlay:not([hidden]) article.scoring").count():
                break
        shoot_table(table, "scoring-dialog")
        driver.close_scoring_dialog()
        shoot_table(table, "chart", tablet_tab="chart")
        shoot_seat(seats["purple"], "after-scoring")


# ------------------------------------------------------------------ Kingdomino
def shoot_kingdomino(base: str) -> None:
    body = {"game": "kingdomino", "players": ["pink", "yellow", "green", "blue"]}
    created = post_json(base + "/api/games", {**body, "mode": "dealer", "seed": 5})
    tokens = {s["colour"]: s["token"] for s in created["seats"]}
    kd_play(base, tokens, 40, random.Random(1))  # mid-game: every kingdom has 3+ dominoes
    with browser_context(TABLET) as context:
        table = _open(context, base + "/", TABLET)
        table.wait_for_selector("#board .kd-kingdom")
        actor = get_json(base + "/api/state")["game"]["acting"][0]
        seat = _open(context, f"{base}/seat/{tokens.get(actor, tokens['pink'])}", PHONE)
        shown(table, base)
        shoot_table(table, "kingdomino-midgame")
        shoot_seat(seat, "kingdomino-midgame")
        kd_play(base, tokens, 1000, random.Random(2))
        table.wait_for_selector("#kd-final", timeout=60_000)
        shown(table, base)
        shoot_table(table, "kingdomino-over")
        shoot_seat(seat, "kingdomino-over")


# ------------------------------------------------------------------ El Caballero
def _round_3_turn(game: dict[str, Any]) -> bool:
    return bool(game.get("round", 0) >= 3 and game.get("phase") == "turn")


def _ec_acting(base: str, tokens: dict[str, str]) -> str:
    for colour, token in tokens.items():
        if get_json(f"{base}/api/seat/{token}/state")["legal"]:
            return colour
    return next(iter(tokens))


def shoot_elcaballero(base: str) -> None:
    tokens = ec_dealer_game(base)
    rng = random.Random(5)
    # mid-round: round 3's play, a few area cards on the map, a seat to act
    ec_play_until(base, tokens, rng, lambda s: _round_3_turn(s["game"]))
    for _ in range(3):
        ec_step(base, tokens, rng)
    with browser_context(TABLET) as context:
        table = _open(context, base + "/", TABLET)
        actor = _ec_acting(base, tokens)
        seat = _open(context, f"{base}/seat/{tokens[actor]}", PHONE)
        shown(table, base)
        shoot_table(table, "elcaballero-turn")
        shoot_seat(seat, "elcaballero-turn")
        ec_play_until(base, tokens, rng, lambda s: bool(s["game"]["scorings"]))
        shown(table, base)
        if not table.locator("#overlay:not([hidden])").count():
            table.locator("[data-open-scoring]").first.click()
        table.wait_for_selector("#overlay:not([hidden])")
        shoot_table(table, "elcaballero-scoring-dialog")
        table.locator("#overlay [data-close]").first.click()
        table.wait_for_selector("#overlay[hidden]", state="attached")
        shoot_table(table, "elcaballero-scored")
        shoot_seat(seat, "elcaballero-scored")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.app.ui_shots", description=__doc__)
    parser.add_argument("--game", action="append", choices=GAMES, help="default: every game")
    parser.add_argument("--lang", action="append", choices=LANGS, help="default: all four")
    parser.add_argument("--size", action="append", choices=SIZES, help="default: all four")
    args = parser.parse_args(argv)
    CHOSEN["langs"] = tuple(args.lang or LANGS)
    CHOSEN["sizes"] = tuple(args.size or SIZES)
    shooters = {
        "elgrande": shoot_elgrande,
        "kingdomino": shoot_kingdomino,
        "elcaballero": shoot_elcaballero,
    }
    SHOTS.mkdir(parents=True, exist_ok=True)
    for game in args.game or GAMES:
        with app_server() as base:
            shooters[game](base)
    print(f"{len(MADE)} screenshots in {SHOTS}", file=sys.stderr)


if __name__ == "__main__":
    main()
