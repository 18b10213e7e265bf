"""The appliance package, statically: what `make appliance` builds and what it holds
(issue 26). The container tests (test_boot.py, test_updates.py) install and run it."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.appliance.conftest import ROOT

UNITS = ("castillo.service", "castillo-kiosk.service", "castillo-wifi.service")
SCRIPTS = [
    ROOT / "appliance/debian/postinst",
    ROOT / "appliance/debian/prerm",
    ROOT / "appliance/debian/postrm",
    ROOT / "tests/appliance/make_rootfs.sh",
]


def deb_info(deb: Path, *fields: str) -> str:
    done = subprocess.run(
        ["dpkg-deb", "--field", str(deb), *fields], capture_output=True, text=True, check=True
    )
    return done.stdout


def contents(deb: Path) -> dict[str, str]:
    """path -> 'mode owner/group' of each entry of the package."""
    done = subprocess.run(
        ["dpkg-deb", "--contents", str(deb)], capture_output=True, text=True, check=True
    )
    entries = {}
    for line in done.stdout.splitlines():
        mode, owner, _size, _date, _time, path = line.split(None, 5)
        entries[path.removeprefix(".").rstrip("/") or "/"] = f"{mode} {owner}"
    return entries


def test_package_fields(deb: Path) -> None:
    """An `all` package for bookworm's Python 3.11, depending on what the Pi runs it with."""
    info = deb_info(deb, "Package", "Architecture", "Depends", "Recommends")
    assert "Package: castillo-appliance" in info
    assert "Architecture: all" in info
    for needed in (
        "python3 (<< 3.12)",
        "python3-venv",
        "avahi-daemon",
        "libnss-mdns",
        "network-manager",
    ):
        assert needed in info, info
    assert "cage" in info and "chromium" in info  # the kiosk: recommended, not required


def test_package_layout(deb: Path) -> None:
    """The units, the tool, the conffiles and both CPUs' wheelhouses, all owned by root; no
    file writable by others."""
    entries = contents(deb)
    for unit in UNITS:
        assert entries[f"/lib/systemd/system/{unit}"].startswith("-rw-r--r-- root/root"), unit
    assert entries["/usr/sbin/castillo-appliance"].startswith("-rwxr-xr-x root/root")
    assert "/etc/default/castillo" in entries and "/etc/pam.d/castillo-kiosk" in entries
    assert all(info.split()[1] == "root/root" for info in entries.values())
    assert not [p for p, info in entries.items() if info[8] == "w"], "a file others can write"
    house = "/usr/lib/castillo-appliance/wheelhouse"
    names = {p.rsplit("/", 1)[-1] for p in entries if p.startswith(house + "/aarch64/")}
    assert any(n.startswith("pydantic_core-") and "aarch64" in n and "cp311" in n for n in names)
    assert any(
        n.startswith("castillo_kit-") and n.endswith("py3-none-any.whl")
        for p in entries
        if p.startswith(house + "/common/")
        for n in [p.rsplit("/", 1)[-1]]
    )
    conffiles = subprocess.run(
        ["dpkg-deb", "--ctrl-tarfile", str(deb)], capture_output=True, check=True
    ).stdout
    assert b"postinst" in conffiles and b"conffiles" in conffiles


def test_arm64_wheels_complete(deb: Path, tmp_path: Path) -> None:
    """Everything the kit needs resolves from the carried wheels alone for a Pi (aarch64,
    CPython 3.11), with no index: the Pi installs offline."""
    subprocess.run(["dpkg-deb", "-x", str(deb), str(tmp_path / "x")], check=True)
    house = tmp_path / "x/usr/lib/castillo-appliance/wheelhouse"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--dry-run",
            "--quiet",
            "--report",
            "-",
            "--no-index",
            "--find-links",
            str(house / "common"),
            "--find-links",
            str(house / "aarch64"),
            "--only-binary=:all:",
            "--platform",
            "manylinux2014_aarch64",
            "--python-version",
            "3.11",
            "--implementation",
            "cp",
            "--abi",
            "cp311",
            "--target",
            str(tmp_path / "t"),
            "castillo-kit",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert '"name": "pydantic_core"' in done.stdout or '"name": "pydantic-core"' in done.stdout
    # and the kit's own wheel there is the whole app (its table page among its files)
    (kit,) = (house / "common").glob("castillo_kit-*.whl")
    with zipfile.ZipFile(kit) as archive:
        assert "host/app/static/index.html" in archive.namelist() or any(
            n.startswith("host/app/static/") for n in archive.namelist()
        )


@pytest.mark.skipif(
    shutil.which("shellcheck") is None,
    reason="shellcheck is not installed (make appliance-tools installs it)",
)
def test_scripts_shellcheck() -> None:
    """The maintainer scripts and the rootfs script pass shellcheck with no finding."""
    done = subprocess.run(
        ["shellcheck", "--shell=sh", *map(str, SCRIPTS[:3])],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and not done.stdout, done.stdout
    done = subprocess.run(
        ["shellcheck", str(SCRIPTS[3])], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and not done.stdout, done.stdout


def test_build_refuses_missing_compiled_wheel(tmp_path: Path) -> None:
    """A wrong --compiled-wheel is a clear exit 2, before anything is built."""
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "appliance/build_deb.py"),
            "--out",
            str(tmp_path),
            "--compiled-wheel",
            str(tmp_path / "nope.whl"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "nope.whl: no such file" in done.stderr
    assert not list(tmp_path.glob("*.deb"))
