"""Castillo tower firmware (MicroPython on the Pico; the codec is shared with the CPython host)."""

VERSION = "0.1.0"
