"""The fast-path TCS34725 driver against a register model with MicroPython's I2C API."""

from __future__ import annotations

import pytest
from towerfw.tcs34725 import PARTS, TCS34725, SensorError


class MemI2C:
    def __init__(self, ident: int = 0x44) -> None:
        self.regs = bytearray(32)
        self.regs[0x12] = ident
        self.log: list[tuple[str, int, int]] = []

    def writeto_mem(self, addr: int, mem: int, buf: bytes) -> None:
        assert addr == 0x29 and mem & 0x80
        self.log.append(("w", mem, len(buf)))
        for i, b in enumerate(buf):
            self.regs[(mem & 0x1F) + i] = b

    def readfrom_mem_into(self, addr: int, mem: int, buf: bytearray) -> None:
        assert addr == 0x29 and mem & 0x80
        self.log.append(("r", mem, len(buf)))
        start = mem & 0x1F
        for i in range(len(buf)):
            buf[i] = self.regs[start + i]


def test_start_sets_one_cycle_gain_and_enables() -> None:
    bus = MemI2C()
    waited: list[int] = []
    TCS34725(bus).start(gain=60, sleep_ms=waited.append)
    assert bus.regs[0x01] == 0xFF and bus.regs[0x0F] == 3 and bus.regs[0x00] == 3
    assert waited == [3]


def test_fast_read_is_one_auto_increment_block() -> None:
    bus = MemI2C()
    sensor = TCS34725(bus)
    sensor.start()
    bus.regs[0x14:0x1C] = bytes([0x00, 0x04, 0x11, 0x00, 0x22, 0x01, 0x33, 0x00])
    bus.log.clear()
    out = [0, 0, 0, 0]
    sensor.read_into(out)
    assert out == [0x11, 0x122, 0x33, 0x400]
    assert bus.log == [("r", 0x80 | 0x20 | 0x14, 8)]
    assert sensor.full_scale() == 1024


def test_wrong_chip_or_no_answer_is_a_sensor_error() -> None:
    with pytest.raises(SensorError):
        TCS34725(MemI2C(ident=0x12)).start()

    class Dead(MemI2C):
        def readfrom_mem_into(self, addr: int, mem: int, buf: bytearray) -> None:
            raise OSError(110)

    with pytest.raises(SensorError):
        TCS34725(Dead()).start()


def test_the_id_register_names_the_part() -> None:
    assert TCS34725(MemI2C(ident=0x44)).read_id() == 0x44
    sensor = TCS34725(MemI2C(ident=0x4D))
    sensor.start()  # a TCS34727 (the 1.8 V I2C variant) is accepted too
    assert sensor.read_id() == 0x4D
    assert PARTS == {0x44: "TCS34721/TCS34725", 0x4D: "TCS34723/TCS34727"}
