"""The simulated tower's hardware state inside the MicroPython process.

Control channel (host -> here): a FIFO named by $CASTILLO_SIM_CTL carrying 16-byte records
``struct '<BBHIHHHH'`` = (kind, beam, 0, t, r, g, b, c), written in 1024-byte blocks (padded
with kind-0 records), so a 1024-byte read never waits for more than the rest of one block.

  0 NOP    padding
  1 ROW    trace row, t = us after the scenario start: sensor registers = r, g, b, c; beam
           levels (bit 0 the break-beam, bit 1 the optional second beam below it)
  2 START  a scenario starts t us from now (rows follow until END); its id is r | g << 16
           (numbered by the host, so ids stay unique when the interpreter is restarted)
  3 END    the scenario ends; when its rows are played, "I <id> <now>" is reported
  4 SPEED  t = 0: run the virtual clock free while a scenario plays, real time otherwise;
           t = n: virtual time runs at n/1000 x real time
  5 GATE   gate switch level = beam field (1 = open)
  6 IDLE   sensor registers = r, g, b, c now (the empty chute)
  7 I2C    beam field 1: the sensor stops answering (bus errors); 0: answers again
  8 SYNC   reply "Y <t> <now>" (lets the host wait until everything before it was read)

Report channel (here -> host): a FIFO named by $CASTILLO_SIM_OUT carrying records
``kind byte, u32 little-endian payload length, payload``: ``N`` a NeoPixel frame (u64 now_us,
then r, g, b per pixel), and text payloads ``I <id> <now>`` / ``Y <t> <now>`` (above),
``W <now>`` (watchdog reset), ``R <now>`` (machine.reset()). After W or R this process waits to
be killed and restarted by the launcher.

The fakes share the firmware's 128k heap, so they allocate nothing per record or frame.

The virtual clock (``now``, microseconds) advances only when the firmware sleeps or does I2C.
"""

import json
import os
import select
import struct
import time

_rt = time._rt
REC = 16
BLOCK = 1024
FRAME_HEAD = 13  # a frame report's kind, length and time before its pixels
_instance = None


def hw():
    global _instance
    if _instance is None:
        _instance = Hw()
    return _instance


