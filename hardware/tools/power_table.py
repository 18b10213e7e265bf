"""The power budget, computed from hardware/power.json and hardware/ledmap.json."""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from hardware.tools.blocks import table


@dataclass(frozen=True)
class Budget:
    declared: float
    margin: float
    tower_loads: float

    @property
    def led_share(self) -> float:
        return self.declared - self.margin - self.tower_loads

    @property
    def led_budget(self) -> int:
        """The LED budget rounded down to 10 mA: the value ledmap.json's budget_milliamps holds."""
        return int(math.floor(self.led_share / 10.0) * 10)


def build_loads(power: dict[str, Any], left_out: Collection[str] = ()) -> list[dict[str, Any]]:
    """The loads of a build: those drawn through a BOM part in `left_out` are not there."""
    return [load for load in power["loads"] if load.get("bom") not in left_out]


def usb_budget(power: dict[str, Any], left_out: Collection[str] = ()) -> Budget:
    """The USB budget of the standard tower, or of one without the BOM parts `left_out`."""
    loads = sum(float(load["milliamps"]) for load in build_loads(power, left_out))
    return Budget(float(power["usb_declared_milliamps"]), float(power["margin_milliamps"]), loads)


def pixel_milliamps(ledmap: dict[str, Any], r: int, g: int, b: int) -> float:
    """The firmware's current model for one pixel: idle draw plus a linear share per channel."""
    per_channel = float(ledmap["milliamps_per_channel"])
    idle = float(ledmap["idle_milliamps_per_pixel"])
    return idle + per_channel * (r + g + b) / 255.0


def loads_table(power: dict[str, Any], left_out: Collection[str] = ()) -> str:
    budget = usb_budget(power, left_out)
    rows = [
        [load["name"], f"{float(load['milliamps']):g}", load["note"]]
        for load in build_loads(power, left_out)
    ]
    rows.append(["**tower without LEDs**", f"**{budget.tower_loads:.1f}**", ""])
    rows.append(["USB current MicroPython declares", f"{budget.declared:g}", "bMaxPower"])
    rows.append(["safety margin", f"{budget.margin:g}", ""])
    rows.append(
        [
            "**LED share** (declared - margin - tower)",
            f"**{budget.led_share:.1f}**",
            f"rounded down: `budget_milliamps` = {budget.led_budget}",
        ]
    )
    return table(["load", "mA", "note"], rows)


def scenes_table(ledmap: dict[str, Any]) -> str:
    """What typical scenes would draw unlimited, and how far the limiter scales them on USB."""
    total = int(ledmap["total_pixels"])
    sizes = {segment["name"]: int(segment["count"]) for segment in ledmap["segments"]}
    budget = float(ledmap["budget_profiles"]["usb"])
    idle_all = total * float(ledmap["idle_milliamps_per_pixel"])
    kinds = {segment["name"]: segment.get("kind", "") for segment in ledmap["segments"]}
    region = max((n for name, n in sizes.items() if kinds[name] == "region"), default=0)
    scenes = [
        ("all pixels dark (idle)", 0, (0, 0, 0)),
        ("castillo ring full blue", sizes.get("castillo", 0), (0, 0, 255)),
        ("one region full white", region, (255, 255, 255)),
        ("three regions full green (legal placements)", 3 * region, (0, 255, 0)),
        ("whole board full white", total, (255, 255, 255)),
    ]
    rows = []
    for label, lit, (r, g, b) in scenes:
        lit = min(lit, total)
        lit_ma = lit * (
            pixel_milliamps(ledmap, r, g, b) - float(ledmap["idle_milliamps_per_pixel"])
        )
        ma = idle_all + lit_ma
        scale = 1.0 if lit_ma <= 0 or ma <= budget else max(0.0, (budget - idle_all) / lit_ma)
        rows.append([label, str(lit), f"{ma:.0f}", f"{scale * 100:.0f} %"])
    return table(["scene", "lit pixels", "unlimited mA", "brightness on USB"], rows)


def pixel_model_table(ledmap: dict[str, Any]) -> str:
    per_channel = float(ledmap["milliamps_per_channel"])
    idle = float(ledmap["idle_milliamps_per_pixel"])
    total = int(ledmap["total_pixels"])
    rows = [
        ["per colour channel at 255", f"{per_channel:g}", "`milliamps_per_channel`"],
        ["idle (dark) per pixel", f"{idle:g}", "`idle_milliamps_per_pixel`"],
        ["one pixel full white", f"{idle + 3 * per_channel:g}", "idle + 3 channels"],
        ["all pixels idle", f"{idle * total:g}", f"{total} pixels"],
        ["all pixels full white", f"{(idle + 3 * per_channel) * total:g}", "worst case"],
    ]
    return table(["case", "mA", "from"], rows)


def render_blocks(
    power: dict[str, Any], ledmap: dict[str, Any], left_out: Collection[str] = ()
) -> dict[str, str]:
    return {
        "power-pixel-model": pixel_model_table(ledmap),
        "power-usb-budget": loads_table(power, left_out),
        "power-scenes": scenes_table(ledmap),
    }
