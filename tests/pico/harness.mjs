// An emulated Raspberry Pi Pico (rp2040js) with the tower's devices around it, driven over
// stdin/stdout by tests/pico/emulator.py: one JSON request per line, one JSON reply per line.
//
// What is modelled beyond rp2040js (see docs/pico-emulation.md):
// - emulated time runs only inside `run`; the CPU is stepped in a synchronous loop and the clock
//   jumps to the next alarm while the core sleeps in WFI/WFE (that time is counted as idle);
// - flash erase/program: the boot ROM's flash_range_erase / flash_range_program are replaced by
//   breakpoints that apply the operation to the flash array and stall the CPU for typical
//   W25Q16JV times (rp2040js does not emulate flash writes);
// - PIO state machines are stepped from this loop at their clock divider (rp2040js runs them from
//   setTimeout, outside emulated time), and the WS2812 chain is decoded from its pin;
// - USB CDC host: an armed OUT endpoint is answered only when the host has bytes to send;
// - TCS34725 on I2C0: registers, continuous integration, data latched per integration window,
//   bus time at the configured rate; the readings per window come from the Python side;
// - beam and gate inputs: level changes scheduled on the emulated clock;
// - watchdog: feeds and bites are counted (rp2040js does not reset the chip);
// - the flash's unique ID: the SSI answers the Read Unique ID command (0x4B) with the board's
//   64-bit id, as a W25Q16JV does (rp2040js answers every SSI read with zeros).

import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { GPIOPinState, I2CMode, RP2040, USBCDC } from 'rp2040js';

const FLASH_BASE = 0x10000000;
const UF2_MAGIC = [0x0a324655, 0x9e5d5157, 0x0ab16f30];
const SECTOR = 4096;
const PAGE = 256;
const ERASE_NS_PER_SECTOR = 45e6; // W25Q16JV typical sector erase
const PROGRAM_NS_PER_PAGE = 0.4e6; // W25Q16JV typical page program
const WAIT_TX = 3; // rp2040js StateMachine.waitType values
const WAIT_OUT = 5;
const WATCHDOG_BASE = 0x40058;
const SSI_BASE = 0x18000;
const SSI_DR0 = 0x60;
const FLASH_RUID = 0x4b; // Read Unique ID: the command, 4 dummy bytes, then the 8-byte id
const RUID_DUMMY_BYTES = 4;
const WATCHDOG_LOAD = 0x04;
const WS2812_ONE_MIN_NS = 500; // a high phase longer than this is a 1 bit
const WS2812_LATCH_NS = 50_000; // a low phase longer than this ends a frame

const QUIET_LOGGER = {
  debug() {},
  info() {},
  warn() {},
  error(component, message) {
    if (process.env.PICO_HARNESS_LOG) process.stderr.write(`${component}: ${message}\n`);
  },
};

function romCode(a, b) {
  return a.charCodeAt(0) | (b.charCodeAt(0) << 8);
}

/** Flash bytes from a UF2 file (only blocks aimed at XIP flash). */
function uf2Blocks(data, flash) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let off = 0; off + 512 <= data.length; off += 512) {
    const magic = [view.getUint32(off, true), view.getUint32(off + 4, true), view.getUint32(off + 508, true)];
    if (magic[0] !== UF2_MAGIC[0] || magic[1] !== UF2_MAGIC[1] || magic[2] !== UF2_MAGIC[2]) {
      throw new Error(`not a UF2 block at ${off}`);
    }
    const target = view.getUint32(off + 12, true);
    const size = view.getUint32(off + 16, true);
    if (target < FLASH_BASE) continue;
    flash.set(data.subarray(off + 32, off + 32 + size), target - FLASH_BASE);
  }
}

