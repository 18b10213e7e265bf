"""`make wheel`: a wheel of the kit that carries the compiled engine (README "Speed").

For a machine that installs the kit rather than checking it out (the Raspberry Pi appliance,
issue 26): the mypyc build `make setup` made in build/mypyc goes into the wheel as
host/engine_mypyc (setup.py), so `castillo` installed from it runs the compiled engine. The wheel
is tagged for this Python and platform: build it on (or for) the machine that installs it.

The sources are copied to a scratch folder first (no build/lib or egg-info left in the checkout,
none reused from an earlier run), and the wheel is checked after: its engine sources must be the
ones the build was compiled from, or `castillo` would refuse the build once installed.

    python tools/build_wheel.py [--out build/wheel] [--build build/mypyc]

Exit 0 with the wheel's path; 2 with why not.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from host import engine_build

ROOT = engine_build.REPO_ROOT
# what the package is made of (pyproject.toml: packages found in . and firmware/)
SOURCES = (
    "pyproject.toml",
    "setup.py",
    "README.md",
    "engine",
    "host",
    "hardware",
    "firmware/towerfw",
)
PACKAGED = "host/engine_mypyc/"
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "node_modules", "engine_mypyc")


def stage(into: Path) -> None:
    for name in SOURCES:
        source, target = ROOT / name, into / name
        if source.is_dir():
            shutil.copytree(source, target, ignore=SKIP)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def check(wheel: Path) -> str:
    """ "" when the wheel's engine sources are the ones its compiled build was made from."""
    with zipfile.ZipFile(wheel) as archive, tempfile.TemporaryDirectory() as scratch:
        names = archive.namelist()
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        if not any(n.startswith(PACKAGED + "engine/") and n.endswith(suffix) for n in names):
            return f"{wheel.name} holds no compiled engine modules (*{suffix})"
        archive.extractall(scratch, [n for n in names if n.startswith("engine/")])
        shipped = archive.read(PACKAGED + engine_build.DIGEST_FILE).decode().strip()
        if engine_build.sources_digest(Path(scratch) / "engine") != shipped:
            return f"the engine sources in {wheel.name} are not the ones the build was made from"
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "wheel")
    parser.add_argument("--build", type=Path, default=engine_build.BUILD)
    args = parser.parse_args(argv)
    reason = engine_build.why_not_compiled(args.build)
    if reason:
        print(f"build_wheel: {reason}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        staged, out = Path(scratch) / "src", Path(scratch) / "out"
        stage(staged)
        env = {**os.environ, "CASTILLO_WHEEL_ENGINE_BUILD": str(args.build.resolve())}
        command = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out)]
        done = subprocess.run([*command, str(staged)], env=env, check=False)
        wheels = sorted(out.glob("*.whl"))
        if done.returncode or len(wheels) != 1:
            print(f"build_wheel: pip wheel failed (exit {done.returncode})", file=sys.stderr)
            return 2
        reason = check(wheels[0])
        if reason:
            print(f"build_wheel: {reason}", file=sys.stderr)
            return 2
        wheel = args.out / wheels[0].name
        shutil.move(wheels[0], wheel)
    print(f"{wheel} ({wheel.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
