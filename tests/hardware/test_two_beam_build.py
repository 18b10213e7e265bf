"""The two-beam tower is the standard build everywhere; the one-beam tower is a documented option.

The standard build fails here if it loses the second beam anywhere (BOM, pin map, wiring, Wokwi
project, power budget; the chute model's bores are checked in test_chute_model.py), and the
one-beam option fails if its documentation drifts from what the data gives when a builder does
what it says (delete `break_beam_2` from the pin map).
"""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pytest

from hardware.tools import builds, generate, power_table
from hardware.tools.blocks import BEGIN, END
from hardware.tools.data import HARDWARE_DIR, load_bom, load_json, load_wiring

# The second beam's parts, written out here independently of bom.csv's feature column.
SECOND_BEAM = {"ir_led2": "TSAL6200", "phototransistor2": "TEFT4300", "r_ir2": "", "r_beam2": ""}


def bom_rows() -> list[dict[str, str]]:
    with (HARDWARE_DIR / "bom.csv").open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def block(text: str, name: str) -> str:
    start = text.index(BEGIN.format(name=name))
    return text[start : text.index(END.format(name=name), start)]


def prose(text: str) -> str:
    """A Markdown file without its generated blocks: what a person wrote."""
    return re.sub(r"<!-- BEGIN GENERATED (\S+):.*?<!-- END GENERATED \1 -->", "", text, flags=re.S)


@pytest.fixture
def one_beam(tmp_path: Path) -> Path:
    """A copy of the build pack with the pin map of a one-beam tower, as BOM.md says to make it."""
    root = tmp_path / "hardware"
    shutil.copytree(HARDWARE_DIR, root, ignore=shutil.ignore_patterns("stl", "__pycache__"))
    pinmap = json.loads((root / "pinmap.json").read_text())
    del pinmap["break_beam_2"]
    (root / "pinmap.json").write_text(json.dumps(pinmap))
    return root


# --- the standard build has the second beam everywhere ----------------------------------------


def test_the_standard_bom_buys_two_emitters_and_two_receivers() -> None:
    rows = {row["id"]: row for row in bom_rows()}
    for ident, mpn in SECOND_BEAM.items():
        assert rows[ident]["role"] == "required", ident
        assert rows[ident]["feature"] == "second_beam", ident
        assert float(rows[ident]["qty"]) == 1 and float(rows[ident]["unit_price_usd"]) > 0
        if mpn:
            assert rows[ident]["mpn"] == mpn
    required = [row for row in rows.values() if row["role"] == "required"]
    for mpn in ("TSAL6200", "TEFT4300"):
        assert sum(float(r["qty"]) for r in required if r["mpn"] == mpn) == 2, mpn
    # nothing but the second beam may be left out of the budget build
    assert {r["id"] for r in rows.values() if r["feature"]} == set(SECOND_BEAM)


def test_the_pin_map_wires_the_second_beam_like_the_first() -> None:
    pinmap = load_json("pinmap.json")
    first, second = pinmap["break_beam"], pinmap["break_beam_2"]
    assert "optional" not in second
    assert second["pin"] != first["pin"]
    for key in ("pull", "active", "pull_up_ohms"):
        assert second[key] == first[key], key


def test_the_standard_wiring_has_both_beams_none_of_it_optional() -> None:
    wiring = load_wiring()
    assert wiring.left_out == frozenset()
    boms = {part.ref: part.bom for part in wiring.parts}
    second = {ref for ref, bom in boms.items() if bom in SECOND_BEAM}
    assert {boms[ref] for ref in second} == set(SECOND_BEAM)
    wires = [w for w in wiring.wires if {w.a.ref, w.b.ref} & second]
    assert len(wires) == 7 and not any(w.optional for w in wires)
    # the second emitter is lit: 3V3 -> its resistor -> anode, cathode to GND
    emitter = next(ref for ref in second if boms[ref] == "ir_led2")
    nets = {w.net for w in wires if emitter in (w.a.ref, w.b.ref)}
    assert nets == {"IR2", "GND"}
    text = (HARDWARE_DIR / "WIRING.md").read_text()
    assert "(`break_beam_2`) | Q2 Phototransistor" in text.replace("**", "")


def test_the_wokwi_project_simulates_the_second_beam() -> None:
    diagram = json.loads((HARDWARE_DIR / "wokwi" / "diagram.json").read_text())
    parts = {part["id"]: part for part in diagram["parts"]}
    assert parts["beam2"]["type"] == "wokwi-pushbutton"
    assert "optional" not in parts["beam2"]["attrs"]["label"]
    assert parts["beam2_pulldown"]["type"] == "wokwi-resistor"
    ends = {end for a, b, *_ in diagram["connections"] for end in (a, b)}
    assert {"beam2:1.l", "beam2:2.l", "beam2_pulldown:1", "beam2_pulldown:2"} <= ends


def test_the_power_budget_counts_the_second_emitter() -> None:
    power = load_json("power.json")
    ledmap = load_json("ledmap.json")
    emitters = [load for load in power["loads"] if load.get("bom") in ("ir_led", "ir_led2")]
    assert len(emitters) == 2 and emitters[0]["milliamps"] == emitters[1]["milliamps"]
    standard = power_table.usb_budget(power)
    one = power_table.usb_budget(power, [i.id for i in load_bom() if i.feature == "second_beam"])
    assert standard.tower_loads - one.tower_loads == pytest.approx(13.33)
    assert ledmap["budget_milliamps"] == standard.led_budget == ledmap["budget_profiles"]["usb"]
    assert ledmap["budget_profiles"]["usb_one_beam"] == one.led_budget > standard.led_budget


# --- the one-beam option: what the docs say is what the data gives -----------------------------


