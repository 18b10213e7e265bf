"""The build pack's data files agree with each other: pin map, LED map, wiring, BOM, power."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import pytest

from hardware.tools import power_table
from hardware.tools.data import (
    HARDWARE_DIR,
    Endpoint,
    Wiring,
    load_bom,
    load_json,
    load_wiring,
    pinmap_gpio,
)

# What each pin map signal must reach, by BOM part and pin; written out here, independently of
# wiring.json, so that a wrong wire in the data fails.
SIGNAL_DESTINATIONS = {
    "i2c.sda": ("tcs34725", "SDA"),
    "i2c.scl": ("tcs34725", "SCL"),
    "sensor_led": ("tcs34725", "LED"),
    "sensor_int": ("tcs34725", "INT"),
    "break_beam": ("phototransistor", "C"),
    "break_beam_2": ("phototransistor2", "C"),
    "gate_switch": ("reed", "1"),
    "neopixel": ("level_shifter", "1A"),
}


@pytest.fixture(scope="module")
def wiring() -> Wiring:
    return load_wiring()


@pytest.fixture(scope="module")
def pinmap() -> dict[str, Any]:
    return load_json("pinmap.json")


@pytest.fixture(scope="module")
def ledmap() -> dict[str, Any]:
    return load_json("ledmap.json")


def test_pinmap_keeps_the_keys_the_firmware_reads(pinmap: dict[str, Any]) -> None:
    for key in ("sensor_led", "sensor_int", "break_beam", "gate_switch", "neopixel", "status_led"):
        assert isinstance(pinmap[key]["pin"], int), key
    for key in ("id", "sda", "scl", "freq_hz"):
        assert isinstance(pinmap["i2c"][key], int), key
    assert pinmap["i2c"]["devices"]["tcs34725"] == "0x29"
    assert pinmap["break_beam"]["active"] == "high"
    assert pinmap["gate_switch"]["active"] == "high"


def test_ledmap_keeps_the_keys_the_firmware_reads(ledmap: dict[str, Any]) -> None:
    for segment in ledmap["segments"]:
        assert isinstance(segment["name"], str)
        assert isinstance(segment["start"], int)
        assert isinstance(segment["count"], int)
    for key in ("budget_milliamps", "milliamps_per_channel", "idle_milliamps_per_pixel"):
        assert ledmap[key] > 0, key


def test_i2c_pins_belong_to_the_configured_bus(pinmap: dict[str, Any]) -> None:
    pinout = load_json("pico_pinout.json")
    bus = pinout["i2c_pins"][str(pinmap["i2c"]["id"])]
    assert pinmap["i2c"]["sda"] in bus["sda"]
    assert pinmap["i2c"]["scl"] in bus["scl"]


def test_pico_pinout_has_forty_pins_eight_grounds_and_every_header_gpio() -> None:
    names = list(load_json("pico_pinout.json")["physical"].values())
    assert len(names) == 40 == len(set(names))
    assert sum(name.startswith("GND") for name in names) == 8
    gpios = {int(name[2:]) for name in names if name.startswith("GP")}
    assert gpios == set(range(23)) | {26, 27, 28}


def test_every_pin_map_signal_is_wired_to_its_part(wiring: Wiring, pinmap: dict[str, Any]) -> None:
    pico = wiring.pico.ref
    for signal, (bom_id, pin) in SIGNAL_DESTINATIONS.items():
        gpio = f"GP{pinmap_gpio(pinmap, signal)}"
        reached = {
            (wiring.part(there.ref).bom, there.pin)
            for wire in wiring.wires
            for here, there in ((wire.a, wire.b), (wire.b, wire.a))
            if here.ref == pico and here.pin == gpio
        }
        assert (bom_id, pin) in reached, f"{signal} ({gpio}) does not reach {bom_id}:{pin}"


def test_wire_ends_name_existing_parts_and_pins(wiring: Wiring) -> None:
    refs = [part.ref for part in wiring.parts]
    assert len(refs) == len(set(refs))
    pico_pins = set(wiring.pinout.by_name)
    for wire in wiring.wires:
        for end in (wire.a, wire.b):
            part = wiring.part(end.ref)
            allowed = pico_pins if part.ref == wiring.pico.ref else set(part.pins)
            assert end.pin in allowed, f"{end} is not a pin of {part.title}"
        assert wire.net in wiring.net_colours, wire.net


def test_each_connected_net_carries_one_name(wiring: Wiring) -> None:
    parent: dict[str, str] = {}

    def node(end: Endpoint) -> str:
        # the Pico's eight ground pins are one net on the board itself
        if end.ref == wiring.pico.ref and end.pin.startswith("GND"):
            return f"{end.ref}:GND"
        return str(end)

    def find(node: str) -> str:
        parent.setdefault(node, node)
        while parent[node] != node:
            node = parent[node]
        return node

    for wire in wiring.wires:
        parent[find(node(wire.a))] = find(node(wire.b))
    names: dict[str, set[str]] = defaultdict(set)
    for wire in wiring.wires:
        names[find(node(wire.a))].add(wire.net)
    mixed = [sorted(n) for n in names.values() if len(n) > 1]
    assert not mixed, f"differently named wires are connected: {mixed}"
    # and the supply nets never touch each other or ground
    supplies = [n for n in names.values() if n & {"GND", "3V3", "VBUS", "5V", "VSYS"}]
    assert len(supplies) == 5


def test_every_wired_part_is_in_the_bom_with_the_right_role(wiring: Wiring) -> None:
    bom = {item.id: item for item in load_bom()}
    for part in wiring.parts:
        assert part.bom in bom, f"{part.ref} ({part.bom}) is not in bom.csv"
        wires = [w for w in wiring.wires if part.ref in (w.a.ref, w.b.ref)]
        assert wires, f"{part.ref} is listed but not wired"
        expected = "optional" if all(w.optional for w in wires) else "required"
        assert bom[part.bom].role == expected, part.ref


def test_bom_pixels_equal_the_led_map(ledmap: dict[str, Any]) -> None:
    pixels = sum(item.pixels for item in load_bom() if item.role == "required")
    assert pixels == ledmap["total_pixels"] == sum(s["count"] for s in ledmap["segments"])


def test_bom_ring_matches_the_castillo_segment(ledmap: dict[str, Any]) -> None:
    ring = next(item for item in load_bom() if item.id == "ring12")
    castillo = next(s for s in ledmap["segments"] if s["kind"] == "ring")
    assert ring.pixels == castillo["count"]


def test_bom_lines_are_complete() -> None:
    items = load_bom()
    assert len({item.id for item in items}) == len(items)
    for item in items:
        assert item.qty > 0 and item.unit_price_usd > 0, item.id
        assert item.description and item.manufacturer and item.mpn and item.supplier, item.id


def test_led_budget_is_the_usb_share_of_the_power_model(ledmap: dict[str, Any]) -> None:
    power = load_json("power.json")
    budget = power_table.usb_budget(power)
    assert ledmap["budget_milliamps"] == budget.led_budget == ledmap["budget_profiles"]["usb"]
    assert budget.led_budget <= power["usb_declared_milliamps"] - budget.tower_loads
    external = power["external_supply"]
    assert ledmap["budget_profiles"]["external_5v"] == external["budget_milliamps"]
    assert external["budget_milliamps"] < external["rated_milliamps"]


def test_led_model_matches_the_firmware_limiter_example(ledmap: dict[str, Any]) -> None:
    # one pixel at full white: 1 mA idle + 3 x 20 mA
    assert power_table.pixel_milliamps(ledmap, 255, 255, 255) == pytest.approx(61.0)
    assert power_table.pixel_milliamps(ledmap, 0, 0, 0) == pytest.approx(1.0)


def test_led_layout_places_every_segment_once(ledmap: dict[str, Any]) -> None:
    layout = load_json("led_layout.json")
    assert set(layout["positions"]) == {s["name"] for s in ledmap["segments"]}
    assert set(layout["power_feeds"]) <= set(layout["positions"])


def test_data_files_are_valid_json() -> None:
    for path in HARDWARE_DIR.glob("*.json"):
        assert isinstance(json.loads(path.read_text()), dict), path.name


def test_every_header_pin_of_the_pin_map_is_wired(wiring: Wiring, pinmap: dict[str, Any]) -> None:
    signals = {end.signal for wire in wiring.wires for end in (wire.a, wire.b) if end.signal}
    on_board = set(load_json("pico_pinout.json")["on_board"])
    keys = ["i2c.sda", "i2c.scl"] + [
        key for key, value in pinmap.items() if isinstance(value, dict) and "pin" in value
    ]
    for key in keys:
        if f"GP{pinmap_gpio(pinmap, key)}" in on_board:
            continue  # e.g. the status LED on the Pico itself
        assert key in signals, f"pinmap.json {key} has no wire in wiring.json"


def test_the_second_beam_is_the_same_distance_everywhere(pinmap: dict[str, Any]) -> None:
    """Chute model, pin map, firmware and simulator agree on where the second beam is."""
    from host.paths import REPO_ROOT
    from host.tower.sim.dropper import BEAM2_BELOW_MM, CUBE_MM

    params = load_json("chute/params.json")
    config = json.loads((REPO_ROOT / "firmware" / "config.json").read_text())
    below = params["beam2_below"]
    assert pinmap["break_beam_2"]["below_mm"] == below
    assert config["beam2_below_mm"] == below == BEAM2_BELOW_MM
    assert config["cube_mm"] == params["cube_edge"] == CUBE_MM
    assert below < params["cube_edge"]  # a piece's front reaches it while it still cuts beam 1
    assert pinmap["break_beam_2"]["active"] == pinmap["break_beam"]["active"]
