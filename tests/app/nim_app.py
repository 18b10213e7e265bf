"""`castillo` with the test-only Nim registered (engine registry only): what the browser test of
the generic plugin runs (`python -m tests.app.nim_app run ...`)."""

from __future__ import annotations

import sys

from engine import registry
from host.cli import main
from tests.engine.platform.nim import SPEC

if __name__ == "__main__":
    registry.register(SPEC)
    sys.exit(main())
