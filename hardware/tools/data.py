"""Load the build pack's data files and resolve wiring endpoints through the pin map."""

from __future__ import annotations

import csv
import json
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HARDWARE_DIR = Path(__file__).resolve().parent.parent
PICO_PREFIX = "pico"


def load_json(name: str, root: Path = HARDWARE_DIR) -> dict[str, Any]:
    """One JSON data file of the build pack, as a dict."""
    data = json.loads((root / name).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{name}: expected a JSON object")
    return data


@dataclass(frozen=True)
class BomItem:
    """One line of hardware/bom.csv."""

    id: str
    qty: float
    unit: str
    description: str
    manufacturer: str
    mpn: str
    supplier: str
    supplier_sku: str
    unit_price_usd: float
    role: str
    feature: str  # "" for every build; a feature name (second_beam) a budget build leaves out
    pixels_per_unit: int
    notes: str

    @property
    def line_total_usd(self) -> float:
        return self.qty * self.unit_price_usd

    @property
    def pixels(self) -> int:
        return round(self.qty * self.pixels_per_unit)


BOM_ROLES = ("required", "optional", "alternative")


def load_bom(root: Path = HARDWARE_DIR) -> list[BomItem]:
    """Every BOM line, in file order."""
    with (root / "bom.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    items = [
        BomItem(
            id=row["id"],
            qty=float(row["qty"]),
            unit=row["unit"],
            description=row["description"],
            manufacturer=row["manufacturer"],
            mpn=row["mpn"],
            supplier=row["supplier"],
            supplier_sku=row["supplier_sku"],
            unit_price_usd=float(row["unit_price_usd"]),
            role=row["role"],
            feature=row["feature"],
            pixels_per_unit=int(row["pixels_per_unit"]),
            notes=row["notes"],
        )
        for row in rows
    ]
    for item in items:
        if item.role not in BOM_ROLES:
            raise ValueError(f"bom.csv {item.id}: role {item.role!r} not in {BOM_ROLES}")
        if item.feature and item.feature not in FEATURES:
            raise ValueError(f"bom.csv {item.id}: feature {item.feature!r} not in {FEATURES}")
    return items


# The parts a cheaper build may leave out, by the name bom.csv gives them in its feature column.
# A tower leaves a feature out by having no pin map entry for its signals (see load_wiring).
FEATURES = ("second_beam",)


@dataclass(frozen=True)
class Pinout:
    """The Pico's 40 physical pins by name (hardware/pico_pinout.json)."""

    by_number: dict[int, str]

    @property
    def by_name(self) -> dict[str, int]:
        return {name: number for number, name in self.by_number.items()}

    def gpio_name(self, gpio: int) -> str:
        name = f"GP{gpio}"
        if name not in self.by_name:
            raise ValueError(f"GPIO {gpio} is not on a Pico header pin")
        return name


def load_pinout(root: Path = HARDWARE_DIR) -> Pinout:
    data = load_json("pico_pinout.json", root)
    return Pinout({int(number): str(name) for number, name in data["physical"].items()})


def pinmap_gpio(pinmap: dict[str, Any], key: str) -> int:
    """The GPIO the pin map gives a signal: 'i2c.sda', or a top-level key such as 'break_beam'."""
    node: Any = pinmap
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            raise KeyError(f"pinmap.json has no {key!r}")
        node = node[part]
    if isinstance(node, dict):
        node = node.get("pin")
    if not isinstance(node, int):
        raise KeyError(f"pinmap.json {key!r} is not a pin number")
    return node


@dataclass(frozen=True)
class Endpoint:
    """One end of a wire: a part's pin; for the Pico, also the pin map signal it carries."""

    ref: str
    pin: str
    signal: str = ""

    def __str__(self) -> str:
        return f"{self.ref}:{self.pin}"


@dataclass(frozen=True)
class Part:
    ref: str
    bom: str
    title: str
    where: str
    pins: dict[str, str]


@dataclass(frozen=True)
class Wire:
    a: Endpoint
    b: Endpoint
    net: str
    optional: bool
    note: str


@dataclass(frozen=True)
class Wiring:
    """The tower's wiring with every Pico endpoint resolved through the pin map.

    Only the build the pin map describes: a feature whose signal has no pin map entry (the
    one-beam tower has no `break_beam_2`) is left out with all its parts and wires
    (`left_out`)."""

    parts: list[Part]
    net_colours: dict[str, tuple[str, str]]
    wires: list[Wire]
    pinout: Pinout
    left_out: frozenset[str] = frozenset()

    @property
    def pico(self) -> Part:
        return next(part for part in self.parts if part.bom == "pico")

    def part(self, ref: str) -> Part:
        for part in self.parts:
            if part.ref == ref:
                return part
        raise KeyError(ref)


def resolve_endpoint(spec: str, pico_ref: str, pinmap: dict[str, Any], pinout: Pinout) -> Endpoint:
    """'pico:i2c.sda' -> U1:GP4 (signal i2c.sda); 'pico:3V3' -> U1:3V3; 'U2:SDA' -> U2:SDA."""
    ref, _, pin = spec.partition(":")
    if not pin:
        raise ValueError(f"wiring endpoint {spec!r} is not REF:PIN")
    if ref != PICO_PREFIX:
        return Endpoint(ref, pin)
    if pin in pinout.by_name:
        return Endpoint(pico_ref, pin)
    return Endpoint(pico_ref, pinout.gpio_name(pinmap_gpio(pinmap, pin)), signal=pin)


def load_wiring(root: Path = HARDWARE_DIR, without: Collection[str] = ()) -> Wiring:
    """The wiring of the build the pin map describes; `without` names pin map keys to take as
    deleted (the one-beam tower: `break_beam_2`)."""
    data = load_json("wiring.json", root)
    pinmap = {key: value for key, value in load_json("pinmap.json", root).items()}
    for key in without:
        pinmap.pop(key, None)
    pinout = load_pinout(root)
    features = {item.id: item.feature for item in load_bom(root)}
    pinout_pins = {name: f"pin {number}" for number, name in pinout.by_number.items()}
    parts = [
        Part(
            ref=p["ref"],
            bom=p["bom"],
            title=p["title"],
            where=p.get("where", ""),
            pins=dict(p.get("pins", pinout_pins)),
        )
        for p in data["parts"]
    ]
    part_feature = {part.ref: features.get(part.bom, "") for part in parts}
    pico_ref = next(part.ref for part in parts if part.bom == "pico")

    def wire_feature(w: dict[str, Any]) -> str:
        ends = [str(w["from"]).partition(":")[0], str(w["to"]).partition(":")[0]]
        return next((part_feature[ref] for ref in ends if part_feature.get(ref)), "")

    # a signal the pin map does not name leaves out the feature its wires belong to
    left_out: set[str] = set()
    for w in data["wires"]:
        for spec in (w["from"], w["to"]):
            ref, _, pin = str(spec).partition(":")
            if ref != PICO_PREFIX or pin in pinout.by_name:
                continue
            try:
                pinmap_gpio(pinmap, pin)
            except KeyError:
                if not wire_feature(w):
                    raise
                left_out.add(wire_feature(w))
    parts = [part for part in parts if part_feature[part.ref] not in left_out]
    wires = [
        Wire(
            a=resolve_endpoint(w["from"], pico_ref, pinmap, pinout),
            b=resolve_endpoint(w["to"], pico_ref, pinmap, pinout),
            net=w["net"],
            optional=bool(w.get("optional", False)),
            note=w.get("note", ""),
        )
        for w in data["wires"]
        if wire_feature(w) not in left_out
    ]
    colours = {name: (str(v["colour"]), str(v["hex"])) for name, v in data["nets"].items()}
    return Wiring(
        parts=parts,
        net_colours=colours,
        wires=wires,
        pinout=pinout,
        left_out=frozenset(left_out),
    )


def feature_signals(wiring: Wiring, items: list[BomItem], feature: str) -> list[str]:
    """The pin map keys that serve only `feature`'s parts (deleting them leaves it out)."""
    parts = {item.id for item in items if item.feature == feature}
    refs = {part.ref for part in wiring.parts if part.bom in parts}
    uses: dict[str, set[bool]] = {}
    for wire in wiring.wires:
        for here, there in ((wire.a, wire.b), (wire.b, wire.a)):
            if here.signal:
                uses.setdefault(here.signal, set()).add(there.ref in refs)
    return sorted(signal for signal, to_feature in uses.items() if to_feature == {True})