/** The TCS34725 colour sensor as the firmware sees it over I2C. */
class ColourSensor {
  constructor(board) {
    this.board = board;
    this.address = 0x29;
    this.regs = new Uint8Array(32);
    this.regs[0x01] = 0xff; // ATIME: 1 cycle
    this.regs[0x12] = 0x44; // ID: TCS34725
    this.enabledAtNs = -1; // when PON|AEN was set (integration starts), -1 while off
    this.readings = new Map(); // window number -> [r, g, b, c]
    this.idle = [40, 30, 25, 95]; // used for windows Python gave no reading for
    this.latched = new Uint8Array(8);
    this.register = 0;
    this.autoIncrement = false;
    this.expectCommand = false;
    this.blockReads = 0;
    this.present = true;
  }

  cycleNs() {
    return (256 - this.regs[0x01]) * 2.4e6;
  }

  /** Number of the last completed integration window (1 = the first), 0 if none yet. */
  windowNow() {
    if (this.enabledAtNs < 0) return 0;
    return Math.floor((this.board.clock.nanos - this.enabledAtNs) / this.cycleNs());
  }

  connect(write) {
    this.expectCommand = write;
  }

  write(value) {
    if (this.expectCommand) {
      this.expectCommand = false;
      if (value & 0x80) {
        this.register = value & 0x1f;
        this.autoIncrement = (value & 0x60) === 0x20;
      }
      return;
    }
    const reg = this.register;
    const wasOn = (this.regs[0] & 3) === 3;
    if (reg !== 0x12 && reg !== 0x13 && reg < 0x14) this.regs[reg] = value;
    if (reg === 0x00) {
      const on = (value & 3) === 3;
      if (on && !wasOn) this.enabledAtNs = this.board.clock.nanos;
      if (!on) this.enabledAtNs = -1;
    }
    if (this.autoIncrement) this.register = (this.register + 1) & 0x1f;
  }

  read() {
    const reg = this.register;
    let value;
    if (reg === 0x13) {
      value = this.windowNow() >= 1 ? 0x01 : 0x00;
    } else if (reg >= 0x14 && reg <= 0x1b) {
      if (reg === 0x14) this.latch();
      value = this.latched[reg - 0x14];
    } else {
      value = this.regs[reg];
    }
    if (this.autoIncrement) this.register = (this.register + 1) & 0x1f;
    return value;
  }

  /** Reading CDATAL latches the four channels of the last completed window. */
  latch() {
    this.blockReads++;
    const n = this.windowNow();
    const rgbc = n >= 1 ? this.readings.get(n) || this.idle : [0, 0, 0, 0];
    const order = [rgbc[3], rgbc[0], rgbc[1], rgbc[2]]; // C, R, G, B in register order
    for (let i = 0; i < 4; i++) {
      const v = Math.max(0, Math.min(65535, Math.round(order[i])));
      this.latched[2 * i] = v & 0xff;
      this.latched[2 * i + 1] = v >> 8;
    }
  }
}

/** rp2040js I2C0 hooks: the sensor answers, each byte takes 9 bit-times of the bus clock. */
function attachI2C(board, i2c, sensor, busHz) {
  const byteNs = (9 * 1e9) / busHz;
  const later = (ns, fn) => board.clock.createAlarm(fn).schedule(ns);
  let selected = false;
  i2c.onStart = () => later(byteNs / 9, () => i2c.completeStart());
  i2c.onConnect = (address, mode) => {
    selected = sensor.present && address === sensor.address;
    if (selected) sensor.connect(mode === I2CMode.Write);
    later(byteNs, () => i2c.completeConnect(selected));
  };
  i2c.onWriteByte = (value) => {
    if (selected) sensor.write(value);
    later(byteNs, () => i2c.completeWrite(selected));
  };
  i2c.onReadByte = () => {
    const value = selected ? sensor.read() : 0xff;
    later(byteNs, () => i2c.completeRead(value));
  };
  i2c.onStop = () => later(byteNs / 9, () => i2c.completeStop());
}

/** Decodes WS2812 bits from a pin's level changes, timed on the PIO's own clock. */
class PixelDecoder {
  constructor() {
    this.frames = [];
    this.bits = [];
    this.riseNs = -1;
    this.fallNs = -1;
    this.startNs = 0;
  }

