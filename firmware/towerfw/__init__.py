"""Castillo tower firmware (MicroPython on the Pico; the codec is shared with the CPython host)."""

VERSION = "0.1.0"

try:  # MicroPython folds NAME = const(value) at compile time: no global lookup where it is used
    # pyright's stub takes its argument positional-only, mypy's by name (x): the fallback
    # below matches mypy's (MicroPython has no `/` syntax)
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython (the host's tests): typing exists there
    from typing import TypeVar

    _T = TypeVar("_T")

    def const(x: _T) -> _T:
        return x
