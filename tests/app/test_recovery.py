"""Nothing acknowledged is lost: the app restores the exact game after a restart or a crash.

- in process: a game with tower events, an issue and a correction is restored from SQLite into a
  new session with the same engine state and the same throw checks;
- a real crash: `castillo run` as a subprocess, driven over HTTP, killed with SIGKILL at random
  moments; after each restart every action a client got an answer for is in the restored game.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from host.app.session import Role, Session
from host.app.store import Store
from tests.app.conftest import PLAYERS, Clock, Table

REPO = Path(__file__).resolve().parents[2]
RUN = [sys.executable, "-m", "host.cli", "run", "--no-tower", "--port", "0"]


def test_restore_rebuilds_engine_and_checks(tmp_path: Path) -> None:
    clock = Clock()
    table = Table(tmp_path / "castillo.db", clock)
    session = table.session
    game_id = session.new_game(
        {"players": PLAYERS, "mode": "dealer", "seed": 9, "short_game": True}
    )
    active = session.active
    assert active is not None
    game = active.game
    rng = random.Random(4)
    thrown = 0
    missing = ""
    while thrown < 4:
        player = game.current_players()[0]
        legal = game.legal_actions(player)
        castillo = [a for a in legal if a.kind == "place" and a.arg == "castillo"]
        action = castillo[0] if castillo else rng.choice(legal)
        session.act(Role("seat", game.colours[player]), str(action))
        clock.advance(0.5)
        if castillo:
            thrown += 1
            if thrown == 2:
                table.link.emit("uncertain", best="", d=4.0, pulse_us=11000)
                (issue,) = active.checks.issues
                session.confirm(issue.id, [game.colours[player]])
            elif thrown == 3:
                missing = game.colours[player]  # the third cube never arrives
            else:
                table.link.drop(game.colours[player])
    table.link.drop(*[next(c for c in PLAYERS if c != missing)] * 2)  # unannounced
    clock.advance(10.0)
    assert session.run_due()
    kinds = sorted(i.kind for i in active.checks.issues)
    assert kinds == ["extra", "missing"]
    first = active.checks.issues[0]
    session.resolve(first.id, first.options[0], "table note")
    snapshot, checks = game.snapshot(), active.checks.public()
    effective = active.checks.effective()
    table.close()

    again = Session(Store(tmp_path / "castillo.db"), clock=clock)
    assert again.restore_last() == game_id
    restored = again.active
    assert restored is not None
    assert restored.game.snapshot() == snapshot
    assert restored.checks.public() == checks
    assert restored.checks.effective() == effective
    assert any(line.get("note") == "table note" for line in restored.log)


def _start(data_dir: Path) -> tuple[subprocess.Popen[str], str]:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [*RUN, "--data-dir", str(data_dir)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.startswith("listening on "):
            return proc, line.split()[-1].rstrip("/")
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError("the table app did not start")


def _next_action(http: httpx.Client, seats: dict[str, str], rng: random.Random) -> Any:
    """(url, text) of a legal action for whoever acts now (the table, or a seat in secret)."""
    state = http.get("/api/state").json()
    if state["legal"]:
        return "/api/action", rng.choice(state["legal"])
    for colour in state["game"]["acting"]:
        seat_state = http.get(f"/api/seat/{seats[colour]}/state").json()
        if seat_state["legal"]:
            return f"/api/seat/{seats[colour]}/action", rng.choice(seat_state["legal"])
    return None


def test_sigkill_at_random_moments_loses_nothing_acknowledged(tmp_path: Path) -> None:
    rng = random.Random(1234)
    acked: list[str] = []
    seats: dict[str, str] = {}
    game_id = 0
    for round_no in range(4):
        proc, base = _start(tmp_path)
        try:
            with httpx.Client(base_url=base, timeout=5.0) as http:
                if round_no == 0:
                    created = http.post(
                        "/api/games",
                        json={"players": PLAYERS, "mode": "dealer", "seed": 3, "short_game": True},
                    ).json()
                    game_id = created["id"]
                    seats = {s["colour"]: s["token"] for s in created["seats"]}
                else:
                    assert http.get("/api/info").json()["active_game"] == game_id
                killer = threading.Timer(rng.uniform(0.3, 1.2), proc.send_signal, [signal.SIGKILL])
                killer.start()
                try:
                    while True:
                        step = _next_action(http, seats, rng)
                        if step is None:
                            break
                        url, text = step
                        answer = http.post(url, json={"text": text})
                        if answer.status_code == 200:
                            acked.append(text)
                except httpx.HTTPError:
                    pass  # killed mid-request: that action was never acknowledged
                killer.join()
        finally:
            proc.kill()
            proc.wait(timeout=10)
        # what a restart restores (the app's own restore path, reading the same database)
        session = Session(Store(tmp_path / "castillo.db"))
        assert session.restore_last() == game_id
        assert session.active is not None
        played = [str(a) for p, a in session.active.game.history if p >= 0]
        session.store.close()
        assert played[: len(acked)] == acked, f"an acknowledged action was lost (round {round_no})"
        assert len(played) - len(acked) <= 1  # at most one durable action whose answer was lost
        acked = played  # a durable-but-unanswered action is part of the game from now on
    assert len(acked) > 20


def test_a_dealer_game_restores_from_its_logged_draws(tmp_path: Path, monkeypatch: Any) -> None:
    """The dealer's draws are in the log: a restore never redraws, so a change of the engine's
    dealing (or its generator) cannot change a saved game."""
    store = Store(tmp_path / "castillo.db")
    session = Session(store, checks_enabled=False)
    session.new_game({"players": PLAYERS, "mode": "dealer", "seed": 21, "short_game": True})
    active = session.active
    assert active is not None
    game = active.game
    rng = random.Random(2)
    for _ in range(150):
        player = rng.choice(game.current_players())
        session.act(Role("seat", game.colours[player]), str(rng.choice(game.legal_actions(player))))
    assert game.round_number > 2  # action cards were revealed by the dealer on the way
    snapshot = game.snapshot()
    store.close()

    import engine.elgrande.game as engine_game

    class OtherDealer(random.Random):
        def __init__(self, seed: Any = None) -> None:
            super().__init__(f"another dealer {seed}")

    monkeypatch.setattr(engine_game.random, "Random", OtherDealer)
    again = Session(Store(tmp_path / "castillo.db"), checks_enabled=False)
    again.restore_last()
    assert again.active is not None and again.active.game.snapshot() == snapshot