  level(high, tNs) {
    if (high) {
      if (this.bits.length && this.fallNs >= 0 && tNs - this.fallNs > WS2812_LATCH_NS) this.flush();
      if (!this.bits.length) this.startNs = tNs;
      this.riseNs = tNs;
    } else if (this.riseNs >= 0) {
      this.bits.push(tNs - this.riseNs > WS2812_ONE_MIN_NS ? 1 : 0);
      this.fallNs = tNs;
      this.riseNs = -1;
    }
  }

  /** Ends a frame if the line has been low past the latch time. */
  poll(nowNs) {
    if (this.bits.length && this.riseNs < 0 && nowNs - this.fallNs > WS2812_LATCH_NS) this.flush();
  }

  flush() {
    const bytes = [];
    for (let i = 0; i + 8 <= this.bits.length; i += 8) {
      let v = 0;
      for (let k = 0; k < 8; k++) v = (v << 1) | this.bits[i + k];
      bytes.push(v);
    }
    this.frames.push({
      t_us: this.startNs / 1000,
      end_us: this.fallNs / 1000,
      bits: this.bits.length,
      grb: Buffer.from(bytes).toString('hex'),
    });
    this.bits = [];
  }
}

class Board {
  constructor(opts, flash) {
    this.opts = opts;
    this.chip = new RP2040();
    this.chip.logger = QUIET_LOGGER; // stdout carries the protocol; rp2040js logs a lot
    this.clock = this.chip.clock;
    this.chip.loadBootrom(opts.bootrom);
    this.chip.flash.set(flash);
    // rp2040js runs one core: start in the second-stage boot loader at the start of flash (as the
    // ROM does after its checks), which sets up XIP and enters the image's vector table
    this.chip.core.PC = FLASH_BASE;
    this.busyCycles = 0;
    this.profile = null;
    this.idleNs = 0;
    this.stallNs = 0;
    this.pendingStallNs = 0;
    this.flashErases = 0;
    this.flashPrograms = 0;
    this.wdtFeeds = 0;
    this.wdtBites = 0;
    this.usbOut = [];
    this.usbConnectedUs = -1;
    this.hostQueue = [];
    this.heldRead = null;
    this.sawNewline = false;
    this.patchFlashRom();
    this.attachWatchdog();
    this.attachFlashUid();
    this.attachUsb();
    this.sensor = new ColourSensor(this);
    attachI2C(this, this.chip.i2c[0], this.sensor, opts.i2cHz);
    this.pixels = new PixelDecoder();
    this.pioTimeNs = 0;
    this.pioDue = 0;
    for (const pio of this.chip.pio) pio.run = () => {}; // stepped from run() instead
    this.chip.gpio[opts.pixelPin].addListener((state) => {
      this.pixels.level(state === GPIOPinState.High, this.pioTimeNs);
    });
    this.setInput(opts.beamPin, false);
    this.setInput(opts.gatePin, true);
  }

  patchFlashRom() {
    const rom = this.chip.bootrom;
    const half = (addr) => (rom[addr >> 2] >>> ((addr & 2) * 8)) & 0xffff;
    const table = half(0x14);
    const found = {};
    for (let p = table; half(p) !== 0; p += 4) found[half(p)] = half(p + 2) & ~1;
    this.eraseAt = found[romCode('R', 'E')];
    this.programAt = found[romCode('R', 'P')];
    if (this.eraseAt === undefined || this.programAt === undefined) throw new Error('ROM flash functions not found');
    const patch = (addr, imm) => {
      const word = addr >> 2;
      const shift = (addr & 2) * 8;
      rom[word] = ((rom[word] & ~(0xffff << shift)) | ((0xbe00 | imm) << shift)) >>> 0;
    };
    patch(this.eraseAt, 0x45);
    patch(this.programAt, 0x50);
    this.chip.onBreak = (code) => this.onBreak(code);
  }

