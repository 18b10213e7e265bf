"""Castillo tower firmware (MicroPython on the Pico; the codec is shared with the CPython host)."""

VERSION = "0.1.0"

try:  # MicroPython folds NAME = const(value) at compile time: no global lookup where it is used
    from micropython import const  # type: ignore  # the stub types it generically
except ImportError:  # CPython (the host's tests)

    def const(value: int) -> int:
        return value
