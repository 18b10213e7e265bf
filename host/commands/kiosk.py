"""`castillo kiosk`: the table page full screen on the machine's own screen (an appliance).

It waits until the table app answers, then starts a kiosk browser (Chromium) on the table page
over loopback: the host's own screen is the table without pairing. Under Wayland (cage on the
Pi) Chromium runs as a Wayland client; under X (tests: Xvfb) it is placed over the whole screen,
since without a window manager `--kiosk` alone leaves a border. The command lasts as long as
the browser: a browser that cannot start (or dies) ends it with a message and a non-zero code,
and the service manager starts it again.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

DEFAULT_URL = "http://127.0.0.1:8000/"
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
WAIT_S = 120.0  # how long to wait for the app before giving up (the service tries again)
EARLY_EXIT_S = 10.0  # a browser that ends sooner did not start
BROWSER_FLAGS = [
    "--kiosk",
    "--noerrdialogs",
    "--disable-infobars",
    "--no-first-run",
    "--password-store=basic",
    "--disable-session-crashed-bubble",
    "--disable-features=Translate,TranslateUI",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--check-for-update-interval=31536000",
    "--overscroll-history-navigation=0",
    "--disable-pinch",
]


def register(subparsers: Any) -> None:
    kiosk = subparsers.add_parser(
        "kiosk", help="show the table page full screen on this machine's screen (an appliance)"
    )
    kiosk.add_argument(
        "--url", default=DEFAULT_URL, help=f"the table page (default {DEFAULT_URL}: loopback)"
    )
    kiosk.add_argument(
        "--browser", help=f"the browser to start (default: the first of {', '.join(BROWSERS)})"
    )
    kiosk.add_argument(
        "--wait",
        type=float,
        default=WAIT_S,
        metavar="SECONDS",
        help=f"how long to wait for the table app to answer (default {WAIT_S:g})",
    )
    kiosk.add_argument(
        "--window-size",
        metavar="WxH",
        help="under X: the window's size (default: the screen's, from xdpyinfo)",
    )
    kiosk.add_argument(
        "--profile",
        type=Path,
        help="the browser's profile folder (default: a fresh one, removed at the end)",
    )
    kiosk.add_argument(
        "--browser-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="one more argument for the browser (repeatable; e.g. --browser-arg=--disable-gpu)",
    )
    kiosk.set_defaults(handler=run_kiosk)


class KioskError(Exception):
    """Why the kiosk cannot run: the message for the log."""


def _fail(message: str, code: int = 1) -> int:
    print(f"castillo kiosk: {message}", file=sys.stderr, flush=True)
    return code


def check_url(url: str) -> str:
    """The table page's URL: http(s) with a host; KioskError otherwise."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError as exc:
        raise KioskError(f"--url {url!r}: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise KioskError(f"--url {url!r}: give the table page, e.g. {DEFAULT_URL}")
    return url


def find_browser(given: str | None) -> str:
    if given is not None:
        path = shutil.which(given)
        if path is None:
            raise KioskError(f"the browser {given!r} is not there or cannot be run")
        return path
    for name in BROWSERS:
        path = shutil.which(name)
        if path is not None:
            return path
    raise KioskError("no browser found: install chromium (or give --browser)")


def wait_for_app(url: str, wait_s: float, poll_s: float = 0.5) -> None:
    """Until the table app at `url` answers GET /api/info as itself; KioskError when it did
    not within `wait_s`."""
    parts = urlsplit(url)
    info = f"{parts.scheme}://{parts.netloc}/api/info"
    deadline = time.monotonic() + wait_s
    last = "no answer"
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never a proxy
    while True:
        try:
            with direct.open(info, timeout=5) as reply:
                if json.load(reply).get("app") == "castillo":
                    return
                last = "another program answers there"
        except (OSError, ValueError) as exc:
            last = str(getattr(exc, "reason", exc))
        if time.monotonic() >= deadline:
            raise KioskError(f"the table app at {info} did not answer within {wait_s:g} s ({last})")
        time.sleep(poll_s)


def screen_size() -> str | None:
    """The window size that covers the X screen, `W,H` (xdpyinfo), or None when the screen
    cannot be read."""
    tool = shutil.which("xdpyinfo")
    if tool is None:
        return None
    try:
        out = subprocess.run([tool], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = re.search(r"dimensions:\s+(\d+)x(\d+) pixels", out)
    if not found:
        return None
    # one pixel more each way (off screen): Chromium makes a window exactly the screen's size
    # one pixel smaller (seen on Xvfb: 1279x799 for 1280x800), which leaves a black edge
    return f"{int(found.group(1)) + 1},{int(found.group(2)) + 1}"


def browser_command(
    browser: str, url: str, profile: Path, window: str | None, extra: list[str]
) -> list[str]:
    """The browser's command line for the session it is in (Wayland or X)."""
    cmd = [browser, *BROWSER_FLAGS, f"--user-data-dir={profile}"]
    if os.environ.get("WAYLAND_DISPLAY"):
        cmd.append("--ozone-platform=wayland")
    elif os.environ.get("DISPLAY"):
        cmd.append("--ozone-platform=x11")
        if window:
            cmd += ["--window-position=0,0", f"--window-size={window}"]
    if os.geteuid() == 0 and "--no-sandbox" not in extra:
        cmd.append("--no-sandbox")  # Chromium refuses root otherwise; run the kiosk as a user
    return [*cmd, *extra, url]


def _clean_exit_marks(profile: Path) -> None:
    """After a crash or a power cut Chromium offers to restore the last pages: its profile is
    marked as ended normally, so a kiosk never shows that bar."""
    prefs = profile / "Default" / "Preferences"
    with contextlib.suppress(OSError, ValueError):
        data = json.loads(prefs.read_text())
        data.setdefault("profile", {})["exit_type"] = "Normal"
        data["profile"]["exited_cleanly"] = True
        prefs.write_text(json.dumps(data))


def run_kiosk(args: argparse.Namespace) -> int:
    window = args.window_size
    try:
        url = check_url(args.url)
        if window is not None and not re.fullmatch(r"\d{2,5}x\d{2,5}", window):
            raise KioskError(f"--window-size {window!r}: give WIDTHxHEIGHT, e.g. 1280x800")
        if not 0 <= args.wait <= 3600:
            raise KioskError("--wait must be 0-3600 seconds")
    except KioskError as exc:
        return _fail(str(exc), 2)
    try:
        browser = find_browser(args.browser)
        wayland = bool(os.environ.get("WAYLAND_DISPLAY"))
        if not wayland and not os.environ.get("DISPLAY"):
            raise KioskError("no screen: run it under cage (Wayland) or X (DISPLAY is not set)")
        if window is not None:
            window = window.replace("x", ",")
        elif not wayland:
            window = screen_size()
        print(f"waiting for the table app at {url}", flush=True)
        wait_for_app(url, args.wait)
    except KioskError as exc:
        return _fail(str(exc))
    made = args.profile is None
    profile = Path(tempfile.mkdtemp(prefix="castillo-kiosk-")) if made else args.profile
    try:
        profile.mkdir(parents=True, exist_ok=True)
        _clean_exit_marks(profile)
        return _run_browser(browser_command(browser, url, profile, window, args.browser_arg))
    finally:
        if made:
            shutil.rmtree(profile, ignore_errors=True)


def _run_browser(cmd: list[str]) -> int:
    started = time.monotonic()
    print(f"starting {cmd[0]} on {cmd[-1]}", flush=True)
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    except OSError as exc:
        return _fail(f"the browser {cmd[0]} cannot start: {exc.strerror}")
    tail: list[str] = []
    stopping = False

    def stop(signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True
        proc.send_signal(signal.SIGTERM)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        assert proc.stderr is not None
        for line in proc.stderr:  # Chromium's complaints, the last few kept for the message
            tail = [*tail[-4:], line.rstrip()]
        code = proc.wait()
    except KeyboardInterrupt:
        proc.send_signal(signal.SIGTERM)
        proc.wait()
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
    lasted = time.monotonic() - started
    if stopping:  # the service ends the kiosk
        return 0
    said = " / ".join(line for line in tail if line) or "no message"
    if lasted < EARLY_EXIT_S:
        return _fail(f"the browser did not start (it ended at once, code {code}): {said}")
    return _fail(f"the browser ended (code {code}): {said}") if code else 0
