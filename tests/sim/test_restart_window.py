"""Regression (issue 21): cubes thrown while the tower's firmware restarts are never lost in
silence. The real firmware runs in the MicroPython unix port behind a pty, with a board that is
gone 0.6 s while it reboots (`SimTower(reboot_s=...)`, as a Pico running main.py again): a cube
thrown then passes the beam unseen. Each try sends a trigger to the device, throws one cube
0-1 s later and sorts it (tests/sim/restart_window.py): counted, or warned (an interruption the
link reported covers its throw time, and the link left `connected` meanwhile). Lost: neither.

On 9ecc0a4 the link stayed `connected`, named no interval, and a second stray Ctrl-C within 3 s
of a restart was ignored (the firmware sat in the REPL): cubes were lost in silence.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from host.app.towers import TowerRuntime
from host.tower import restart_window
from host.tower.events import LinkState
from host.tower.link import CommandFailed
from host.tower.link_health import LinkHealth
from host.tower.restart_window import RestartWindow
from host.tower.sim.launcher import SimTower
from host.tower.sim_link import SimTowerLink
from tests.sim.restart_window import Outcome, one_try, spread

REBOOT_S = 0.6
STATIC = Path(__file__).resolve().parents[2] / "host" / "app" / "static"
DELAYS = spread(11)  # 0.0, 0.1, ... 1.0 s after the trigger


@pytest.fixture
def link() -> Iterator[SimTowerLink]:
    sim = SimTower.start(reboot_s=REBOOT_S)
    try:
        with SimTowerLink(sim) as link:
            link.wait_connected(20.0)
            yield link
    finally:
        sim.stop()


def summary(outcomes: list[Outcome]) -> str:
    return ", ".join(
        f"+{o.delay:.1f}s:{'counted' if o.counted else 'warned' if o.warned else 'LOST'}"
        for o in outcomes
    )


def check(outcomes: list[Outcome]) -> None:
    lost = [o for o in outcomes if o.lost]
    assert not lost, f"lost in silence: {summary(outcomes)}"
    for o in outcomes:
        if o.warned and not o.counted:
            assert o.left_connected, f"+{o.delay}s warned while the link said connected"


def test_a_stray_ctrl_c_costs_no_cube(link: SimTowerLink) -> None:
    """The link types main.py's `resume()` at the REPL: the same boot counts on."""
    boot = link.ledger.boot
    outcomes = [one_try(link.sim, link, "ctrl_c", delay) for delay in DELAYS]
    assert all(o.counted for o in outcomes), summary(outcomes)
    assert all(o.left_connected for o in outcomes)  # `restarting` each time, then resynced
    health = link.health()
    assert health["firmware_restarts"] == len(DELAYS) and health["interruptions"] == []
    assert link.ledger.boot == boot and link.sim.boot_causes == ["power"]


def test_ctrl_c_then_ctrl_d_loses_no_cube_in_silence(link: SimTowerLink) -> None:
    """Ctrl-C then Ctrl-D (a terminal user): the Ctrl-D soft-resets the board if it reaches the
    REPL before the link's `resume()` line, else the running firmware ignores it."""
    outcomes = [one_try(link.sim, link, "ctrl_c_ctrl_d", delay) for delay in DELAYS]
    check(outcomes)
    assert all(o.left_connected for o in outcomes)


def test_cubes_thrown_while_the_board_soft_resets_are_counted_or_warned(
    link: SimTowerLink,
) -> None:
    """The board resets (RAM lost, gone 0.6 s): cubes thrown then pass unseen; the link names
    the interval and is never `connected` meanwhile."""
    outcomes = [one_try(link.sim, link, "soft_reset", delay) for delay in DELAYS]
    check(outcomes)
    # the window is real: some cubes fell into it (warned), later ones were counted
    assert any(o.warned and not o.counted for o in outcomes), summary(outcomes)
    assert any(o.counted for o in outcomes), summary(outcomes)
    assert all(o.left_connected for o in outcomes)  # `device_reset` every time
    interruptions = link.health()["interruptions"]
    assert len(interruptions) == len(DELAYS)  # one per reset, each with its interval
    assert all(REBOOT_S <= end - start < 5.0 for start, end in interruptions)
    # what /api/info and the tower pill get: the key and the interval's times
    status = TowerRuntime("sim", link, link.sim).status()
    assert status["state"] == "connected"
    assert status["warning_key"] == "tower.warn.interrupted"
    start, end = interruptions[-1]
    assert status["warning_params"] == {"from": round(start, 3), "to": round(end, 3)}


def test_the_interruption_warning_is_translated() -> None:
    for lang in ("en", "cs", "pl", "uk"):
        strings = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        assert "{from}" in strings["tower.warn.interrupted"], lang
        assert "{to}" in strings["tower.warn.interrupted"], lang
        assert strings["tower.state.restarting"], lang


def test_a_forged_repl_command_does_not_stop_the_firmware(link: SimTowerLink) -> None:
    outcomes = [one_try(link.sim, link, "forged_repl", delay) for delay in DELAYS[::2]]
    assert all(o.counted for o in outcomes), summary(outcomes)
    assert link.health()["firmware_restarts"] == 0 and not link.sim.in_repl
    # the key of a `repl` request is good once and only for the one who read it
    key = link.command("repl")["key"]
    with pytest.raises(CommandFailed, match="bad key"):
        link.command("repl", key="00000000")
    with pytest.raises(CommandFailed, match="bad key"):
        link.command("repl", key=key)  # used up by the wrong guess
    assert link.ping() >= 0 and not link.sim.in_repl


def test_the_hosts_own_repl_request_still_stops_it(link: SimTowerLink) -> None:
    port = link.enter_repl()
    assert port == link.sim.port
    deadline = time.monotonic() + 5.0
    while not link.sim.in_repl and time.monotonic() < deadline:
        time.sleep(0.05)
    assert link.sim.in_repl


class _Link:
    """What a RestartWindow needs of its link: a ledger's boot, a state, warnings kept."""

    def __init__(self) -> None:
        self.ledger = SimpleNamespace(boot="b1")
        self.state = LinkState.CONNECTED
        self._session_boot = "b1"
        self.warnings: list[tuple[str, dict[str, Any] | None]] = []

    def _set_state(self, state: LinkState, boot: str = "", detail: str = "") -> None:
        self.state = state

    def _warn(self, kind: str, problem: str, params: dict[str, Any] | None = None) -> None:
        self.warnings.append((kind, params))


def test_the_interval_starts_a_cubes_fall_before_the_last_frame_heard(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cube thrown just before the firmware's last frame may still be falling when it stops
    (on 4914ed5 the interval began at that frame: a cube thrown at +0.0 s of a soft reset was
    once neither counted nor named)."""
    clock = [1000.0]
    monkeypatch.setattr(time, "time", lambda: clock[0])  # the module reads time.time()
    link, health = _Link(), LinkHealth()
    window = RestartWindow(link, health)  # type: ignore[arg-type]
    window.heard()  # the last frame from the counting firmware, at 1000.0
    clock[0] = 1000.3
    window.not_counting("rebooting")
    assert link.state is LinkState.RESTARTING
    link.ledger.boot = "b2"  # a new boot says HELLO 0.7 s later and resyncs
    clock[0] = 1001.0
    window.hello("b2")
    window.counting_again()
    start, end = health.interruptions[-1]
    assert start == 1000.0 - restart_window.FALL_AND_REPORT_S and end == 1001.0
    assert link.warnings[-1] == ("interrupted", {"from": round(start, 3), "to": 1001.0})
