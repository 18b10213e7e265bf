"""Code that only boot runs: the Tower's state. ``Tower.__init__`` (app.py) calls ``tower``;
main.py drops this module (and ``calibration``, which only boot and the ``cal`` steps use) once
the tower is built, so their code leaves the Pico's heap."""

import towerfw.calibration as calibration
from towerfw import codec
from towerfw.app import IDLE, OUTBOX_MAX
from towerfw.classifier import Classifier
from towerfw.counter import Counts, EventRing, FrameQueue
from towerfw.leds import USB_BUDGET_MA, CurrentLimiter, Scene
from towerfw.sampler import Burst

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any


def tower(
    self: "Any",
    hal: "Any",
    config: "dict[str, Any]",
    palette: "dict[str, Any]",
    ledmap: "dict[str, Any]",
    cal_text: "Any",
) -> None:
    """Every attribute of a new ``Tower``: its parts, its settings read once, its state."""
    self.hal = hal
    self.cfg = config
    self.palette = palette
    self.colours = list(palette["colours"])
    self.counts = Counts(self.colours)
    self.ring = EventRing(int(config["ring_size"]))
    self.seq = 0
    self.outbox = FrameQueue(OUTBOX_MAX)
    self.decoder = codec.FrameDecoder()
    self._rx = bytearray()
    cal = calibration.from_json(cal_text) if cal_text else None
    self.cal = cal if cal is not None else calibration.empty()
    self.cal_saved_hash = calibration.cal_hash(self.cal)
    self.cal_colour = None  # armed colour while calibrating, else None
    self.cal_pulses = []  # [pulse_us, measured size or -1] per accepted cube
    self.classifier = Classifier({}, 1.0, 1.0, 1.0, 1.0)
    self.base = [0.0, 0.0, 0.0, 0.0]  # empty-chute reading now (tracks ambient light)
    self._last_jump = 0.0  # the last baseline reading's clear count minus the baseline
    self.white_c = 1.0
    self._dark = None
    self.rebuild()
    self.boot_id = codec.hex8(hal.random32() & 0xFFFFFFFF)
    self.reset_cause = hal.reset_cause()
    self.uid = hal.unique_id()
    # time
    self.up_ms = 0
    self._last_ms = hal.ticks_ms()
    self._hb_ms = 0
    self._base_ms = 0
    self._diag_ms = 0
    self._led_ms = 0
    self.diag = False
    # sensing
    self.state = IDLE
    self.burst = Burst()
    self.sample = [0, 0, 0, 0]
    self.t_entry = 0
    self.t_exit = 0
    # the optional second beam (hal.beam2) below the first: when it rises during a pulse
    # (-1: not yet) times the piece
    self.t_rise2 = -1
    self.grande_ok = False  # the host says a Grande may fall in now (Tournament)
    self.tail_end = 0
    self.next_sample = 0
    self.read_us = 0  # how long the last sensor read took, to its sample's stamp
    # as if the last edge were long ago: the chute starts quiet
    self.last_edge = hal.ticks_add(hal.ticks_us(), -1000 * int(config["cal_save_quiet_ms"]) - 1)
    self.sensor_ok = True
    self.sensor_fault = None  # why of the last reported sensor fault
    self.burst_fault = None
    self.glitches = 0
    # gate
    self.gate_open = bool(hal.gate_open())
    self._gate_raw = self.gate_open
    self._gate_since = 0
    # leds
    segs: dict[str, Any] = {}
    for s in ledmap["segments"]:
        segs[s["name"]] = (s["start"], s["count"])
    pixels = int(ledmap["total_pixels"])
    self.scene = Scene(segs, pixels, ledmap["segments"])
    self.limiter = CurrentLimiter(
        pixels,
        ledmap.get("milliamps_per_channel", 20),
        ledmap.get("idle_milliamps_per_pixel", 1),
        ledmap.get("budget_milliamps", USB_BUDGET_MA),
    )
    self.frame = bytearray(3 * pixels)
    self.led_dirty = True
    self.led_ma = 0.0
    # the idle pass's settings, read once (a dict lookup per pass costs)
    self._baseline_ms = int(config["baseline_period_ms"])
    self._led_frame_ms = int(config["led_frame_ms"])
    self._heartbeat_ms = int(config["heartbeat_ms"])
    self._integration_us = int(config["integration_us"])
    self._tail_us = int(config["tail_us"])
    self._stuck_us = int(config["stuck_ms"]) * 1000
    self.best_samples = int(config["best_samples"])
    self._beam_pending = hal.beam.pending  # bound once: every sensing pass asks
    self._beam2_pending = hal.beam2.pending if hal.beam2 is not None else None
    self._gc_activity = -1  # events and frames seen at the last collection
    # health
    self.stopped = False
    self.faults = 0
    self.fault_total = 0
    self._repl_key = None  # (key, up_ms) of the last `repl` request: see Tower.cmd_repl
