"""Which engine `castillo` runs (host/engine_build.py): the compiled build only when it was made
from the engine sources as they are now, the plain engine otherwise, and CASTILLO_ENGINE to
choose. Each case runs in a fresh interpreter, with a fake engine and a fake build whose
`engine` packages say which one was imported."""

from __future__ import annotations

import importlib.machinery
import os
import subprocess
import sys
from pathlib import Path

import pytest

from host import engine_build

ROOT = Path(__file__).resolve().parents[1]
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # .cpython-311-x86_64-linux-gnu.so here


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    engine = tmp_path / "src" / "engine"
    engine.mkdir(parents=True)
    (engine / "__init__.py").write_text("WHICH = 'plain'\n")
    (engine / "rules.toml").write_text("x = 1\n")
    build = tmp_path / "build"
    (build / "engine").mkdir(parents=True)
    (build / "engine" / "__init__.py").write_text("WHICH = 'compiled'\n")
    # what makes it a build for this Python (never imported: the __init__.py above is)
    (build / "engine" / f"rules{SUFFIX}").write_bytes(b"")
    return engine, build


def _run(engine: Path, build: Path, mode: str | None = None) -> tuple[int, str]:
    """The line `choose` gives and the engine then imported, in a fresh interpreter whose
    module path has the fake plain engine's folder."""
    script = (
        "import sys; from pathlib import Path; from host import engine_build as b\n"
        f"sys.path.insert(0, {str(engine.parent)!r})\n"
        "try:\n"
        f"    line = b.choose(build=Path({str(build)!r}), engine=Path({str(engine)!r}))\n"
        "except b.EngineChoiceError as exc:\n"
        "    print('refused:', exc); sys.exit(2)\n"
        "import engine; print(line); print('imported', engine.WHICH)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "CASTILLO_ENGINE"}
    if mode is not None:
        env["CASTILLO_ENGINE"] = mode
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    return done.returncode, done.stdout + done.stderr


def test_a_current_build_is_imported_before_the_plain_engine(tmp_path: Path) -> None:
    engine, build = _tree(tmp_path)
    engine_build.write_digest(build, engine)
    code, out = _run(engine, build)
    assert code == 0 and "imported compiled" in out and "compiled with mypyc" in out, out


def test_an_edited_source_never_runs_as_its_stale_compiled_copy(tmp_path: Path) -> None:
    engine, build = _tree(tmp_path)
    engine_build.write_digest(build, engine)
    (engine / "rules.toml").write_text("x = 2\n")  # a data file counts as a source too
    code, out = _run(engine, build)
    assert code == 0 and "imported plain" in out and "sources changed" in out, out
    code, out = _run(engine, build, "compiled")
    assert code == 2 and "refused" in out and "sources changed" in out, out


def test_without_a_build_or_its_digest_the_plain_engine_runs(tmp_path: Path) -> None:
    engine, build = _tree(tmp_path)
    code, out = _run(engine, build)  # no SOURCES.sha256 recorded
    assert code == 0 and "imported plain" in out and "missing" in out, out
    code, out = _run(engine, tmp_path / "nowhere")
    assert code == 0 and "imported plain" in out and "no compiled build" in out, out


def test_a_build_for_another_python_is_not_used(tmp_path: Path) -> None:
    """A build made by another interpreter or for another machine (e.g. copied from an x86 PC
    to a Raspberry Pi): its extensions do not load here, and its plain copies are no faster."""
    engine, build = _tree(tmp_path)
    engine_build.write_digest(build, engine)
    (build / "engine" / f"rules{SUFFIX}").rename(
        build / "engine" / "rules.cpython-39-x86_64-linux-gnu.so"  # built by Python 3.9
    )
    code, out = _run(engine, build)
    assert code == 0 and "imported plain" in out and "not compiled for this Python" in out, out
    code, out = _run(engine, build, "compiled")
    assert code == 2 and "refused" in out and "not compiled for this Python" in out, out


def test_plain_is_chosen_by_name_and_a_bad_name_is_refused(tmp_path: Path) -> None:
    engine, build = _tree(tmp_path)
    engine_build.write_digest(build, engine)
    code, out = _run(engine, build, "plain")
    assert code == 0 and "imported plain" in out, out
    code, out = _run(engine, build, "fast")
    assert code == 2 and "must be one of auto, plain, compiled" in out, out


def test_caches_do_not_change_the_digest(tmp_path: Path) -> None:
    engine, _ = _tree(tmp_path)
    before = engine_build.sources_digest(engine)
    (engine / "__pycache__").mkdir()
    (engine / "__pycache__" / "x.pyc").write_bytes(b"\0")
    assert engine_build.sources_digest(engine) == before


@pytest.mark.skipif(
    engine_build.why_not_compiled() != "", reason="no current compiled build (make setup)"
)
def test_the_real_build_is_imported_when_it_is_current() -> None:
    script = (
        "from host import engine_build\n"
        "line = engine_build.choose(); import engine.core.actions as a\n"
        "print(line); print(a.__file__)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "CASTILLO_ENGINE"}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert "compiled with mypyc" in done.stdout, done.stdout + done.stderr
    assert "build/mypyc" in done.stdout and not done.stdout.strip().endswith(".py"), done.stdout
