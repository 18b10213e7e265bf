"""El Caballero in the table app, without a browser: its routes for the UI plugin, a dealer game
without a catalogue refused on its field, the power cards in hand only on their own phone, and
every string the plugin shows in all four languages."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from engine.elcaballero.cards import card_from_text
from engine.elcaballero.game import Game
from engine.elcaballero.rules import load_rules
from tests.app.conftest import Table

STATIC = Path(__file__).resolve().parents[2] / "host" / "games" / "elcaballero" / "static"
LANGS = ("en", "cs", "pl", "uk")
PLAYERS = ["red", "blue", "green"]


def test_the_plugin_gets_the_printed_numbers_and_the_catalogue(client: TestClient) -> None:
    rules = client.get("/api/elcaballero/rules").json()
    printed = load_rules()
    assert rules["power_caballeros"] == list(printed.power_caballeros)
    assert rules["two_area_cards"] == printed.two_area_cards == 9
    assert rules["caballero_card"] == {"front": [1, 2, 3, 4], "back": [5, 6, 7, 8]}
    catalogue = client.get("/api/elcaballero/catalogue").json()
    assert catalogue["synthetic"] is True and "not the real cards" in catalogue["label"]
    ids = [card["id"] for card in catalogue["cards"]]
    assert len(ids) == len(set(ids)) > 5
    for card in catalogue["cards"]:
        assert card_from_text(card["text"]).text == card["text"]


def test_dealer_mode_without_a_catalogue_is_refused_beside_the_catalogue(
    client: TestClient,
) -> None:
    body = {"game": "elcaballero", "players": PLAYERS, "mode": "dealer", "catalogue": ""}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400
    errors = answer.json()["errors"]
    assert list(errors) == ["catalogue"] and "synthetic" in errors["catalogue"]
    answer = client.post("/api/games", json={**body, "catalogue": "synthetic"})
    assert answer.status_code == 200, answer.text


def _keys(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every (path, value) of a JSON document's object keys."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield f"{path}.{key}", item
            yield from _keys(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _keys(item, f"{path}[{i}]")


def test_power_cards_in_hand_are_only_on_their_own_phone(client: TestClient, table: Table) -> None:
    created = client.post(
        "/api/games",
        json={
            "game": "elcaballero",
            "players": PLAYERS,
            "mode": "dealer",
            "catalogue": "synthetic",
            "seed": 4,
        },
    ).json()
    tokens = {seat["colour"]: seat["token"] for seat in created["seats"]}
    for _ in range(2):  # two power cards played: the hands now differ
        state = client.get("/api/state").json()
        actor = state["game"]["acting"][0]
        assert not any(text.startswith("power") for text in state["legal"])  # never at the table
        mine = client.get(f"/api/seat/{tokens[actor]}/state").json()
        played = max(int(t.split()[1]) for t in mine["legal"])
        answer = client.post(f"/api/seat/{tokens[actor]}/action", json={"text": f"power {played}"})
        assert answer.status_code == 200, answer.text
    assert table.session.active is not None
    game = table.session.active.game
    assert isinstance(game, Game)
    table_state = client.get("/api/state").json()
    assert not [p for p, _ in _keys(table_state) if p.endswith((".hand", ".hands"))]
    for seat, colour in enumerate(PLAYERS):
        state = client.get(f"/api/seat/{tokens[colour]}/state").json()
        hands = [(p, v) for p, v in _keys(state) if p.endswith((".hand", ".hands"))]
        assert hands == [(".game.hand", game.state.hands[seat])], colour
        others = [h for s, h in enumerate(game.state.hands) if s != seat]
        assert all(other != game.state.hands[seat] for other in others)


def _used_keys() -> set[str]:
    """The plugin's i18n keys: every literal `ec.` key, and each family built from a value."""
    used: set[str] = set()
    for path in STATIC.glob("*.js"):
        text = path.read_text("utf-8")
        used |= set(re.findall(r"""["'`](ec\.[a-z_.]+[a-z_])["'`]""", text))
    families = {
        "ec.prompt.": ("start", "reveal"),
        "ec.side.": tuple("NESW"),
        "ec.log.": (
            *("start", "reveal", "power", "reinforce", "area", "knight", "raise", "ship"),
            *("reship", "shipback", "moveship", "castillo", "withdraw", "movecastillo", "done"),
        ),
        "ec.act.": (
            *("knight", "raise", "ship", "reship", "shipback", "moveship", "castillo"),
            *("withdraw", "movecastillo", "reinforce", "done"),
        ),
    }
    for prefix, names in families.items():
        used |= {prefix + name for name in names}
    return used


def test_every_string_of_the_plugin_is_in_every_language() -> None:
    bundles = {
        lang: json.loads((STATIC / "i18n" / lang / "ui.json").read_text("utf-8")) for lang in LANGS
    }
    used = _used_keys()
    assert len(used) > 60
    assert used <= set(bundles["en"]), sorted(used - set(bundles["en"]))
    for lang in LANGS:
        assert set(bundles[lang]) == set(bundles["en"]), lang
        assert all(text.strip() for text in bundles[lang].values()), lang
        for key, text in bundles[lang].items():  # the same {placeholders} as the English
            assert set(re.findall(r"\{\w+\}", text)) == set(
                re.findall(r"\{\w+\}", bundles["en"][key])
            ), (lang, key)
    # the rulebook's Czech terms
    czech = " ".join(bundles["cs"].values())
    assert "caballer" in czech and "castillo" in czech
