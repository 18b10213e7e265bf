"""`castillo kiosk` without a real screen: it refuses bad input (exit 2), waits for the table app
and gives up with a message when it never answers, says why when the browser cannot start
(exit 1: the service manager starts it again), passes the service's stop on to the browser, and
builds the browser's command line for Wayland (cage) and X."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from host.commands import kiosk

REPO = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def fake_app(answer: dict[str, str], delay_s: float = 0.0) -> Iterator[str]:
    """A loopback server answering GET /api/info (after `delay_s`, refused until then)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = json.dumps(answer).encode()
            self.send_response(200 if self.path == "/api/info" else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port = server.server_address[1]
    server.server_close()  # the port is taken again after `delay_s`: refused until then

    def serve() -> None:
        time.sleep(delay_s)
        late = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        holder.append(late)
        late.serve_forever(poll_interval=0.05)

    holder: list[ThreadingHTTPServer] = []
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        deadline = time.monotonic() + 5
        while not holder and time.monotonic() < deadline:
            time.sleep(0.05)
        for late in holder:
            late.shutdown()
            late.server_close()


def _browser(tmp_path: Path, script: str) -> Path:
    path = tmp_path / "fake-browser"
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(0o755)
    return path


def _kiosk(*args: str, display: str | None = ":99", **popen: object) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    if display:
        env["DISPLAY"] = display
    return subprocess.Popen(  # type: ignore[call-overload,no-any-return]
        [sys.executable, "-m", "host.cli", "kiosk", *args],
        cwd=REPO,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **popen,
    )


def _done(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--url", "ftp://127.0.0.1/"), "give the table page"),
        (("--url", "http://127.0.0.1:99999/"), "--url"),
        (("--window-size", "big"), "WIDTHxHEIGHT"),
        (("--wait", "-1"), "0-3600 seconds"),
    ],
)
def test_bad_input_is_refused_with_a_message(args: tuple[str, ...], message: str) -> None:
    code, _, err = _done(_kiosk(*args))
    assert code == 2 and message in err and "Traceback" not in err


def test_it_says_what_is_missing(tmp_path: Path) -> None:
    code, _, err = _done(_kiosk("--browser", str(tmp_path / "nothing")))
    assert code == 1 and "is not there" in err
    browser = _browser(tmp_path, "exit 0\n")
    code, _, err = _done(_kiosk("--browser", str(browser), display=None))
    assert code == 1 and "no screen" in err


def test_it_gives_up_when_the_app_never_answers(tmp_path: Path) -> None:
    browser = _browser(tmp_path, f"touch {tmp_path}/started\n")
    with fake_app({"app": "something-else"}) as url:
        code, _, err = _done(_kiosk("--url", url, "--browser", str(browser), "--wait", "1"))
    assert code == 1 and "did not answer within 1 s (another program answers there)" in err
    assert not (tmp_path / "started").exists()  # no browser on a page that is not there


def test_it_waits_for_the_app_then_says_why_the_browser_did_not_start(tmp_path: Path) -> None:
    browser = _browser(
        tmp_path,
        f'echo "$@" > {tmp_path}/args\necho "Missing X server or \\$DISPLAY" >&2\nexit 3\n',
    )
    with fake_app({"app": "castillo"}, delay_s=1.5) as url:
        started = time.monotonic()
        args = ("--url", url, "--browser", str(browser), "--window-size", "800x600")
        code, out, err = _done(_kiosk(*args, "--browser-arg=--disable-gpu"))
    assert time.monotonic() - started >= 1.5  # it waited for the app
    assert code == 1 and "the browser did not start (it ended at once, code 3)" in err
    assert "Missing X server" in err and "waiting for the table app" in out
    given = (tmp_path / "args").read_text().split()
    assert given[-1] == url and "--kiosk" in given and "--disable-gpu" in given
    assert "--window-size=800,600" in given and "--window-position=0,0" in given


def test_a_stop_is_passed_on_to_the_browser(tmp_path: Path) -> None:
    browser = _browser(
        tmp_path,
        f"trap 'echo stopped > {tmp_path}/stopped; exit 0' TERM\n"
        f"touch {tmp_path}/running\nwhile true; do sleep 0.1; done\n",
    )
    with fake_app({"app": "castillo"}) as url:
        proc = _kiosk("--url", url, "--browser", str(browser), "--window-size", "800x600")
        deadline = time.monotonic() + 30
        while not (tmp_path / "running").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        proc.terminate()
        code, _, err = _done(proc)
    assert code == 0, err
    assert (tmp_path / "stopped").read_text() == "stopped\n"


def test_the_command_line_suits_wayland_and_x(monkeypatch: pytest.MonkeyPatch) -> None:
    profile = Path("/tmp/profile")
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    wayland = kiosk.browser_command("chromium", "http://127.0.0.1:8000/", profile, None, [])
    assert "--ozone-platform=wayland" in wayland and "--kiosk" in wayland
    assert not any(a.startswith("--window-") for a in wayland)
    assert wayland[-1] == "http://127.0.0.1:8000/" and f"--user-data-dir={profile}" in wayland
    monkeypatch.delenv("WAYLAND_DISPLAY")
    monkeypatch.setenv("DISPLAY", ":0")
    x = kiosk.browser_command("chromium", "http://127.0.0.1:8000/", profile, "1281,801", [])
    assert "--ozone-platform=x11" in x and "--window-size=1281,801" in x
    assert ("--no-sandbox" in x) == (os.geteuid() == 0)  # Chromium refuses root otherwise
