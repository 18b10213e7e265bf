"""The packed scene (docs/protocol.md, "scene" with ``leds``): the host's `pack` decoded by the
firmware's `Scene.set_packed`, in CPython and in the MicroPython unix port (the simulated tower)."""

from __future__ import annotations

import json

import pytest
from towerfw.leds import Scene

from host.paths import hardware_dir
from host.tower.lights import Frame, ledmap_order, pack, palette
from host.tower.sim.client import SimClient, TowerError
from host.tower.sim.launcher import SimTower


def segments() -> list[dict[str, int | str]]:
    ledmap = json.loads((hardware_dir() / "ledmap.json").read_text(encoding="utf-8"))
    segs: list[dict[str, int | str]] = ledmap["segments"]
    return segs


def new_scene() -> Scene:
    segs = {str(s["name"]): (s["start"], s["count"]) for s in segments()}
    return Scene(segs, 72, segments())


def test_every_colour_and_animation_decodes_to_what_the_host_meant() -> None:
    order = ledmap_order()
    scene = new_scene()
    pal = palette()
    colours = [*pal.players.values(), pal.king, pal.castillo_idle, pal.check_waiting, pal.warning]
    anims = ["solid", "pulse", "blink", "sweep"]
    for shift in range(len(order)):
        segs = {n: colours[(i + shift) % len(colours)] for i, n in enumerate(order) if i != shift}
        anim = {n: anims[(i + shift) % 4] for i, n in enumerate(order) if n in segs}
        assert scene.set_packed(pack(Frame(segs, anim), order)) is None
        assert scene.colours == {n: list(rgb) for n, rgb in segs.items()}
        assert scene.anims == anim and order[shift] not in scene.colours


@pytest.mark.parametrize(
    ("leds", "why"),
    [
        ("ff0000s", "characters expected"),
        ("gg0000s" * 12, "bad colour"),
        ("ff0000x" * 12, "letter"),
    ],
)
def test_a_malformed_packed_scene_is_refused(leds: str, why: str) -> None:
    err = new_scene().set_packed(leds)
    assert err is not None and why in err


def test_the_unix_port_firmware_lights_the_right_pixels() -> None:
    order = ledmap_order()
    # dim colours with distinct channels, so the current limiter leaves them as they are
    segs = {name: (k, 11 - k, k % 3) for k, name in enumerate(order) if k != 5}
    leds = pack(Frame(segs, {}), order)
    leds = leds[:7] + leds[7:13].upper() + leds[13:]  # hex digits in either case
    with SimTower.start() as tower, SimClient(tower.port) as client:
        client.wait_hello()
        assert client.cmd("scene", leds=leds)["ma"] < 160
        expected = bytearray(3 * 72)
        for s in segments():
            rgb = segs.get(str(s["name"]), (0, 0, 0))
            for i in range(int(s["start"]), int(s["start"]) + int(s["count"])):
                expected[3 * i : 3 * i + 3] = bytes(rgb)
        tower.wait_frame(lambda f: f.rgb == bytes(expected), timeout=10)
        with pytest.raises(TowerError, match="characters expected"):
            client.cmd("scene", leds=leds[:-7])
