"""The pin map and LED map are data the firmware and the host both read."""

import json

from host.paths import hardware_dir


def test_led_segments_tile_the_chain_without_gaps_or_overlaps() -> None:
    ledmap = json.loads((hardware_dir() / "ledmap.json").read_text())
    next_pixel = 0
    for segment in sorted(ledmap["segments"], key=lambda s: s["start"]):
        assert segment["start"] == next_pixel, segment["name"]
        assert segment["count"] > 0
        next_pixel += segment["count"]
    assert next_pixel == ledmap["total_pixels"]


def test_pin_map_uses_each_gpio_once() -> None:
    pinmap = json.loads((hardware_dir() / "pinmap.json").read_text())
    pins = [pinmap["i2c"]["sda"], pinmap["i2c"]["scl"]]
    pins += [v["pin"] for v in pinmap.values() if isinstance(v, dict) and "pin" in v]
    assert len(pins) == len(set(pins))
    assert all(0 <= p <= 29 for p in pins)
