"""The wiring diagram (hardware/wiring.svg), generated from wiring.json and pinmap.json.

Layout: the Pico on the left with only its used pins, the other parts stacked on the right, and
one vertical channel per wire between them, so every wire is a single orthogonal run that can be
followed by eye and by colour.
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.tools.data import Wire, Wiring
from hardware.tools.svg import document, element

ROW = 20.0
HEADER = 22.0
GAP = 14.0
TOP = 60.0
PICO_X = 20.0
PICO_W = 250.0
CHANNEL = 8.0
PART_W = 330.0


@dataclass(frozen=True)
class Anchor:
    """Where a wire meets a pin: on the right edge of the Pico or the left edge of a part."""

    x: float
    y: float


def used_pins(wiring: Wiring) -> dict[str, list[str]]:
    """Per part ref, its pins that carry a wire, in the part's own pin order."""
    seen: dict[str, set[str]] = {}
    for wire in wiring.wires:
        for end in (wire.a, wire.b):
            seen.setdefault(end.ref, set()).add(end.pin)
    ordered: dict[str, list[str]] = {}
    for part in wiring.parts:
        pins = seen.get(part.ref, set())
        if part.ref == wiring.pico.ref:
            ordered[part.ref] = sorted(pins, key=lambda n: wiring.pinout.by_name[n])
        else:
            ordered[part.ref] = [pin for pin in part.pins if pin in pins]
    return ordered


def render(wiring: Wiring) -> str:
    pins = used_pins(wiring)
    pico = wiring.pico
    channels_x0 = PICO_X + PICO_W + 30.0
    parts_x = channels_x0 + CHANNEL * len(wiring.wires) + 30.0
    anchors: dict[str, Anchor] = {}
    body: list[str] = []

    # The Pico, used pins only, labelled with physical number, name and pin map key.
    signals = {e.pin: e.signal for w in wiring.wires for e in (w.a, w.b) if e.signal}
    pico_h = HEADER + ROW * len(pins[pico.ref]) + 6
    body.append(
        element(
            "rect",
            x=PICO_X,
            y=TOP,
            width=PICO_W,
            height=pico_h,
            rx=6,
            fill="#eaf4ea",
            stroke="#2e7d32",
        )
    )
    body.append(
        element(
            "text", f"U1 {pico.title} (used pins)", x=PICO_X + 8, y=TOP + 16, font_weight="bold"
        )
    )
    for index, name in enumerate(pins[pico.ref]):
        y = TOP + HEADER + ROW * index + ROW / 2
        label = f"{wiring.pinout.by_name[name]:>2}  {name}"
        if name in signals:
            label += f"  {signals[name]}"
        body.append(
            element("text", label, x=PICO_X + 8, y=y + 4, font_family="DejaVu Sans Mono, monospace")
        )
        anchors[f"{pico.ref}:{name}"] = Anchor(PICO_X + PICO_W, y)

    # The other parts, stacked.
    y0 = TOP
    for part in wiring.parts:
        if part.ref == pico.ref or not pins[part.ref]:
            continue
        height = HEADER + ROW * len(pins[part.ref]) + 6
        fill = "#fff8e1" if not part_optional(wiring, part.ref) else "#f3f3f3"
        body.append(
            element(
                "rect",
                x=parts_x,
                y=y0,
                width=PART_W,
                height=height,
                rx=6,
                fill=fill,
                stroke="#8d6e00",
            )
        )
        body.append(
            element(
                "text", f"{part.ref} {part.title}", x=parts_x + 8, y=y0 + 16, font_weight="bold"
            )
        )
        for index, pin in enumerate(pins[part.ref]):
            y = y0 + HEADER + ROW * index + ROW / 2
            body.append(element("text", f"{pin}: {part.pins[pin]}", x=parts_x + 10, y=y + 4))
            anchors[f"{part.ref}:{pin}"] = Anchor(parts_x, y)
        y0 += height + GAP

    # Wires: shortest vertical runs nearest the parts, so long runs stay outside short ones.
    def span(wire: Wire) -> float:
        return abs(anchors[str(wire.a)].y - anchors[str(wire.b)].y)

    order = sorted(range(len(wiring.wires)), key=lambda i: (-span(wiring.wires[i]), i))
    for slot, index in enumerate(order):
        wire = wiring.wires[index]
        x = channels_x0 + CHANNEL * slot
        body.append(wire_path(wiring, wire, anchors[str(wire.a)], anchors[str(wire.b)], x))
    for key in sorted(anchors):
        anchor = anchors[key]
        body.append(element("circle", cx=anchor.x, cy=anchor.y, r=2.5, fill="#333333"))

    height = max(y0, TOP + pico_h) + 20
    body += legend(wiring, PICO_X, TOP + pico_h + 30)
    body.insert(
        0,
        element(
            "text",
            "Castillo tower wiring (generated from hardware/wiring.json and hardware/pinmap.json)",
            x=PICO_X,
            y=30,
            font_size=16,
            font_weight="bold",
        ),
    )
    width = parts_x + PART_W + 20
    legend_bottom = TOP + pico_h + 30 + 18 * (len(wiring.net_colours) + 2)
    return document(width, max(height, legend_bottom), body, "Castillo tower wiring")


def part_optional(wiring: Wiring, ref: str) -> bool:
    """A part is drawn as optional when all of its wires are optional."""
    touching = [w for w in wiring.wires if ref in (w.a.ref, w.b.ref)]
    return bool(touching) and all(w.optional for w in touching)


def wire_path(wiring: Wiring, wire: Wire, a: Anchor, b: Anchor, x: float) -> str:
    _colour, hex_colour = wiring.net_colours[wire.net]
    d = f"M{a.x:.1f},{a.y:.1f} H{x:.1f} V{b.y:.1f} H{b.x:.1f}"
    dash = "5,4" if wire.optional else "none"
    return element(
        "path", d=d, fill="none", stroke=hex_colour, stroke_width=2.0, stroke_dasharray=dash
    )


def legend(wiring: Wiring, x: float, y: float) -> list[str]:
    out = [
        element(
            "text",
            "Wire colours by net (dashed = optional external 5 V)",
            x=x,
            y=y,
            font_weight="bold",
        )
    ]
    for index, (net, (colour, hex_colour)) in enumerate(sorted(wiring.net_colours.items())):
        yy = y + 18 * (index + 1)
        out.append(
            element(
                "line", x1=x, y1=yy - 4, x2=x + 30, y2=yy - 4, stroke=hex_colour, stroke_width=3.0
            )
        )
        out.append(element("text", f"{net} ({colour})", x=x + 38, y=yy))
    return out
