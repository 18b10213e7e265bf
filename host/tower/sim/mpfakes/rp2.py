"""Fake ``rp2``: a PIO state machine that decodes WS2812 words (GRB << 8) into RGB frames."""

import _simhw

_hw = _simhw.hw()


class PIO:
    OUT_LOW = 0
    OUT_HIGH = 1
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    IN_LOW = 0
    IN_HIGH = 1


def asm_pio(**kwargs):
    def wrap(fn):
        return ("pio", fn, kwargs)

    return wrap


class StateMachine:
    def __init__(self, id, prog=None, freq=125000000, **kwargs):
        self.id = id
        self.on = False
        self.out = None

    def active(self, v=None):
        if v is None:
            return self.on
        self.on = bool(v)
        return None

    def put(self, words, shift=0):
        out = self.out
        if out is None or len(out) != 3 * len(words):
            out = self.out = bytearray(3 * len(words))
        for i in range(len(words)):
            w = words[i]
            out[3 * i] = (w >> 16) & 0xFF
            out[3 * i + 1] = (w >> 24) & 0xFF
            out[3 * i + 2] = (w >> 8) & 0xFF
        _hw.report_frame(out)
        _hw.advance(30 * len(words))  # put() waits for FIFO room; interrupts stay on
