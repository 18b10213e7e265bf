"""Hardware backend for a Raspberry Pi Pico running MicroPython (>= 1.23).

Pins come from the build pack's pinmap.json and the LED chain length from ledmap.json. The
NeoPixels are driven by a PIO state machine so interrupts stay on during LED writes (the
built-in ``neopixel`` disables them for ~30 us per LED, which would delay beam timestamps);
``neopixel`` is the fallback when PIO is unavailable.
"""

import os
import sys
import time

import machine

# The idle loop sleeps up to this long between passes on the Pico, looking every millisecond
# for a beam edge or host bytes (which end the wait). Nothing else needs a faster pass.
IDLE_WAIT_MS = 16

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any


class PioStrip:
    """WS2812 chain on a PIO state machine; takes logical r, g, b frames."""

    if TYPE_CHECKING:  # set by pico_start.py; declared for the type checker only (no code)
        sm: Any
        words: Any

    def __init__(self, pin: int, count: int) -> None:
        from towerfw import pico_start  # boot-only code, dropped once the tower is built

        pico_start.strip(self, pin, count)

    def write(self, frame: "Any") -> None:
        w = self.words
        for i in range(len(w)):
            j = 3 * i
            w[i] = (frame[j + 1] << 24) | (frame[j] << 16) | (frame[j + 2] << 8)  # GRB
        self.sm.put(w)


class PioSleep:
    """Microsecond sleeps that do not spin: a PIO state machine times the wait and its
    interrupt wakes the core from machine.idle(). time.sleep_us sleeps whole milliseconds and
    spins for the rest: on average 0.5 ms of CPU for each 2.4 ms sensor read."""

    if TYPE_CHECKING:  # set by pico_start.py; declared for the type checker only (no code)
        fired: Any
        sm: Any
        on_alarm: Any
        idle: Any
        spin: Any

    FREQ = 2_000_000  # 2 PIO cycles a microsecond (one per countdown step)
    LEAD_US = 40  # the put, the interrupt and the return take about this long
    SPIN_US = 100  # shorter waits spin: cheaper than setting up the alarm

    def __init__(self, sm_id: int) -> None:
        from towerfw import pico_start

        pico_start.sleeper(self, sm_id)

    def _on_alarm(self, _sm: "Any") -> None:
        self.fired[0] = 1

    def sleep_us(self, us: int) -> None:
        if us <= self.SPIN_US:
            self.spin(us)
            return
        end = time.ticks_add(time.ticks_us(), us)
        fired = self.fired
        fired[0] = 0
        self.sm.put(2 * (us - self.LEAD_US))
        idle = self.idle
        while not fired[0]:
            idle()
        # the alarm fires LEAD_US early: spin the rest here, or the caller's next pass would
        # find it too early and spend a whole pass to wait again
        rest = time.ticks_diff(end, time.ticks_us())
        if rest > 0:
            self.spin(rest)


# RP2040 I2C controller registers (DW_apb_i2c; datasheet 4.3.17), as offsets from its base
_I2C_BASE = (0x40044000, 0x40048000)  # I2C0, I2C1
_IC_DATA_CMD = 0x10  # write: bits 7:0 data, 8 read, 9 STOP after, 10 RESTART before; read: data
_IC_RAW_INTR_STAT = 0x34  # bit 6 TX_ABRT: the target (or a byte) was not acknowledged
_IC_CLR_TX_ABRT = 0x54  # read: clears TX_ABRT and releases the flushed TX FIFO
_IC_RXFLR = 0x78  # bytes waiting in the RX FIFO
_TX_ABRT = 0x40
_READ = 0x100
_STOP = 0x200
_RESTART = 0x400


class FifoBlockRead:
    """The sensor's 8-byte block read (TCS34725.read_into) queued in the I2C controller's FIFOs
    while the core sleeps: ``machine.I2C`` spins for the whole transfer (~250 us at 400 kHz,
    a third of a sensing pass). The controller must be set up and addressed to the sensor
    already (``machine.I2C`` leaves IC_TAR at the last target: the sensor's start and ID reads).

    ``read_into(out)``: ``out[0:4] = r, g, b, c`` of the latest completed integration, as the
    driver's; OSError if the sensor does not acknowledge (the FIFOs are left empty)."""

    BUS_US = 250  # command + restart + 8 data bytes at 400 kHz, 9 bit-times each

    def __init__(self, i2c_id: int, register: int, sleep_us: "Any") -> None:
        base = _I2C_BASE[i2c_id]
        self.data_cmd = base + _IC_DATA_CMD
        self.raw_intr = base + _IC_RAW_INTR_STAT
        self.clr_abrt = base + _IC_CLR_TX_ABRT
        self.rxflr = base + _IC_RXFLR
        self.register = register  # the command byte: 0x80 | auto-increment | CDATAL
        self.sleep_us = sleep_us

    def read_into(self, out: "Any") -> None:
        m = machine.mem32
        dc = self.data_cmd
        m[dc] = self.register
        m[dc] = _RESTART | _READ
        m[dc] = _READ
        m[dc] = _READ
        m[dc] = _READ
        m[dc] = _READ
        m[dc] = _READ
        m[dc] = _READ
        m[dc] = _STOP | _READ
        self.sleep_us(self.BUS_US - 60)  # the commands above took about 60 us
        rxflr = self.rxflr
        spins = 200
        while m[rxflr] < 8:
            if m[self.raw_intr] & _TX_ABRT or not spins:
                self._abort(m)
            spins -= 1
        c = m[dc] & 0xFF
        out[3] = c | ((m[dc] & 0xFF) << 8)
        c = m[dc] & 0xFF
        out[0] = c | ((m[dc] & 0xFF) << 8)
        c = m[dc] & 0xFF
        out[1] = c | ((m[dc] & 0xFF) << 8)
        c = m[dc] & 0xFF
        out[2] = c | ((m[dc] & 0xFF) << 8)

    def _abort(self, m: "Any") -> None:
        m[self.clr_abrt]  # reading clears the abort
        while m[self.rxflr]:
            m[self.data_cmd]
        raise OSError(5)  # EIO, as machine.I2C raises


