"""Render the chute parts to STL with OpenSCAD (`make hardware`).

python -m hardware.tools.render [--out DIR] [-D name=value ...]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from hardware.tools.chute import CHUTE_DIR, MODEL, PARTS


@dataclass(frozen=True)
class Rendered:
    part: str
    stl: Path
    echoes: dict[str, float]


def openscad() -> str:
    path = shutil.which("openscad")
    if path is None:
        raise RuntimeError("openscad not found: run `make hardware` (it installs it) or apt-get it")
    return path


def parse_echo(output: str) -> dict[str, float]:
    """The named values of the model's `echo("castillo_insert", name = value, ...)` line."""
    for line in output.splitlines():
        if line.startswith('ECHO: "castillo_insert"'):
            return {name: float(value) for name, value in re.findall(r"(\w+) = ([-\d.e]+)", line)}
    raise ValueError("the model printed no geometry echo")


def render(part: str, out_dir: Path, defines: dict[str, str] | None = None) -> Rendered:
    """Render one part; raise with OpenSCAD's message if it fails (for instance an assert)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stl = out_dir / f"{part}.stl"
    command = [openscad(), "-o", str(stl), "-D", f'part="{part}"']
    for name, value in (defines or {}).items():
        command += ["-D", f"{name}={value}"]
    command.append(str(MODEL))
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)
    output = done.stdout + done.stderr
    if done.returncode != 0 or "ERROR" in output or not stl.exists():
        raise RuntimeError(f"openscad failed for {part}:\n{output}")
    return Rendered(part, stl, parse_echo(output))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Render the chute parts to STL.")
    parser.add_argument("--out", type=Path, default=CHUTE_DIR / "stl")
    parser.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    defines = dict(item.split("=", 1) for item in args.defines)
    for part in PARTS:
        rendered = render(part, args.out, defines)
        print(f"rendered {rendered.stl} ({rendered.stl.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
