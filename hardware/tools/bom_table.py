"""The readable BOM (hardware/bom.md blocks), generated from hardware/bom.csv."""

from __future__ import annotations

from hardware.tools.blocks import table
from hardware.tools.data import BomItem


def money(value: float) -> str:
    return f"{value:.2f}"


def qty(item: BomItem) -> str:
    text = f"{item.qty:g}"
    return text if item.unit == "pcs" else f"{text} {item.unit}"


def item_table(items: list[BomItem], role: str) -> str:
    rows = [
        [
            f"`{item.id}`",
            qty(item),
            item.description,
            item.manufacturer,
            item.mpn,
            f"{item.supplier} {item.supplier_sku}".strip(),
            money(item.unit_price_usd),
            money(item.line_total_usd),
            item.notes,
        ]
        for item in items
        if item.role == role
    ]
    header = ["id", "qty", "part", "manufacturer", "MPN", "supplier", "unit $", "line $", "notes"]
    return table(header, rows)


def totals(items: list[BomItem]) -> dict[str, float]:
    """Total price per role."""
    out: dict[str, float] = {}
    for item in items:
        out[item.role] = out.get(item.role, 0.0) + item.line_total_usd
    return out


def pixel_total(items: list[BomItem]) -> int:
    """Pixels bought by the required lines (must equal the LED map's total)."""
    return sum(item.pixels for item in items if item.role == "required")


def summary(items: list[BomItem]) -> str:
    sums = totals(items)
    required = sums.get("required", 0.0)
    optional = sums.get("optional", 0.0)
    second = sum(
        i.line_total_usd for i in items if i.role == "required" and i.feature == "second_beam"
    )
    rows = [
        ["required parts: the standard two-beam tower, USB-powered", money(required)],
        ["the same without the second beam (one-beam budget tower)", money(required - second)],
        ["optional parts (external 5 V supply)", money(optional)],
        ["required + optional", money(required + optional)],
        ["WS2812B pixels bought (required lines)", str(pixel_total(items))],
    ]
    return table(["total", "USD"], rows)


def render_blocks(items: list[BomItem]) -> dict[str, str]:
    return {
        "bom-required": item_table(items, "required"),
        "bom-optional": item_table(items, "optional"),
        "bom-alternative": item_table(items, "alternative"),
        "bom-totals": summary(items),
    }