  onBreak(code) {
    const core = this.chip.core;
    const r = core.registers;
    if (code === 0x45) {
      const offset = r[0] >>> 0;
      const count = r[1] >>> 0;
      this.chip.flash.fill(0xff, offset, offset + count);
      this.flashErases += count / SECTOR;
      this.pendingStallNs += (count / SECTOR) * ERASE_NS_PER_SECTOR;
    } else if (code === 0x50) {
      const offset = r[0] >>> 0;
      const data = r[1] >>> 0;
      const count = r[2] >>> 0;
      for (let i = 0; i < count; i++) this.chip.flash[offset + i] &= this.chip.readUint8(data + i);
      this.flashPrograms += Math.ceil(count / PAGE);
      this.pendingStallNs += Math.ceil(count / PAGE) * PROGRAM_NS_PER_PAGE;
    } else {
      throw new Error(`unexpected breakpoint ${code} at ${core.PC.toString(16)}`);
    }
    core.PC = core.LR & ~1; // return from the ROM function
  }

  attachWatchdog() {
    const wd = this.chip.peripherals[WATCHDOG_BASE];
    const write = wd.writeUint32.bind(wd);
    wd.writeUint32 = (offset, value) => {
      if (offset === WATCHDOG_LOAD) this.wdtFeeds++;
      write(offset, value);
    };
    wd.onWatchdogTrigger = () => {
      this.wdtBites++;
    };
  }

  /** The flash answers Read Unique ID over the SSI: one byte received per byte sent. */
  attachFlashUid() {
    const ssi = this.chip.peripherals[SSI_BASE];
    const write = ssi.writeUint32.bind(ssi);
    const read = ssi.readUint32.bind(ssi);
    const uid = this.opts.flashUid;
    const answer = [];
    let sent = -1; // bytes of a Read Unique ID command sent so far, -1 outside one
    ssi.writeUint32 = (offset, value) => {
      if (offset === SSI_DR0) {
        if (sent < 0 && (value & 0xff) === FLASH_RUID) sent = 0;
        if (sent >= 0) {
          const k = sent - 1 - RUID_DUMMY_BYTES; // index of the id byte clocked in with this one
          answer.push(k >= 0 && k < uid.length ? uid[k] : 0);
          sent = ++sent > RUID_DUMMY_BYTES + uid.length ? -1 : sent;
          return;
        }
      }
      write(offset, value);
    };
    ssi.readUint32 = (offset) => {
      if (offset === SSI_DR0 && answer.length) return answer.shift();
      return read(offset);
    };
  }

