"""The emulated Pico's link and lifecycle: flash, resets, Ctrl-C, the watchdog."""

from __future__ import annotations

from pathlib import Path

from towerfw import codec

from host.tower.repl_watch import RESTART_BYTES
from host.tower.sim.sensor_model import SensorModel
from tests.pico.emulator import EmulatedPico
from tests.pico.scenarios import play, singles
from tests.pico.toolchain import PicoInputs


def test_calibration_saved_to_flash_survives_a_power_cycle(fresh_pico: EmulatedPico) -> None:
    pico = fresh_pico
    dark = pico.command("cal", step="dark", samples=8)
    assert dark["t"] == "ok", dark
    saved = pico.command("cal", step="save")
    assert saved["t"] == "ok", saved
    assert pico.stats.flash_programs > 0  # littlefs appends to its logs: erases come later
    pico.power_cycle()
    hello = pico.boot()
    assert hello["cal"] == saved["hash"]
    shown = pico.command("cal", step="show")
    assert shown["cal"]["dark"] == dark["raw"]


def test_the_link_resyncs_after_a_reset(fresh_pico: EmulatedPico) -> None:
    pico = fresh_pico
    pico.send(b'{"t":"cmd","id":77,"c":"pi')  # the host was mid-frame when the board reset
    pico.run(5_000)
    pico.power_cycle()
    hello = pico.boot()
    # the board's first byte ends any partial line the host had, so hello is a whole frame
    assert pico.link.raw.startswith(b"\n{")
    assert hello["seq"] == 0
    # the host's half frame died with the old boot; garbage then a newline resynchronises
    pico.send(b"\x00\xffnoise*12\n")
    ping = pico.command("ping")
    assert ping["t"] == "ok"
    assert pico.command("diag", on=False)["bad_frames"] == 1
    assert not any(f.msg.get("id") == 77 for f in pico.link.frames)


def test_ctrl_c_stops_between_passes_and_leaves_a_working_raw_repl(
    fresh_pico: EmulatedPico,
) -> None:
    pico = fresh_pico
    dropper = singles(["blue"], gap_us=2_000)
    start = pico.now_us
    pico.drop(dropper.passages, SensorModel(seed=9))
    pico.run(dropper.passages[0].t_entry_us + 4_000)  # the cube is in the beam
    pico.send(b"\r\x03")  # what mpremote sends first
    pico.run(100_000)
    events = [f for f in pico.events() if f.t_us > start]
    # the cube in flight is still counted and reported before the loop stops
    assert [e.msg["k"] for e in events] == ["drop"]
    assert any("main loop stopped" in line for line in pico.link.text)
    heartbeats = len(pico.frames("hb"))
    pico.send(b"\x01")  # raw REPL, as mpremote enters it
    pico.run(50_000)
    assert b"raw REPL; CTRL-B to exit" in pico.link.raw
    pico.send(b"print(6*7)\x04")
    pico.run(100_000)
    assert b"OK42" in pico.link.raw
    assert len(pico.frames("hb")) == heartbeats  # the main loop is not running any more


def test_a_stray_ctrl_c_inside_a_frame_never_passes_as_data(fresh_pico: EmulatedPico) -> None:
    pico = fresh_pico
    frame = codec.encode({"t": "cmd", "id": 5, "c": "ping"})
    pico.send(frame[:10] + b"\x03" + frame[10:])
    pico.run(50_000)
    assert not any(f.msg.get("id") == 5 for f in pico.link.frames)
    assert any("main loop stopped" in line for line in pico.link.text)


def test_the_watchdog_is_fed_by_the_loop_and_never_bites(fresh_pico: EmulatedPico) -> None:
    pico = fresh_pico
    feeds = pico.stats.wdt_feeds
    pico.run(1_000_000)
    idle_feeds = pico.stats.wdt_feeds - feeds
    assert idle_feeds >= 55  # once per loop pass: the idle wait is at most 16 ms
    play(pico, singles(["red"] * 5, 40_000, seed=4))
    assert pico.stats.wdt_bites == 0
    key = pico.command("repl")["key"]  # two steps: a lone `repl` frame never stops it
    pico.command("repl", key=key)
    pico.run(50_000)
    feeds = pico.stats.wdt_feeds
    pico.run(3_000_000)
    # in the REPL a timer keeps feeding it (the RP2040's watchdog cannot be stopped)
    assert 2 <= pico.stats.wdt_feeds - feeds <= 4
    assert pico.stats.wdt_bites == 0


def test_the_firmware_restarts_from_the_repl_with_ctrl_b_ctrl_d(fresh_pico: EmulatedPico) -> None:
    """The host link's recovery of a firmware left in the REPL: Ctrl-B, Ctrl-D (soft reboot)."""
    pico = fresh_pico
    first = pico.frames("hello")[0].msg
    pico.send(b"\r\x03")
    pico.run(50_000)
    mark = len(pico.link.frames)
    pico.send(b"\x02\x04")
    assert pico.run_until(lambda: bool(pico.frames("hello", mark)), 2_000_000, 50_000)
    hello = pico.frames("hello", mark)[0].msg
    assert hello["boot"] != first["boot"] and hello["seq"] == 0
    assert pico.command("ping")["t"] == "ok"


def test_the_link_resumes_the_firmware_from_the_repl_with_the_same_boot(
    fresh_pico: EmulatedPico,
) -> None:
    """What the host link types after a stray Ctrl-C (host/tower/repl_watch.py): main.py's
    `resume()` is in the REPL's globals and counts on with the same boot, counts and events."""
    pico = fresh_pico
    play(pico, singles(["red"] * 2, 40_000, seed=5))
    first = pico.frames("hello")[0].msg
    before = pico.command("snap")
    pico.send(b"\r\x03")
    pico.run(50_000)
    assert any("main loop stopped" in line for line in pico.link.text)
    mark = len(pico.link.frames)
    pico.send(RESTART_BYTES)
    assert pico.run_until(lambda: bool(pico.frames("hello", mark)), 2_000_000, 50_000)
    hello = pico.frames("hello", mark)[0].msg
    assert hello["boot"] == first["boot"] and hello["seq"] == before["seq"]
    after = pico.command("snap")
    assert after["n"] == before["n"] and after["n"]["red"] == 2
    play(pico, singles(["red"], 40_000, seed=6))
    assert pico.command("snap")["n"]["red"] == 3
    assert pico.stats.wdt_bites == 0


def test_hello_reports_the_flash_chips_unique_id(
    pico_inputs: PicoInputs, fs_image: bytes, tmp_path: Path
) -> None:
    """Each board says which it is: its uid is its own flash's unique ID, not a constant."""
    pico = EmulatedPico(pico_inputs, fs_image, tmp_path, flash_uid="0123456789abcdef")
    try:
        hello = pico.boot()
        assert pico.flash_uid() == "0123456789abcdef"
        assert hello["uid"] == "0123456789abcdef"
    finally:
        pico.close()
