"""What a Board Game Arena player expects (issue 11), through the table app's API: the open
power cards option, the action cards taken this round, and secret discs logged once revealed."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from engine import registry
from engine.core.actions import Action
from engine.elgrande.game import Game, Options
from host.app.session import Role
from host.games import adapter_for
from tests.app.conftest import Table, new_game
from tests.app.test_castillo_secret import game_of, passive


def _seat_state(client: TestClient, colour: str) -> dict[str, Any]:
    seats = client.get("/api/seats").json()["seats"]
    token = next(s["token"] for s in seats if s["colour"] == colour)
    state: dict[str, Any] = client.get(f"/api/seat/{token}/state").json()
    return state


def _play_until(table: Table, done: Any) -> None:
    game = game_of(table)
    for _ in range(2000):
        if done(game):
            return
        for player in game.current_players():
            table.session.act(Role("seat", game.state.colours[player]), passive(game))
    raise AssertionError("never reached")


def test_open_power_cards_are_in_every_clients_state(table: Table, client: TestClient) -> None:
    new_game(client, open_power_cards=True)
    game = game_of(table)
    _play_until(table, lambda g: g.state.phase == "take")
    state = client.get("/api/state").json()
    assert state["options"]["open_power_cards"] is True
    remaining = state["game"]["remaining_power"]
    for p, colour in enumerate(game.state.colours):
        assert remaining[colour] == sorted(game.state.hands[p])
        assert len(remaining[colour]) == 12  # one played this round
    assert _seat_state(client, "green")["game"]["remaining_power"] == remaining


def test_power_cards_stay_secret_without_the_option(table: Table, client: TestClient) -> None:
    new_game(client)
    _play_until(table, lambda g: g.state.phase == "take")
    state = client.get("/api/state").json()
    assert state["options"]["open_power_cards"] is False
    assert "remaining_power" not in state["game"]
    assert "remaining_power" not in _seat_state(client, "green")["game"]


def test_the_cards_taken_this_round_are_public(table: Table, client: TestClient) -> None:
    new_game(client)
    _play_until(table, lambda g: g.state.phase == "main")
    game = game_of(table)
    acting = game.state.colours[game.current_players()[0]]
    state = client.get("/api/state").json()
    assert state["game"]["taken"] == {acting: game.state.turn.card}  # type: ignore[union-attr]
    assert _seat_state(client, "green")["game"]["taken"] == state["game"]["taken"]


def test_a_general_scorings_discs_are_logged_once_revealed(
    table: Table, client: TestClient
) -> None:
    new_game(client)
    _play_until(table, lambda g: g.state.phase == "scoring")
    game = game_of(table)
    first = game.current_players()[0]
    table.session.act(Role("seat", game.state.colours[first]), passive(game))
    state = client.get("/api/state").json()
    assert not [line for line in state["log"] if line["kind"] == "reveal"]
    assert state["log"][-1]["text"] == "disc ?"  # set, not shown
    _play_until(table, lambda g: g.state.phase != "scoring")
    scoring = game.state.scorings[-1]
    for state in (client.get("/api/state").json(), _seat_state(client, "blue")):
        reveals = [line for line in state["log"] if line["kind"] == "reveal"]
        assert len(reveals) == 1
        assert reveals[0]["text"] == "general" and reveals[0]["discs"] == scoring["discs"]
        assert reveals[0]["actor"] == "table"
        kinds = [line["kind"] for line in state["log"]]
        assert kinds.index("reveal") < kinds.index("scoring")  # the discs, then the scoring
        engine_log = state["game"]["log"]
        for colour, region in scoring["discs"].items():
            assert [colour, f"disc {region}"] in engine_log


def test_a_power_card_taken_back_is_logged_by_the_table_with_open_power_cards() -> None:
    """Power of attorney: from an open discard pile the card is seen leaving (docs/variants.md);
    by default "you need not show it to the others"."""
    adapter = adapter_for(registry.get("elgrande"))
    back = Action("powerback", "9")
    assert adapter.public_text(back, Game(Options(open_power_cards=True))) == "powerback 9"
    assert adapter.public_text(back, Game(Options())) == "powerback ?"
    assert adapter.public_text(back) == "powerback ?"
    assert adapter.public_text(Action("disc", "Toledo"), Game(Options())) == "disc ?"
