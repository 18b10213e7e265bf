"""Write (or check) every generated file of the build pack from its data files.

python -m hardware.tools.generate          # rewrite what is stale
python -m hardware.tools.generate --check  # exit 1 and list what is stale
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from hardware.tools import (
    bom_table,
    builds,
    chute,
    led_layout,
    power_table,
    wiring_svg,
    wiring_table,
    wokwi,
)
from hardware.tools.blocks import block_names, replace_block
from hardware.tools.data import HARDWARE_DIR, load_bom, load_json, load_pinout, load_wiring


def whole_files(root: Path) -> dict[Path, str]:
    """Files generated in full."""
    pinmap = load_json("pinmap.json", root)
    ledmap = load_json("ledmap.json", root)
    layout = load_json("led_layout.json", root)
    return {
        root / "chute" / "params.scad": chute.render_params_scad(chute.load_params(root)),
        root / "wiring.svg": wiring_svg.render(load_wiring(root)),
        root / "led_layout.svg": led_layout.render_svg(ledmap, layout),
        root / "wokwi" / "diagram.json": wokwi.render(pinmap, ledmap, load_pinout(root)),
    }


def blocks(root: Path) -> dict[Path, dict[str, str]]:
    """Generated blocks inside hand-written Markdown files."""
    wiring = load_wiring(root)
    ledmap = load_json("ledmap.json", root)
    items = load_bom(root)
    left_out = {item.id for item in items if item.feature in wiring.left_out}
    readme: dict[str, str] = {}
    readme.update(power_table.render_blocks(load_json("power.json", root), ledmap, left_out))
    layout = load_json("led_layout.json", root)
    readme["leds-layout"] = led_layout.layout_table(ledmap, layout)
    readme["leds-route"] = led_layout.route_table(ledmap, layout)
    readme.update(chute.render_blocks(chute.load_params(root)))
    out = {
        root / "README.md": readme,
        root / "BOM.md": bom_table.render_blocks(items),
        root / "WIRING.md": {
            "wiring-parts": wiring_table.parts_table(wiring),
            "wiring-pico-pins": wiring_table.pico_pin_table(wiring),
            "wiring-wires": wiring_table.wire_table(wiring),
        },
        root / "BRINGUP.md": {"bringup-beams": wiring_table.beam_pin_table(wiring)},
    }
    compared = builds.load(root)
    if compared is not None:  # a builder's one-beam pin map keeps the comparison as it is
        for name, contents in builds.render_blocks(compared).items():
            out[root / name].update(contents)
    return out


def expected(root: Path = HARDWARE_DIR) -> dict[Path, str]:
    """Every generated file's expected content."""
    out = whole_files(root)
    for path, contents in blocks(root).items():
        text = path.read_text(encoding="utf-8")
        missing = set(contents) - set(block_names(text))
        if missing:
            raise ValueError(f"{path.name} lacks generated blocks {sorted(missing)}")
        for name, content in contents.items():
            text = replace_block(text, name, content)
        out[path] = text
    return out


def stale(root: Path = HARDWARE_DIR) -> list[Path]:
    """Generated files whose committed content differs from what the data gives."""
    result = []
    for path, text in expected(root).items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            result.append(path)
    return result


def write(root: Path = HARDWARE_DIR, log: Callable[[str], None] = print) -> None:
    for path, text in expected(root).items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            log(f"wrote {path.relative_to(root.parent)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="only report stale files")
    args = parser.parse_args(argv)
    if args.check:
        old = stale()
        for path in old:
            print(f"stale: {path.relative_to(HARDWARE_DIR.parent)} (run make hardware)")
        return 1 if old else 0
    write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
