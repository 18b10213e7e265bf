"""The CircuitPython backend on CPython: the real Adafruit libraries over stubbed low-level writers.

As /work/shared/reference/toolchain-notes.md explains: a fake ``neopixel_write`` module captures
the GRB bytes the real ``neopixel`` library sends, and a small register model stands in for the
I2C bus under ``adafruit_tcs34725`` and ``adafruit_bus_device``.
"""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest
from towerfw import codec


class FakeBus:
    """A busio.I2C stand-in with TCS34725 registers behind address 0x29."""

    def __init__(self) -> None:
        self.regs = bytearray(32)
        self.regs[0x12] = 0x44
        self.ptr = 0

    def try_lock(self) -> bool:
        return True

    def unlock(self) -> None:
        pass

    def writeto(self, addr: int, buf: bytes, *, start: int = 0, end: int | None = None) -> None:
        assert addr == 0x29
        data = bytes(buf[start:end])
        if data:
            self.ptr = data[0] & 0x1F
            for b in data[1:]:
                self.regs[self.ptr] = b
                self.ptr += 1

    def readfrom_into(
        self, addr: int, buf: bytearray, *, start: int = 0, end: int | None = None
    ) -> None:
        end = len(buf) if end is None else end
        for i in range(start, end):
            buf[i] = self.regs[self.ptr]
            self.ptr += 1

    def writeto_then_readfrom(
        self,
        addr: int,
        out: bytes,
        into: bytearray,
        *,
        out_start: int = 0,
        out_end: int | None = None,
        in_start: int = 0,
        in_end: int | None = None,
    ) -> None:
        self.writeto(addr, out, start=out_start, end=out_end)
        self.readfrom_into(addr, into, start=in_start, end=in_end)


class Pin:
    def __init__(self, value: bool = False) -> None:
        self.value = value


class Clock:
    def __init__(self) -> None:
        self.ns = 0

    def __call__(self) -> int:
        self.ns += 20_000  # every look at the clock takes 20 us
        return self.ns


class Serial:
    def __init__(self) -> None:
        self.rx = bytearray()
        self.tx = bytearray()

    @property
    def in_waiting(self) -> int:
        return len(self.rx)

    def read(self, n: int) -> bytes:
        out = bytes(self.rx[:n])
        del self.rx[:n]
        return out

    def write(self, data: bytes) -> None:
        self.tx.extend(data)


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    captured: list[bytes] = []

    def write(pin: Any, buf: bytes) -> None:
        captured.append(bytes(buf))

    if "neopixel" not in sys.modules:  # the library imports the writer by name at import time
        fake = types.ModuleType("neopixel_write")
        fake.neopixel_write = write  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "neopixel_write", fake)
    import neopixel  # type: ignore[import-untyped]

    class DigitalInOut:
        def __init__(self, pin: Any) -> None:
            self.pin = pin
            self.direction = None

        def deinit(self) -> None:
            pass

    monkeypatch.setattr(neopixel, "neopixel_write", write)
    monkeypatch.setattr(neopixel.digitalio, "DigitalInOut", DigitalInOut)
    return captured


def make(sent: list[bytes]) -> tuple[Any, FakeBus, Pin, Serial]:
    from towerfw.hal_circuitpython import CircuitPythonHal

    bus, beam, serial = FakeBus(), Pin(False), Serial()
    hal = CircuitPythonHal(bus, "GP16", 4, beam, Pin(False), monotonic_ns=Clock(), serial=serial)
    return hal, bus, beam, serial


def test_sensor_setup_through_the_adafruit_driver_and_fast_read(sent: list[bytes]) -> None:
    hal, bus, _, _ = make(sent)
    hal.sensor_start(16)
    assert bus.regs[0x01] == 0xFF  # ATIME: one 2.4 ms cycle
    assert bus.regs[0x0F] == 2  # AGAIN 16x
    assert bus.regs[0x00] & 3 == 3  # PON | AEN
    bus.regs[0x14:0x1C] = bytes([0x10, 0x01, 0x20, 0, 0x30, 0, 0x40, 0])
    out = [0, 0, 0, 0]
    hal.sensor_read(out)
    assert out == [0x20, 0x30, 0x40, 0x110]
    assert hal.sensor_id() == 0x44  # the ID register, one command byte and one read


def test_led_frames_go_out_as_grb(sent: list[bytes]) -> None:
    hal, _, _, _ = make(sent)
    hal.led_write(bytearray([10, 20, 30, 0, 0, 0, 0, 0, 0, 1, 2, 3]))
    assert sent[-1] == bytes([20, 10, 30, 0, 0, 0, 0, 0, 0, 2, 1, 3])


