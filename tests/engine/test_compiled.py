"""When the suite runs against the compiled engine (tests/engine/run_compiled.py), it really
does: every engine module was loaded from a C extension of the build."""

from __future__ import annotations

import os
import sys

import pytest

import engine
from tests.engine.run_compiled import PLAIN

COMPILED = os.environ.get("CASTILLO_ENGINE") == "compiled"


@pytest.mark.skipif(not COMPILED, reason="the plain-Python run (make unit)")
def test_every_engine_module_is_compiled() -> None:
    modules = {name: m for name, m in sys.modules.items() if name.split(".")[0] == "engine"}
    assert len(modules) > 20
    plain = {name for name, m in modules.items() if not str(m.__file__).endswith(".so")}
    assert plain == PLAIN, f"plain-Python engine modules in the compiled run: {plain - PLAIN}"


@pytest.mark.skipif(COMPILED, reason="the compiled run")
def test_the_plain_run_uses_the_sources() -> None:
    assert str(engine.__file__).endswith(".py")


@pytest.mark.skipif(COMPILED, reason="the compiled engine keeps no class annotations")
def test_the_list_of_state_fields_is_complete() -> None:
    """Undo and copying go by STATE_FIELDS: it must name every attribute of the board."""
    from engine.elgrande.board import STATE_FIELDS, Board

    assert list(Board.__annotations__) == list(STATE_FIELDS)
