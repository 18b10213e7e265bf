"""Fast-path register driver for the TCS34725 RGBC colour sensor (I2C address 0x29).

Why not a stock driver: they sleep one full integration time per read. Here the sensor
integrates continuously (ATIME = 0xFF: 1 cycle of 2.4 ms, full scale 1024 counts) and a read is
one 8-byte auto-increment block read of CDATA..BDATA (about 250 us on a 400 kHz bus).

Registers (all accessed through the COMMAND byte 0x80 | register, + 0x20 for auto-increment):
  0x00 ENABLE   PON (bit 0, oscillator on), AEN (bit 1, RGBC ADC on)
  0x01 ATIME    integration cycles = 256 - ATIME, 2.4 ms each; max count = 1024 * cycles
  0x0F CONTROL  AGAIN bits 1:0: 1x, 4x, 16x, 60x
  0x12 ID       0x44 (TCS34721/5) or 0x4D (TCS34723/7)
  0x13 STATUS   AVALID (bit 0): an integration cycle has completed since enable
  0x14..0x1B    CDATA, RDATA, GDATA, BDATA: 16-bit little-endian counts
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any

ADDRESS = 0x29
CMD = 0x80
AUTO_INC = 0x20
ENABLE = 0x00
ATIME = 0x01
CONTROL = 0x0F
ID = 0x12
STATUS = 0x13
CDATAL = 0x14
PON = 0x01
AEN = 0x02
GAINS = {1: 0, 4: 1, 16: 2, 60: 3}
PARTS = {0x44: "TCS34721/TCS34725", 0x4D: "TCS34723/TCS34727"}  # ID register value -> parts
CYCLE_US = 2400


class SensorError(Exception):
    """The sensor did not answer or answered nonsense."""


class TCS34725:
    def __init__(self, i2c: "Any", address: int = ADDRESS) -> None:
        self.i2c = i2c
        self.address = address
        self._block = bytearray(8)
        self._one = bytearray(1)
        self.cycles = 1
        self.block_command = CMD | AUTO_INC | CDATAL  # C, R, G, B in one read

    def _write(self, reg: int, value: int) -> None:
        self._one[0] = value
        self.i2c.writeto_mem(self.address, CMD | reg, self._one)

    def _read8(self, reg: int) -> int:
        self.i2c.readfrom_mem_into(self.address, CMD | reg, self._one)
        return self._one[0]

    def start(self, gain: int = 16, cycles: int = 1, sleep_ms: "Any" = None) -> None:
        """Power on and integrate continuously: ``cycles`` x 2.4 ms at ``gain`` (1, 4, 16, 60).

        ``sleep_ms`` (if given) waits the 2.4 ms the oscillator needs between PON and AEN.
        """
        try:
            ident = self.read_id()
        except OSError as exc:
            raise SensorError("no answer on I2C") from exc
        if ident not in PARTS:
            raise SensorError("unexpected ID " + hex(ident))
        self.cycles = cycles
        self._write(ATIME, 256 - cycles)
        self._write(CONTROL, GAINS[gain])
        self._write(ENABLE, PON)
        if sleep_ms is not None:
            sleep_ms(3)
        self._write(ENABLE, PON | AEN)

    def read_id(self) -> int:
        """The ID register (0x12): a key of ``PARTS`` for a TCS3472x. Raises OSError."""
        return self._read8(ID)

    def full_scale(self) -> int:
        """Largest count a channel can hold at the current integration time."""
        return min(65535, 1024 * self.cycles)

    def read_into(self, out: "Any") -> None:
        """Fast path: the latest completed integration as ``out[0:4] = r, g, b, c``.

        One block read, no sleeping, no allocation. Raises OSError on a bus error.
        """
        b = self._block
        self.i2c.readfrom_mem_into(self.address, CMD | AUTO_INC | CDATAL, b)
        out[3] = b[0] | (b[1] << 8)
        out[0] = b[2] | (b[3] << 8)
        out[1] = b[4] | (b[5] << 8)
        out[2] = b[6] | (b[7] << 8)
