"""The chute insert: params.scad from params.json, the geometry the model derives, the physics.

The falling-cube numbers in hardware/README.md come from here, from the same parameters the
OpenSCAD model uses; a test renders the model and checks that its echoed geometry matches
`geometry()`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardware.tools.blocks import table
from hardware.tools.data import HARDWARE_DIR, load_json

CHUTE_DIR = HARDWARE_DIR / "chute"
MODEL = CHUTE_DIR / "castillo_insert.scad"
PARTS = ("insert", "cone", "base", "tray")


def load_params(root: Path = HARDWARE_DIR) -> dict[str, Any]:
    return load_json("chute/params.json", root)


def scad_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(scad_value(v) for v in value) + "]"
    if isinstance(value, str):
        return '"' + value.replace('"', '\\"') + '"'
    raise TypeError(f"no OpenSCAD form for {value!r}")


def render_params_scad(params: dict[str, Any]) -> str:
    """params.scad: every non-note, non-physics entry of params.json as an OpenSCAD variable."""
    lines = ["// Generated from params.json by hardware/tools (make hardware). Do not edit."]
    for key, value in params.items():
        if key.endswith("note") or key == "physics":
            continue
        lines.append(f"{key} = {scad_value(value)};")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Geometry:
    """The derived dimensions the model echoes (mm)."""

    ramp_run: float
    z_lip: float
    z_ramp_top: float
    throat_x: float
    throat_y: float
    x_beam: float  # both beams' axes run along y at this x
    z_beam2: float  # the second beam's axis


def geometry(params: dict[str, Any]) -> Geometry:
    """The same derivation as castillo_insert.scad, kept in step by a test."""
    ow = params["tower_inner_w"] - 2 * params["fit_clearance"]
    iw = ow - 2 * params["wall"]
    throat_x = min(2 * params["cube_edge"] - 0.5, params["grande_edge"] + 3)
    throat_y = params["grande_edge"] * math.sqrt(2) + 2
    xt1 = iw / 2 - params["sensor_bay"] - params["wall"]
    xt0 = xt1 - throat_x
    ramp_run = xt0 + iw / 2
    z_lip = params["sensing_z"] + params["drop_h"]
    z_ramp_top = z_lip + ramp_run * math.tan(math.radians(params["hopper_angle"]))
    z_beam2 = params["sensing_z"] - params["beam2_below"]
    return Geometry(ramp_run, z_lip, z_ramp_top, throat_x, throat_y, (xt0 + xt1) / 2, z_beam2)


def free_fall_speed(g: float, height_mm: float) -> float:
    """v = sqrt(2 g h), in m/s."""
    return math.sqrt(2 * g * height_mm / 1000.0)


def groove_exit_speed(g: float, angle_deg: float, mu: float, run_mm: float) -> float:
    """Speed along a 90-degree V-groove slope after `run_mm` of horizontal run, from rest.

    In a 90-degree V the two faces press on the cube with sqrt(2) times its weight's normal
    component, so friction is sqrt(2) * mu. Zero if the cube would not slide.
    """
    angle = math.radians(angle_deg)
    accel = g * (math.sin(angle) - math.sqrt(2) * mu * math.cos(angle))
    if accel <= 0:
        return 0.0
    length_m = run_mm / 1000.0 / math.cos(angle)
    return math.sqrt(2 * accel * length_m)


def speed_after_drop(g: float, v0_down: float, drop_mm: float) -> float:
    """Vertical speed after falling `drop_mm` with an initial downward speed (m/s)."""
    return math.sqrt(v0_down**2 + 2 * g * drop_mm / 1000.0)


def transit_ms(edge_mm: float, speed: float) -> float:
    """Time a cube of edge `edge_mm` takes to pass a point sensor at `speed` (m/s)."""
    return edge_mm / speed


def free_fall_table(params: dict[str, Any]) -> str:
    physics = params["physics"]
    g, tint = float(physics["g"]), float(physics["integration_ms"])
    cube, grande = float(params["cube_edge"]), float(params["grande_edge"])
    rows = []
    for height in (10, 20, 30, 50, 80, 100):
        v = free_fall_speed(g, height)
        t_cube = transit_ms(cube, v)
        rows.append(
            [
                f"{height}",
                f"{v:.2f}",
                f"{t_cube:.1f}",
                f"{t_cube / tint:.1f}",
                f"{transit_ms(grande, v):.1f}",
            ]
        )
    header = [
        "drop from rest (mm)",
        "speed (m/s)",
        f"caballero {cube:g} mm passes in (ms)",
        f"{tint:g} ms samples",
        f"Grande {grande:g} mm passes in (ms)",
    ]
    return table(header, rows)


def design_table(params: dict[str, Any]) -> str:
    """The design as modelled: slide down the V-groove slope, then the free drop to the sensor."""
    physics = params["physics"]
    g, tint = float(physics["g"]), float(physics["integration_ms"])
    cube, grande = float(params["cube_edge"]), float(params["grande_edge"])
    geo = geometry(params)
    angle = float(params["hopper_angle"])
    rows = []
    for mu in physics["friction"]:
        v_exit = groove_exit_speed(g, angle, float(mu), geo.ramp_run)
        v_down = speed_after_drop(g, v_exit * math.sin(math.radians(angle)), params["drop_h"])
        t_cube = transit_ms(cube, v_down)
        rows.append(
            [
                f"{float(mu):g}",
                f"{v_exit:.2f}",
                f"{v_down:.2f}",
                f"{t_cube:.1f}",
                f"{t_cube / tint:.1f}",
                f"{transit_ms(grande, v_down):.1f}",
            ]
        )
    header = [
        "friction mu",
        "speed leaving the slope (m/s)",
        "falling speed at the sensor (m/s)",
        "caballero passes in (ms)",
        f"{tint:g} ms samples",
        "Grande passes in (ms)",
    ]
    return table(header, rows)


def geometry_table(params: dict[str, Any]) -> str:
    geo = geometry(params)
    rows = [
        ["slope run (singulating V-groove), x", f"{geo.ramp_run:.1f}"],
        ["slope angle", f"{params['hopper_angle']:g} deg"],
        ["lip height above the insert's base", f"{geo.z_lip:.1f}"],
        ["free drop from lip to sensing plane", f"{params['drop_h']:g}"],
        ["sensing plane (beam axis, window centre) above the base", f"{params['sensing_z']:g}"],
        ["throat, across the beam (x)", f"{geo.throat_x:.1f}"],
        ["throat, along the beam (y)", f"{geo.throat_y:.1f}"],
        ["second break-beam below the first (centre to centre)", f"{params['beam2_below']:g}"],
        [
            "Grande / caballero beam pulse ratio at the same speed",
            f"{params['grande_edge'] / params['cube_edge']:.2f} (no unit)",
        ],
    ]
    return table(["dimension", "mm"], rows)


def time_to_fall(distance_mm: float, speed: float, g: float) -> float:
    """Milliseconds a piece falling at `speed` (m/s) takes to cover `distance_mm` (mm)."""
    accel = g / 1000.0  # mm per ms^2
    return (-speed + math.sqrt(speed * speed + 2 * accel * distance_mm)) / accel


def beams_table(params: dict[str, Any]) -> str:
    """The second beam: the delay the firmware divides the spacing by, and what errors cost."""
    physics = params["physics"]
    g = float(physics["g"])
    cube, gap = float(params["cube_edge"]), float(params["beam2_below"])
    geo = geometry(params)
    angle = float(params["hopper_angle"])
    speeds = []
    for mu in physics["friction"]:
        v_exit = groove_exit_speed(g, angle, float(mu), geo.ramp_run)
        speeds.append(speed_after_drop(g, v_exit * math.sin(math.radians(angle)), params["drop_h"]))
    delays = [time_to_fall(gap, v, g) for v in speeds]
    pulses = [time_to_fall(cube, v, g) for v in speeds]
    shortest = (params["ir_led_d"] + params["phototransistor_d"]) / 2 + 1
    overlap = float(params["beam2_overlap_min"])
    rows = [
        ["spacing, beam axis to beam axis (`beam2_below`)", f"{gap:g} mm"],
        [
            "closest the bores allow (an emitter and a receiver bore in one wall, 1 mm apart)",
            f"{shortest:.1f} mm",
        ],
        [
            f"farthest: a caballero's front meets it {overlap:g} mm before its back leaves beam 1",
            f"{cube - overlap:g} mm",
        ],
        [
            "a caballero's front from beam 1 to beam 2, at the design speeds",
            f"{min(delays):.1f} to {max(delays):.1f} ms",
        ],
        [
            "the same as a share of its pulse on beam 1 (it must fall inside the pulse)",
            f"{max(d / p for d, p in zip(delays, pulses, strict=True)) * 100:.0f} %",
        ],
        ["a steady spacing error of 0.1 mm: every length reads off by", f"{0.1 / gap * 100:.1f} %"],
    ]
    return table(["second beam", "value"], rows)


def render_blocks(params: dict[str, Any]) -> dict[str, str]:
    return {
        "chute-beams": beams_table(params),
        "chute-geometry": geometry_table(params),
        "chute-free-fall": free_fall_table(params),
        "chute-design": design_table(params),
    }
