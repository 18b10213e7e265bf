"""Fallback LED driver: the built-in ``neopixel`` module (bit-banged, interrupts off while
writing), where PIO is unavailable (the unix port behind the simulated tower). Its own module so
the Pico, which drives the chain from PIO (``hal_pico.PioStrip``), never loads it."""

import machine

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any


class NeoStrip:
    """Takes logical r, g, b frames."""

    def __init__(self, pin: int, count: int) -> None:
        import neopixel

        self.np = neopixel.NeoPixel(machine.Pin(pin), count)
        self.count = count

    def write(self, frame: "Any") -> None:
        np = self.np
        for i in range(self.count):
            j = 3 * i
            np[i] = (frame[j], frame[j + 1], frame[j + 2])
        np.write()