class Hw:
    def __init__(self):
        self.now = 0
        self.speed = 0
        spd = os.getenv("CASTILLO_SIM_SPEED")
        if spd:
            self.speed = int(spd)
        self._anchor_real = _rt.ticks_us()
        self._anchor_virt = 0
        self._ctl = None
        self._out = None
        ctl = os.getenv("CASTILLO_SIM_CTL")
        out = os.getenv("CASTILLO_SIM_OUT")
        if ctl:
            self._ctl = open(ctl, "rb")
            self._poll = select.poll()
            self._poll.register(self._ctl, select.POLLIN)
        if out:
            self._out = open(out, "wb")
        self._buf = bytearray(2 * BLOCK)  # preallocated: no allocation per record
        self._mv = memoryview(self._buf)
        self._len = 0
        self._pos = 0
        self._frame = bytearray(FRAME_HEAD)  # the last frame report: header, then pixels
        self.scen_id = 0
        self.scen_base = 0
        self.scen_open = False  # START seen, END not yet
        self.scen_rows = False  # rows of a scenario still to play
        self.rgbc = [20, 22, 18, 60]
        self.beam = 0
        self.beam2 = 0
        self.gate = 0
        self.i2c_fail = False
        self.handlers = {}
        self.wdt_us = 0
        self.wdt_fed = 0
        self.timers = []
        self.dead = False
        self.beam_pin = 14
        self.beam_high = True
        self.beam2_pin = -1
        self.beam2_high = True
        self.gate_pin = 15
        self.gate_high = True
        try:
            with open("pinmap.json") as f:
                pm = json.load(f)
            self.beam_pin = pm["break_beam"]["pin"]
            self.beam_high = pm["break_beam"].get("active", "high") == "high"
            second = pm.get("break_beam_2")
            if second is not None:
                self.beam2_pin = second["pin"]
                self.beam2_high = second.get("active", "high") == "high"
            self.gate_pin = pm["gate_switch"]["pin"]
            self.gate_high = pm["gate_switch"].get("active", "high") == "high"
        except (OSError, ValueError, KeyError):
            pass

    # ---------------------------------------------------------------- reports
    # Each report is one write() of at most PIPE_BUF bytes, so it reaches the FIFO whole: the
    # launcher's Ctrl-C is a SIGINT that can land between any two statements, and a record
    # cut after its header would make the launcher read the next reports (a watchdog bite)
    # as the rest of it.
    def report(self, line):
        if self._out is not None:
            data = line.encode()
            self._out.write(struct.pack("<BI", data[0], len(data) - 2) + data[2:])

    def report_frame(self, rgb):
        """A NeoPixel frame (r, g, b bytes per pixel), copied after its header in a buffer kept
        from frame to frame (no allocation) and written in one piece."""
        if self._out is not None:
            n = len(rgb)
            rec = self._frame
            if len(rec) != FRAME_HEAD + n:
                rec = self._frame = bytearray(FRAME_HEAD + n)
            struct.pack_into("<BIQ", rec, 0, 78, 8 + n, self.now)  # 78: "N"
            for i in range(n):
                rec[FRAME_HEAD + i] = rgb[i]
            self._out.write(rec)

    # ---------------------------------------------------------------- control records
    def _fill(self, block):
        if self._ctl is None:
            return False
        if not block and not self._poll.poll(0):
            return False
        rest = self._len - self._pos
        if rest:
            self._buf[0:rest] = self._mv[self._pos : self._len]
        self._pos = 0
        self._len = rest
        n = self._ctl.readinto(self._mv[rest : rest + BLOCK])
        if not n:
            return False
        self._len = rest + n
        return True

    def _peek(self):
        if self._len - self._pos < REC and not self._fill(self.scen_open):
            return None
        return struct.unpack_from("<BBHIHHHH", self._buf, self._pos)

    def busy(self):
        return self.scen_open or self.scen_rows

    def _apply(self, target):
        """Apply every control record due by virtual time ``target``."""
        while True:
            rec = self._peek()
            if rec is None:
                if not self.scen_open:
                    self.scen_rows = False
                return
            kind = rec[0]
            if kind == 1:
                t = self.scen_base + rec[3]
                if t > target:
                    return
                if t > self.now:
                    self.now = t
                self.rgbc = [rec[4], rec[5], rec[6], rec[7]]
                if rec[1] & 1 != self.beam:
                    self.beam = rec[1] & 1
                    self._irq(self.beam_pin)
                if rec[1] >> 1 != self.beam2:
                    self.beam2 = rec[1] >> 1
                    self._irq(self.beam2_pin)
            elif kind == 2:
                self.scen_id = rec[4] | (rec[5] << 16)
                self.scen_base = self.now + rec[3]
                self.scen_open = True
                self.scen_rows = True
            elif kind == 3:
                self.scen_open = False
                self.scen_rows = False
                self.report(f"I {self.scen_id} {self.now}")
            elif kind == 4:
                self.speed = rec[3]
                self._reanchor()
            elif kind == 5:
                if rec[1] != self.gate:
                    self.gate = rec[1]
                    self._irq(self.gate_pin)
            elif kind == 6:
                self.rgbc = [rec[4], rec[5], rec[6], rec[7]]
            elif kind == 7:
                self.i2c_fail = bool(rec[1])
            elif kind == 8:
                self.report(f"Y {rec[3]} {self.now}")
            self._pos += REC

    def _irq(self, pin):
        h = self.handlers.get(pin)
        if h is not None:
            h[0](h[1])

    # ---------------------------------------------------------------- the clock
    def _reanchor(self):
        self._anchor_real = _rt.ticks_us()
        self._anchor_virt = self.now

    def advance(self, dt):
        if self.dead:
            self._hang()
        target = self.now + max(0, dt)
        self._apply(target)
        if target > self.now:
            self.now = target
        if self.speed == 0 and self.busy():
            self._reanchor()
        else:
            self._pace()
        self._timers()
        if self.wdt_us and self.now - self.wdt_fed > self.wdt_us:
            self.report(f"W {self.now}")
            self.dead = True
            self._hang()

    def _pace(self):
        per_mille = self.speed or 1000
        want = (self.now - self._anchor_virt) * 1000 // per_mille
        real = _rt.ticks_diff(_rt.ticks_us(), self._anchor_real)
        ahead = want - real
        if ahead > 0:
            _rt.sleep_us(ahead)
        elif ahead < -50000:
            self._reanchor()  # we fell behind (a slow host): do not try to catch up

    def _timers(self):
        for tm in self.timers:
            while tm.active and self.now >= tm.due:
                tm.due += tm.period_us
                tm.callback(tm)
                if tm.oneshot:
                    tm.active = False

    def _hang(self):
        while True:
            _rt.sleep_ms(100)

    # ---------------------------------------------------------------- sensor register model
    def i2c_cost(self, nbytes):
        self.advance((3 + nbytes) * 23)  # 9 bits per byte at 400 kHz


