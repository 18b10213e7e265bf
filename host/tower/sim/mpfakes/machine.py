"""Fake ``machine`` for the simulated tower (the parts the firmware uses on an RP2040)."""

import os

import _simhw

_hw = _simhw.hw()
PWRON_RESET = 1
WDT_RESET = 3
SOFT_RESET = 5


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self._out = 0 if value is None else value

    def value(self, v=None):
        if v is None:
            if self.id in (_hw.beam_pin, _hw.beam2_pin, _hw.gate_pin):
                return _simhw.hw_pin_level(self.id)
            return self._out
        self._out = 1 if v else 0
        return None

    def on(self):
        self._out = 1

    def off(self):
        self._out = 0

    def __call__(self, v=None):
        return self.value(v)

    def irq(self, handler=None, trigger=12, hard=False):
        _hw.handlers[self.id] = (handler, self)


class I2C:
    def __init__(self, id=0, scl=None, sda=None, freq=400000):
        self._dev = _simhw.Tcs34725Model(_hw)

    def _check(self, addr, nbytes):
        _hw.i2c_cost(nbytes)
        if _hw.i2c_fail:
            raise OSError(110)  # ETIMEDOUT, as the rp2 port reports a missing device
        if addr != 0x29:
            raise OSError(19)

    def scan(self):
        return [] if _hw.i2c_fail else [0x29]

    def writeto(self, addr, buf, stop=True):
        self._check(addr, len(buf))
        self._dev.write(bytes(buf))
        return len(buf)

    def readfrom_into(self, addr, buf, stop=True):
        self._check(addr, len(buf))
        self._dev.read(buf)

    def readfrom(self, addr, n, stop=True):
        buf = bytearray(n)
        self.readfrom_into(addr, buf)
        return bytes(buf)

    def writeto_mem(self, addr, memaddr, buf, addrsize=8):
        self._check(addr, len(buf) + 1)
        self._dev.write(bytes([memaddr]) + bytes(buf))

    def readfrom_mem_into(self, addr, memaddr, buf, addrsize=8):
        self._check(addr, len(buf) + 1)
        self._dev.write(bytes([memaddr]))
        self._dev.read(buf)

    def readfrom_mem(self, addr, memaddr, n, addrsize=8):
        buf = bytearray(n)
        self.readfrom_mem_into(addr, memaddr, buf)
        return bytes(buf)


class WDT:
    def __init__(self, id=0, timeout=5000):
        _hw.wdt_us = 1000 * timeout
        _hw.wdt_fed = _hw.now

    def feed(self):
        _hw.wdt_fed = _hw.now


class Timer:
    PERIODIC = 1
    ONE_SHOT = 0

    def __init__(self, id=-1, mode=1, period=1000, freq=None, callback=None):
        self.period_us = 1000 * period if freq is None else 1000000 // freq
        self.callback = callback
        self.oneshot = mode == Timer.ONE_SHOT
        self.due = _hw.now + self.period_us
        self.active = callback is not None
        _hw.timers.append(self)

    def deinit(self):
        self.active = False


def unique_id():
    uid = os.getenv("CASTILLO_SIM_UID") or "e6614104033b4f2b"
    out = bytearray(len(uid) // 2)
    for i in range(len(out)):
        out[i] = int(uid[2 * i : 2 * i + 2], 16)
    return bytes(out)


def reset_cause():
    cause = os.getenv("CASTILLO_SIM_RESET") or "power"
    if cause == "watchdog":
        return WDT_RESET
    if cause == "soft":
        return SOFT_RESET
    return PWRON_RESET


def reset():
    _hw.report(f"R {_hw.now}")
    _hw.dead = True
    _hw._hang()


def soft_reset():
    reset()


def freq(hz=None):
    return 125000000


def idle():
    _hw.advance(100)


def disable_irq():
    return 0


def enable_irq(state=0):
    pass
