"""Nothing acknowledged is lost: the app restores the exact game after a restart or a crash.

- in process: a game with tower events, an issue and a correction is restored from SQLite into a
  new session with the same engine state and the same throw checks;
- a real crash: `castillo run` as a subprocess, driven over HTTP, killed with SIGKILL at random
  moments; after each restart every action a client got an answer for is in the restored game.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from host.app.server import Access, create_app
from host.app.session import Role, Session
from host.app.store import Store
from host.tower.checks import Checks
from tests.app.conftest import PLAYERS, Clock, LoopbackClient, Table

REPO = Path(__file__).resolve().parents[2]
RUN = [sys.executable, "-m", "host.cli", "run", "--no-tower", "--local", "--port", "0"]


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
        session.act(Role("seat", game.state.colours[player]), str(action))
        clock.advance(0.5)
        if castillo:
            thrown += 1
            if thrown == 2:
                table.link.emit("uncertain", best="", d=4.0, pulse_us=11000)
                (issue,) = active.checks.issues
                session.confirm(issue.id, [game.state.colours[player]])
            elif thrown == 3:
                missing = game.state.colours[player]  # the third cube never arrives
            else:
                table.link.drop(game.state.colours[player])
    table.link.drop(*[next(c for c in PLAYERS if c != missing)] * 2)  # unannounced
    clock.advance(10.0)
    assert session.run_due()
    kinds = sorted(i.kind for i in active.checks.issues)
    assert kinds == ["extra", "wrong_colour"]  # one missing cube pairs with one stray
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


def start_server(data_dir: Path) -> tuple[subprocess.Popen[str], str]:
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
    # generous: on a loaded machine the app (and the simulated tower's MicroPython) start slowly
    deadline = time.monotonic() + 90
    lines: list[str] = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.startswith("listening on "):
            return proc, line.split()[-1].rstrip("/")
        lines.append(line)
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError("the table app did not start: " + "".join(lines[-10:]))


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
        proc, base = start_server(tmp_path)
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
                # the kill lands at a random moment once this round has played a random number
                # of actions (counted, not timed: a loaded machine plays fewer per second)
                kill_after = rng.randint(6, 12)
                killer = threading.Timer(rng.uniform(0.0, 0.05), proc.send_signal, [signal.SIGKILL])
                played_now = 0
                try:
                    while True:
                        step = _next_action(http, seats, rng)
                        if step is None:
                            break
                        url, text = step
                        answer = http.post(url, json={"text": text})
                        if answer.status_code == 200:
                            acked.append(text)
                            played_now += 1
                            if played_now == kill_after:
                                killer.start()
                except httpx.HTTPError:
                    pass  # killed mid-request: that action was never acknowledged
                if not killer.is_alive() and played_now < kill_after:
                    killer.start()  # the game ended first: killed all the same
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
        session.act(
            Role("seat", game.state.colours[player]), str(rng.choice(game.legal_actions(player)))
        )
    assert game.state.round_number > 2  # action cards were revealed by the dealer on the way
    snapshot = game.snapshot()
    store.close()

    import engine.core.chance as chance

    real_draw = chance.seeded_draw

    def another_dealer(seed: int, position: int, count: int) -> int:
        return (real_draw(seed, position, count) + 1) % count

    # a restore that drew again, instead of replaying the logged draws, would deal otherwise
    monkeypatch.setattr(chance, "seeded_draw", another_dealer)
    again = Session(Store(tmp_path / "castillo.db"), checks_enabled=False)
    again.restore_last()
    assert again.active is not None and again.active.game.snapshot() == snapshot


# --- one bad row or event never stops a game (issue 9) ---------------------------------------


def _game_with_a_throw(table: Table) -> tuple[int, str]:
    """A game whose first player has thrown a cube the tower saw; (game id, that colour)."""
    session = table.session
    game_id = session.new_game({"players": PLAYERS, "mode": "table", "short_game": True})
    active = session.active
    assert active is not None
    game = active.game
    while True:
        player = game.current_players()[0]
        legal = game.legal_actions(player)
        castillo = [a for a in legal if a.kind == "place" and a.arg == "castillo"]
        action = castillo[0] if castillo else legal[0]
        if player < 0:
            session.act(Role.table(), str(action))
        else:
            session.act(Role("seat", game.state.colours[player]), str(action))
        if castillo:
            colour = game.state.colours[player]
            table.link.drop(colour)
            return game_id, colour


def _ledger_rows(db: Path) -> list[str]:
    with sqlite3.connect(db) as raw:
        return [row[0] for row in raw.execute("SELECT entry FROM ledger ORDER BY id")]


def test_an_event_the_checks_cannot_take_costs_that_event_only(
    tmp_path: Path, monkeypatch: Any
) -> None:
    table = Table(tmp_path / "castillo.db")
    try:
        _game_with_a_throw(table)
        session = table.session
        real_tower = Checks.tower

        def failing_once(self: Checks, kind: str, *args: Any) -> None:
            if kind == "gate":
                raise RuntimeError("the checks fell over")
            real_tower(self, kind, *args)

        monkeypatch.setattr(Checks, "tower", failing_once)
        table.link.emit("gate", open=True)  # old: the exception reached the link (no ack)
        monkeypatch.setattr(Checks, "tower", real_tower)
        status = session.tower_status()
        assert status["warning_key"] == "tower.warn.not_counted"
        table.link.drop("green")  # the stream goes on
        assert session.active is not None
        assert any(c.colour == "green" for c in session.active.checks.seen)
        # the same entry offered again (a link retrying it) is not stored twice
        last = session.store.last_ledger()
        assert last is not None
        rows = len(_ledger_rows(table.db))
        table.session.sink.append(last)
        assert len(_ledger_rows(table.db)) == rows
        tower_rows = [r for r in session.store.log(session.active.id) if r.kind == "tower"]
        seqs = [r.payload["frame"]["seq"] for r in tower_rows if r.payload.get("frame")]
        assert len(seqs) == len(set(seqs))
    finally:
        table.close()


def test_a_merged_event_with_a_nonsense_estimate_is_asked_about(tmp_path: Path) -> None:
    table = Table(tmp_path / "castillo.db")
    try:
        _game_with_a_throw(table)
        link = table.link
        link.seq += 1  # an event the fake's own counting cannot make: straight to the ledger
        frame = {"t": "ev", "seq": link.seq, "k": "merged", "ms": 5, "n": {}, "est": "x"}
        link.ledger.accept(link.boot, frame)  # old: ValueError after the commit
        active = table.session.active
        assert active is not None
        (issue,) = [i for i in active.checks.issues if i.kind == "confirm"]
        assert issue.cubes == 2
    finally:
        table.close()


def test_restore_reports_a_bad_row_and_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "castillo.db"
    table = Table(db)
    game_id, colour = _game_with_a_throw(table)
    session = table.session
    active = session.active
    assert active is not None
    table.link.drop(colour)  # a cube nobody announced: an `extra` issue once its window ends
    table.clock.advance(10.0)
    assert session.run_due()
    (extra,) = active.checks.issues
    played = [str(a) for _, a in active.game.history]
    store, at = table.store, table.clock()
    # rows an older version wrote: a note holding a lone surrogate, a tower event the throw
    # checks raised on, an action that no longer replays, and a payload that is not JSON
    note = store.append(
        game_id, "resolve", {"issue": extra.id, "how": "accept_game", "note": "\ud800"}, at
    )
    frame = {"t": "ev", "seq": 90, "k": "merged", "ms": 5, "n": {}, "pulse_us": 3, "est": "x"}
    store.append(game_id, "tower", {"kind": "event", "frame": frame, "totals": {}}, at, "tower")
    bad_action = store.append(game_id, "action", {"text": "place Atlantis"}, at, colour)
    unreadable = store.append(game_id, "tick", {}, at)
    table.close()
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE log SET payload = '{not json' WHERE id = ?", (unreadable,))

    again = Table(db)
    try:
        session = again.session
        assert session.restore_last() == game_id
        restored = session.active
        assert restored is not None
        assert [str(a) for _, a in restored.game.history] == played
        problems = [
            (line["entry"], line["text"]) for line in restored.log if line["kind"] == "problem"
        ]
        assert problems == [(note, "repaired"), (bad_action, "skipped"), (unreadable, "skipped")]
        # the repaired resolve still resolved its issue; the old merged row asks for colours
        assert [(i.kind, i.cubes) for i in restored.checks.issues] == [("confirm", 2)]
        assert any(line.get("note") == "\ufffd" for line in restored.log)
        state = session.state_for(Role.table())
        json.dumps(state, ensure_ascii=False).encode("utf-8")  # old: UnicodeEncodeError
        assert "place Atlantis" not in json.dumps(state)  # the reason stays in the server log
        app = create_app(session, Access())
        with LoopbackClient(app) as client:
            assert client.post(f"/api/games/{game_id}/continue", json={}).status_code == 200
            assert client.get("/api/state").status_code == 200
    finally:
        again.close()


def test_a_game_whose_start_is_damaged_is_refused_not_a_server_error(tmp_path: Path) -> None:
    db = tmp_path / "castillo.db"
    table = Table(db)
    game_id, _ = _game_with_a_throw(table)
    table.close()
    with sqlite3.connect(db) as raw:
        raw.execute(
            'UPDATE games SET start = \'{"options": {"players": 7}}\' WHERE id = ?', (game_id,)
        )
    again = Table(db)
    try:
        assert again.session.restore_last() is None  # old: an exception out of start-up
        with LoopbackClient(create_app(again.session, Access())) as client:
            answer = client.post(f"/api/games/{game_id}/continue", json={})
            assert answer.status_code == 409 and answer.json()["error"] == "unreadable"
            assert client.get("/api/state").status_code == 200
    finally:
        again.close()
