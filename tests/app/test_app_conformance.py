"""One conformance suite through the running app, for every registered game (issue 21).

For each game of `engine.registry` (and the test-only Nim, which the suite's server registers),
random complete games are played through `castillo run` as a real process, the way the pages
play them: the game created with POST /api/games as the lobby does, each seat acting through
its own seat link (its WebSocket, now and then its HTTP route), the table entering the chance
steps, every actor picking uniformly among the `legal` actions its state offers it. The server
is killed with SIGKILL at random moments (a timer, or just after an action was sent, before its
answer) and started again on the same data. What is checked at every step, and how, is in
tests/app/app_conformance/player.py and secrets.py; which games, in plans.py.

`make test` plays the quick plan of each game: every player count in both table modes (the
table enters the chance steps, or the app deals) and every option with a non-default value at
least once, one kill a game. `make soak` (CASTILLO_SOAK=N, default 3) plays the full plan (every
test option of every player count in both modes) N times with more kills, each time from
another seed.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from engine import registry
from tests.app.app_conformance import plans
from tests.app.app_conformance.player import Figures, play_plans

SEED = 2026_11_27
KILLS_PER_GAME = 1  # make test
SOAK_KILLS_PER_GAME = 4
GAME_IDS = [spec.id for spec in plans.specs()]


def test_every_registered_game_is_played() -> None:
    """A game gets the suite by registering: the suite's games are the registry's (and Nim)."""
    assert set(registry.ids()) <= set(GAME_IDS)
    assert "nim" in GAME_IDS


def test_castillo_run_listens_before_it_says_so() -> None:
    """`castillo run` prints "listening on" during the app's start-up; its sockets listen from
    the moment they are bound, so a client that connects on reading the line is not refused
    (the suite's servers were refused about once in three restarts, tests/app/test_recovery.py
    could be too)."""
    from host.commands.run import listen

    for local in (True, False):
        sockets = listen(local, 0)
        try:
            for sock in sockets:
                assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 1
            with socket.create_connection(("127.0.0.1", sockets[0].getsockname()[1]), 5):
                pass
        finally:
            for sock in sockets:
                sock.close()


def test_the_lobby_may_send_every_option_the_catalogue_lists(client: TestClient) -> None:
    """A form built from GET /api/catalogue (the lobby's generated one) sends each option it
    lists: each, at its default, is taken by POST /api/games. (El Grande's catalogue listed the
    engine's `card_set`, which a new game refuses: the suite's plans found it.)"""
    for entry in client.get("/api/catalogue").json()["games"]:
        body = {"game": entry["id"], **{o["name"]: o["default"] for o in entry["options"]}}
        body["players"] = body["players"][: entry["player_counts"][0]]
        answer = client.post("/api/games", json=body)
        assert answer.status_code == 200, (entry["id"], answer.text)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_plans_cover_every_count_mode_and_option(game_id: str) -> None:
    spec = plans.spec_of(game_id)
    has_modes = any(o["name"] == "mode" for o in spec.options_schema())
    for chosen in (plans.quick_plan(spec), plans.full_plan(spec)):
        assert plans.uncovered(spec, chosen) == []
        played = {(p.players, p.mode) for p in chosen}
        modes = plans.MODES if has_modes else ("",)
        assert played == {(n, m) for n in spec.player_counts for m in modes}
        for plan in chosen:
            body = plan.body(spec)
            assert body["game"] == game_id and len(body["players"]) == plan.players
            if plan.mode == "table":
                assert body.get("seed") is None  # a table game draws nothing
    quick = plans.quick_plan(spec)
    assert len(quick) <= len(plans.full_plan(spec))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_plays_through_the_running_app(game_id: str, tmp_path: Path) -> None:
    spec = plans.spec_of(game_id)
    chosen = plans.quick_plan(spec)
    figures = play_plans(chosen, tmp_path, SEED + GAME_IDS.index(game_id), KILLS_PER_GAME)
    print(f"{game_id}: {figures.line()}")
    assert figures.games == {game_id: len(chosen)}
    assert figures.kills >= 1 and figures.acked > len(chosen)
    assert figures.messages > figures.acked


@pytest.mark.slow
def test_soak(tmp_path: Path) -> None:
    """`make soak`: the full plan of every game, CASTILLO_SOAK times, more kills a game."""
    rounds = int(os.environ.get("CASTILLO_SOAK", "3"))
    kills = int(os.environ.get("CASTILLO_SOAK_KILLS", str(SOAK_KILLS_PER_GAME)))
    total = Figures()
    for round_no in range(rounds):
        for index, game_id in enumerate(GAME_IDS):
            seed = SEED + 1000 * (round_no + 1) + index
            chosen = plans.full_plan(plans.spec_of(game_id))
            workdir = tmp_path / f"{round_no}-{game_id}"
            workdir.mkdir()
            figures = play_plans(chosen, workdir, seed, kills)
            print(f"round {round_no + 1}, {game_id} (seed {seed}): {figures.line()}", flush=True)
            total.add(figures)
    print(f"soak, {rounds} rounds: {total.line()}")
    assert total.kills >= rounds * len(GAME_IDS)
