"""The tower firmware on an emulated RP2040: boot, counting through the real I2C driver, LEDs."""

from __future__ import annotations

import pytest
from towerfw.leds import CurrentLimiter, Scene

from host.tower.sim.dropper import Dropper
from tests.pico.emulator import EmulatedPico
from tests.pico.scenarios import play, singles

COLOURS = ["purple", "green", "blue", "orange", "red"]


def test_boots_and_says_hello(pico: EmulatedPico) -> None:
    hello = pico.frames("hello")[0]
    assert hello.msg["proto"] == 1 and hello.msg["reset"] == "power"
    assert hello.msg["colours"] == COLOURS
    # machine.unique_id() is the flash chip's unique ID, read over the SSI at boot
    assert hello.msg["uid"] == pico.flash_uid() != "0" * 16
    assert hello.t_us < 400_000  # emulated: USB enumeration, littlefs mount, imports, sensor start
    assert pico.command("ping")["t"] == "ok"


def test_every_colour_is_counted_through_the_i2c_driver(pico: EmulatedPico) -> None:
    reads = pico.stats.sensor_block_reads
    played = play(pico, singles(COLOURS * 2, gap_us=60_000, seed=2), seed=2)
    assert [(e.msg["k"], e.msg["c"]) for e in played.events] == [("drop", c) for c in COLOURS * 2]
    # each cube is seen in several integration windows, each one an 8-byte block read
    assert pico.stats.sensor_block_reads - reads >= 4 * len(played.events)
    assert played.events[-1].msg["n"]["red"] >= 2


def test_a_burst_of_cubes_5_ms_apart(pico: EmulatedPico) -> None:
    colours = ["red", "blue", "green", "orange", "purple"] * 2
    played = play(pico, singles(colours, gap_us=5_000, seed=5), seed=5)
    assert [e.msg.get("c") for e in played.events] == colours
    assert all(e.msg["k"] == "drop" for e in played.events)


@pytest.mark.parametrize("k", [3, 6])
def test_handfuls_count_every_cube(pico: EmulatedPico, k: int) -> None:
    dropper = Dropper(seed=k, t_us=0)
    dropper.handful(k, gap_us=20_000)
    played = play(pico, dropper, seed=k)
    assert len(played.events) == len(dropper.passages)
    assert played.cubes_counted() == k
    for event, passage in zip(played.events, dropper.passages, strict=True):
        if len(passage.cubes) > 1:
            assert event.msg["k"] == "merged" and event.msg["est"] == len(passage.cubes)
        else:
            assert event.msg["k"] in ("drop", "uncertain")
            assert event.msg.get("c") in (passage.cubes[0], None)


def test_the_led_waveform_is_the_scene(pico: EmulatedPico) -> None:
    ledmap = _ledmap()
    segs = {"castillo": [200, 40, 0], "Galicia": [0, 0, 255], "Navarra": [10, 250, 10]}
    mark = len(pico.link.leds)
    answer = pico.command("scene", segs=segs)
    assert answer["t"] == "ok"
    pico.run(20_000)
    frames = pico.link.leds[mark:]
    assert frames, "no LED frame on GP16"
    expected = bytearray(3 * ledmap["total_pixels"])
    scene = Scene({s["name"]: (s["start"], s["count"]) for s in ledmap["segments"]}, len(expected))
    assert scene.set(segs, {}, True) is None
    scene.render(0, expected)
    limiter = CurrentLimiter(
        ledmap["total_pixels"],
        ledmap["milliamps_per_channel"],
        ledmap["idle_milliamps_per_pixel"],
        ledmap["budget_milliamps"],
    )
    ma = limiter.limit(expected)
    assert answer["ma"] == round(ma, 1)
    last = frames[-1]
    assert last.bits == 24 * ledmap["total_pixels"]
    assert last.rgb() == bytes(expected)
    # 800 kbit/s: 1.25 us a bit
    assert last.end_us - last.t_us == pytest.approx(1.25 * last.bits, rel=0.02)


def _ledmap() -> dict[str, object]:
    import json
    from pathlib import Path

    return json.loads((Path(__file__).resolve().parents[2] / "hardware/ledmap.json").read_text())


def test_touching_cubes_are_named_one_by_one_with_two_beams(pico: EmulatedPico) -> None:
    """Issue 25 on the RP2040: the second beam times each group, whose cubes are named (the
    module that splits a group is loaded for it and dropped after)."""
    dropper = Dropper(seed=25, t_us=0, uniform=True, overlap_us=1500)
    groups = [["red", "orange"], ["purple", "blue"], ["green", "green"], ["blue", "red", "blue"]]
    for colours in groups:
        dropper.merged(colours, gap_us=80_000)
    played = play(pico, dropper, seed=25)
    assert [e.msg["k"] for e in played.events] == ["merged"] * len(groups)
    named = 0
    for event, colours in zip(played.events, groups, strict=True):
        cs = event.msg.get("cs")
        assert event.msg["est"] == len(colours)
        if cs is not None:  # never a wrong colour; a cube not clear is null
            assert all(c in (None, t) for c, t in zip(cs, colours, strict=True))
            named += sum(c is not None for c in cs)
    assert named >= 7  # of 9 cubes
    # the event leaves within 5 ms of the beam clearing plus the group's own length
    for i, event in enumerate(played.events):
        passage = dropper.passages[i]
        assert event.t_us - played.exit_us(i) <= 5_000 + passage.duration_us


def test_one_beam_asks_one_or_two_on_the_pico(pico: EmulatedPico) -> None:
    """Without the second beam a pair as fast as the chute allows is never one cube."""
    dropper = Dropper(seed=26, t_us=0, beam2_mm=None, overlap_us=1500)
    for colour in COLOURS:
        dropper.merged([colour, colour], gap_us=80_000, speed=1.3)
    played = play(pico, dropper, seed=26)
    assert len(played.events) == len(COLOURS)
    for event in played.events:
        assert event.msg["k"] in ("merged", "uncertain")
        if event.msg["k"] == "uncertain":
            assert event.msg["why"] == "one_or_two"
