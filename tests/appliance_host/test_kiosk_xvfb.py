"""The kiosk as the appliance runs it, on a virtual screen: `castillo kiosk --browser
/usr/bin/chromium` against a real `castillo run` whose machine runs its own Wi-Fi (`castillo wifi
init`, then `castillo wifi watch` with a fake nmcli raised the access point). Everything runs in
a private network namespace whose only interface has the access point's address (10.42.0.1):
the machine's own network is never used. The screen (Xvfb, 1280x800) is captured with `xwd`,
and zbar (`zbarimg`) reads the Wi-Fi QR code from it: it must hold the network name and password
of the NetworkManager profile. The browser's window must cover the whole screen.

Needs `make kiosk-tools` (Debian's xvfb, x11-apps, x11-utils, zbar-tools) and chromium; skips
and says why without them."""

from __future__ import annotations

import configparser
import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from host.app import own_network
from tests.app.netns import NETNS_MISSING, castillo_run, in_ns
from tests.app.ui_browser import CHROMIUM, CHROMIUM_ARGS, chromium_missing
from tests.appliance_host.helpers import AP_ADDRESS, access_point_namespace, own_wifi

REPO = Path(__file__).resolve().parents[2]
SCREEN = (1280, 800)
TOOLS = ("Xvfb", "xwd", "xwininfo", "xdpyinfo", "zbarimg")


def _missing() -> str | None:
    absent = [tool for tool in TOOLS if shutil.which(tool) is None]
    if absent:
        return f"{', '.join(absent)} not installed (`make kiosk-tools`)"
    return chromium_missing() or (
        f"no network namespaces: {NETNS_MISSING}" if NETNS_MISSING else None
    )


MISSING = _missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"kiosk test: {MISSING}")


def _run(*cmd: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(cmd), cwd=REPO, capture_output=True, text=True, timeout=120, env=env)


@contextlib.contextmanager
def started(
    cmd: list[str], env: dict[str, str] | None = None, **kwargs: object
) -> Iterator[subprocess.Popen[str]]:
    """A process of its own session (its children go with it), ended at the end."""
    proc = subprocess.Popen(cmd, cwd=REPO, env=env, text=True, start_new_session=True, **kwargs)  # type: ignore[call-overload]
    try:
        yield proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@contextlib.contextmanager
def xvfb(ns: str) -> Iterator[str]:
    """Xvfb in `ns` on a display number it picks itself (-displayfd); yields ":N"."""
    read, write = os.pipe()
    cmd = in_ns(ns, "Xvfb", "-displayfd", str(write), "-screen", "0", "{}x{}x24".format(*SCREEN))
    with started([*cmd, "-nolisten", "tcp"], pass_fds=(write,), stderr=subprocess.DEVNULL) as proc:
        os.close(write)
        with os.fdopen(read) as answer:
            number = answer.readline().strip()
        assert number.isdigit(), f"Xvfb did not start (exit {proc.poll()})"
        yield f":{number}"


def _profile(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(path.read_text())
    return parser


def _decoded(shot: Path) -> list[str]:
    """The QR codes zbar finds in a screenshot (an XWD file)."""
    done = _run("zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(shot))
    return [line for line in done.stdout.splitlines() if line]


def test_the_kiosk_shows_the_table_full_screen_with_the_wifi_code(tmp_path: Path) -> None:
    data, profiles = own_wifi(tmp_path)
    profile = _profile(profiles / own_network.PROFILE_FILE)
    expected = own_network.wifi_payload(
        own_network.Credentials(
            profile["wifi"]["ssid"],
            profile["wifi-security"]["psk"],
            "10.42.0.1/24",
            profile["connection"]["uuid"],
        )
    )

    with (
        access_point_namespace() as ns,
        castillo_run(ns, "--data-dir", str(data)) as served,
        xvfb(ns) as display,
    ):
        here = next(u for u in served.urls() if "127.0.0.1" in u)
        assert any(f"http://{AP_ADDRESS}:" in u for u in served.urls()), served.lines
        chromium_args = [a for a in CHROMIUM_ARGS if a != "--headless"]
        kiosk = in_ns(
            ns,
            sys.executable,
            "-m",
            "host.cli",
            "kiosk",
            "--url",
            here,
            "--browser",
            CHROMIUM,
            *(f"--browser-arg={a}" for a in chromium_args),
        )
        log = tmp_path / "kiosk.log"
        with (
            log.open("w") as out,
            started(
                kiosk,
                env={**os.environ, "DISPLAY": display},
                stdout=out,
                stderr=subprocess.STDOUT,
            ) as proc,
        ):
            shot = tmp_path / "screen.xwd"
            found: list[str] = []
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and proc.poll() is None:
                time.sleep(3)
                grab = in_ns(ns, "xwd", "-root", "-silent", "-display", display, "-out", str(shot))
                if _run(*grab).returncode == 0:
                    found = _decoded(shot)
                    if found:
                        break
            assert proc.poll() is None, "the kiosk ended:\n" + log.read_text()
            assert found == [expected], (found, log.read_text())
            windows = _run(*in_ns(ns, "xwininfo", "-root", "-children", "-display", display))
            # the browser's window covers the screen (from its top left corner)
            sizes = re.findall(r'"Castillo[^"]*": \(.*?\)\s+(\d+)x(\d+)\+0\+0', windows.stdout)
            assert sizes, windows.stdout
            assert all(int(w) >= SCREEN[0] and int(h) >= SCREEN[1] for w, h in sizes), sizes
        assert "starting " in log.read_text()
