"""Hardware backend for CircuitPython boards (e.g. a Pico running CircuitPython 9).

Slow paths use Adafruit's libraries: ``adafruit_tcs34725`` sets the sensor up (integration time,
gain, power) and ``neopixel`` drives the LED chain. The fast path reads the colour block in one
I2C transaction through ``adafruit_bus_device`` (the library's ``color_raw`` waits one
integration per read, which the sampling path cannot afford).

CircuitPython has no pin interrupts: the break-beam is polled (``keypad`` would timestamp in ms
only). Polling runs inside every sleep, so edges are timed to about 20 us while the main loop
waits, and to one loop pass otherwise. The MicroPython backend (``hal_pico``) remains the
reference; this one keeps the firmware portable.
"""

import sys
import time

from towerfw.beam import BeamEdges
from towerfw.tcs34725 import AUTO_INC, CDATAL, CMD, ID

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any

MASK = (1 << 30) - 1
HALF = 1 << 29


class CircuitPythonHal:
    """The HAL over CircuitPython objects (real ones from ``from_board``, fakes in tests)."""

    def __init__(
        self,
        i2c: "Any",
        pixel_pin: "Any",
        pixel_count: int,
        beam_pin: "Any",
        gate_pin: "Any",
        beam_active_high: bool = True,
        gate_active_high: bool = True,
        monotonic_ns: "Any" = None,
        serial: "Any" = None,
        watchdog: "Any" = None,
        uid: str = "",
        cause: str = "power",
        address: int = 0x29,
        beam2_pin: "Any" = None,
        beam2_active_high: bool = True,
    ) -> None:
        import neopixel  # type: ignore[import-untyped,import-not-found,unused-ignore]
        from adafruit_bus_device.i2c_device import I2CDevice  # type: ignore[import-untyped,import-not-found,unused-ignore]

        self.i2c = i2c
        self.address = address
        self._dev = I2CDevice(i2c, address, probe=False)
        self._cmd = bytes([CMD | AUTO_INC | CDATAL])
        self._block = bytearray(8)
        self._id_cmd = bytes([CMD | ID])
        self._one = bytearray(1)
        self.pixels = neopixel.NeoPixel(
            pixel_pin, pixel_count, auto_write=False, pixel_order=neopixel.GRB
        )
        self.pixel_count = pixel_count
        self._beam = beam_pin
        self._beam_high = beam_active_high
        self._gate = gate_pin
        self._gate_high = gate_active_high
        self._ns = monotonic_ns or time.monotonic_ns
        self._serial = serial
        self._watchdog = watchdog
        self.uid = uid
        self.cause = cause
        self.beam = BeamEdges(self.ticks_us, self._beam_level)
        self._last_level = self._beam_level()
        # the optional second beam below the first, polled like the first
        self._beam2 = beam2_pin
        self._beam2_high = beam2_active_high
        self.beam2: Any = None
        self._last_level2 = 0
        if beam2_pin is not None:
            self.beam2 = BeamEdges(self.ticks_us, self._beam2_level)
            self._last_level2 = self._beam2_level()

    # time ------------------------------------------------------------------------------
    def ticks_us(self) -> int:
        return (self._ns() // 1000) & MASK

    def ticks_ms(self) -> int:
        return (self._ns() // 1000000) & MASK

    def ticks_diff(self, a: int, b: int) -> int:
        return ((a - b + HALF) & MASK) - HALF

    def ticks_add(self, a: int, d: int) -> int:
        return (a + d) & MASK

    def poll_beam(self) -> None:
        """Record a beam edge if the level changed since the last look."""
        level = self._beam_level()
        if level != self._last_level:
            self._last_level = level
            self.beam.handler(None)
        if self.beam2 is not None:
            level = self._beam2_level()
            if level != self._last_level2:
                self._last_level2 = level
                self.beam2.handler(None)

    def sleep_us(self, n: int) -> None:
        end = self._ns() + 1000 * n
        self.poll_beam()
        while self._ns() < end:
            self.poll_beam()

    def sleep_ms(self, n: int) -> None:
        self.sleep_us(1000 * n)

    def idle_wait(self) -> None:
        """The idle loop's pause between passes."""
        self.sleep_us(1000)

    # sensor ----------------------------------------------------------------------------
    def sensor_start(self, gain: int) -> None:
        import adafruit_tcs34725  # type: ignore[import-untyped,import-not-found,unused-ignore]

        sensor = adafruit_tcs34725.TCS34725(self.i2c, self.address)
        sensor.integration_time = 2.4
        sensor.gain = gain
        sensor.active = True
        self.sensor = sensor

    def sensor_read(self, out: "Any") -> None:
        b = self._block
        with self._dev as dev:
            dev.write_then_readinto(self._cmd, b)
        out[3] = b[0] | (b[1] << 8)
        out[0] = b[2] | (b[3] << 8)
        out[1] = b[4] | (b[5] << 8)
        out[2] = b[6] | (b[7] << 8)

    def sensor_id(self) -> int:
        """The ID register (0x12), read now. Raises OSError on a bus error."""
        with self._dev as dev:
            dev.write_then_readinto(self._id_cmd, self._one)
        return self._one[0]

    # pins and LEDs ---------------------------------------------------------------------
    def _beam2_level(self) -> int:
        return 1 if bool(self._beam2.value) == self._beam2_high else 0

    def _beam_level(self) -> int:
        return 1 if bool(self._beam.value) == self._beam_high else 0

    def gate_open(self) -> bool:
        return bool(self._gate.value) == self._gate_high

    def led_write(self, frame: "Any") -> None:
        px = self.pixels
        for i in range(self.pixel_count):
            j = 3 * i
            px[i] = (frame[j], frame[j + 1], frame[j + 2])
        px.show()
        self.poll_beam()

    def status_led(self, on: int) -> None:
        pass

    # board -----------------------------------------------------------------------------
    def wdt_start(self, ms: int) -> None:
        if self._watchdog is not None:
            from watchdog import WatchDogMode  # type: ignore[import-untyped,import-not-found,unused-ignore]

            self._watchdog.timeout = ms / 1000
            self._watchdog.mode = WatchDogMode.RESET

    def wdt_feed(self) -> None:
        if self._watchdog is not None:
            self._watchdog.feed()

    def unique_id(self) -> str:
        return self.uid

    def reset_cause(self) -> str:
        return self.cause

    def random32(self) -> int:
        import os

        b = os.urandom(4)
        return b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)

    # serial ----------------------------------------------------------------------------
    def read_byte(self) -> int:
        s = self._serial
        if s is None or not s.in_waiting:
            return -1
        b = s.read(1)
        return b[0] if b else -1

    def write(self, data: bytes) -> None:
        if self._serial is not None:
            self._serial.write(data)
        else:
            sys.stdout.write(data.decode())

    # flash -----------------------------------------------------------------------------
    # CIRCUITPY is FAT: a rename refuses an existing target, so a save is three steps (write and
    # sync ``<name>.tmp``, remove ``<name>``, rename). Whatever step a power cut stops, one whole
    # copy survives: ``<name>`` while the new text is being written, ``<name>.tmp`` after the
    # old file is gone (it is removed only once the new one is on flash).
    def load_text(self, name: str) -> "Any":
        for path in (name, name + ".tmp"):
            try:
                with open(path) as f:
                    return f.read()
            except OSError:
                pass
        return None

    def save_text(self, name: str, text: str) -> None:
        import os

        tmp = name + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
            f.flush()
        _sync(os)
        try:
            os.remove(name)
        except OSError:  # no previous copy
            pass
        os.rename(tmp, name)
        _sync(os)


def _sync(os_module: "Any") -> None:
    """Flush the filesystem's caches to flash where the port can (CircuitPython's os.sync)."""
    sync = getattr(os_module, "sync", None)
    if sync is not None:
        sync()


def from_board(pinmap: "dict[str, Any]", ledmap: "dict[str, Any]") -> CircuitPythonHal:
    """The HAL on a real CircuitPython board, pins from the build pack's pinmap.json."""
    import board  # type: ignore[import-untyped,import-not-found,unused-ignore]
    import busio  # type: ignore[import-untyped,import-not-found,unused-ignore]
    import digitalio  # type: ignore[import-untyped,import-not-found,unused-ignore]
    import microcontroller  # type: ignore[import-untyped,import-not-found,unused-ignore]
    import usb_cdc  # type: ignore[import-untyped,import-not-found,unused-ignore]

    def pin(n: int) -> "Any":
        return getattr(board, "GP" + str(n))

    def din(spec: "dict[str, Any]") -> "Any":
        p = digitalio.DigitalInOut(pin(spec["pin"]))
        p.direction = digitalio.Direction.INPUT
        if spec.get("pull") == "up":
            p.pull = digitalio.Pull.UP
        return p

    i2c_spec = pinmap["i2c"]
    i2c = busio.I2C(pin(i2c_spec["scl"]), pin(i2c_spec["sda"]), frequency=i2c_spec["freq_hz"])
    led = digitalio.DigitalInOut(pin(pinmap["sensor_led"]["pin"]))
    led.direction = digitalio.Direction.OUTPUT
    led.value = True
    bb2 = pinmap.get("break_beam_2")
    reason = microcontroller.cpu.reset_reason
    cause = "power"
    if reason == microcontroller.ResetReason.WATCHDOG:
        cause = "watchdog"
    elif reason == microcontroller.ResetReason.SOFTWARE:
        cause = "soft"
    return CircuitPythonHal(
        i2c,
        pin(pinmap["neopixel"]["pin"]),
        int(ledmap["total_pixels"]),
        din(pinmap["break_beam"]),
        din(pinmap["gate_switch"]),
        pinmap["break_beam"].get("active", "high") == "high",
        pinmap["gate_switch"].get("active", "high") == "high",
        serial=usb_cdc.data or usb_cdc.console,
        watchdog=microcontroller.watchdog,
        uid="".join([hex(0x100 + b)[3:] for b in microcontroller.cpu.uid]),
        cause=cause,
        beam2_pin=din(bb2) if bb2 is not None else None,
        beam2_active_high=bb2 is None or bb2.get("active", "high") == "high",
    )
