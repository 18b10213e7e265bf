"""`castillo` installed from a wheel (not the editable checkout) runs the compiled engine (issue
26: an appliance installs a wheel into a virtualenv; before, the installed command looked for
site-packages/build/mypyc and ran the ~4x slower plain engine).

`make wheel` (tools/build_wheel.py, setup.py) is run on the build `make setup` already compiled
in build/mypyc (no second two-minute compile), the wheel is installed with pip into a fresh
virtualenv, and the installed command is run from outside the checkout. The run dependencies
(FastAPI, ...) come from the checkout's .venv through a path file, so no download is needed;
the kit itself comes only from the wheel. About 5 s; skipped without a compiled build.
"""

from __future__ import annotations

import importlib.machinery
import os
import socket
import subprocess
import sys
import sysconfig
import threading
import time
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest

from host import engine_build

ROOT = Path(__file__).resolve().parents[1]
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]

pytestmark = pytest.mark.skipif(
    engine_build.why_not_compiled(engine_build.BUILD) != "",
    reason="no current compiled build in build/mypyc (make setup, needs a C compiler)",
)


class Installed:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.python = root / "bin" / "python"
        self.castillo = root / "bin" / "castillo"
        purelib = sysconfig.get_path("purelib", vars={"base": str(root), "platbase": str(root)})
        self.site = Path(purelib)

    def run(self, args: list[str], mode: str | None = None) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if k not in ("CASTILLO_ENGINE", "PYTHONPATH")}
        if mode is not None:
            env["CASTILLO_ENGINE"] = mode
        # from a folder with no `engine` or `host` in it: only the installed copies can import
        return subprocess.run(
            args, cwd=self.root, env=env, capture_output=True, text=True, timeout=60
        )

    def which_engine(self, mode: str | None = None) -> tuple[int, str]:
        script = (
            "import sys; from host import engine_build as b\n"
            "try:\n"
            "    print(b.choose())\n"
            "except b.EngineChoiceError as exc:\n"
            "    print('refused:', exc); sys.exit(2)\n"
            "import engine.core.actions as a, engine.registry as r\n"
            "print('module', a.__file__); print('games', *r.ids())\n"
        )
        done = self.run([str(self.python), "-c", script], mode)
        return done.returncode, done.stdout + done.stderr


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    scratch = tmp_path_factory.mktemp("wheel")
    started = time.monotonic()
    built = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "build_wheel.py"), "--out", str(scratch / "out")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (scratch / "out").glob("*.whl")
    assert f"-{sys.implementation.cache_tag.replace('python-', 'p')}-" in wheel.name, wheel.name
    venv.create(scratch / "venv", with_pip=False)
    target = Installed(scratch / "venv")
    pip = [sys.executable, "-m", "pip", "--python", str(target.python), "install", "-q"]
    done = subprocess.run([*pip, "--no-deps", str(wheel)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    # the run dependencies from the checkout's virtualenv, after the venv's own site-packages
    # (a path line: the editable install's hooks there are not run, so the kit is the wheel's)
    (target.site / "checkout_deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    print(
        f"wheel {wheel.stat().st_size / 1e6:.1f} MB, built and installed in "
        f"{time.monotonic() - started:.1f} s"
    )
    yield target


def test_the_installed_command_runs_the_compiled_engine(installed: Installed) -> None:
    code, out = installed.which_engine()
    packaged = installed.site / "host" / "engine_mypyc"
    assert code == 0 and f"engine: compiled with mypyc ({packaged})" in out, out
    assert f"module {packaged}/engine/core/actions{SUFFIX}" in out, out
    assert "games" in out and "elgrande" in out, out
    code, out = installed.which_engine("compiled")
    assert code == 0 and f"module {packaged}/engine/core/actions{SUFFIX}" in out, out


def test_plain_still_runs_the_installed_sources(installed: Installed) -> None:
    code, out = installed.which_engine("plain")
    assert code == 0 and f"module {installed.site}/engine/core/actions.py" in out, out


def _serve_until_listening(installed: Installed, *flags: str, path: str | None = None) -> str:
    """`castillo run --local` of the installed kit until it says it listens; its output."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k not in ("CASTILLO_ENGINE", "PYTHONPATH")}
    if path is not None:
        env["PATH"] = path
    command = [str(installed.castillo), "run", *flags, "--local", "--port", str(port)]
    data = installed.root / "data"
    server = subprocess.Popen(
        [*command, "--data-dir", str(data)],
        cwd=installed.root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    timer = threading.Timer(30, server.kill)  # a server that never says it listens fails
    timer.start()
    try:
        assert server.stdout is not None
        for line in server.stdout:
            lines.append(line)
            if "listening on" in line:
                break
    finally:
        timer.cancel()
        server.terminate()
        server.wait(timeout=10)
    assert lines and "listening on" in lines[-1], "".join(lines)
    return "".join(lines)


def test_castillo_run_says_it_runs_the_compiled_engine(installed: Installed) -> None:
    out = _serve_until_listening(installed, "--no-tower")
    assert f"engine: compiled with mypyc ({installed.site}/host/engine_mypyc)" in out


def test_the_installed_kit_serves_with_no_tower_and_no_simulator(installed: Installed) -> None:
    """A Raspberry Pi's install (issue 26): the build pack's pin and LED maps come with the
    wheel, and with no tower plugged in and no MicroPython for the simulator `castillo run`
    serves without a tower instead of failing with a traceback."""
    for name in ("pinmap.json", "ledmap.json"):
        assert (installed.site / "hardware" / name).is_file(), name
    out = _serve_until_listening(installed, path="/usr/bin:/bin")
    assert "tower: none" in out and "Traceback" not in out, out


def test_an_edited_installed_source_is_not_run_as_its_stale_build(installed: Installed) -> None:
    source = installed.site / "engine" / "core" / "actions.py"
    original = source.read_text()
    source.write_text(original + "\n# edited on the machine\n")
    try:
        code, out = installed.which_engine()
        assert code == 0 and "plain Python; the engine sources changed" in out, out
        assert f"module {source}" in out, out
        done = installed.run([str(installed.castillo), "--help"], "compiled")
        assert done.returncode == 2, done.stdout + done.stderr
        assert "castillo: the compiled engine cannot be used" in done.stderr, done.stderr
    finally:
        source.write_text(original)
