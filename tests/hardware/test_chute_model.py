"""The OpenSCAD chute model renders, fits the tower, agrees with the physics, refuses bad input.

OpenSCAD is installed by `make unit` (a prerequisite of `make test`); these tests fail rather
than skip without it, because the model is part of the build pack.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from hardware.tools import chute, render
from hardware.tools.data import load_bom

PLA_G_PER_CM3 = 1.24


def read_stl(path: Path) -> tuple[list[float], list[float], float]:
    """Bounding box minimum, maximum and enclosed volume (mm^3) of an ASCII STL."""
    numbers = re.findall(r"vertex\s+(\S+)\s+(\S+)\s+(\S+)", path.read_text())
    vertices = [tuple(float(v) for v in triple) for triple in numbers]
    assert vertices and len(vertices) % 3 == 0, f"{path} has no facets"
    low = [min(v[i] for v in vertices) for i in range(3)]
    high = [max(v[i] for v in vertices) for i in range(3)]
    volume = 0.0
    for k in range(0, len(vertices), 3):
        a, b, c = vertices[k : k + 3]
        volume += (
            a[0] * (b[1] * c[2] - b[2] * c[1])
            - a[1] * (b[0] * c[2] - b[2] * c[0])
            + a[2] * (b[0] * c[1] - b[1] * c[0])
        ) / 6.0
    return low, high, volume


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, render.Rendered]:
    out = tmp_path_factory.mktemp("stl")
    return {part: render.render(part, out) for part in chute.PARTS}


def test_every_part_renders_to_a_solid(rendered: dict[str, render.Rendered]) -> None:
    for part, result in rendered.items():
        _low, _high, volume = read_stl(result.stl)
        assert volume > 1000, f"{part}: {volume:.0f} mm^3"


def test_the_insert_fits_the_tower(rendered: dict[str, render.Rendered]) -> None:
    params = chute.load_params()
    low, high, _volume = read_stl(rendered["insert"].stl)
    clear = params["fit_clearance"]
    assert high[0] - low[0] == pytest.approx(params["tower_inner_w"] - 2 * clear, abs=0.01)
    assert high[1] - low[1] == pytest.approx(params["tower_inner_d"] - 2 * clear, abs=0.01)
    assert high[2] - low[2] == pytest.approx(params["tower_inner_h"] - params["tray_gap"], abs=0.01)


def test_the_tray_holds_the_tower(rendered: dict[str, render.Rendered]) -> None:
    params = chute.load_params()
    low, high, _volume = read_stl(rendered["tray"].stl)
    assert high[0] - low[0] > params["tower_outer_w"]
    assert high[1] - low[1] > params["tower_outer_d"]


def test_model_geometry_matches_the_physics_tables(rendered: dict[str, render.Rendered]) -> None:
    expected = chute.geometry(chute.load_params())
    echoed = rendered["insert"].echoes
    for name in ("ramp_run", "z_lip", "z_ramp_top", "throat_x", "throat_y"):
        assert echoed[name] == pytest.approx(getattr(expected, name), abs=0.01), name
    params = chute.load_params()
    assert echoed["z_beam2"] == pytest.approx(params["sensing_z"] - params["beam2_below"])


def test_the_insert_has_both_beams_bores_on_alternate_walls(
    rendered: dict[str, render.Rendered],
) -> None:
    """The standard tower's two beams: a 5 mm emitter bore and a 3 mm receiver bore facing it at
    each beam's height, the second beam `beam2_below` under the first with its emitter in the
    other wall (so neither receiver sees the other beam's emitter)."""
    params = chute.load_params()
    geo = chute.geometry(params)
    echoed = rendered["insert"].echoes
    assert echoed["beam_count"] == 2
    assert echoed["beam_gap"] == pytest.approx(params["beam2_below"])
    text = rendered["insert"].stl.read_text()
    found = re.findall(r"vertex\s+(\S+)\s+(\S+)\s+(\S+)", text)
    vertices = {(float(x), float(y), float(z)) for x, y, z in found}

    def bore(z: float, diameter: float, side: int) -> int:
        """Vertices on a bore of that diameter along y at the beam's x and height z, in the wall
        on `side` (-1 back, +1 front)."""
        return sum(
            1
            for x, y, zz in vertices
            if side * y > geo.throat_y / 2 - 0.01
            and abs(math.hypot(x - geo.x_beam, zz - z) - diameter / 2) < 0.02
        )

    emitter, receiver = params["ir_led_d"], params["phototransistor_d"]
    for z, emitter_side in ((params["sensing_z"], -1), (geo.z_beam2, 1)):
        assert bore(z, emitter, emitter_side) >= params["fn"], f"no emitter bore at z={z}"
        assert bore(z, receiver, -emitter_side) >= params["fn"], f"no receiver bore at z={z}"
        assert bore(z, emitter, -emitter_side) == 0, f"emitters face each other at z={z}"


def test_bom_filament_covers_the_printed_parts(rendered: dict[str, render.Rendered]) -> None:
    grams = sum(read_stl(r.stl)[2] for r in rendered.values()) / 1000.0 * PLA_G_PER_CM3
    filament = next(item for item in load_bom() if item.id == "filament")
    assert 0.8 * grams <= filament.qty <= 1.3 * grams, f"parts weigh {grams:.0f} g solid"


def test_the_design_gives_the_sensor_several_samples_per_cube() -> None:
    params = chute.load_params()
    physics = params["physics"]
    geo = chute.geometry(params)
    for mu in physics["friction"]:
        exit_speed = chute.groove_exit_speed(physics["g"], params["hopper_angle"], mu, geo.ramp_run)
        assert exit_speed > 0, f"a cube would not slide at mu={mu}"
        down = exit_speed * math.sin(math.radians(params["hopper_angle"]))
        falling = chute.speed_after_drop(physics["g"], down, params["drop_h"])
        samples = chute.transit_ms(params["cube_edge"], falling) / physics["integration_ms"]
        assert samples >= 3.0, f"only {samples:.1f} samples at mu={mu}"


def test_free_fall_numbers_match_the_textbook() -> None:
    # 5 cm from rest: about 1 m/s, an 8 mm cube passes in about 8 ms
    v = chute.free_fall_speed(9.81, 50)
    assert v == pytest.approx(0.990, abs=0.001)
    assert chute.transit_ms(8.0, v) == pytest.approx(8.08, abs=0.01)


def test_parameters_can_be_overridden(tmp_path: Path) -> None:
    bigger = render.render("insert", tmp_path, {"tower_inner_w": "80", "tower_inner_h": "170"})
    low, high, _volume = read_stl(bigger.stl)
    assert high[0] - low[0] == pytest.approx(79.0, abs=0.01)
    assert bigger.echoes["ramp_run"] > chute.geometry(chute.load_params()).ramp_run


def test_impossible_parameters_fail_with_the_reason(tmp_path: Path) -> None:
    # 6 mm cubes and a 14 mm Grande: no throat can pass the Grande and still let the beam see
    # every caballero
    with pytest.raises(RuntimeError, match="throat too narrow"):
        render.render("insert", tmp_path, {"cube_edge": "6"})


def test_a_second_beam_too_far_down_is_refused(tmp_path: Path) -> None:
    # 7.5 mm below the first: a caballero's front would reach it only as its back leaves beam 1
    with pytest.raises(RuntimeError, match="beam2_below too long"):
        render.render("insert", tmp_path, {"beam2_below": "7.5"})
    with pytest.raises(RuntimeError, match="beam2_below too small"):
        render.render("insert", tmp_path, {"beam2_below": "4"})
