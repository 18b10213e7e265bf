"""The standard two-beam tower and the one-beam budget build, compared from the data files.

The one-beam tower is the standard one without the BOM lines whose `feature` is `second_beam`.
A tower is built that way by deleting the pin map entries that serve only those parts (derived
here: `break_beam_2`); the wiring, the Wokwi project and the power budget then follow
(`load_wiring` leaves the feature's parts and wires out), and so does the firmware, which runs
with one beam when the pin map names no second one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardware.tools import power_table
from hardware.tools.blocks import table
from hardware.tools.bom_table import money, qty
from hardware.tools.data import (
    HARDWARE_DIR,
    BomItem,
    Wiring,
    feature_signals,
    load_bom,
    load_json,
    load_wiring,
    pinmap_gpio,
)

SECOND_BEAM = "second_beam"


@dataclass(frozen=True)
class Builds:
    """Everything that differs between the standard tower and the one-beam budget build."""

    items: list[BomItem]
    standard: Wiring  # the full wiring.json, whatever the pin map says
    one_beam: Wiring
    signals: list[str]  # the pin map keys the one-beam tower deletes
    left_out: list[BomItem]  # the BOM lines it leaves out
    power: dict[str, Any]
    ledmap: dict[str, Any]
    pinmap: dict[str, Any]

    @property
    def left_out_ids(self) -> set[str]:
        return {item.id for item in self.left_out}

    def cost(self, left_out: set[str] | None = None) -> float:
        skip = left_out or set()
        return sum(
            item.line_total_usd
            for item in self.items
            if item.role == "required" and item.id not in skip
        )

    def wire_numbers(self) -> list[int]:
        """The numbers (WIRING.md's wire table) of the wires the one-beam tower leaves out."""
        kept = {(str(w.a), str(w.b), w.net) for w in self.one_beam.wires}
        return [
            number
            for number, w in enumerate(self.standard.wires, start=1)
            if (str(w.a), str(w.b), w.net) not in kept
        ]


def load(root: Path = HARDWARE_DIR) -> Builds | None:
    """The comparison, from a pin map of the standard tower; None from a one-beam pin map
    (a builder's own: the comparison blocks then stay as the repository has them)."""
    items = load_bom(root)
    pinmap = load_json("pinmap.json", root)
    standard = load_wiring(root)
    if standard.left_out:
        return None
    signals = feature_signals(standard, items, SECOND_BEAM)
    if not signals:
        raise ValueError(f"no pin map key serves only the {SECOND_BEAM} parts")
    one_beam = load_wiring(root, without=signals)
    left_out = [item for item in items if item.feature == SECOND_BEAM]
    return Builds(
        items=items,
        standard=standard,
        one_beam=one_beam,
        signals=signals,
        left_out=left_out,
        power=load_json("power.json", root),
        ledmap=load_json("ledmap.json", root),
        pinmap=pinmap,
    )


def left_out_table(builds: Builds) -> str:
    refs: dict[str, list[str]] = {}
    for part in builds.standard.parts:
        refs.setdefault(part.bom, []).append(part.ref)
    rows = [
        [
            f"`{item.id}`",
            ", ".join(refs.get(item.id, [])),
            qty(item),
            item.description,
            money(item.line_total_usd),
        ]
        for item in builds.left_out
    ]
    return table(["id", "ref", "qty", "part", "line $"], rows)


def compare_table(builds: Builds) -> str:
    skip = builds.left_out_ids
    two, one = builds.cost(), builds.cost(skip)
    budget_two = power_table.usb_budget(builds.power)
    budget_one = power_table.usb_budget(builds.power, skip)
    pinout = builds.standard.pinout
    pins = []
    for key in builds.signals:
        name = pinout.gpio_name(pinmap_gpio(builds.pinmap, key))
        pins.append(f"`{key}` on {name} (pin {pinout.by_name[name]})")
    rows = [
        ["parts (required lines, USD)", money(two), f"{money(one)} (saves {money(two - one)})"],
        [
            "tower's own current on USB (mA)",
            f"{budget_two.tower_loads:.1f}",
            f"{budget_one.tower_loads:.1f}",
        ],
        [
            "LED budget on USB (`budget_milliamps` in `ledmap.json`)",
            f"{budget_two.led_budget} (`budget_profiles.usb`)",
            f"{budget_one.led_budget} (`budget_profiles.usb_one_beam`)",
        ],
        [
            "pin map (`pinmap.json`)",
            "; ".join(pins),
            "no " + ", ".join(f"`{k}`" for k in builds.signals) + " entry",
        ],
        [
            "wires (WIRING.md)",
            str(len(builds.standard.wires)),
            f"{len(builds.one_beam.wires)} (leave out {numbers(builds.wire_numbers())})",
        ],
    ]
    return table(["", "two-beam tower (standard)", "one-beam tower (budget)"], rows)


def numbers(values: list[int]) -> str:
    """'14-20' or '3, 5, 7-9': runs of consecutive numbers."""
    runs: list[list[int]] = []
    for value in values:
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def wiring_note(builds: Builds) -> str:
    refs = sorted(part.ref for part in builds.standard.parts if part.bom in builds.left_out_ids)
    keys = ", ".join(f"`{k}`" for k in builds.signals)
    return (
        f"**One-beam budget tower:** leave out {', '.join(refs)} and wires "
        f"{numbers(builds.wire_numbers())}, and delete {keys} from `pinmap.json`; "
        "`make hardware` then draws this table and the diagram without them.\n"
    )


def render_blocks(builds: Builds) -> dict[Path, dict[str, str]]:
    """The generated blocks, by the file of the build pack they go in (relative names)."""
    return {
        Path("BOM.md"): {
            "builds-compare": compare_table(builds),
            "builds-left-out": left_out_table(builds),
        },
        Path("WIRING.md"): {"builds-wiring": wiring_note(builds)},
    }