def test_the_budget_build_is_the_standard_without_the_second_beam_parts() -> None:
    compared = builds.load()
    assert compared is not None
    assert compared.signals == ["break_beam_2"]
    assert compared.left_out_ids == set(SECOND_BEAM)
    saved = sum(float(r["qty"]) * float(r["unit_price_usd"]) for r in bom_rows() if r["feature"])
    assert compared.cost() - compared.cost(compared.left_out_ids) == pytest.approx(saved)
    assert saved == pytest.approx(1.25)
    dropped = {p.ref for p in compared.standard.parts} - {p.ref for p in compared.one_beam.parts}
    assert dropped == {"D3", "Q2", "R4", "R5"}
    assert compared.wire_numbers() == list(range(14, 21))
    two, one = compared.cost(), compared.cost(compared.left_out_ids)
    compare = block((HARDWARE_DIR / "BOM.md").read_text(), "builds-compare")
    assert f"| {two:.2f} | {one:.2f} (saves {saved:.2f}) |" in compare


def test_deleting_break_beam_2_builds_the_documented_one_beam_tower(one_beam: Path) -> None:
    """Doing what BOM.md says: the wiring, the Wokwi project and the power budget follow, and
    the parts they leave out are exactly the ones BOM.md lists."""
    wiring = load_wiring(one_beam)
    assert wiring.left_out == {"second_beam"}
    assert not {part.bom for part in wiring.parts} & set(SECOND_BEAM)
    expected = generate.expected(one_beam)
    wiring_md = expected[one_beam / "WIRING.md"]
    assert "break_beam_2" not in block(wiring_md, "wiring-wires")
    assert "Q2" not in block(wiring_md, "wiring-parts")
    assert "GP13" not in expected[one_beam / "wiring.svg"]
    diagram = json.loads(expected[one_beam / "wokwi" / "diagram.json"])
    assert not {p["id"] for p in diagram["parts"]} & {"beam2", "beam2_pulldown"}
    ledmap = load_json("ledmap.json")
    power_block = block(expected[one_beam / "README.md"], "power-usb-budget")
    assert f"`budget_milliamps` = {ledmap['budget_profiles']['usb_one_beam']}" in power_block
    assert "second beam" not in power_block
    # the comparison in BOM.md stays as the repository has it
    assert expected[one_beam / "BOM.md"] == (HARDWARE_DIR / "BOM.md").read_text()
    # the BOM's list of what to leave out is what the pin map change left out
    listed = set(
        re.findall(r"^\| `(\w+)` \|", block(expected[one_beam / "BOM.md"], "builds-left-out"), re.M)
    )
    assert listed == set(SECOND_BEAM)


def test_the_one_beam_prose_names_the_keys_the_data_uses() -> None:
    bom = prose((HARDWARE_DIR / "BOM.md").read_text())
    readme = prose((HARDWARE_DIR / "README.md").read_text())
    ledmap = load_json("ledmap.json")
    assert "## Budget option: the one-beam tower" in bom
    assert "delete the\n`break_beam_2` entry from `pinmap.json`" in bom
    assert "`budget_profiles.usb_one_beam`" in bom and "usb_one_beam" in ledmap["budget_profiles"]
    assert "`feature` in `bom.csv` is `second_beam`" in bom
    # the limits the issue asks the pack to state
    limits = readme[readme.index("### The one-beam tower and its limits") :]
    limits = limits[: limits.index("\n### ", 5)]
    for claim in (
        "fast pair of touching cubes from a slow single",
        '"1 or 2 purple"',
        "no per-cube colours",
        "never reports a pulse that could be two cubes as one",
    ):
        assert claim in limits.replace("\n  ", " ").replace("\n", " "), claim
    # the anchors the docs link to exist
    assert "(BOM.md#budget-option-the-one-beam-tower)" in readme
    assert "(README.md#the-one-beam-tower-and-its-limits)" in bom


def test_the_spacing_the_docs_quote_is_the_chute_parameter() -> None:
    params = load_json("chute/params.json")
    gap = f"{params['beam2_below']:g} mm"
    wiring = json.loads((HARDWARE_DIR / "wiring.json").read_text())
    mentions = [p["where"] for p in wiring["parts"] if "below" in p.get("where", "")]
    mentions += [w["note"] for w in wiring["wires"] if "below" in w.get("note", "")]
    assert mentions and all(gap + " below" in text for text in mentions), mentions
    for name in ("README.md", "BOM.md", "BRINGUP.md", "WIRING.md", "wokwi/README.md"):
        text = prose((HARDWARE_DIR / name).read_text())
        for number in re.findall(r"(\d+(?:\.\d+)?) mm (?:below|lower)", text):
            assert f"{float(number):g} mm" == gap, f"{name}: {number} mm"


def test_the_firmware_runs_one_beam_when_the_pin_map_has_no_second() -> None:
    """BOM.md's instruction reaches the firmware: with the repository's pin map it reports a
    second beam; with `break_beam_2` deleted from the flashed pin map, after a reset, none."""
    from host.tower.sim.client import SimClient
    from host.tower.sim.launcher import SimTower

    tower = SimTower.start()
    try:
        with SimClient(tower.port) as client:
            client.wait_hello(timeout=20)
            assert client.cmd("diag", on=False)["beam2"] is True
        flashed = tower.flash_dir / "pinmap.json"
        pinmap = json.loads(flashed.read_text())
        del pinmap["break_beam_2"]
        flashed.write_text(json.dumps(pinmap))
        tower.reset_device()
        with SimClient(tower.port) as client:
            client.wait_hello(timeout=20)
            assert client.cmd("diag", on=False)["beam2"] is False
    finally:
        tower.stop()
