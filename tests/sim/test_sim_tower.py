"""The real firmware in the real MicroPython unix port (-X heapsize=160k), over a pty.

The unix port's 64-bit objects take about twice a Pico's room: the real heap (245 KB on the
Pico) is asserted on the emulated RP2040 (tests/pico/test_pico_budgets.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from host.tower.sim.client import SimClient
from host.tower.sim.dropper import Dropper, render
from host.tower.sim.launcher import SimTower
from host.tower.sim.runner import play_rows
from host.tower.sim.sensor_model import SensorModel


def drop(
    tower: SimTower, client: SimClient, build: Callable[[Dropper], None], seed: int = 3
) -> list[dict[str, Any]]:
    d = Dropper(seed=seed)
    build(d)
    return play_rows(tower, client, render(d.passages, SensorModel(seed=seed)))


def test_hello_on_start(client: SimClient) -> None:
    hello = client.wait_hello()
    assert hello["proto"] == 1 and hello["reset"] == "power"
    assert hello["uid"] == "e6614104033b4f2b" and hello["seq"] == 0


def test_singles_counted(tower: SimTower, client: SimClient) -> None:
    colours = ["purple", "green", "blue", "orange", "red"] * 2
    evs = drop(tower, client, lambda d: d.singles(10, 5.0, colours))
    assert [e["c"] for e in evs] == colours
    assert evs[-1]["n"] == dict.fromkeys(colours[:5], 2) | {"uncertain": 0}
    assert client.cmd("snap")["unacked"] == 0  # the client acked every event


def test_uncertain_merged_stuck_grande(tower: SimTower, client: SimClient) -> None:
    def build(d: Dropper) -> None:
        d.single("yellow")  # not a player colour
        d.merged(["red", "blue"])
        d.grande("purple")
        d.stuck("green")

    client.cmd("grande", on=True)  # a Tournament: a Grande may fall in
    kinds = [e["k"] for e in drop(tower, client, build)]
    assert kinds == ["uncertain", "merged", "grande", "stuck", "unstuck", "uncertain"]
    merged = next(e for e in client.events if e["k"] == "merged")
    assert merged["cs"] == ["red", "blue"]  # the second beam: each touching cube's colour
    n = client.events[-1]["n"]
    assert n["grande:purple"] == 1 and n["uncertain"] == 2 and n["red"] == n["blue"] == 1


def test_led_scene_reaches_the_neopixels(tower: SimTower, client: SimClient) -> None:
    answer = client.cmd("scene", segs={"Toledo": [0, 200, 0]}, anim={})
    assert answer["ma"] > 72
    frame = tower.wait_frame(lambda f: f.pixel(54)[1] > 100)
    assert frame.pixel(54)[0] == frame.pixel(54)[2] == 0 and frame.pixel(54)[1] <= 200
    assert frame.pixel(0) == (0, 0, 0) and frame.pixel(60) == (0, 0, 0)


def test_garbage_and_modem_probes_are_ignored(tower: SimTower, client: SimClient) -> None:
    client.serial.write(b"AT\r\nATE0\r\n+++\x00\xff\xfe{not a frame}*12345678\n")
    assert client.cmd("ping")["up_ms"] > 0
    assert client.cmd("diag", on=False)["bad_frames"] == 3


def test_ctrl_c_drops_to_the_repl_and_reset_restarts(tower: SimTower, client: SimClient) -> None:
    boot = client.wait_hello()["boot"]
    client.serial.write(b"\r\x03")
    deadline = time.monotonic() + 5
    while not tower.in_repl and time.monotonic() < deadline:
        client.poll(0.05)
    assert tower.in_repl
    client.serial.write(b"print(6 * 7)\r\n")
    deadline = time.monotonic() + 5
    while b"42" not in tower.console() and time.monotonic() < deadline:
        client.poll(0.05)
    assert b"42" in tower.console()
    client.hello = None
    tower.reset_device()
    hello = client.wait_hello()
    assert hello["reset"] == "soft" and hello["boot"] != boot


def test_mpremote_interrupts_the_firmware_and_runs_code(tower: SimTower) -> None:
    import subprocess
    import sys
    from pathlib import Path

    mpremote = Path(sys.executable).parent / "mpremote"
    out = subprocess.run(
        [str(mpremote), "connect", tower.port, "exec", "print(6 * 7)"],
        capture_output=True,
        timeout=60,
        check=True,
    )
    assert out.stdout.strip() == b"42"
    assert tower.in_repl and tower.boot_causes == ["power", "soft"]  # mpremote's soft reset


def test_a_starved_watchdog_resets_the_board(tower: SimTower, client: SimClient) -> None:
    client.serial.write(b"\x03")
    deadline = time.monotonic() + 5
    while not tower.in_repl and time.monotonic() < deadline:
        client.poll(0.05)
    client.hello = None
    # from the REPL: a tight watchdog nobody feeds, then a sleep longer than it
    client.serial.write(b"import machine, time\r\nw = machine.WDT(timeout=100)\r\n")
    client.serial.write(b"time.sleep_ms(400)\r\n")
    hello = client.wait_hello(timeout=10)
    assert hello["reset"] == "watchdog"
    assert tower.boot_causes == ["power", "watchdog"]


def test_a_full_ring_fits_the_sim_heap(tower: SimTower) -> None:
    with SimClient(tower.port, auto_ack=False) as quiet:
        quiet.wait_hello()
        evs = drop(tower, quiet, lambda d: d.singles(80, 8.0, ["red"]))
        assert len(evs) == 80
        snap = quiet.cmd("snap")
        assert snap["unacked"] == 64 and snap["n"]["red"] == 80
        assert quiet.cmd("replay", **{"from": 0})["count"] == 64
        quiet.drain()
        assert b"MemoryError" not in tower.console()
        assert quiet.cmd("diag", on=False)["mem_free"] > 24 * 1024  # of the 160k heap


def test_cli_prints_the_device_path() -> None:
    import subprocess
    import sys
    from pathlib import Path

    castillo = Path(sys.executable).parent / "castillo"
    proc = subprocess.Popen([str(castillo), "tower-sim"], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        port = proc.stdout.readline().strip()
        with SimClient(port) as client:
            assert client.wait_hello()["proto"] == 1
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_drop_helpers(tower: SimTower, client: SimClient) -> None:
    sid = tower.drop("blue", "red", "blue", rate_hz=8.0)
    tower.wait_idle(sid)
    client.cmd("grande", on=True)
    sid = tower.drop_scenario(lambda d: d.grande("orange"), seed=9)
    tower.wait_idle(sid)
    client.cmd("ping")
    client.drain()
    assert [e.get("c") for e in client.events] == ["blue", "red", "blue", "orange"]
    assert client.events[-1]["k"] == "grande"


def test_make_flash_copies_the_firmware_and_resets(tower: SimTower) -> None:
    import subprocess

    from host.paths import REPO_ROOT

    subprocess.run(
        ["make", "-s", "flash", f"PORT={tower.port}"],
        cwd=REPO_ROOT,
        capture_output=True,
        timeout=120,
        check=True,
    )
    flash = tower.flash_dir
    assert (flash / "main.py").read_bytes() == (REPO_ROOT / "firmware" / "main.py").read_bytes()
    assert (flash / "towerfw" / "app.mpy").exists() and (flash / "pinmap.json").exists()
    assert not (flash / "towerfw" / "hal_fake.mpy").exists()
    assert not list((flash / "towerfw").glob("*.py"))  # precompiled only
    deadline = time.monotonic() + 10
    while tower.boot_causes[-1:] != ["soft"] and time.monotonic() < deadline:
        time.sleep(0.05)
    # mpremote soft-resets on each connection (into the raw REPL), then `reset` restarts main.py
    assert tower.boot_causes[0] == "power" and set(tower.boot_causes[1:]) == {"soft"}
    with SimClient(tower.port) as client:
        client.send("hello")
        assert client.wait_hello()["reset"] == "soft"


def test_scenario_ids_survive_a_device_reset(tower: SimTower, client: SimClient) -> None:
    first = tower.drop("red")
    tower.wait_idle(first, timeout=10)
    client.hello = None
    tower.reset_device()
    client.wait_hello()  # the new interpreter is up; it has played no scenario yet
    second = tower.drop("blue")
    assert second == first + 1
    tower.wait_idle(second, timeout=10)
    client.cmd("ping")
    client.drain()
    assert [e.get("c") for e in client.events if e["k"] == "drop"] == ["red", "blue"]


def test_the_sensor_model_serves_its_id_register(tower: SimTower, client: SimClient) -> None:
    assert client.cmd("diag", on=False)["sensor_id"] == 0x44
    tower.fail_sensor(True)
    tower.sync()
    assert client.cmd("diag", on=False)["sensor_id"] is None
    tower.fail_sensor(False)
    tower.sync()
    assert client.cmd("diag", on=False)["sensor_id"] == 0x44


def test_no_thread_outlives_the_descriptors_it_reads() -> None:
    # A thread still reading a closed descriptor's number would read whatever file reuses it
    # next (another tower's pty, a subprocess's pipe) and steal its bytes.
    tower = SimTower.start()
    try:
        old = tower._boot
        assert old is not None
        tower.reset_device()
        assert not any(t.is_alive() for t in old.threads)
        new = tower._boot
        assert new is not None and new is not old
    finally:
        tower.stop()
    assert not any(t.is_alive() for t in new.threads)
    assert not tower._host_thread.is_alive()
