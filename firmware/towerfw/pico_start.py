"""Code that only boot runs on the Pico: the HAL's construction (pins, I2C, PIO programs and
state machines, USB serial). ``hal_pico``'s constructors call it; main.py drops this module once
the tower is built, so its code leaves the heap."""

import json
import select
import sys
import time

import machine

from towerfw import app
from towerfw.beam import BeamEdges
from towerfw.hal_pico import BeamInput, PicoHal, PioSleep, PioStrip
from towerfw.tcs34725 import TCS34725

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any


def load(name: str) -> "Any":
    """A data file (JSON) from the root, as ``make flash`` leaves them (or the repository's
    folders, for the unix port)."""
    for prefix in ("", "hardware/", "firmware/"):
        try:
            with open(prefix + name) as f:
                return json.load(f)
        except OSError:
            pass
    raise OSError("missing data file " + name)


def build() -> "Any":
    """(hal, tower): the Pico HAL and the Tower from the data files; nothing of this module
    is kept."""
    import micropython

    # room for the traceback of an exception raised inside the beam interrupt handler
    reserve = getattr(micropython, "alloc_emergency_exception_buf", None)
    if reserve is not None:
        reserve(100)
    ledmap = load("ledmap.json")
    hal = PicoHal(load("pinmap.json"), ledmap)  # the pin map is not kept: heap is scarce
    cal_text = hal.load_text(app.CAL_FILE)
    config = load("config.json")
    palette = load("palette.json")
    config.pop("note", None)  # the files' notes for people would stay in the heap
    palette.pop("note", None)
    return hal, app.Tower(hal, config, palette, ledmap, cal_text)


def ws2812_program() -> "Any":
    """The WS2812 bit timing as a PIO program (T1=2, T2=5, T3=3 cycles at 8 MHz)."""
    import rp2

    @rp2.asm_pio(
        sideset_init=rp2.PIO.OUT_LOW,
        out_shiftdir=rp2.PIO.SHIFT_LEFT,
        autopull=True,
        pull_thresh=24,
    )
    def ws2812() -> None:
        # fmt: off
        label("bitloop")  # type: ignore  # noqa: F821 - PIO assembler names
        out(x, 1).side(0)[2]  # type: ignore  # noqa: F821
        jmp(not_x, "do_zero").side(1)[1]  # type: ignore  # noqa: F821
        jmp("bitloop").side(1)[4]  # type: ignore  # noqa: F821
        label("do_zero")  # type: ignore  # noqa: F821
        nop().side(0)[4]  # type: ignore  # noqa: F821
        # fmt: on

    return ws2812


def alarm_program() -> "Any":
    """A one-shot timer: count down the word pulled from the FIFO, then raise the SM's IRQ."""
    import rp2

    @rp2.asm_pio()
    def alarm() -> None:
        # fmt: off
        pull(block)  # type: ignore  # noqa: F821 - PIO assembler names
        mov(x, osr)  # type: ignore  # noqa: F821
        label("count")  # type: ignore  # noqa: F821
        jmp(x_dec, "count")  # type: ignore  # noqa: F821
        irq(rel(0))  # type: ignore  # noqa: F821
        # fmt: on

    return alarm


def strip(self: "Any", pin: int, count: int) -> None:
    """``PioStrip``: the WS2812 program on PIO0's state machine 0."""
    from array import array

    import rp2

    prog = ws2812_program()
    self.sm = rp2.StateMachine(0, prog, freq=8_000_000, sideset_base=machine.Pin(pin))
    self.sm.active(1)
    self.words = array("I", [0] * count)


def sleeper(self: "Any", sm_id: int) -> None:
    """``PioSleep``: the one-shot timer program on state machine ``sm_id``, its IRQ bound."""
    import rp2

    self.fired = bytearray(1)
    self.sm = rp2.StateMachine(sm_id, alarm_program(), freq=self.FREQ)
    self.on_alarm = self._on_alarm  # bound once: binding in the IRQ would allocate
    self.sm.irq(self.on_alarm, hard=True)
    self.sm.active(1)
    self.idle = machine.idle
    self.spin = time.sleep_us