  attachUsb() {
    const usb = this.chip.usbCtrl;
    this.cdc = new USBCDC(usb);
    this.cdc.onDeviceConnected = () => {
      this.usbConnectedUs = this.clock.nanos / 1000;
    };
    this.cdc.onSerialData = (buffer) => {
      this.usbOut.push([this.clock.nanos / 1000, Buffer.from(buffer).toString('hex')]);
      if (buffer.includes(10)) this.sawNewline = true;
    };
    // rp2040js answers an armed OUT endpoint at once (a zero-length packet when the host has
    // nothing): hold it until the host has bytes, as a real host does.
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint !== this.cdc.outEndpoint) return;
      this.heldRead = { endpoint, size };
      this.deliver();
    };
  }

  deliver() {
    if (!this.heldRead || !this.hostQueue.length) return;
    const { endpoint, size } = this.heldRead;
    this.heldRead = null;
    const chunk = Uint8Array.from(this.hostQueue.splice(0, Math.min(size, this.hostQueue.length)));
    this.chip.usbCtrl.endpointReadDone(endpoint, chunk);
  }

  send(bytes) {
    for (const b of bytes) this.hostQueue.push(b);
    this.deliver();
  }

  setInput(pin, level) {
    this.chip.gpio[pin].setInputValue(!!level);
  }

  /** Schedules input level changes: [[t_us, pin, level], ...] (absolute emulated time). */
  schedule(edges) {
    for (const [tUs, pin, level] of edges) {
      const delta = tUs * 1000 - this.clock.nanos;
      if (delta <= 0) {
        this.setInput(pin, level);
      } else {
        this.clock.createAlarm(() => this.setInput(pin, level)).schedule(delta);
      }
    }
  }

  /** Steps every enabled state machine up to `nowNs` at its clock divider; returns when next. */
  stepPio(nowNs) {
    let next = Infinity;
    const cycleNs = 1e9 / this.chip.clkSys;
    for (const pio of this.chip.pio) {
      for (const sm of pio.machines) {
        if (!sm.enabled) continue;
        if (sm.nextNs === undefined) this.watchMachine(sm);
        if (sm.waiting && sm.txFIFO.empty && (sm.waitType === WAIT_OUT || sm.waitType === WAIT_TX)) {
          sm.nextNs = nowNs; // stalled on an empty FIFO until the CPU writes it
          continue;
        }
        const smNs = cycleNs * (sm.clockDivInt + sm.clockDivFrac / 256);
        while (sm.nextNs <= nowNs) {
          this.pioTimeNs = sm.nextNs;
          const before = sm.cycles;
          sm.step();
          pio.checkChangedPins();
          sm.nextNs += Math.max(1, sm.cycles - before) * smNs;
        }
        next = Math.min(next, sm.nextNs);
      }
    }
    return next;
  }

  /** A write to a stalled machine's FIFO wakes it now, not at the time it stalled. */
  watchMachine(sm) {
    sm.nextNs = this.clock.nanos;
    const write = sm.writeFIFO.bind(sm);
    sm.writeFIFO = (value) => {
      if (sm.nextNs < this.clock.nanos) sm.nextNs = this.clock.nanos;
      this.pioDue = 0;
      write(value);
    };
  }

  run(us, untilLine) {
    const { core } = this.chip;
    const clock = this.clock;
    const cycleNs = 1e9 / 125e6;
    const target = clock.nanos + us * 1000;
    this.sawNewline = false;
    let n = 0;
    while (clock.nanos < target) {
      if (core.waiting) {
        let jump = clock.nanosToNextAlarm;
        if (jump <= 0) jump = target - clock.nanos;
        jump = Math.min(jump, target - clock.nanos);
        if (this.pioDue !== Infinity) jump = Math.min(jump, Math.max(this.pioDue - clock.nanos, 1));
        clock.tick(jump);
        this.idleNs += jump;
      } else {
        const pc = core.PC;
        const cycles = core.executeInstruction();
        this.busyCycles += cycles;
        if (this.profile) {
          this.profile.set(pc, (this.profile.get(pc) || 0) + cycles);
          if (pc === this.callsTo) this.callers.set(core.LR, (this.callers.get(core.LR) || 0) + 1);
        }
        clock.tick(cycles * cycleNs);
        if (this.pendingStallNs) {
          const stall = this.pendingStallNs;
          this.pendingStallNs = 0;
          this.stallNs += stall;
          clock.tick(stall);
        }
      }
      if ((++n & 1023) === 0) this.pioDue = Math.min(this.pioDue, clock.nanos); // enabled since?
      if (clock.nanos >= this.pioDue) this.pioDue = this.stepPio(clock.nanos);
      if (untilLine && this.sawNewline) break;
    }
    this.pixels.poll(clock.nanos);
  }

  stats() {
    return {
      now_us: this.clock.nanos / 1000,
      busy_cycles: this.busyCycles,
      idle_us: this.idleNs / 1000,
      flash_stall_us: this.stallNs / 1000,
      flash_erases: this.flashErases,
      flash_programs: this.flashPrograms,
      wdt_feeds: this.wdtFeeds,
      wdt_bites: this.wdtBites,
      usb_connected_us: this.usbConnectedUs,
      sensor_enabled_us: this.sensor.enabledAtNs < 0 ? -1 : this.sensor.enabledAtNs / 1000,
      sensor_cycle_us: this.sensor.cycleNs() / 1000,
      sensor_block_reads: this.sensor.blockReads,
      host_queue: this.hostQueue.length,
    };
  }
}

