"""`castillo` with the test-only Nim registered and the compiled engine when it is current:
`python -m tests.app.app_conformance.cli run ...` (the conformance suite's server) and
`... replay RECORD --json` (a Nim record replays through the same command line)."""

from __future__ import annotations

import sys

if __name__ == "__main__":
    from host import engine_build

    # before anything imports the engine (Nim's spec does): the build, as `castillo` chooses it
    print(engine_build.choose(), file=sys.stderr, flush=True)

    from engine import registry
    from host.cli import main
    from tests.engine.platform.nim import SPEC

    registry.register(SPEC)
    sys.exit(main())
