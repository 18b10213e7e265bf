"""Which engine the `castillo` command runs: the mypyc-compiled build (`make setup` writes it to
build/mypyc, README "Speed") when it was built from the engine sources as they are now, else
the plain Python of engine/. The computer players think about three times as far in the same
time on the compiled engine.

Where the build is: in a checkout, build/mypyc; installed from a wheel made by `make wheel`
(setup.py), host/engine_mypyc inside the installed package, beside engine/ in site-packages.

`CASTILLO_ENGINE` chooses: `auto` (the default: the build when it is current), `plain`, or
`compiled` (the build, or exit with why not). The build is current when the digest of every
file under engine/ that `make setup` recorded in build/mypyc/SOURCES.sha256 equals the digest
of the files now: an edited source never runs as its stale compiled copy.

This module must not import the engine: it decides where the engine is imported from.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import os
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
ENGINE = REPO_ROOT / "engine"
BUILD = REPO_ROOT / "build" / "mypyc"
PACKAGED_BUILD = Path(__file__).resolve().parent / "engine_mypyc"  # setup.py puts it there
DIGEST_FILE = "SOURCES.sha256"
MODES = ("auto", "plain", "compiled")


class EngineChoiceError(Exception):
    """The compiled engine was asked for and cannot be used (the message says why)."""


def sources_digest(engine: Path = ENGINE) -> str:
    """SHA-256 over the path and bytes of every file under `engine` (caches left out)."""
    digest = hashlib.sha256()
    for path in sorted(engine.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(engine).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


def write_digest(build: Path = BUILD, engine: Path = ENGINE) -> None:
    """Record the digest of the sources a build was compiled from (the Makefile calls it)."""
    (build / DIGEST_FILE).write_text(sources_digest(engine) + "\n")


def default_build() -> Path:
    """The build an installed wheel carries, else the checkout's."""
    return PACKAGED_BUILD if (PACKAGED_BUILD / "engine").is_dir() else BUILD


def why_not_compiled(build: Path | None = None, engine: Path = ENGINE) -> str:
    """ "" when the build is there and current; otherwise why it cannot be used."""
    build = build or default_build()
    if not (build / "engine").is_dir():
        return f"no compiled build in {build} (make setup makes it)"
    # the first suffix is this interpreter's own (.cpython-311-x86_64-linux-gnu.so): a build made
    # by another Python or for another machine would import its plain copies, or crash
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    if not any((build / "engine").rglob(f"*{suffix}")):
        return f"the build in {build} was not compiled for this Python (no *{suffix} there)"
    recorded = build / DIGEST_FILE
    if not recorded.is_file():
        return f"{recorded} is missing (make setup writes it)"
    if recorded.read_text().strip() != sources_digest(engine):
        return "the engine sources changed since the build (make setup rebuilds it)"
    return ""


def choose(mode: str | None = None, build: Path | None = None, engine: Path = ENGINE) -> str:
    """Put the compiled build first on the module path when `mode` (default: the environment's
    CASTILLO_ENGINE, else auto) calls for it; a line saying which engine runs and why."""
    mode = (mode or os.environ.get("CASTILLO_ENGINE") or "auto").strip().lower()
    if mode not in MODES:
        raise EngineChoiceError(f"CASTILLO_ENGINE must be one of {', '.join(MODES)}, not {mode!r}")
    if mode == "plain":
        return "engine: plain Python (CASTILLO_ENGINE=plain)"
    if "engine" in sys.modules:
        return "engine: already imported, left as it is"
    build = build or default_build()
    reason = why_not_compiled(build, engine)
    if reason:
        if mode == "compiled":
            raise EngineChoiceError(f"the compiled engine cannot be used: {reason}")
        return f"engine: plain Python; {reason}"
    sys.path.insert(0, str(build))
    return f"engine: compiled with mypyc ({build})"


if __name__ == "__main__":  # the Makefile: python -m host.engine_build --write-digest
    if sys.argv[1:] != ["--write-digest"]:
        sys.exit("usage: python -m host.engine_build --write-digest")
    write_digest()