function loadOptions(args) {
  const opts = {
    bootrom: null,
    firmware: null,
    fs: null,
    fsOffset: 0xa0000,
    i2cHz: 400_000,
    beamPin: 14,
    gatePin: 15,
    pixelPin: 16,
    flashUid: Buffer.from('e660583883724a32', 'hex'), // the board's flash unique ID (8 bytes)
  };
  for (let i = 0; i < args.length; i += 2) {
    const [key, value] = [args[i], args[i + 1]];
    if (key === '--bootrom') opts.bootrom = new Uint32Array(new Uint8Array(readFileSync(value)).buffer);
    else if (key === '--firmware') opts.firmware = readFileSync(value);
    else if (key === '--fs') opts.fs = readFileSync(value);
    else if (key === '--fs-offset') opts.fsOffset = Number(value);
    else if (key === '--i2c-hz') opts.i2cHz = Number(value);
    else if (key === '--beam-pin') opts.beamPin = Number(value);
    else if (key === '--gate-pin') opts.gatePin = Number(value);
    else if (key === '--pixel-pin') opts.pixelPin = Number(value);
    else if (key === '--flash-uid') opts.flashUid = Buffer.from(value, 'hex');
    else throw new Error(`unknown option ${key}`);
  }
  if (!opts.bootrom || !opts.firmware) throw new Error('--bootrom and --firmware are required');
  return opts;
}

function main() {
  const opts = loadOptions(process.argv.slice(2));
  const flash = new Uint8Array(16 * 1024 * 1024).fill(0xff);
  uf2Blocks(opts.firmware, flash);
  if (opts.fs) flash.set(opts.fs, opts.fsOffset);
  let board = new Board(opts, flash);
  const reply = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
  const handlers = {
    run: (req) => {
      board.run(req.us, !!req.until_line);
      const out = { usb: board.usbOut, leds: board.pixels.frames, ...board.stats() };
      board.usbOut = [];
      board.pixels.frames = [];
      return out;
    },
    send: (req) => {
      board.send(Buffer.from(req.hex, 'hex'));
      return { queued: board.hostQueue.length };
    },
    inputs: (req) => {
      board.schedule(req.edges);
      return {};
    },
    readings: (req) => {
      req.values.forEach((v, i) => board.sensor.readings.set(req.first + i, v));
      if (req.idle) board.sensor.idle = req.idle;
      return {};
    },
    sensor_present: (req) => {
      board.sensor.present = !!req.present;
      return {};
    },
    stats: () => board.stats(),
    // cycles per program counter while on: the Python side maps them to the ELF's symbols
    profile: (req) => {
      const pcs = board.profile ? [...board.profile.entries()] : [];
      const callers = board.callers ? [...board.callers.entries()] : [];
      board.profile = req.on ? new Map() : null;
      board.callsTo = req.calls_to === undefined ? -1 : req.calls_to & ~1;
      board.callers = new Map();
      return { pcs, callers };
    },
    flash_uid: () => ({ hex: board.opts.flashUid.toString('hex') }),
    flash: (req) => ({ hex: Buffer.from(board.chip.flash.subarray(req.offset, req.offset + req.length)).toString('hex') }),
    power_cycle: () => {
      const saved = Uint8Array.from(board.chip.flash);
      board = new Board(opts, saved);
      return {};
    },
  };
  const rl = createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    if (!line.trim()) return;
    let req;
    try {
      req = JSON.parse(line);
    } catch (exc) {
      reply({ error: `bad request: ${exc.message}` });
      return;
    }
    if (req.op === 'quit') {
      reply({});
      process.exit(0);
    }
    const handler = handlers[req.op];
    if (!handler) {
      reply({ error: `unknown op ${req.op}` });
      return;
    }
    try {
      reply(handler(req));
    } catch (exc) {
      reply({ error: String(exc && exc.stack ? exc.stack : exc) });
    }
  });
  rl.on('close', () => process.exit(0));
}

main();