def beam(self: "Any", spec: "dict[str, Any]", size: int) -> None:
    """``BeamInput``: the pin, its level sense and the edge IRQ (a ring of ``size`` edges)."""
    self.pin = machine.Pin(spec["pin"], machine.Pin.IN, pull(spec))
    self.high = spec.get("active", "high") == "high"
    # bound once: the IRQ must not allocate
    self.edges = BeamEdges(time.ticks_us, self.level, size)
    self.pin.irq(
        handler=self.edges.handler,
        trigger=machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING,
        hard=True,
    )


def hal(self: "Any", pinmap: "dict[str, Any]", ledmap: "dict[str, Any]") -> None:
    """``PicoHal``: every attribute, from the pin map and the LED chain length."""
    i2c = pinmap["i2c"]
    self.i2c = machine.I2C(
        i2c["id"], sda=machine.Pin(i2c["sda"]), scl=machine.Pin(i2c["scl"]), freq=i2c["freq_hz"]
    )
    self.sensor = TCS34725(self.i2c, int(i2c["devices"]["tcs34725"], 16))
    self.sensor_led = machine.Pin(pinmap["sensor_led"]["pin"], machine.Pin.OUT)
    self.sensor_led.value(1 if pinmap["sensor_led"].get("active", "high") == "high" else 0)
    self.beam = BeamInput(pinmap["break_beam"], 32).edges
    self._beam_pending = self.beam.pending  # bound once: the idle wait calls it often
    # the optional second beam below the first (None when the pin map has none)
    bb2 = pinmap.get("break_beam_2")
    self.beam2 = BeamInput(bb2, 8).edges if bb2 is not None else None
    gs = pinmap["gate_switch"]
    self._gate = machine.Pin(gs["pin"], machine.Pin.IN, pull(gs))
    self._gate_high = gs.get("active", "high") == "high"
    self._status = machine.Pin(pinmap["status_led"]["pin"], machine.Pin.OUT)
    npx = pinmap["neopixel"]["pin"]
    count = int(ledmap["total_pixels"])
    try:
        self.strip = PioStrip(npx, count)
    except Exception:  # no PIO (or no rp2 module): fall back to the bit-banged driver
        from towerfw.neostrip import NeoStrip  # off the Pico's heap: only without PIO

        self.strip = NeoStrip(npx, count)
    self._wdt = None
    self._poll = select.poll()
    self._poll.register(sys.stdin, select.POLLIN)
    # ipoll reuses its result (poll returns a new list every call: garbage each idle pass)
    self._ipoll = getattr(self._poll, "ipoll", None)
    self._in = getattr(sys.stdin, "buffer", sys.stdin)
    self._byte = bytearray(1)
    self._readinto = getattr(self._in, "readinto", None)
    self._out = getattr(sys.stdout, "buffer", sys.stdout)
    self.ticks_us = time.ticks_us
    self.ticks_ms = time.ticks_ms
    self.ticks_diff = time.ticks_diff
    self.ticks_add = time.ticks_add
    self.sleep_us = time.sleep_us
    self.sleep_ms = time.sleep_ms
    # sensor_read(out): the latest completed integration as out[0:4] = r, g, b, c (OSError
    # on a bus error); an attribute like the ticks functions: no call in between
    self.sensor_read = self.sensor.read_into
    if sys.platform == "rp2" and isinstance(self.strip, PioStrip):
        self._pio_sleep = PioSleep(1)  # state machine 0 drives the NeoPixels
        self.sleep_us = self._pio_sleep.sleep_us
    self._i2c_id = i2c["id"]
    # the Pico sleeps in the idle wait; elsewhere (the unix port behind the simulated tower)
    # the loop keeps its plain 1 ms pause per pass
    self._long_idle = sys.platform == "rp2"


def pull(spec: "dict[str, Any]") -> "Any":
    pull = spec.get("pull")
    if pull == "up":
        return machine.Pin.PULL_UP
    if pull == "down":
        return machine.Pin.PULL_DOWN
    return None
