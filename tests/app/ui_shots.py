"""Screenshots of the UI at interesting moments, for a person to look at:
`python -m tests.app.ui_shots` writes PNGs to tests/app/artifacts/.

The real app with the simulated tower; the game is played by the browser test's driver until
each moment: a turn in progress, a special action's step, secret discs, a scoring breakdown, the
end. The tablet (1280 x 800) shows the table in English (or Czech), the phones (390 x 844) the
seat pages in four languages.
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


def _moments() -> list[tuple[str, Moment]]:
    def step_kind(kind: str) -> Moment:
        return lambda s: (s["game"].get("step") or {}).get("step") == kind

    return [
        ("placing", lambda s: s["prompt"]["key"] in ("main.place", "main.placing")),
        ("move", step_kind("move")),
        ("disc", lambda s: (s["game"].get("step") or {}).get("purpose") == "general"),
    ]


def main() -> None:
    ARTIFACTS.mkdir(exist_ok=True)
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
            for seat, lang in zip(reply["seats"], ("en", "cs", "pl", "uk", "en"), strict=True):
                page = context.new_page()
                page.set_viewport_size(PHONE)
                page.goto(seat["url"])
                page.wait_for_selector("body[data-ready='1']")
                page.select_option("#lang", lang)
                seats[seat["colour"]] = page
            driver = Driver(base, table, seats)
            for name, moment in _moments():
                for _ in range(600):
                    state = driver.state()
                    if moment(state) and not state["checks"]["issues"]:
                        break
                    if not driver.step():
                        break
                table.bring_to_front()
                table.screenshot(path=str(ARTIFACTS / f"shot-{name}-tablet.png"))
                actor = (state.get("acting_as") or "").strip()
                if name == "disc":
                    for colour, page in seats.items():
                        page.screenshot(path=str(ARTIFACTS / f"shot-disc-{colour}-phone.png"))
                elif actor in seats:
                    seats[actor].screenshot(path=str(ARTIFACTS / f"shot-{name}-seat-phone.png"))
            # the breakdown dialog after the first general scoring
            while driver.step():
                if table.locator("#overlay:not([hidden]) article.scoring").count():
                    break
            table.screenshot(path=str(ARTIFACTS / "shot-scoring-dialog-tablet.png"))
            table.set_viewport_size(PHONE)
            table.screenshot(path=str(ARTIFACTS / "shot-scoring-dialog-phone.png"), full_page=True)
            table.set_viewport_size(TABLET)
            driver.close_scoring_dialog()
            table.select_option("#lang", "cs")
            table.locator('button[data-tab="chart"]').click()
            table.screenshot(path=str(ARTIFACTS / "shot-chart-cs-tablet.png"))
            table.set_viewport_size(PHONE)
            table.screenshot(path=str(ARTIFACTS / "shot-table-cs-phone.png"), full_page=True)
    print(f"screenshots in {ARTIFACTS}", file=sys.stderr)


if __name__ == "__main__":
    main()
