"""The Kingdomino scoring assistant: GET /api/kingdomino/score (castillo score's input and
output, docs/kingdomino-score.md) and its page, a kingdom entered by tapping squares in Chromium."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.app.ui_browser import (
    app_server,
    browser_context,
    chromium_missing,
    watch_errors,
)
from tests.engine.kingdomino.test_score_cli import EXAMPLE  # the example kingdom

MISSING = chromium_missing()


def _score(client: TestClient, position: Any) -> Any:
    text = position if isinstance(position, str) else json.dumps(position)
    return client.get("/api/kingdomino/score", params={"position": text})


def test_the_route_scores_as_the_command_line_does(client: TestClient) -> None:
    from engine.kingdomino.spec import SPEC

    answer = _score(client, EXAMPLE)
    assert answer.status_code == 200, answer.text
    assert answer.json() == SPEC.score_position(EXAMPLE)
    assert answer.json()["bonus"]["pink"]["harmony"] == 0  # two dominoes were discarded


@pytest.mark.parametrize(
    ("position", "field"),
    [
        (
            {**EXAMPLE, "kingdoms": {"pink": ["F0 F0 G0 W0", *EXAMPLE["kingdoms"]["pink"][1:]]}},
            "kingdoms.pink[0]",
        ),
        (
            {
                **EXAMPLE,
                "kingdoms": {"pink": [r.replace("C", "F0") for r in EXAMPLE["kingdoms"]["pink"]]},
            },
            "kingdoms.pink",
        ),
        (
            {
                **EXAMPLE,
                "check_tiles": True,
                "kingdoms": {
                    "pink": ["M3 M3 . . .", ". . . . .", ". . C . .", ". . . . .", ". . . . ."]
                },
            },
            "kingdoms.pink",
        ),
    ],
)
def test_a_bad_kingdom_is_a_400_naming_where(
    client: TestClient, position: dict[str, Any], field: str
) -> None:
    answer = _score(client, position)
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert body["error"] == "bad_position"
    assert any(name.startswith(field) for name in body["errors"]), body


@pytest.mark.parametrize("text", ["{", "[1, 2]", "x" * 20_000])
def test_what_is_not_a_position_is_a_400(client: TestClient, text: str) -> None:
    answer = _score(client, text)
    assert answer.status_code == 400 and answer.json()["error"] == "bad_position"


@pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
def test_a_kingdom_tapped_in_is_scored_with_its_breakdown() -> None:
    with app_server() as base, browser_context() as context:
        page = context.new_page()
        errors: list[str] = []
        watch_errors(page, errors)
        page.goto(base + "/games/kingdomino/score.html")
        page.wait_for_selector("body[data-ready='1'] button[data-square='c3'][data-value='C']")
        # forest with a crown on b3 and c2, plain forest on b2; a lake on d3
        page.click("button[data-brush='F1']")
        page.click("button[data-square='b3']")
        page.click("button[data-square='c2']")
        page.click("button[data-brush='F0']")
        page.click("button[data-square='b2']")
        page.click("button[data-brush='L0']")
        page.click("button[data-square='d3']")
        page.click("#kd-score")
        page.wait_for_selector("#kd-breakdown")
        assert page.locator("#kd-breakdown h2").inner_text() == "Total: 6"  # 3 squares × 2
        assert page.locator("#kd-breakdown li[data-points='6']").inner_text() == "forest: 3 × 2 = 6"
        # the tile check: two mines with 3 crowns cannot be built from the real dominoes
        page.click("button[data-brush='M3']")
        for square in ("a1", "b1"):
            page.click(f"button[data-square='{square}']")
        page.check("input[name='check_tiles']")
        page.click("#kd-score")
        page.wait_for_selector("#kd-error")
        assert "mine with 3 crowns" in page.locator("#kd-error").inner_text()
        # in Czech, with the rulebook's terrain names
        page.select_option("#lang", "cs")
        page.wait_for_function(
            "() => document.querySelector('#kd-score').textContent === 'Spočítat'"
        )
        page.click("button[data-brush='.']")
        for square in ("a1", "b1"):
            page.click(f"button[data-square='{square}']")
        page.click("#kd-score")
        page.wait_for_selector("#kd-breakdown li[data-points='6']")
        assert page.locator("#kd-breakdown li[data-points='6']").inner_text() == "les: 3 × 2 = 6"
        refused = [e for e in errors if "status of 400" in e]
        assert len(refused) == 1 and len(errors) == 1, errors


def test_typed_dominoes_come_back_as_the_rows_of_a_position(client: TestClient) -> None:
    answer = client.get("/api/kingdomino/kingdom", params={"dominoes": "3 e3s\n16 f5e"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["rows"][2] == ". . C W0 S0"
    refused = client.get("/api/kingdomino/kingdom", params={"dominoes": "3 e3s\n13 a1e"})
    assert refused.status_code == 400
    body = refused.json()
    assert body["error"] == "bad_position" and body["key"] == "kingdomino.refuse.no_contact"
    assert body["params"]["line"] == 2 and body["reason"].startswith("line 2: ")
    for params in ({"dominoes": "3 e3s", "size": 6}, {"dominoes": "x" * 5000}):
        assert client.get("/api/kingdomino/kingdom", params=params).status_code == 400


@pytest.mark.skipif(MISSING is not None, reason=f"no browser: {MISSING}")
def test_a_kingdom_typed_as_its_dominoes_is_laid_and_scored() -> None:
    with app_server() as base, browser_context() as context:
        page = context.new_page()
        errors: list[str] = []
        watch_errors(page, errors)
        page.goto(base + "/games/kingdomino/score.html")
        page.wait_for_selector("body[data-ready='1'] #kd-typed")
        # 19 (W1 F0): its crowned wheat on f5 beside the castle (e5), its forest on g5; 3 (F0 F0)
        # east of that forest. Five squares wide: framed from the castle's corner.
        page.fill("#kd-typed", "19 f5e\n3 h5e")
        page.click("#kd-lay")
        page.wait_for_selector("#kd-typed-ok")
        row = [page.get_attribute(f"button[data-square='{c}1']", "data-value") for c in "abcde"]
        assert row == ["C", "W1", "F0", "F0", "F0"]
        page.click("#kd-score")
        page.wait_for_selector("#kd-breakdown li[data-points='1']")  # wheat 1 × 1, forest 3 × 0
        assert page.locator("#kd-breakdown h2").inner_text() == "Total: 1"
        # a line the rules refuse, in Czech: the line and the terrains named
        page.select_option("#lang", "cs")
        page.wait_for_function("() => document.querySelector('#kd-lay').textContent === 'Přiložit'")
        page.fill("#kd-typed", "19 f5e\n13 e2n")  # 13 (W0 F0) touches nothing
        page.click("#kd-lay")
        page.wait_for_selector("#kd-typed-error")
        text = page.locator("#kd-typed-error").inner_text()
        assert text.startswith("Řádek 2:") and "obilné pole" in text and "les" in text, text
        refused = [e for e in errors if "status of 400" in e]
        assert len(refused) == 1 and len(errors) == 1, errors
