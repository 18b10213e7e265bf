"""Helpers for the browser tests and the UI benchmark: the real table app in a subprocess (with
the simulated tower) and Debian's headless Chromium driven by Playwright.

Playwright's own browser download is never used (no internet): Chromium comes from Debian
(`make chromium`), launched with a fresh profile.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # several pages (the table and the phones) share one browser: keep background pages live
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]
TABLET = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# the three tablet sizes the layout tests measure and the screenshots show, and the app's languages
TABLETS = {
    "1280x800": {"width": 1280, "height": 800},
    "1024x768": {"width": 1024, "height": 768},
    "768x1024": {"width": 768, "height": 1024},
}
LANGS = ("en", "cs", "pl", "uk")
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


def chromium_missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        return (
            f"Debian's chromium is not installed ({CHROMIUM} missing) and `make chromium` could "
            "not install it (apt-get failed: no package mirror?)"
        )
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as exc:  # pragma: no cover - requirements-dev.txt pins it
        return f"playwright is not installed: {exc}"
    return None


def _pump(stream: IO[str], lines: queue.Queue[str]) -> None:
    for line in stream:
        lines.put(line)


@contextlib.contextmanager
def app_server(
    timeout_s: float = 60.0, extra: tuple[str, ...] = (), module: str = "host.cli"
) -> Iterator[str]:
    """`castillo run --sim --local` on a free port with a fresh database; yields its base URL
    (loopback only: a test never serves or uses the machine's real network address).
    `module`: the command's module (a test's own, which registers a test game first)."""
    data_dir = tempfile.mkdtemp(prefix="castillo-ui-")
    cmd = [sys.executable, "-m", module, "run", "--sim", "--local", "--port", "0"]
    cmd += ["--data-dir", data_dir]
    proc = subprocess.Popen(
        [*cmd, *extra],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    # a thread reads the output: select() on a buffered pipe would miss lines already read
    threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True).start()
    seen: list[str] = []
    base = ""
    deadline = time.monotonic() + timeout_s
    try:
        while not base:
            left = deadline - time.monotonic()
            if left <= 0 or (proc.poll() is not None and lines.empty()):
                raise RuntimeError("the app did not start:\n" + "".join(seen))
            try:
                line = lines.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            seen.append(line)
            if line.startswith("listening on "):
                base = line.split()[-1].rstrip("/")
        yield base
    finally:
        stop_process(proc)
        shutil.rmtree(data_dir, ignore_errors=True)


def stop_process(proc: subprocess.Popen[str]) -> None:
    """SIGTERM, then SIGKILL after 10 s."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return json.load(reply)


def shown(page: Any, base: str, timeout_ms: float = 60_000) -> None:
    """Wait until the page shows the server's current state (its `rev`)."""
    rev = get_json(base + "/api/state")["rev"]
    page.wait_for_function(
        "rev => Number(document.body.dataset.rev ?? -1) >= rev",
        arg=rev,
        timeout=timeout_ms,
        polling=100,
    )


def post_json(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.load(reply)


@contextlib.contextmanager
def browser_context(viewport: dict[str, int] = TABLET, executable: str = CHROMIUM) -> Iterator[Any]:
    """A Playwright persistent context of Debian's Chromium with a fresh user-data-dir
    (`executable`: a wrapper that starts it elsewhere, e.g. in a network namespace)."""
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="castillo-chromium-")
    try:
        with sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(
                profile,
                executable_path=executable,
                headless=True,
                args=CHROMIUM_ARGS,
                viewport=viewport,
                has_touch=True,
            )
            try:
                yield context
            finally:
                context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


# Chromium aborts a load when it sees the machine's interfaces change (a test's network namespace
# coming up); the page's own checks still see whether the request was made again.
NETWORK_CHANGED = "net::ERR_NETWORK_CHANGED"


def watch_errors(page: Any, errors: list[str]) -> None:
    """Collect the page's script errors and failed requests (a test asserts there are none)."""
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
    page.on(
        "console",
        lambda msg: (
            errors.append(f"{page.url}: console {msg.text}")
            if msg.type == "error" and NETWORK_CHANGED not in msg.text
            else None
        ),
    )
