"""Run every benchmark module in this folder (or the ones named): `python -m bench [name ...]`.

Options (``--json``) go to the named benchmarks' ``main``; with ``--json`` only their output is
printed (``python -m bench pico --json``).
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    here = Path(__file__).resolve().parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))
    flags = [a for a in argv if a.startswith("--")]
    wanted = [a for a in argv if not a.startswith("--")] or names
    unknown = [n for n in wanted if n not in names]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; available: {', '.join(names)}")
        return 2
    failed = 0
    for name in wanted:
        module = importlib.import_module(f"bench.{name}")
        if not hasattr(module, "main"):
            continue
        quiet = "--json" in flags
        if not quiet:
            print(f"=== {name}", flush=True)
        started = time.perf_counter()
        try:
            module.main(*flags) if flags else module.main()
        except Exception as exc:  # report and go on: one broken bench must not hide the others
            failed += 1
            print(f"!!! {name} failed: {exc!r}", file=sys.stderr if quiet else sys.stdout)
        if not quiet:
            print(f"--- {name}: {time.perf_counter() - started:.1f} s\n", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
