"""Options shared by every test folder."""

from __future__ import annotations

from typing import Any


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    """Tests marked `slow` (random-game conformance, HIL soaks) run only when asked for
    (`-m slow`), never in `make test`."""
    import pytest

    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
