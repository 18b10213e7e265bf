"""The castillo's secret at the table (issue 11, docs/castillo-secrecy.md): the table's log and
every API answer to a client show a castillo throw during the turn it was heard in, then no more,
unless the table chose the open castillo."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from engine.elgrande.game import Game
from host.app.session import Role
from tests.app.conftest import Table, new_game


def game_of(table: Table) -> Game:
    active = table.session.active
    assert active is not None and isinstance(active.game, Game)
    return active.game


def act(table: Table, text: str) -> None:
    game = game_of(table)
    (player,) = game.current_players()
    table.session.act(Role("seat", game.state.colours[player]), text)


def passive(game: Game) -> str:
    legal = [str(a) for a in game.legal_actions(game.current_players()[0])]
    for wanted in ("skip", "done", "take 0"):
        if wanted in legal:
            return wanted
    return next((a for a in legal if "castillo" not in a), legal[0])


def throw_then_end_the_turn(table: Table, client: TestClient) -> tuple[str, dict[str, Any]]:
    """The next player throws one caballero into the castillo (the tower sees it); returns the
    colour and the table's state during that turn, then ends the turn."""
    game = game_of(table)
    for _ in range(500):
        if game.state.phase == "take":
            break
        for player in game.current_players():
            table.session.act(Role("seat", game.state.colours[player]), passive(game))
    colour = game.state.colours[game.current_players()[0]]
    takes = [a for a in game.legal_actions() if a.kind == "take"]
    act(table, str(max(takes, key=lambda a: int(a.arg))))
    cards = [a for a in game.legal_actions() if a.kind == "card"]
    act(table, str(max(cards, key=lambda a: game.state.data.cards[a.arg].place)))
    act(table, "place castillo")
    table.link.drop(colour)
    during = client.get("/api/state").json()
    turn = game.state.turn
    while game.state.turn is turn:
        act(table, passive(game))
    return colour, during


def castillo_lines(state: dict[str, Any]) -> list[Any]:
    table_log = [line["text"] for line in state["log"] if "castillo" in line["text"]]
    engine_log = [text for _, text in state["game"]["log"] if "castillo" in text]
    return table_log + engine_log + state["game"]["throws"]


@pytest.mark.parametrize("open_castillo", [False, True], ids=["closed", "open"])
def test_a_throw_is_public_during_its_turn_only(
    table: Table, client: TestClient, open_castillo: bool
) -> None:
    new_game(client, open_castillo=open_castillo)
    colour, during = throw_then_end_the_turn(table, client)
    assert castillo_lines(during)  # heard at the table: on the log and in the view
    assert during["game"]["throws"][-1]["colour"] == colour
    after = client.get("/api/state").json()
    seats = client.get("/api/seats").json()["seats"]
    other = next(s for s in seats if s["colour"] != colour)
    seat_view = client.get(f"/api/seat/{other['token']}/state").json()
    for state in (after, seat_view):
        assert bool(castillo_lines(state)) == open_castillo
        assert ("province" in state["game"]) == (open_castillo or state is seat_view)
    assert list(seat_view["game"].get("province", {})) == (
        list(after["game"]["province"]) if open_castillo else [other["colour"]]
    )
    assert after["game"]["castillo"]["total"] == 1  # the total stays public
    assert ("contents" in after["game"]["castillo"]) == open_castillo
