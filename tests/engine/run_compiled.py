"""Run the engine tests against the mypyc-compiled engine: `python -m tests.engine.run_compiled`.

`make setup` compiles the engine into build/mypyc/engine (C extensions beside a copy of the
sources). This puts that build first on the module path and imports every engine module from
it before pytest adds the checkout, so the tests exercise the compiled code; a test checks that
they did (tests/engine/test_compiled.py). Extra arguments go to pytest.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "mypyc"
# The engine's own tests and the conformance suite; the app's tests use the plain engine.
TESTS = ["tests/engine"]
# Modules the Makefile leaves uncompiled (MYPYC_PLAIN: game specs are subclassed by games).
PLAIN = frozenset(
    {"engine.core.spec"} | {f"engine.{d.parent.name}.spec" for d in ROOT.glob("engine/*/spec.py")}
)


def load_compiled_engine() -> list[str]:
    """Import every engine module from the compiled build; their names."""
    sys.path.insert(0, str(BUILD))
    import engine

    names = ["engine"]
    for module in pkgutil.walk_packages(engine.__path__, "engine."):
        importlib.import_module(module.name)
        names.append(module.name)
    return names


def main(argv: list[str]) -> int:
    if not (BUILD / "engine").is_dir():
        print(f"no compiled engine in {BUILD} (no C compiler?): the compiled run is skipped")
        return 0
    modules = load_compiled_engine()
    os.environ["CASTILLO_ENGINE"] = "compiled"
    import pytest

    print(f"engine tests against the compiled engine ({len(modules)} modules from {BUILD})")
    return pytest.main([*TESTS, "-p", "no:cacheprovider", *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
