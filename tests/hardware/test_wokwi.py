"""The Wokwi project wires the Pico as the pin map says and chains the LEDs as the LED map says."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from hardware.tools.data import HARDWARE_DIR, load_json, pinmap_gpio

WOKWI = HARDWARE_DIR / "wokwi"

# The stand-in pin each pin map signal must reach (written out independently of the generator).
STAND_INS = {
    "i2c.sda": "sensor:SDA",
    "i2c.scl": "sensor:SCL",
    "sensor_led": "sensor:LED",
    "sensor_int": "sensor:INT",
    "break_beam": "beam:2.l",
    "break_beam_2": "beam2:2.l",
    "gate_switch": "gate:2",
}


@pytest.fixture(scope="module")
def diagram() -> dict[str, Any]:
    data = json.loads((WOKWI / "diagram.json").read_text())
    assert isinstance(data, dict)
    return data


def neighbours(diagram: dict[str, Any]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for a, b, *_rest in diagram["connections"]:
        graph[a].add(b)
        graph[b].add(a)
    return graph


def test_every_signal_reaches_its_stand_in(diagram: dict[str, Any]) -> None:
    pinmap = load_json("pinmap.json")
    graph = neighbours(diagram)
    for signal, stand_in in STAND_INS.items():
        pico_pins = {n for n in graph[stand_in] if n.startswith("pico:")}
        assert pico_pins == {f"pico:GP{pinmap_gpio(pinmap, signal)}"}, signal


def test_connections_name_existing_parts_and_pins(diagram: dict[str, Any]) -> None:
    parts = {part["id"]: part for part in diagram["parts"]}
    pico_pins = set(load_json("pico_pinout.json")["physical"].values())
    chip_pins = set(json.loads((WOKWI / "tcs34725.chip.json").read_text())["pins"])
    for a, b, *_rest in diagram["connections"]:
        for end in (a, b):
            ident, _, pin = end.partition(":")
            if ident == "$serialMonitor":
                continue
            assert ident in parts, end
            if ident == "pico":
                assert pin in pico_pins, end
            if parts[ident]["type"] == "chip-tcs34725":
                assert pin in chip_pins, end


def test_led_chain_follows_the_led_map(diagram: dict[str, Any]) -> None:
    pinmap = load_json("pinmap.json")
    ledmap = load_json("ledmap.json")
    parts = {part["id"]: part for part in diagram["parts"]}
    graph = neighbours(diagram)
    chain = []
    current = f"pico:GP{pinmap_gpio(pinmap, 'neopixel')}"
    while True:
        din = [n for n in graph[current] if n.endswith(":DIN")]
        if not din:
            break
        assert len(din) == 1, current
        ident = din[0].split(":")[0]
        chain.append(parts[ident])
        current = f"{ident}:DOUT"
    expected = sorted(ledmap["segments"], key=lambda s: s["start"])
    assert [int(p["attrs"]["pixels"]) for p in chain] == [s["count"] for s in expected]
    assert [p["id"] for p in chain] == ["led_" + s["name"].lower() for s in expected]
    assert sum(int(p["attrs"]["pixels"]) for p in chain) == ledmap["total_pixels"]
    for part in chain:
        supplies = {n for pin in ("VCC", "VDD") for n in graph[f"{part['id']}:{pin}"]}
        assert supplies == {"pico:VBUS"}, part["id"]


def test_chip_registers_and_source_agree() -> None:
    source = (WOKWI / "tcs34725.chip.c").read_text()
    assert "#define ADDRESS 0x29" in source
    assert "#define CHIP_ID 0x44" in source
    for pin in json.loads((WOKWI / "tcs34725.chip.json").read_text())["pins"]:
        if pin in ("SDA", "SCL", "LED"):
            assert f'pin_init("{pin}"' in source, pin


def test_chip_source_compiles_against_the_documented_api(tmp_path: Path) -> None:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler on this machine; the chip is compiled by Wokwi itself")
    shutil.copy(Path(__file__).with_name("wokwi_api_stub.h"), tmp_path / "wokwi-api.h")
    done = subprocess.run(
        [
            compiler,
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-fsyntax-only",
            "-I",
            str(tmp_path),
            str(WOKWI / "tcs34725.chip.c"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
