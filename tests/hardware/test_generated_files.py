"""Generated tables, diagrams and the Wokwi project are up to date with the data."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hardware.tools import generate
from hardware.tools.blocks import replace_block
from hardware.tools.data import HARDWARE_DIR


def test_committed_generated_files_match_the_data() -> None:
    stale = [str(path.relative_to(HARDWARE_DIR)) for path in generate.stale()]
    assert not stale, f"run `make hardware` and commit: {stale}"


def test_a_pin_change_reaches_the_table_the_diagram_and_wokwi(tmp_path: Path) -> None:
    root = tmp_path / "hardware"
    shutil.copytree(HARDWARE_DIR, root, ignore=shutil.ignore_patterns("stl", "__pycache__"))
    pinmap = json.loads((root / "pinmap.json").read_text())
    pinmap["gate_switch"]["pin"] = 12  # a free GPIO
    (root / "pinmap.json").write_text(json.dumps(pinmap))
    stale = {path.name for path in generate.stale(root)}
    assert {"WIRING.md", "wiring.svg", "diagram.json"} <= stale
    expected = generate.expected(root)
    assert "Pico pin 16 **GP12** (`gate_switch`)" in expected[root / "WIRING.md"]
    assert "GP12  gate_switch" in expected[root / "wiring.svg"]
    assert '"pico:GP12"' in expected[root / "wokwi" / "diagram.json"]


def test_replace_block_keeps_the_prose_and_refuses_a_missing_block() -> None:
    text = (
        "before\n<!-- BEGIN GENERATED x: edit the data files and run `make hardware`, not this "
        "block -->\nold\n<!-- END GENERATED x -->\nafter\n"
    )
    out = replace_block(text, "x", "new\n")
    assert out.startswith("before\n") and out.endswith("after\n")
    assert "new" in out and "old" not in out
    with pytest.raises(ValueError):
        replace_block(text, "y", "new")


def test_svgs_are_well_formed_xml() -> None:
    import xml.etree.ElementTree as ElementTree

    for name in ("wiring.svg", "led_layout.svg"):
        root = ElementTree.fromstring((HARDWARE_DIR / name).read_text())
        assert root.tag.endswith("svg"), name


def test_the_wiring_diagram_draws_every_wire_once() -> None:
    from hardware.tools.data import load_wiring

    svg = (HARDWARE_DIR / "wiring.svg").read_text()
    assert svg.count("<path ") == len(load_wiring().wires)
