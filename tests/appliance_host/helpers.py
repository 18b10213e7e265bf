"""What the appliance tests share: a machine that runs its own Wi-Fi, made as the appliance makes
it (`castillo wifi init`, then `castillo wifi watch` with a fake nmcli that finds no known
network), and a private network namespace whose only interface has the access point's address."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from host.app import own_network
from tests.app.netns import IP, lone_namespace
from tests.appliance_host.test_wifi_cli import FAKE_NMCLI

REPO = Path(__file__).resolve().parents[2]
AP_ADDRESS = "10.42.0.1"


def _castillo(*args: str, env: dict[str, str] | None = None) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr


def own_wifi(folder: Path) -> tuple[Path, Path]:
    """A data folder whose machine runs its own Wi-Fi, and the folder of its NetworkManager
    profile: (data, profiles)."""
    data, profiles, fake_bin = folder / "data", folder / "nm", folder / "bin"
    _castillo("wifi", "init", "--data-dir", str(data), "--profile-dir", str(profiles))
    fake_bin.mkdir()
    (fake_bin / "nmcli").write_text(FAKE_NMCLI.format(python=sys.executable))
    (fake_bin / "nmcli").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake_bin}:{os.environ['PATH']}", "FAKE_NM_DIR": str(folder)}
    watch = ("wifi", "watch", "--data-dir", str(data), "--profile-dir", str(profiles))
    _castillo(
        *watch, "--wait", "0", "--once", env=env
    )  # no known network: the access point is raised
    state = own_network.read_state(data)
    assert state is not None and state.active and state.address == AP_ADDRESS
    return data, profiles


@contextlib.contextmanager
def access_point_namespace() -> Iterator[str]:
    """A namespace with loopback and the access point's interface (`AP_ADDRESS`/24): a veth
    pair with both ends inside (this kernel has no dummy interfaces), without IPv6 link-local
    addresses (their late arrival reads as a network change to Chromium)."""
    with lone_namespace() as ns:

        def ip(*args: str) -> None:
            subprocess.run([IP, "-n", ns, *args], check=True, capture_output=True, timeout=20)

        ip("link", "add", "castillo-ap", "type", "veth", "peer", "name", "castillo-apx")
        for end in ("castillo-ap", "castillo-apx"):
            ip("link", "set", end, "addrgenmode", "none")
        ip("addr", "add", f"{AP_ADDRESS}/24", "dev", "castillo-ap")
        ip("link", "set", "castillo-apx", "up")
        ip("link", "set", "castillo-ap", "up")
        yield ns
