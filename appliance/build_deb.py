"""`make appliance`: the Debian package that turns a Raspberry Pi into the Castillo table.

    python appliance/build_deb.py [--out build/appliance] [--compiled-wheel build/wheel/X.whl]

Builds build/appliance/castillo-appliance_<version>_all.deb with dpkg-deb for Raspberry Pi OS
Lite 64-bit (Debian bookworm, arm64; docs/appliance.md). The package carries everything the Pi
installs, so it needs no network:

- the kit as a pure wheel (plain engine) and, when `make wheel` made one, the wheel with the
  mypyc-compiled engine for this build machine's CPU (x86_64 here: the container test's);
- the dependencies' wheels for aarch64 (the Pi) and x86_64, at the versions the project's
  virtualenv was tested with, downloaded with `pip download --platform ... --only-binary=:all:`;
  pure wheels once in wheelhouse/common, the others in wheelhouse/<cpu>;
- setuptools (a pinned wheel) so that an update from a git tag builds offline;
- castillo-appliance (install, update, rollback), the systemd units, /etc/default/castillo,
  and hardware/pinmap.json and ledmap.json for the app (CASTILLO_HARDWARE).

The package is `Architecture: all`: it holds both CPUs' wheels and the installer picks this
machine's, so the very file the Pi installs is the one the container test installs.
Exit 0 with the package's path; 2 with why not.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from tools.build_wheel import stage  # noqa: E402  (the same sources as `make wheel`)

PACKAGE = "castillo-appliance"
# what the wheels are for: Raspberry Pi OS bookworm's Python is 3.11
PYTHON = ("--python-version", "3.11", "--implementation", "cp", "--abi", "cp311")
PLATFORMS = {
    "aarch64": ("manylinux2014_aarch64", "manylinux_2_17_aarch64", "manylinux_2_28_aarch64"),
    "x86_64": ("manylinux2014_x86_64", "manylinux_2_17_x86_64", "manylinux_2_28_x86_64"),
}
# builds the kit from a git tag on the Pi, offline (pyproject.toml: setuptools>=68)
SETUPTOOLS = "setuptools==80.9.0"
DEPENDS = (
    "python3 (>= 3.11), python3 (<< 3.12), python3-venv, systemd, passwd, avahi-daemon, "
    "libnss-mdns, network-manager, git"
)
RECOMMENDS = "cage, chromium | chromium-browser"
UNITS = ("castillo.service", "castillo-kiosk.service", "castillo-wifi.service")
# the tower's USB id and the light map: `castillo run` reads them from $CASTILLO_HARDWARE (an
# installed wheel has no checkout's hardware/ folder)
HARDWARE_FILES = ("pinmap.json", "ledmap.json")
CONFFILES = ("/etc/default/castillo", "/etc/pam.d/castillo-kiosk")


def project_version() -> str:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        return str(tomllib.load(handle)["project"]["version"])


def constraints(into: Path) -> Path:
    """The versions installed in the project's virtualenv (where the tests ran): the Pi gets
    exactly those."""
    pins = sorted(
        f"{dist.metadata['Name']}=={dist.version}"
        for dist in importlib.metadata.distributions()
        if dist.metadata["Name"]
        and dist.metadata["Name"].lower() not in {"castillo-kit", "pip", "setuptools", "wheel"}
    )
    path = into / "constraints.txt"
    path.write_text("\n".join(pins) + "\n")
    return path


def pure_wheel(into: Path) -> Path:
    """The kit as a py3-none-any wheel (no compiled engine: for a CPU this machine cannot build
    for)."""
    with tempfile.TemporaryDirectory() as scratch:
        staged = Path(scratch) / "src"
        stage(staged)
        env = {k: v for k, v in os.environ.items() if k != "CASTILLO_WHEEL_ENGINE_BUILD"}
        command = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(into)]
        subprocess.run([*command, str(staged)], env=env, check=True)
    (wheel,) = into.glob("castillo_kit-*-py3-none-any.whl")
    return wheel


def download(requirements: list[str], cpu: str, into: Path, pins: Path) -> None:
    platforms = [arg for name in PLATFORMS[cpu] for arg in ("--platform", name)]
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "-q",
        "--disable-pip-version-check",
        "--only-binary=:all:",
        *platforms,
        *PYTHON,
        "-c",
        str(pins),
        "-d",
        str(into),
    ]
    subprocess.run([*command, *requirements], check=True)


def wheelhouse(target: Path, pure: Path, compiled: Path | None, pins: Path) -> None:
    """target/common: wheels every CPU installs; target/<cpu>: the ones for that CPU only."""
    with tempfile.TemporaryDirectory() as scratch:
        per_cpu = {}
        for cpu in PLATFORMS:
            folder = Path(scratch) / cpu
            download([str(pure), SETUPTOOLS], cpu, folder, pins)
            per_cpu[cpu] = {p.name: p for p in folder.glob("*.whl")}
        common = set.intersection(*(set(names) for names in per_cpu.values()))
        (target / "common").mkdir(parents=True)
        for name in sorted(common):
            shutil.copy2(per_cpu["aarch64"][name], target / "common" / name)
        for cpu, wheels in per_cpu.items():
            (target / cpu).mkdir()
            for name in sorted(set(wheels) - common):
                shutil.copy2(wheels[name], target / cpu / name)
    if compiled is not None:
        shutil.copy2(compiled, target / "x86_64" / compiled.name)


def control(version: str, tree: Path) -> str:
    size = sum(p.stat().st_size for p in tree.rglob("*") if p.is_file()) // 1024
    return "\n".join(
        [
            f"Package: {PACKAGE}",
            f"Version: {version}",
            "Architecture: all",
            "Section: games",
            "Priority: optional",
            "Maintainer: The Castillo kit <castillo-kit@localhost>",
            f"Installed-Size: {size}",
            f"Depends: {DEPENDS}",
            f"Recommends: {RECOMMENDS}",
            "Description: Castillo table appliance for a Raspberry Pi",
            " Turns a Raspberry Pi running Raspberry Pi OS Lite (bookworm, 64-bit) into the",
            " Castillo kit's table: the table app starts at boot and restarts on failure,",
            " the table page shows full screen on the Pi's own screen, the Pi answers as",
            " castillo.local and raises its own Wi-Fi when no known network connects.",
            " Updates from a USB stick or a git tag are tried first and rolled back",
            " automatically, saved games included. It carries every wheel it installs.",
            "",
        ]
    )


def build(out: Path, compiled: Path | None) -> Path:
    version = project_version()
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        tree = work / "tree"
        pins = constraints(work)
        pure = pure_wheel(work / "pure")
        wheelhouse(tree / "usr/lib/castillo-appliance/wheelhouse", pure, compiled, pins)
        install = [
            (HERE / "castillo-appliance", "usr/sbin/castillo-appliance", 0o755),
            (HERE / "default-castillo", "etc/default/castillo", 0o644),
            (HERE / "pam/castillo-kiosk", "etc/pam.d/castillo-kiosk", 0o644),
            (ROOT / "docs/appliance.md", "usr/share/doc/castillo-appliance/appliance.md", 0o644),
            *(
                (ROOT / "hardware" / name, f"usr/share/castillo-appliance/hardware/{name}", 0o644)
                for name in HARDWARE_FILES
            ),
            *((HERE / "systemd" / unit, f"lib/systemd/system/{unit}", 0o644) for unit in UNITS),
        ]
        for source, target, mode in install:
            path = tree / target
            path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, path)
            path.chmod(mode)
        debian = tree / "DEBIAN"
        debian.mkdir()
        for script in ("postinst", "prerm", "postrm"):
            shutil.copyfile(HERE / "debian" / script, debian / script)
            (debian / script).chmod(0o755)
        (debian / "conffiles").write_text("\n".join(CONFFILES) + "\n")
        sums = []
        for path in sorted(tree.rglob("*")):
            if path.is_file() and "DEBIAN" not in path.relative_to(tree).parts:
                digest = hashlib.md5(path.read_bytes()).hexdigest()  # dpkg's md5sums format
                sums.append(f"{digest}  {path.relative_to(tree)}")
        (debian / "md5sums").write_text("\n".join(sums) + "\n")
        (debian / "control").write_text(control(version, tree))
        for path in tree.rglob("*"):
            if path.is_dir():
                path.chmod(0o755)
            elif path.parent.name != "DEBIAN" and not os.access(path, os.X_OK):
                path.chmod(0o644)
        out.mkdir(parents=True, exist_ok=True)
        deb = out / f"{PACKAGE}_{version}_all.deb"
        subprocess.run(
            ["dpkg-deb", "--root-owner-group", "-Zxz", "--build", str(tree), str(deb)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return deb


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "appliance")
    parser.add_argument("--compiled-wheel", type=Path, help="the wheel `make wheel` built")
    args = parser.parse_args(argv)
    if shutil.which("dpkg-deb") is None:
        print("build_deb: dpkg-deb is not installed (apt-get install dpkg)", file=sys.stderr)
        return 2
    compiled = args.compiled_wheel
    if compiled is not None and not compiled.is_file():
        print(f"build_deb: --compiled-wheel {compiled}: no such file", file=sys.stderr)
        return 2
    try:
        deb = build(args.out, compiled)
    except subprocess.CalledProcessError as exc:
        print(
            f"build_deb: {' '.join(map(str, exc.cmd[:4]))} … failed (exit {exc.returncode})",
            file=sys.stderr,
        )
        return 2
    print(f"{deb} ({deb.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