class BeamInput:
    """A slotted break-beam on a pin: every edge timestamped by a hard IRQ into ``edges``."""

    if TYPE_CHECKING:  # set by pico_start.py; declared for the type checker only (no code)
        pin: Any
        high: Any
        edges: Any

    def __init__(self, spec: "dict[str, Any]", size: int) -> None:
        from towerfw import pico_start

        pico_start.beam(self, spec, size)

    def level(self) -> int:
        """1 while the beam is interrupted."""
        return 1 if bool(self.pin.value()) == self.high else 0


class PicoHal:
    if TYPE_CHECKING:  # set by pico_start.py; declared for the type checker only (no code)
        i2c: Any
        sensor: Any
        sensor_led: Any
        beam: Any
        _beam_pending: Any
        beam2: Any
        _gate: Any
        _gate_high: Any
        _status: Any
        strip: Any
        _wdt: Any
        _poll: Any
        _ipoll: Any
        _in: Any
        _byte: Any
        _readinto: Any
        _out: Any
        ticks_us: Any
        ticks_ms: Any
        ticks_diff: Any
        ticks_add: Any
        sleep_us: Any
        sleep_ms: Any
        sensor_read: Any
        _pio_sleep: Any
        _i2c_id: Any
        _long_idle: Any

    def __init__(self, pinmap: "dict[str, Any]", ledmap: "dict[str, Any]") -> None:
        from towerfw import pico_start

        pico_start.hal(self, pinmap, ledmap)

    def sensor_start(self, gain: int) -> None:
        self.sensor.start(gain, sleep_ms=time.sleep_ms)
        if sys.platform == "rp2":  # the sensor answered: read it through the FIFOs from now on
            fifo = FifoBlockRead(self._i2c_id, self.sensor.block_command, self.sleep_us)
            self.sensor_read = fifo.read_into

    def sensor_id(self) -> int:
        return self.sensor.read_id()

    def gate_open(self) -> bool:
        return bool(self._gate.value()) == self._gate_high

    def led_write(self, frame: "Any") -> None:
        self.strip.write(frame)

    def status_led(self, on: int) -> None:
        self._status.value(on)

    def wdt_start(self, ms: int) -> None:
        self._wdt = machine.WDT(timeout=min(ms, 8388))
        self.wdt_feed = self._wdt.feed  # every loop pass feeds: no call in between

    def wdt_feed(self) -> None:
        if self._wdt is not None:
            self._wdt.feed()

    def unique_id(self) -> str:
        return "".join([hex(0x100 + b)[3:] for b in machine.unique_id()])

    def reset_cause(self) -> str:
        cause = machine.reset_cause()
        if cause == machine.PWRON_RESET:
            return "power"
        if cause == machine.WDT_RESET:
            return "watchdog"
        return "soft"

    def random32(self) -> int:
        b = os.urandom(4)
        return b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)

    def read_byte(self) -> int:
        # after poll says readable only a 1-byte read is guaranteed not to block
        if not self._readable():
            return -1
        if self._readinto is not None:
            return self._byte[0] if self._readinto(self._byte) else -1
        b = self._in.read(1)
        if not b:
            return -1
        return b[0] if isinstance(b, bytes) else ord(b)

    def idle_wait(self) -> None:
        """The idle loop's pause: up to IDLE_WAIT_MS, over at once for host bytes and within
        1 ms for a beam edge. A look costs ~10x less than a pass, and allocates nothing.

        poll waits in C (WFE) and ends early when stdin is readable; machine.idle() would
        return to Python after every interrupt (~3 times a millisecond).
        """
        ipoll = self._ipoll
        if not self._long_idle or ipoll is None:
            time.sleep_ms(1)
            return
        pending = self._beam_pending
        n = IDLE_WAIT_MS
        while n:
            for _ in ipoll(1):
                return
            if pending():
                return
            n -= 1

    def _readable(self) -> bool:
        if self._ipoll is None:
            return bool(self._poll.poll(0))
        for _ in self._ipoll(0):
            return True
        return False

    def trap_ctrl_c(self, on: bool) -> None:
        """While the app runs, 0x03 arrives as a byte (the app stops at a safe point) instead
        of raising KeyboardInterrupt wherever the code is, say between a count and its event.

        Only on the Pico: the unix port's SIGINT handling (the simulated tower) needs the default.
        """
        if sys.platform == "rp2":
            import micropython

            micropython.kbd_intr(-1 if on else 3)

    def write(self, data: bytes) -> None:
        self._out.write(data)

    def load_text(self, name: str) -> "Any":
        try:
            with open(name) as f:
                return f.read()
        except OSError:
            return None

    def save_text(self, name: str, text: str) -> None:
        tmp = name + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.rename(tmp, name)

    def keep_watchdog_fed(self) -> None:
        """After leaving the main loop on purpose (REPL): the watchdog cannot be stopped."""
        if self._wdt is None:
            return
        wdt = self._wdt

        def feed(_timer: "machine.Timer") -> None:
            wdt.feed()

        self._timer = machine.Timer(-1, mode=machine.Timer.PERIODIC, period=1000, callback=feed)
