"""The table app as a real process (`castillo run --local --no-tower`, Nim registered) on a
fixed loopback port, killed with SIGKILL and started again on the same data."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
CLI = [sys.executable, "-m", "tests.app.app_conformance.cli"]
START_TIMEOUT_S = 90.0  # generous: a loaded machine starts Python slowly


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """One data directory, one port, one process at a time. `kill()` may be called from
    another thread (a timer): `killed` is set before the signal, so a client that sees its
    socket drop can tell a kill from a server that dropped it."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.proc: subprocess.Popen[str] | None = None
        self.killed = threading.Event()
        self.kills = 0
        self.starts = 0
        self.refused_after_listening = 0
        self.output: list[str] = []  # every line every process printed (tracebacks included)
        self._lock = threading.Lock()
        self._reader: threading.Thread | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        command = [*CLI, "run", "--no-tower", "--local", "--port", str(self.port)]
        command += ["--data-dir", str(self.data_dir)]
        for attempt in range(3):  # the port may still be held for a moment after a kill
            proc = subprocess.Popen(
                command,
                cwd=REPO,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                env=env,
            )
            assert proc.stdout is not None
            deadline = time.monotonic() + START_TIMEOUT_S
            lines: list[str] = []
            while time.monotonic() < deadline:
                line = proc.stdout.readline()
                lines.append(f"[{proc.pid}] {line}")
                if line.startswith("listening on "):
                    lines.append(f"[{proc.pid}] started (attempt {attempt})\n")
                    with self._lock:
                        self.proc = proc
                        self.killed.clear()
                    self.output += lines
                    self.starts += 1
                    self._until_accepting()
                    self._reader = threading.Thread(target=self._read, args=(proc,), daemon=True)
                    self._reader.start()
                    return
                if not line and proc.poll() is not None:
                    break
            proc.kill()
            proc.wait(timeout=10)
            self.output += lines
            if not any("address already in use" in line.lower() for line in lines):
                break
            time.sleep(0.5)
        raise AssertionError("the table app did not start:\n" + "".join(self.output[-20:]))

    def _until_accepting(self) -> None:
        """docs/table-api.md: the line is printed "once the socket listens". Where it comes
        first (the app's start-up runs before the server listens on its socket), a client
        that connects at once is refused: counted (`refused_after_listening`), then waited
        for, as the pages' reconnecting does."""
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=5):
                    return
            except ConnectionRefusedError:
                self.refused_after_listening += 1
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.output.append(f"[{proc.pid}] {line}")

    def alive(self) -> bool:
        with self._lock:
            return self.proc is not None and self.proc.poll() is None and not self.killed.is_set()

    def kill(self) -> bool:
        """SIGKILL the running process (False if there was none to kill)."""
        with self._lock:
            proc = self.proc
            if proc is None or proc.poll() is not None or self.killed.is_set():
                return False
            self.killed.set()
            proc.send_signal(signal.SIGKILL)
            self.output.append(f"[{proc.pid}] SIGKILL\n")
            self.kills += 1
            return True

    def wait_dead(self) -> None:
        proc = self.proc
        if proc is not None:
            proc.wait(timeout=30)
        if self._reader is not None:
            self._reader.join(timeout=10)

    def restart(self) -> None:
        self.wait_dead()
        self.start()

    def stop(self) -> None:
        """The end of a test: SIGTERM (a clean stop), SIGKILL if it hangs."""
        proc = self.proc
        if proc is None or proc.poll() is not None:
            self.wait_dead()
            return
        self.killed.set()
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        self.wait_dead()

    def tracebacks(self) -> list[str]:
        """The server's printed tracebacks (each with the lines after it)."""
        text = "".join(self.output)
        return ["Traceback" + part[:3000] for part in text.split("Traceback")[1:]]
