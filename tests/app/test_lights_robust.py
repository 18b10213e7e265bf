"""Issue 11, "The lights never stop": every scene fits the link, and the lights worker
survives any error (logs it, shows a tower warning, follows the game on)."""

from __future__ import annotations

import json
import threading
import time
from itertools import product
from typing import Any

import pytest
from fastapi.testclient import TestClient
from towerfw import codec

from host.app.session import ActionError, Role, Session
from host.paths import hardware_dir
from host.tower.lights import (
    ANIM_LETTERS,
    Frame,
    LightsState,
    LightsWorker,
    check_fits,
    ledmap_order,
    pack,
    palette,
    program,
)
from host.tower.link import CommandFailed
from tests.app.conftest import PLAYERS, Table, new_game


def all_colours() -> list[tuple[int, int, int]]:
    pal = palette()
    return [*pal.players.values(), pal.king, pal.castillo_idle, pal.check_waiting, pal.warning]


def test_every_scene_of_the_largest_board_fits_one_link_frame() -> None:
    order = ledmap_order()
    ledmap = json.loads((hardware_dir() / "ledmap.json").read_text(encoding="utf-8"))
    assert len(order) == len(ledmap["segments"]) == 12
    flash = program(LightsState(), frozenset(order), flash=True).intro[0]
    old = {
        "t": "cmd",
        "c": "scene",
        "id": 2**31 - 1,
        "segs": {n: list(c) for n, c in flash.segs.items()},
    }
    old["anim"], old["clear"] = dict(flash.anim), True
    with pytest.raises(ValueError):  # the named form of the warning flash overflowed the link
        codec.encode(old)
    sizes = set()
    for colour, anim in product(all_colours(), ANIM_LETTERS):
        frame = Frame(dict.fromkeys(order, colour), dict.fromkeys(order, anim))
        line = codec.encode({"t": "cmd", "c": "scene", "id": 2**31 - 1, "leds": pack(frame, order)})
        sizes.add(len(line))
    assert max(sizes) <= codec.MAX_LINE and len(sizes) == 1  # fixed size whatever the colours
    with pytest.raises(ValueError):
        check_fits([f"s{i}" for i in range(80)])  # a map that could not fit is refused at start


class FlakyLink:
    """Fails the first scenes with errors the link never promised (then works)."""

    def __init__(self, failures: list[Exception]) -> None:
        self.failures = failures
        self.scenes: list[dict[str, Any]] = []

    def command(self, name: str, timeout: float = 2.0, **fields: Any) -> dict[str, Any]:
        if self.failures:
            raise self.failures.pop(0)
        self.scenes.append(fields)
        return {"ma": 1}


def test_the_worker_survives_any_error_and_reports_it() -> None:
    link = FlakyLink(
        [
            ValueError("frame too long"),
            RuntimeError("boom"),
            CommandFailed("scene", "unknown segment"),
        ]
    )
    told: list[str] = []
    worker = LightsWorker(link, on_problem=told.append)  # type: ignore[arg-type]
    try:
        order = frozenset(ledmap_order())
        for king in ["Toledo", "Sevilla", "Aragon", "Galicia"]:
            worker.show(program(LightsState(king=king), order, flash=True))
            time.sleep(0.05)
        deadline = time.monotonic() + 5
        while not any(s["leds"][7 * 1 : 7 * 2] != "000000-" for s in link.scenes[-1:]):
            assert time.monotonic() < deadline, "no scene after the errors"
            time.sleep(0.02)
        # told once when failing began, once when it ended
        assert len(told) == 2 and "ValueError" in told[0] and told[1] == ""
        assert worker.problem == "" and worker._thread.is_alive()
    finally:
        worker.close()


def test_many_refused_actions_then_play_on_and_the_frames_keep_coming(
    sim_session: Session,
) -> None:
    session = sim_session
    assert session.tower is not None
    sim = session.tower.sim
    session.new_game({"players": PLAYERS, "mode": "dealer", "seed": 2})
    for _ in range(15):
        with pytest.raises(ActionError):
            session.act(Role.table(), "power 99")
    segments = json.loads((hardware_dir() / "ledmap.json").read_text())["segments"]
    first = segments[ledmap_order().index("Toledo")]["start"]
    # the warning flash reached the NeoPixels: Toledo pure red
    sim.wait_frame(lambda f: f.pixel(first)[0] > 0 and f.pixel(first)[1:] == (0, 0), 10)
    assert session.lights is not None
    before = session.lights.sent
    active = session.active
    assert active is not None
    game = active.game
    for _ in range(6):  # play on: every move changes the lights
        player = game.current_players()[0]
        legal = [a for a in game.legal_actions(player) if a.kind != "special"]
        session.act(Role("seat", game.state.colours[player]), str(legal[0]))
    frames = len(sim.frames())
    deadline = time.monotonic() + 10
    while session.lights.sent == before or len(sim.frames()) == frames:
        assert time.monotonic() < deadline, "the lights stopped after the refusals"
        time.sleep(0.05)
    assert session.lights.problem == "" and "warning" not in session.tower_status()
    assert any(t.name == "lights" for t in threading.enumerate())


def test_a_failing_lights_link_shows_a_tower_warning_until_scenes_pass_again(
    table: Table, client: TestClient
) -> None:
    session, link = table.session, table.link
    working = link.command
    broken = {"on": True}

    def command(name: str, timeout: float = 2.0, **fields: Any) -> dict[str, Any]:
        if name == "scene" and broken["on"]:
            raise OSError("the USB port went away")
        return working(name, timeout, **fields)

    link.command = command  # type: ignore[method-assign]
    told: list[Any] = []
    session.add_listener(told.append)
    new_game(client)
    with pytest.raises(ActionError):
        session.act(Role.table(), "power 99")
    deadline = time.monotonic() + 5
    while session.tower_status().get("warning_key") != "tower.warn.lights":
        assert time.monotonic() < deadline, "no tower warning for the failing lights"
        time.sleep(0.02)
    state = client.get("/api/state").json()
    assert state["tower"]["warning_key"] == "tower.warn.lights"
    assert "OSError" in state["tower"]["warning"]
    assert any(m and m[0].get("type") == "tower" for m in told)  # the clients were told
    told.clear()
    broken["on"] = False
    with pytest.raises(ActionError):
        session.act(Role.table(), "power 99")  # the next scene goes through
    deadline = time.monotonic() + 5
    while "warning" in session.tower_status():
        assert time.monotonic() < deadline, "the warning stayed after the lights recovered"
        time.sleep(0.02)
    assert link.scenes and session.lights is not None and session.lights.problem == ""
    assert any(m and "warning" not in m[0].get("status", {"warning": 1}) for m in told)
