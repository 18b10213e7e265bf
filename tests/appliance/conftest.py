"""Fixtures of the appliance tests: the package (built once per run when missing or older than
its sources) and a booted container with it installed."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app.netns import NETNS_MISSING, Wire, wire
from tests.appliance import container as ct

ROOT = ct.ROOT
SOURCES = [
    *sorted((ROOT / "appliance").rglob("*")),
    ROOT / "docs" / "appliance.md",
    ROOT / "pyproject.toml",
]
# figures the tests print at the end (-s) and docs/appliance.md quotes
FIGURES: dict[str, str] = {}


def version() -> str:
    import tomllib

    with open(ROOT / "pyproject.toml", "rb") as handle:
        return str(tomllib.load(handle)["project"]["version"])


@pytest.fixture(scope="session")
def deb() -> Path:
    """build/appliance/castillo-appliance_<version>_all.deb, as `make appliance` builds it."""
    path = ROOT / "build" / "appliance" / f"castillo-appliance_{version()}_all.deb"
    newest = max(p.stat().st_mtime for p in SOURCES if p.is_file())
    if not path.exists() or path.stat().st_mtime < newest:
        compiled = sorted(
            (ROOT / "build" / "appliance" / "wheel").glob(f"castillo_kit-{version()}-cp311-*.whl")
        )
        extra = ["--compiled-wheel", str(compiled[-1])] if compiled else []
        done = subprocess.run(
            [sys.executable, str(ROOT / "appliance" / "build_deb.py"), *extra],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-2000:]
    return path


@pytest.fixture(scope="session")
def network() -> Iterator[Wire]:
    """The container's network: a veth to a "phone" namespace (tests/app/netns.py)."""
    if NETNS_MISSING:
        pytest.skip(f"no network namespaces: {NETNS_MISSING}")
    with wire() as made:
        yield made


@pytest.fixture(scope="session")
def installed(
    deb: Path, network: Wire, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ct.Container]:
    """A booted stock-card container with the package installed with dpkg -i, on a veth to
    a phone's namespace."""
    reason = ct.why_not()
    if reason:
        pytest.skip(reason)
    cached = (ct.ROOTFS / ".castillo-rootfs").exists()
    took = ct.ensure_rootfs()
    if not cached:
        FIGURES["rootfs build (first run)"] = f"{took:.0f} s"
    box = ct.Container(tmp_path_factory.mktemp("appliance"), netns=network.server_ns)
    try:
        box.boot()
        box.put(deb, "/root/castillo-appliance.deb")
        started = time.monotonic()
        box.run("dpkg", "-i", "/root/castillo-appliance.deb", timeout=600)
        FIGURES["dpkg -i to serving"] = f"{time.monotonic() - started:.1f} s"
        box.wait_serving(60)
        yield box
    finally:
        box.remove()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """What the container tests measured (docs/appliance.md quotes such figures)."""
    for name, value in FIGURES.items():
        terminalreporter.write_line(f"appliance: {name}: {value}")
