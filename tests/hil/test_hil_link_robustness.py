"""HIL: the link and the real firmware (MicroPython, pty) under abuse: line noise, modem probes,
Ctrl-C, truncated frames, disconnects and resets; and LED scenes reaching the NeoPixel."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from towerfw.codec import encode

from host.paths import hardware_dir
from host.tower.events import LinkState, LinkStatus
from host.tower.ledger import JsonLinesSink
from host.tower.link import CommandFailed
from host.tower.sim.launcher import LedFrame, SimTower
from host.tower.sim_link import SimTowerLink
from tests.hil.conftest import drain, wait_status

TOLEDO = range(54, 60)  # hardware/ledmap.json


def raw_write(link: SimTowerLink, data: bytes) -> None:
    """Bytes on the wire that did not come from the link's encoder (another program, noise)."""
    with link._write_lock:
        assert link._ser is not None
        link._ser.write(data)


def bad_frames(link: SimTowerLink) -> int:
    return int(link.command("diag", on=False)["bad_frames"])


def test_scene_reaches_the_neopixel(sim: SimTower, link: SimTowerLink) -> None:
    milliamps = link.scene({"Toledo": (255, 0, 255)})
    budget = json.loads((hardware_dir() / "ledmap.json").read_text())["budget_milliamps"]
    assert 0 < milliamps <= budget

    def toledo_lit(frame: LedFrame) -> bool:
        return all(frame.pixel(i)[0] > 0 and frame.pixel(i)[2] > 0 for i in TOLEDO)

    frame = sim.wait_frame(toledo_lit)
    for i in TOLEDO:
        r, g, b = frame.pixel(i)
        assert g == 0 and r == b  # magenta, scaled by the current limiter
    assert all(frame.pixel(i) == (0, 0, 0) for i in range(72) if i not in TOLEDO)
    link.scene({})
    sim.wait_frame(lambda f: f.t_us > frame.t_us and all(f.pixel(i) == (0, 0, 0) for i in TOLEDO))


def test_pulse_animation_changes_frames(sim: SimTower, link: SimTowerLink) -> None:
    link.scene({"castillo": (0, 0, 200)}, {"castillo": "pulse"})
    first = sim.wait_frame(lambda f: f.pixel(0)[2] > 0)
    levels = {first.pixel(0)[2]}
    deadline = time.monotonic() + 3.0
    while len(levels) < 3 and time.monotonic() < deadline:
        levels |= {f.pixel(0)[2] for f in sim.frames() if f.t_us > first.t_us}
        time.sleep(0.05)
    assert len(levels) >= 3


def test_unknown_segment_is_refused_not_fatal(link: SimTowerLink) -> None:
    with pytest.raises(CommandFailed):
        link.scene({"Atlantis\x03": (1, 2, 3)})  # the 0x03 travels escaped as \u0003
    assert link.ping() >= 0


def test_modem_manager_probes_are_ignored(link: SimTowerLink) -> None:
    before = bad_frames(link)
    raw_write(link, b"AT\r\nAT+GCAP\r\nATI\r\nAT+CGMI\r\n\r\nAT+CPIN?\r\n")
    assert link.ping() >= 0
    assert bad_frames(link) >= before + 5
    assert link.state is LinkState.CONNECTED


def test_garbage_bytes_are_ignored(link: SimTowerLink) -> None:
    rng = random.Random(7)
    for _ in range(20):
        noise = bytes(b for b in rng.randbytes(rng.randrange(1, 700)) if b != 3)
        raw_write(link, noise + b"\n")
        assert link.ping() >= 0


def test_command_truncated_at_every_offset(link: SimTowerLink) -> None:
    frame = encode({"t": "cmd", "c": "scene", "id": 99999, "segs": {"Toledo": [1, 2, 3]}})
    before = bad_frames(link)
    for cut in range(1, len(frame) - 1):
        raw_write(link, frame[:cut] + b"\n")
    assert link.ping() >= 0
    assert bad_frames(link) >= before + len(frame) - 2


def test_disconnect_mid_frame_then_reconnect(sim: SimTower, tmp_path: Path) -> None:
    sink = JsonLinesSink(tmp_path / "ledger.jsonl")
    first = SimTowerLink(sim, sink=sink)
    first.start()
    first.wait_connected(10.0)
    raw_write(first, encode({"t": "cmd", "c": "ping", "id": 1})[:9])  # half a frame, then gone
    first.close()
    second = SimTowerLink(sim, sink=sink)
    second.start()
    try:
        second.wait_connected(10.0)
        assert second.ping() >= 0
        assert second.last_hello is not None
        assert second.last_hello.boot == first.ledger.boot  # same boot: no false reset
    finally:
        second.close()
        sink.close()


def test_ctrl_c_stops_the_firmware_and_the_link_restarts_it(
    sim: SimTower, link: SimTowerLink
) -> None:
    boot = link.ledger.boot
    raw_write(link, b"\x03")
    seen = wait_status(link, LinkState.RESTARTING, timeout=6.0)  # no power cycle needed
    assert any(isinstance(m, LinkStatus) and "REPL" in m.detail for m in seen)
    wait_status(link, LinkState.CONNECTED, timeout=6.0)
    # main.py's resume(): the same boot counts on (no reset, no counts carried over)
    assert not sim.in_repl and sim.boot_causes == ["power"] and link.ledger.boot == boot
    assert link.health()["firmware_restarts"] == 1


def test_device_reset_is_noticed(sim: SimTower, link: SimTowerLink) -> None:
    # how fast (target: within 2 s) is measured by bench/tower_latency.py
    old_boot = link.ledger.boot
    sim.reset_device("watchdog")
    seen = wait_status(link, LinkState.DEVICE_RESET, timeout=5.0)
    status = seen[-1]
    assert isinstance(status, LinkStatus) and status.boot != old_boot
    assert "watchdog" in status.detail
    wait_status(link, LinkState.CONNECTED)
    assert link.hello().reset == "watchdog"


def test_enter_repl_frees_the_port(sim: SimTower, link: SimTowerLink) -> None:
    port = link.enter_repl()
    assert port == sim.port
    deadline = time.monotonic() + 3.0
    while not sim.in_repl and time.monotonic() < deadline:
        time.sleep(0.02)
    assert sim.in_repl
    assert link.state is LinkState.CLOSED
    drain(link)
