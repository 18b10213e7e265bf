"""Fake ``neopixel``: frames go to the simulated tower's report channel as RGB hex."""

import _simhw

_hw = _simhw.hw()


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.buf = bytearray(3 * n)

    def __len__(self):
        return self.n

    def __setitem__(self, i, rgb):
        j = 3 * i
        self.buf[j] = rgb[0]
        self.buf[j + 1] = rgb[1]
        self.buf[j + 2] = rgb[2]

    def __getitem__(self, i):
        j = 3 * i
        return (self.buf[j], self.buf[j + 1], self.buf[j + 2])

    def fill(self, rgb):
        for i in range(self.n):
            self[i] = rgb

    def write(self):
        _hw.report_frame(self.buf)
        _hw.advance(30 * self.n)  # bit-banged: ~30 us per LED