def test_beam_edges_are_polled_with_timestamps(sent: list[bytes]) -> None:
    hal, _, beam, _ = make(sent)
    beam.value = True
    hal.sleep_us(100)
    beam.value = False
    hal.sleep_us(100)
    first, second = hal.beam.pop(), hal.beam.pop()
    assert first[1] == 1 and second[1] == 0
    assert 0 < hal.ticks_diff(second[0], first[0]) <= 200


def test_the_tower_runs_on_it(sent: list[bytes]) -> None:
    import json

    from towerfw.app import Tower

    from host.paths import REPO_ROOT, hardware_dir

    hal, _, _, serial = make(sent)
    ledmap = json.loads((hardware_dir() / "ledmap.json").read_text())
    ledmap = dict(ledmap, total_pixels=4, segments=[{"name": "castillo", "start": 0, "count": 4}])
    config = json.loads((REPO_ROOT / "firmware" / "config.json").read_text())
    palette = json.loads((REPO_ROOT / "firmware" / "palette.json").read_text())
    tower = Tower(hal, config, palette, ledmap)
    tower.boot()
    serial.rx.extend(
        codec.encode({"t": "cmd", "c": "scene", "id": 5, "segs": {"castillo": [9, 8, 7]}})
    )
    for _ in range(40):
        tower.step()
    msgs = codec.FrameDecoder().feed(bytes(serial.tx))
    assert msgs[0]["t"] == "hello"
    assert any(m.get("id") == 5 and m["t"] == "ok" for m in msgs)
    assert sent and sent[-1][:3] == bytes([8, 9, 7])


class PowerCut(Exception):
    """The power went at this point of a flash write."""


class FlakyFlash:
    """Files and os calls as on CIRCUITPY (FAT: rename refuses an existing target) with the
    power cut at the ``cut_at``-th operation; a write cut short leaves half its text."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, cut_at: int) -> None:
        import builtins
        import os

        from towerfw import hal_circuitpython

        self.ops = 0
        self.cut_at = cut_at
        real_open, real_rename, real_remove = builtins.open, os.rename, os.remove
        flash = self

        class File:
            def __init__(self, path: str, mode: str = "r") -> None:
                self.f = real_open(path, mode)

            def write(self, text: str) -> None:
                if flash.step():
                    self.f.write(text[: len(text) // 2])
                    self.f.close()
                    raise PowerCut
                self.f.write(text)

            def flush(self) -> None:
                flash.cut_here()
                self.f.flush()

            def read(self) -> str:
                return str(self.f.read())

            def __enter__(self) -> File:
                return self

            def __exit__(self, *exc: object) -> None:
                self.f.close()

        def rename(src: str, dst: str) -> None:
            flash.cut_here()
            if os.path.exists(dst):
                raise OSError(17, "EEXIST")  # FAT
            real_rename(src, dst)

        def remove(path: str) -> None:
            flash.cut_here()
            real_remove(path)

        monkeypatch.setattr(hal_circuitpython, "open", File, raising=False)
        monkeypatch.setattr(os, "rename", rename)
        monkeypatch.setattr(os, "remove", remove)
        monkeypatch.setattr(os, "sync", self.cut_here)

    def step(self) -> bool:
        self.ops += 1
        return self.ops == self.cut_at

    def cut_here(self) -> None:
        if self.step():
            raise PowerCut


def test_calibration_save_survives_a_power_cut_at_every_step(
    sent: list[bytes], tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    hal, _, _, _ = make(sent)
    old, new = '{"v":1,"white":[1,2,3,4]}' * 20, '{"v":1,"white":[5,6,7,8]}' * 20
    hal.save_text("cal.json", old)
    assert hal.load_text("cal.json") == old
    cut_at = 1
    while True:
        with monkeypatch.context() as patch:
            flash = FlakyFlash(patch, cut_at)
            try:
                hal.save_text("cal.json", new)
                done = True
            except PowerCut:
                done = False
            assert hal.load_text("cal.json") in (old, new), f"power cut at step {cut_at}"
        if done:
            assert flash.ops < cut_at and hal.load_text("cal.json") == new
            break
        hal.save_text("cal.json", old)  # the power is back: start again from the old copy
        cut_at += 1
    assert cut_at > 4  # write, flush, sync, remove, rename: each was cut once
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cal.json"]


def test_a_save_cut_short_before_any_copy_existed_reads_as_nothing_usable(
    sent: list[bytes], tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from towerfw import calibration

    monkeypatch.chdir(tmp_path)
    hal, _, _, _ = make(sent)
    with monkeypatch.context() as patch:
        FlakyFlash(patch, 1)
        with pytest.raises(PowerCut):
            hal.save_text("cal.json", calibration.canonical(calibration.empty()))
    text = hal.load_text("cal.json")
    assert text is None or calibration.from_json(text) is None  # never a half record
