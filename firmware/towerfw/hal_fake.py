"""Fake hardware for running the firmware logic under CPython (fast unit tests).

A virtual microsecond clock advances only when the firmware sleeps or talks to the sensor.
The chute is a list of rows ``(t_us, r, g, b, c, beams)`` with the trace-file meaning
(docs/trace-format.md): from ``t_us`` on, the sensor's data registers hold ``r, g, b, c``; bit 0
of ``beams`` is the break-beam, bit 1 the second beam below it. Beam changes call the edge
handlers at their exact time.
"""

from towerfw.beam import BeamEdges
from towerfw.tcs34725 import PARTS, SensorError

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any

MASK = (1 << 30) - 1
HALF = 1 << 29


class FakeHal:
    def __init__(
        self,
        rows: "Any" = None,
        idle: "Any" = (20, 22, 18, 60),
        uid: str = "e6614104033b4f2b",
        cause: str = "power",
        block_us: int = 250,
        sensor_ident: int = 0x44,
    ) -> None:
        self.clock = 0
        self.rows: list[Any] = list(rows or [])
        self.idx = 0
        self.current = list(idle)
        self.beam_level = 0
        self.beam2_level = 0
        self.beam = BeamEdges(self.ticks_us, self._level)
        self.beam2 = BeamEdges(self.ticks_us, self._level2)
        self.block_us = block_us
        self.rx = bytearray()
        self.tx = bytearray()
        self.frames: list[bytes] = []
        self.files: dict[str, str] = {}
        self.gate = False
        self.i2c_fail = False
        self.sensor_ident = sensor_ident  # the TCS34725 ID register
        self.sensor_started = False
        self.wdt_ms = 0
        self.wdt_fed = 0
        self.wdt_bit = False
        self.led = 0
        self.uid = uid
        self.cause = cause
        self.seed = 0x2545F491

    # time
    def ticks_us(self) -> int:
        return self.clock & MASK

    def ticks_ms(self) -> int:
        return (self.clock // 1000) & MASK

    def ticks_diff(self, a: int, b: int) -> int:
        return ((a - b + HALF) & MASK) - HALF

    def ticks_add(self, a: int, d: int) -> int:
        return (a + d) & MASK

    def sleep_us(self, n: int) -> None:
        self.advance(n)

    def sleep_ms(self, n: int) -> None:
        self.advance(1000 * n)

    def idle_wait(self) -> None:
        """The idle loop's pause between passes."""
        self.advance(1000)

    def _level(self) -> int:
        return self.beam_level

    def _level2(self) -> int:
        return self.beam2_level

    def add_rows(self, rows: "Any", offset_us: int = 0) -> None:
        """Append chute rows, their times relative to now + ``offset_us``."""
        base = self.clock + offset_us
        for row in rows:
            self.rows.append((base + row[0], row[1], row[2], row[3], row[4], row[5]))

    def busy(self) -> bool:
        return self.idx < len(self.rows)

    def advance(self, dt: int) -> None:
        target = self.clock + max(0, dt)
        rows = self.rows
        while self.idx < len(rows) and rows[self.idx][0] <= target:
            row = rows[self.idx]
            self.idx += 1
            if row[0] > self.clock:
                self.clock = row[0]
            self.current = [row[1], row[2], row[3], row[4]]
            if row[5] & 1 != self.beam_level:
                self.beam_level = row[5] & 1
                self.beam.handler(None)
            if row[5] >> 1 != self.beam2_level:
                self.beam2_level = row[5] >> 1
                self.beam2.handler(None)
        self.clock = target
        if self.wdt_ms and self.clock - self.wdt_fed > 1000 * self.wdt_ms:
            self.wdt_bit = True

    # sensor
    def sensor_start(self, gain: int) -> None:
        if self.i2c_fail:
            raise OSError(5)
        if self.sensor_ident not in PARTS:  # as the driver checks the chip
            raise SensorError("unexpected ID " + hex(self.sensor_ident))
        self.sensor_started = True

    def sensor_read(self, out: "Any") -> None:
        self.advance(self.block_us)
        if self.i2c_fail:
            raise OSError(5)
        for k in range(4):
            out[k] = int(self.current[k])

    def sensor_id(self) -> int:
        self.advance(self.block_us)
        if self.i2c_fail:
            raise OSError(5)
        return self.sensor_ident

    # io
    def gate_open(self) -> bool:
        return self.gate

    def led_write(self, frame: "Any") -> None:
        self.frames.append(bytes(frame))

    def status_led(self, on: int) -> None:
        self.led = on

    def wdt_start(self, ms: int) -> None:
        self.wdt_ms = ms
        self.wdt_fed = self.clock

    def wdt_feed(self) -> None:
        self.wdt_fed = self.clock

    def unique_id(self) -> str:
        return self.uid

    def reset_cause(self) -> str:
        return self.cause

    def random32(self) -> int:
        x = self.seed
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.seed = x
        return x

    def read_byte(self) -> int:
        if not self.rx:
            return -1
        b = self.rx[0]
        del self.rx[0]
        return b

    def write(self, data: bytes) -> None:
        self.tx.extend(data)

    def load_text(self, name: str) -> "Any":
        return self.files.get(name)

    def save_text(self, name: str, text: str) -> None:
        self.files[name] = text
