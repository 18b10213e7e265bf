"""`GET /api/games/{game}/verbs` (issue 22): each game's verb table served to its pages, with the
kinds of its prompts' and refusals' parameters and its area tokens, so the plugins derive their
verb groups, chance verbs, areas and parameter kinds from the engine instead of restating them.
"""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from engine import registry
from engine.elgrande import data as elgrande_data
from engine.elgrande.game import Game, Options
from engine.elgrande.refusals import PARAM_KINDS as REFUSAL_KINDS
from host.games.elgrande.prompts import PARAM_KINDS as PROMPT_KINDS
from host.games.elgrande.prompts import game_prompt, seat_prompt
from tests.app.conftest import PLAYERS

GAMES = [spec.id for spec in registry.specs()]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_serves_its_spec_verb_table(client: TestClient, game: str) -> None:
    spec = registry.get(game)
    answer = client.get(f"/api/games/{game}/verbs")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["game"] == game
    assert body["verbs"] == [verb.to_json() for verb in spec.verbs]
    assert [v["name"] for v in body["verbs"]] == list(spec.verbs.verbs)
    assert {v["name"] for v in body["verbs"] if v["chance"]} == set(spec.verbs.chance)
    assert isinstance(body["param_kinds"], dict) and isinstance(body["areas"], list)


def test_el_grande_serves_its_parameter_kinds_and_its_areas(client: TestClient) -> None:
    body = client.get("/api/games/elgrande/verbs").json()
    assert body["param_kinds"] == {"prompt": PROMPT_KINDS, "refusal": REFUSAL_KINDS}
    regions = [r.ascii for r in elgrande_data.load("2023").regions]
    assert body["areas"] == [*regions, "castillo", "France", "Portugal", "court"]
    # the board's own area tokens: every one an action may name is served
    board = Game(Options(players=tuple(PLAYERS))).state
    assert set(body["areas"]) == set(board.area_tokens)


def test_an_unknown_game_is_404_with_a_message(client: TestClient) -> None:
    answer = client.get("/api/games/chess/verbs")
    assert answer.status_code == 404
    assert answer.json()["error"] == "no_game" and "chess" in answer.json()["reason"]
    long = client.get(f"/api/games/{'x' * 500}/verbs")
    assert long.status_code == 404 and len(long.json()["reason"]) < 80
    # a saved game's number is no game type either
    assert client.get("/api/games/1/verbs").status_code == 404


def test_an_alias_answers_with_the_games_own_id(client: TestClient) -> None:
    for spec in registry.specs():
        for alias in spec.aliases:
            assert client.get(f"/api/games/{alias}/verbs").json()["game"] == spec.id


def test_the_table_is_public_and_revalidated_by_its_etag(client: TestClient) -> None:
    """No pairing needed (a seat's page and the lobby read it); the browser keeps it and asks
    again with its ETag, answered 304 without a body while it is the same."""
    first = client.get("/api/games/elgrande/verbs")
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == "no-cache" and etag.startswith('"')
    again = client.get("/api/games/elgrande/verbs", headers={"If-None-Match": etag})
    assert again.status_code == 304 and not again.content and again.headers["etag"] == etag
    weak = client.get("/api/games/elgrande/verbs", headers={"If-None-Match": f"W/{etag}"})
    assert weak.status_code == 304
    other = client.get("/api/games/kingdomino/verbs", headers={"If-None-Match": etag})
    assert other.status_code == 200 and other.headers["etag"] != etag


def test_every_parameter_a_prompt_sends_has_a_declared_kind() -> None:
    """The page types a prompt's parameters by PARAM_KINDS alone: a parameter the state table
    sends without a kind would be shown raw (a region's token instead of its name)."""
    rng = random.Random(3)
    sent: set[str] = set()
    for seed in range(6):
        game = Game(Options(players=tuple(PLAYERS), mode="dealer", seed=seed, short_game=True))
        while True:
            sent |= set(game_prompt(game).params) | {"actor"}
            acting = game.current_players()
            for seat in range(len(PLAYERS)):
                legal = [str(a) for a in game.legal_actions(seat)] if seat in acting else []
                own = seat_prompt(game, seat, legal)
                sent |= set(own.params) if own is not None else set()
            if game.is_terminal():
                break
            player = rng.choice(acting)
            game.apply(rng.choice(game.legal_actions(player)), player)
    assert {"colour", "waiting_for", "who", "castillo", "king"} <= sent  # the walk is not idle
    assert sent <= set(PROMPT_KINDS), sent - set(PROMPT_KINDS)