READ_ONLY = 0x12  # ID, STATUS and the data registers (0x12..0x1B) ignore writes


class Tcs34725Model:
    """Registers of a TCS34725 (see towerfw.tcs34725) serving the current trace row.

    The ID register (0x12) holds $CASTILLO_SIM_SENSOR_ID (decimal), by default 0x44 (TCS34725).
    """

    def __init__(self, hw_):
        self.hw = hw_
        self.regs = bytearray(32)
        self.regs[0x12] = int(os.getenv("CASTILLO_SIM_SENSOR_ID") or 0x44) & 0xFF
        self.regs[0x01] = 0xFF
        self.ptr = 0
        self.enabled_at = -1

    def write(self, data):
        if not data:
            return
        cmd = data[0]
        if cmd & 0x80:
            self.ptr = cmd & 0x1F
            self.autoinc = (cmd >> 5) & 3 == 1
        for b in data[1:]:
            if self.ptr == 0x00 and (b & 3) == 3 and (self.regs[0] & 3) != 3:
                self.enabled_at = self.hw.now
            if self.ptr < READ_ONLY or self.ptr > 0x1B:
                self.regs[self.ptr] = b
            self.ptr = (self.ptr + 1) & 0x1F

    def _refresh(self):
        regs = self.regs
        cycles = 256 - regs[0x01]
        gain = (1, 4, 16, 60)[regs[0x0F] & 3]
        running = (regs[0] & 3) == 3 and self.hw.now - self.enabled_at >= 2400 * cycles
        regs[0x13] = 1 if running else 0
        if not running:
            return
        full = min(65535, 1024 * cycles)
        r, g, b, c = self.hw.rgbc
        vals = (c, r, g, b)
        for i in range(4):
            v = vals[i] * cycles * gain // 16
            if v > full:
                v = full
            regs[0x14 + 2 * i] = v & 0xFF
            regs[0x15 + 2 * i] = (v >> 8) & 0xFF

    def read(self, buf):
        self._refresh()
        for i in range(len(buf)):
            buf[i] = self.regs[self.ptr]
            if getattr(self, "autoinc", False):
                self.ptr = (self.ptr + 1) & 0x1F


def hw_pin_level(pin):
    h = hw()
    if pin == h.beam_pin:
        return h.beam if h.beam_high else 1 - h.beam
    if pin == h.beam2_pin:
        return h.beam2 if h.beam2_high else 1 - h.beam2
    if pin == h.gate_pin:
        return h.gate if h.gate_high else 1 - h.gate
    return 0
