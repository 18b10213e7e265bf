"""The Wokwi project (hardware/wokwi/diagram.json), generated from the pin map and LED map.

Stand-ins for parts Wokwi lacks: the TCS34725 is a custom chip (tcs34725.chip.c, with sliders
for the colour), the break-beam is a push button (pressed = beam interrupted, held low by a
pull-down resistor otherwise, as the lit phototransistor holds the real pin low), and so is the
second break-beam below it (a pin map without `break_beam_2`, the one-beam budget tower, gets
none); the gate reed switch is a slide switch to GND. The level shifter is left out: the
simulator needs none.
"""

from __future__ import annotations

import json
from typing import Any

from hardware.tools.data import Pinout, pinmap_gpio

MICROPYTHON_ENV = "micropython-20231227-v1.22.0"
Connection = list[Any]


def part(kind: str, ident: str, top: float, left: float, **attrs: str) -> dict[str, Any]:
    out: dict[str, Any] = {"type": kind, "id": ident, "top": top, "left": left, "attrs": attrs}
    return out


def wire(a: str, b: str, colour: str) -> Connection:
    return [a, b, colour, []]


def gp(pinmap: dict[str, Any], pinout: Pinout, key: str) -> str:
    return "pico:" + pinout.gpio_name(pinmap_gpio(pinmap, key))


def segment_part_id(name: str) -> str:
    return "led_" + name.lower()


def diagram(pinmap: dict[str, Any], ledmap: dict[str, Any], pinout: Pinout) -> dict[str, Any]:
    parts = [
        part("wokwi-pi-pico", "pico", 0, 0, env=MICROPYTHON_ENV),
        part("chip-tcs34725", "sensor", -10, -230),
        part(
            "wokwi-pushbutton", "beam", 190, -250, color="green", label="break-beam (press = cube)"
        ),
        part("wokwi-resistor", "beam_pulldown", 260, -180, value="1000"),
        part("wokwi-slide-switch", "gate", 320, -230, label="gate (left = closed)"),
    ]
    connections = [
        wire("pico:GP0", "$serialMonitor:RX", ""),
        wire("pico:GP1", "$serialMonitor:TX", ""),
        wire(gp(pinmap, pinout, "i2c.sda"), "sensor:SDA", "blue"),
        wire(gp(pinmap, pinout, "i2c.scl"), "sensor:SCL", "gold"),
        wire(gp(pinmap, pinout, "sensor_led"), "sensor:LED", "white"),
        wire(gp(pinmap, pinout, "sensor_int"), "sensor:INT", "gray"),
        wire("pico:3V3", "sensor:VCC", "orange"),
        wire("pico:GND.2", "sensor:GND", "black"),
        wire("pico:3V3", "beam:1.l", "orange"),
        wire(gp(pinmap, pinout, "break_beam"), "beam:2.l", "green"),
        wire(gp(pinmap, pinout, "break_beam"), "beam_pulldown:1", "green"),
        wire("beam_pulldown:2", "pico:GND.4", "black"),
        wire(gp(pinmap, pinout, "gate_switch"), "gate:2", "purple"),
        wire("gate:1", "pico:GND.4", "black"),
    ]
    if "break_beam_2" in pinmap:
        label = "second break-beam (press while the green one is held)"
        parts.insert(4, part("wokwi-pushbutton", "beam2", 190, -400, color="blue", label=label))
        parts.insert(5, part("wokwi-resistor", "beam2_pulldown", 260, -330, value="1000"))
        connections[12:12] = [
            wire("pico:3V3", "beam2:1.l", "orange"),
            wire(gp(pinmap, pinout, "break_beam_2"), "beam2:2.l", "teal"),
            wire(gp(pinmap, pinout, "break_beam_2"), "beam2_pulldown:1", "teal"),
            wire("beam2_pulldown:2", "pico:GND.4", "black"),
        ]
    previous = gp(pinmap, pinout, "neopixel")
    top = -20.0
    for segment in sorted(ledmap["segments"], key=lambda s: int(s["start"])):
        ident = segment_part_id(segment["name"])
        count = str(segment["count"])
        if segment.get("kind") == "ring":
            parts.append(part("wokwi-led-ring", ident, top, 230, pixels=count))
            power, ground = f"{ident}:VCC", f"{ident}:GND"
            top += 150
        else:
            parts.append(part("wokwi-led-strip", ident, top, 230, pixels=count))
            power, ground = f"{ident}:VDD", f"{ident}:VSS"
            top += 40
        connections.append(wire(previous, f"{ident}:DIN", "brown"))
        connections.append(wire("pico:VBUS", power, "red"))
        connections.append(wire("pico:GND.5", ground, "black"))
        previous = f"{ident}:DOUT"
    return {
        "version": 1,
        "author": "Castillo kit (generated from pinmap.json and ledmap.json by hardware/tools)",
        "editor": "wokwi",
        "parts": parts,
        "connections": connections,
        "dependencies": {},
    }


def render(pinmap: dict[str, Any], ledmap: dict[str, Any], pinout: Pinout) -> str:
    return json.dumps(diagram(pinmap, ledmap, pinout), indent=2) + "\n"
