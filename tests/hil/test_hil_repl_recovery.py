"""HIL: a firmware stopped in the MicroPython REPL is restarted by the link, no user action.

The real firmware runs in the MicroPython unix port behind a pty (`SimTower`); like a Pico, a
Ctrl-C byte there raises KeyboardInterrupt, the firmware leaves its loop and the REPL prints
its banner and `>>> `. The link sees that instead of frames and restarts the firmware (Ctrl-C,
Ctrl-B, then main.py's `resume()`: the same boot counts on); from the raw REPL, which prints
nothing, it does so after two mute handshakes. Whether the firmware traps Ctrl-C or not,
cubes thrown afterwards are counted.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import serial

from host import cli
from host.tower.events import Drop, LinkState, LinkStatus
from host.tower.ledger import JsonLinesSink
from host.tower.sim.launcher import SimTower
from host.tower.sim_link import SimTowerLink
from tests.hil.conftest import collect_events, drain, wait_status


def raw_write(link: SimTowerLink, data: bytes) -> None:
    """Bytes on the line that did not come from the link (a terminal program, noise)."""
    with link._write_lock:
        assert link._ser is not None
        link._ser.write(data)


def wait_running(sim: SimTower, link: SimTowerLink, timeout: float = 15.0) -> None:
    """Until the firmware is out of the REPL and answers the link again."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not sim.in_repl and link.state is LinkState.CONNECTED:
            try:
                link.ping(timeout=0.5)
                return
            except Exception:
                pass
        time.sleep(0.05)
    raise AssertionError(f"the firmware did not come back (in the REPL: {sim.in_repl})")


def drops(link: SimTowerLink, count: int) -> list[str]:
    events = collect_events(link, count, timeout=15.0, kinds=lambda e: isinstance(e, Drop))
    return [e.colour for e in events if isinstance(e, Drop)]


def test_a_stray_ctrl_c_costs_no_later_cube(sim: SimTower, link: SimTowerLink) -> None:
    sim.drop("purple")
    assert drops(link, 1) == ["purple"]
    raw_write(link, b"\x03")
    time.sleep(0.3)  # the interrupt lands (or the firmware traps it)
    wait_running(sim, link)
    drain(link)
    sim.drop("green", "blue")
    assert sorted(drops(link, 2)) == ["blue", "green"]  # old: 0 of 2 (reconnecting forever)
    totals = link.totals()
    assert (totals.get("purple"), totals.get("green"), totals.get("blue")) == (1, 1, 1)


def test_a_stopped_firmware_is_restarted(sim: SimTower, link: SimTowerLink) -> None:
    """`repl` stops the firmware whether or not it traps Ctrl-C: the link restarts it (main.py's
    `resume()`: the same boot counts on)."""
    sim.drop("orange")
    assert drops(link, 1) == ["orange"]
    boot = link.ledger.boot
    link.command("repl", key=link.command("repl")["key"])  # as `enter_repl` asks
    seen = wait_status(link, LinkState.RESTARTING, timeout=10.0)
    assert any(isinstance(m, LinkStatus) and "REPL" in m.detail for m in seen)
    wait_status(link, LinkState.CONNECTED, timeout=10.0)
    assert sim.boot_causes == ["power"] and link.ledger.boot == boot  # resumed, not reset
    health = link.health()
    assert health["firmware_restarts"] == 1 and health["warning_kind"] == "firmware_restart"
    assert health["interruptions"] == []  # the same boot: nothing went uncounted
    wait_running(sim, link)
    sim.drop("red", "red")
    assert drops(link, 2) == ["red", "red"]
    assert link.totals().get("orange") == 1


def test_the_raw_repl_is_left_too(sim: SimTower, tmp_path: Path) -> None:
    """mpremote killed half-way leaves the board in the raw REPL, which echoes nothing."""
    with serial.Serial(sim.port, timeout=0.2) as port:
        deadline = time.monotonic() + 10.0
        seen = b""
        while b'"t":"hb"' not in seen and time.monotonic() < deadline:
            seen += port.read(4096)  # the firmware is up and in its main loop
        port.write(b"\r\x03")
        while b">>> " not in seen and time.monotonic() < deadline:
            seen += port.read(4096)
        port.write(b"\x01")  # into the raw REPL
        banner = b""
        while b"raw REPL" not in banner and time.monotonic() < deadline:
            banner += port.read(4096)
        assert b"raw REPL; CTRL-B to exit" in banner
    sink = JsonLinesSink(tmp_path / "ledger.jsonl")
    link = SimTowerLink(sim, sink=sink)
    link.start()
    try:
        link.wait_connected(20.0)  # old: never (the raw REPL swallows every HELLO request)
        assert link.health()["firmware_restarts"] >= 1
        wait_running(sim, link)
        sim.drop("purple", "blue")
        assert sorted(drops(link, 2)) == ["blue", "purple"]
    finally:
        link.close()
        sink.close()


def test_status_and_doctor_report_the_link_health(
    sim: SimTower, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["tower", "status", "--port", sim.port]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["link"]["invalid_frames"] == 0 and report["link"]["firmware_restarts"] == 0
    cli.main(["doctor", "--port", sim.port, "--no-interactive", "--json"])
    checks = {c["name"]: c for c in json.loads(capsys.readouterr().out)}
    assert checks["frames"]["status"] == "PASS"
    assert "0 frames broke the protocol" in checks["frames"]["detail"]
