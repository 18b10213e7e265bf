"""Screenshots of the UI at interesting moments, for a person to look at:
`python -m tests.app.ui_shots` writes PNGs to tests/app/artifacts/shots/.

The real app with the simulated tower; the game is played by the browser test's driver until
each moment: a turn in progress, a special action's step, the secret discs of a general scoring,
its breakdown, and the table after it with the score chart. At each moment the table page is
shot at the three tablet sizes (1280 x 800 and 1024 x 768 landscape, 768 x 1024 portrait) and on
a phone (390 x 844, the whole page), and a seat page on a phone, each in the four languages:
`shot-<moment>-<size>-<lang>.png` and `shot-<moment>-seat-<size>-<lang>.png`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from tests.app.ui_browser import (
    ARTIFACTS,
    PHONE,
    TABLET,
    app_server,
    browser_context,
    post_json,
)
from tests.app.ui_driver import Driver

Moment = Callable[[dict[str, Any]], bool]
LANGS = ("en", "cs", "pl", "uk")
TABLETS = {
    "1280x800": {"width": 1280, "height": 800},
    "1024x768": {"width": 1024, "height": 768},
    "768x1024": {"width": 768, "height": 1024},
}
SHOTS = ARTIFACTS / "shots"


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
    """Wait until the board (when there is one) was drawn for the page's current size."""
    page.wait_for_function(
        """() => { const b = document.querySelector('#board');
                   return !b || !b.querySelector('svg.board')
                     || (b.dataset.drawnFor ?? '') === `${b.clientWidth}x${b.clientHeight}`; }""",
        timeout=20_000,
    )


def shoot_table(table: Any, name: str, tablet_tab: str | None = None) -> None:
    """The table page at every tablet size and on a phone, in every language."""
    table.bring_to_front()
    if tablet_tab:
        table.locator(f'button[data-tab="{tablet_tab}"]').click()
    for size, viewport in [*TABLETS.items(), ("phone", PHONE)]:
        table.set_viewport_size(viewport)
        for lang in LANGS:
            _use_lang(table, lang)
            path = SHOTS / f"shot-{name}-{size}-{lang}.png"
            table.screenshot(path=str(path), full_page=size == "phone")
    table.set_viewport_size(TABLET)
    _use_lang(table, "en")


def shoot_seat(page: Any, name: str) -> None:
    page.bring_to_front()
    for lang in LANGS:
        _use_lang(page, lang)
        page.screenshot(path=str(SHOTS / f"shot-{name}-seat-phone-{lang}.png"), full_page=True)


def main() -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with app_server() as base:
        reply = post_json(
            base + "/api/games",
            {"players": ["purple", "green", "blue", "orange", "red"], "mode": "dealer", "seed": 11},
        )
        with browser_context(TABLET) as context:
            table = context.new_page()
            table.goto(base + "/")
            table.wait_for_selector("body[data-ready='1']")
            seats: dict[str, Any] = {}
            for seat in reply["seats"]:
                page = context.new_page()
                page.set_viewport_size(PHONE)
                page.goto(seat["url"])
                page.wait_for_selector("body[data-ready='1']")
                seats[seat["colour"]] = page
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
    print(f"screenshots in {SHOTS}", file=sys.stderr)


if __name__ == "__main__":
    main()
