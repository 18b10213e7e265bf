"""Break-beam edge timing. The pin interrupt stores (time, level) in preallocated arrays.

The interrupt handler must not allocate (hard IRQ on the RP2040): ``ticks_us`` values are
small ints (they wrap at 2**30) and the ring is an ``array`` written in place.
"""

from array import array

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any

_SIZE = 32  # edges buffered between two main-loop passes; a cube makes two


class BeamEdges:
    """Ring of beam edges filled by the interrupt handler, drained by the main loop."""

    def __init__(self, ticks_us: "Any", read_level: "Any", size: int = _SIZE) -> None:
        self._ticks_us = ticks_us
        self._read_level = read_level
        self.size = size  # the second beam needs fewer: only its rising edge times a piece
        self._times = array("l", [0] * size)
        self._levels = bytearray(size)
        # pending() is head != tail; the sensing loop compares them itself (no call a pass)
        self.head = 0  # next slot the handler writes
        self.tail = 0  # next slot the main loop reads
        self.overflows = 0
        self.handler = self._on_edge  # bound once: binding in the IRQ would allocate

    def _on_edge(self, _pin: "Any") -> None:
        t = self._ticks_us()
        nxt = (self.head + 1) % self.size
        if nxt == self.tail:
            self.overflows += 1
            return
        self._times[self.head] = t
        self._levels[self.head] = 1 if self._read_level() else 0
        self.head = nxt

    def pending(self) -> bool:
        return self.head != self.tail

    def peek_time(self) -> int:
        """The time of the oldest unread edge (call only when ``pending()``)."""
        return self._times[self.tail]

    def pop(self) -> "Any":
        """The oldest unread edge as (t_us, level), or None."""
        if self.head == self.tail:
            return None
        i = self.tail
        edge = (self._times[i], self._levels[i])
        self.tail = (i + 1) % self.size
        return edge

    def level(self) -> int:
        """The beam's level now (1 = interrupted)."""
        return 1 if self._read_level() else 0
