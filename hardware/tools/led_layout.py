"""The LED layout under the board: a table and a map (hardware/led_layout.svg).

Generated from hardware/ledmap.json (chain order, pixel counts) and hardware/led_layout.json
(approximate positions on the board).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

from hardware.tools.blocks import table
from hardware.tools.svg import document, element


@dataclass(frozen=True)
class Piece:
    """One LED segment placed on the board, in chain order."""

    name: str
    kind: str
    start: int
    count: int
    x_mm: float
    y_mm: float


def pieces(ledmap: dict[str, Any], layout: dict[str, Any]) -> list[Piece]:
    width, height = (float(v) for v in layout["board_mm"])
    out = []
    for segment in sorted(ledmap["segments"], key=lambda s: int(s["start"])):
        fx, fy = layout["positions"][segment["name"]]
        out.append(
            Piece(
                name=segment["name"],
                kind=segment.get("kind", ""),
                start=int(segment["start"]),
                count=int(segment["count"]),
                x_mm=float(fx) * width,
                y_mm=float(fy) * height,
            )
        )
    return out


def hop_mm(a: Piece, b: Piece, slack_mm: float) -> float:
    """Cable from one piece to the next, straight-line distance plus slack, rounded up to 1 cm."""
    straight = math.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm)
    return math.ceil((straight + slack_mm) / 10.0) * 10.0


def route_mm(chain: list[Piece], slack_mm: float) -> float:
    return sum(hop_mm(a, b, slack_mm) for a, b in itertools.pairwise(chain))


def two_opt(chain: list[Piece], slack_mm: float) -> list[Piece]:
    """A short route with the first piece fixed: nearest neighbour, then 2-opt until no gain."""
    rest = chain[1:]
    route = [chain[0]]
    while rest:
        nearest = min(rest, key=lambda p: hop_mm(route[-1], p, 0.0))
        route.append(nearest)
        rest.remove(nearest)
    improved = True
    while improved:
        improved = False
        for i in range(1, len(route) - 1):
            for j in range(i + 1, len(route)):
                candidate = route[:i] + route[i : j + 1][::-1] + route[j + 1 :]
                if route_mm(candidate, slack_mm) < route_mm(route, slack_mm) - 1e-9:
                    route, improved = candidate, True
    return route


def route_table(ledmap: dict[str, Any], layout: dict[str, Any]) -> str:
    """The chain's route against the shortest one a 2-opt search finds on the same positions."""
    chain = pieces(ledmap, layout)
    slack = float(layout["cable_slack_mm"])
    best = two_opt(chain, slack)
    rows = [
        ["ledmap.json order", " > ".join(p.name for p in chain), f"{route_mm(chain, slack):.0f}"],
        [
            "shortest found (2-opt)",
            " > ".join(p.name for p in best),
            f"{route_mm(best, slack):.0f}",
        ],
    ]
    return table(["route", "order", "cable (mm)"], rows)


def layout_table(ledmap: dict[str, Any], layout: dict[str, Any]) -> str:
    chain = pieces(ledmap, layout)
    slack = float(layout["cable_slack_mm"])
    pitch = float(layout["pixel_pitch_mm"])
    rows = []
    for index, piece in enumerate(chain):
        cable = "in the tower" if index == 0 else f"{hop_mm(chain[index - 1], piece, slack):.0f}"
        if piece.kind == "ring":
            cut = "NeoPixel ring 12"
        else:
            cut = f"{piece.count} pixels cut from the strip ({piece.count * pitch:.0f} mm)"
        rows.append(
            [
                str(index + 1),
                piece.name,
                piece.kind,
                f"{piece.start}-{piece.start + piece.count - 1}",
                str(piece.count),
                f"{piece.x_mm:.0f}, {piece.y_mm:.0f}",
                cable,
                cut,
            ]
        )
    total = route_mm(chain, slack)
    rows.append(["", "**total**", "", "", str(sum(p.count for p in chain)), "", f"{total:.0f}", ""])
    header = [
        "#",
        "segment",
        "kind",
        "pixels",
        "count",
        "x, y (mm)",
        "cable from previous (mm)",
        "what to cut",
    ]
    return table(header, rows)


def render_svg(ledmap: dict[str, Any], layout: dict[str, Any]) -> str:
    chain = pieces(ledmap, layout)
    width_mm, height_mm = (float(v) for v in layout["board_mm"])
    scale = 0.9
    ox, oy = 90.0, 60.0
    body = [
        element("text", "LED layout under the board", x=10, y=22, font_size=15, font_weight="bold"),
        element(
            "text",
            "generated from hardware/ledmap.json and hardware/led_layout.json; "
            "positions approximate",
            x=10,
            y=40,
            font_size=11,
        ),
        element(
            "rect",
            x=ox,
            y=oy,
            width=width_mm * scale,
            height=height_mm * scale,
            fill="#f4efe1",
            stroke="#7a6a3a",
            stroke_width=2.0,
        ),
        element(
            "text",
            f"board {width_mm:.0f} x {height_mm:.0f} mm (seen from above)",
            x=ox + 6,
            y=oy + height_mm * scale - 8,
            fill="#7a6a3a",
        ),
    ]

    def point(piece: Piece) -> tuple[float, float]:
        return ox + piece.x_mm * scale, oy + piece.y_mm * scale

    for a, b in itertools.pairwise(chain):
        (x1, y1), (x2, y2) = point(a), point(b)
        body.append(
            element(
                "line",
                x1=x1,
                y1=y1,
                x2=x2,
                y2=y2,
                stroke="#8b5a2b",
                stroke_width=2.0,
                stroke_dasharray="6,3",
            )
        )
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        angle = math.atan2(y2 - y1, x2 - x1)
        tip = (mx + 7 * math.cos(angle), my + 7 * math.sin(angle))
        left = (mx + 7 * math.cos(angle + 2.5), my + 7 * math.sin(angle + 2.5))
        right = (mx + 7 * math.cos(angle - 2.5), my + 7 * math.sin(angle - 2.5))
        points = " ".join(f"{px:.1f},{py:.1f}" for px, py in (tip, left, right))
        body.append(element("polygon", points=points, fill="#8b5a2b"))
    for index, piece in enumerate(chain):
        x, y = point(piece)
        colour = {"ring": "#1f6fd1", "border": "#8a3fc0"}.get(piece.kind, "#d01010")
        if piece.kind == "ring":
            body.append(
                element("circle", cx=x, cy=y, r=16.0, fill="none", stroke=colour, stroke_width=5.0)
            )
        else:
            pitch = 7.0
            for k in range(piece.count):
                px = x + (k - (piece.count - 1) / 2) * pitch
                body.append(
                    element("rect", x=px - 2.5, y=y - 2.5, width=5.0, height=5.0, fill=colour)
                )
        label = f"{index + 1}. {piece.name} [{piece.start}-{piece.start + piece.count - 1}]"
        body.append(element("text", label, x=x - 40, y=y + 22))
    total_w = ox + width_mm * scale + 30
    total_h = oy + height_mm * scale + 40
    return document(total_w, total_h, body, "Castillo LED layout")
