"""Fake ``time`` for the simulated tower: MicroPython's tick API on the virtual clock.

Found before the built-in on MICROPYPATH. The real module stays reachable as ``time._rt``.
"""

import sys

_me = sys.modules["time"]
_path = sys.path[:]
while sys.path:
    sys.path.pop()
del sys.modules["time"]
import time as _rt  # noqa: E402 - the built-in, now that our folder is off the path

sys.modules["time"] = _me
sys.path.extend(_path)

import _simhw  # noqa: E402

_MASK = (1 << 30) - 1
_HALF = 1 << 29
_hw = _simhw.hw()


def ticks_us():
    return _hw.now & _MASK


def ticks_ms():
    return (_hw.now // 1000) & _MASK


def ticks_cpu():
    return _hw.now & _MASK


def ticks_diff(a, b):
    return ((a - b + _HALF) & _MASK) - _HALF


def ticks_add(a, d):
    return (a + d) & _MASK


def sleep_us(n):
    _hw.advance(int(n))


def sleep_ms(n):
    _hw.advance(1000 * int(n))


def sleep(s):
    _hw.advance(int(s * 1000000))


def time():
    return _rt.time()


def time_ns():
    return _rt.time_ns()


def localtime(*args):
    return _rt.localtime(*args)


def gmtime(*args):
    return _rt.gmtime(*args)


def mktime(t):
    return _rt.mktime(t)
