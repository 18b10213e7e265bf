"""The windows in which a tower's firmware is not counting: stopped in the REPL (restarted by
the link), soft-rebooting, or replaced by a new boot. The link is RESTARTING meanwhile (never
CONNECTED); once the firmware counts again the interval, from a cube's fall before the last
frame heard from the counting firmware to the HELLO that showed it back, is reported as an
`interrupted` warning with those wall-clock times (unless the same boot resumed: then nothing
was missed)."""

from __future__ import annotations

import logging
import time
from typing import Protocol

from host.tower.events import LinkState
from host.tower.link_core import LinkCore
from host.tower.link_health import LinkHealth
from host.tower.repl_watch import RESTART_BYTES, ReplWatch, Seen

log = logging.getLogger("host.tower.link")

# How long before the last frame heard a cube may have been thrown and still not reported when
# the firmware stops: its fall down the chute and the firmware's report after the beam (seconds).
# The interruption starts that much earlier, so a cube thrown just before the stop is named in the
# warning (a cube the same firmware did report is in the count and the castillo check agrees).
FALL_AND_REPORT_S = 1.0

# Handshakes in a row that got no byte at all before the link tries restarting the firmware
# blind: a Pico left in the raw REPL (a killed mpremote) prints nothing when written to.
MUTE_HANDSHAKES = 2


class Writable(Protocol):
    def write(self, data: bytes, /) -> int | None: ...


class RestartWindow:
    """Notices the firmware stopped (REPL text, a soft reboot, handshakes without a byte),
    restarts it, and reports the interval it was not counting. I/O thread only."""

    def __init__(self, link: LinkCore, health: LinkHealth) -> None:
        self._link = link
        self._health = health
        self._watch = ReplWatch()
        self.repl_wanted = False  # enter_repl: leave the REPL alone
        self._mute_handshakes = 0  # sessions in a row without a single byte from the device
        # wall-clock time of the last frame from a counting firmware, the start of the open
        # interruption (None: counting), its end (the HELLO that showed the firmware back)
        self._heard_wall: float | None = None
        self._gap_from: float | None = None
        self._gap_to = 0.0
        self._gap_boot = ""  # the boot that stopped counting (the same one back: resumed)

    @property
    def open(self) -> bool:
        """An interruption is open: the firmware has not counted since it started."""
        return self._gap_from is not None

    def feed(self, ser: Writable, data: bytes, now: float) -> None:
        """Every byte read, before its frames: REPL text restarts the firmware (a HELLO in the
        same read ends the restart's hold-off), a soft reboot stops counting."""
        seen = self._watch.feed(data, now)
        if seen is Seen.REPL and not self.repl_wanted:
            self.restart_firmware(ser, "the tower's firmware had stopped (REPL)")
        elif seen is Seen.REBOOT and not self.repl_wanted:
            self.not_counting("the tower's firmware is rebooting")

    def heard(self) -> None:
        """A frame from the counting firmware (the session has its HELLO)."""
        if self._gap_from is None:
            self._heard_wall = time.time()

    def restart_firmware(self, ser: Writable, why: str) -> None:
        """The firmware stopped in the REPL: soft-reset it (its HELLO then resyncs the link)."""
        self._health.firmware_restarts += 1
        self.not_counting(why)
        self._link._warn("firmware_restart", f"{why}: restarted it")
        with self._link._write_lock:
            ser.write(RESTART_BYTES)

    def not_counting(self, why: str) -> None:
        """The firmware stopped counting: RESTARTING until it is back and resynced; the
        interruption starts at the last frame heard from it."""
        self._open_gap()
        if self._link.state is not LinkState.DEVICE_RESET:
            self._link._set_state(LinkState.RESTARTING, self._link._session_boot, why)

    def _open_gap(self) -> None:
        if self._gap_from is None:
            last = self._heard_wall if self._heard_wall is not None else time.time()
            self._gap_from = last - FALL_AND_REPORT_S
            self._gap_boot = self._link.ledger.boot

    def hello(self, boot: str) -> None:
        """A HELLO: the firmware runs. A new boot replacing the one heard counting opens an
        interruption; an open one ends here (counting again from this HELLO on)."""
        self._watch.running()
        if boot != self._link.ledger.boot and self._heard_wall is not None:
            # a new boot replaced the one this link heard counting: not counting in between
            # (the state becomes DEVICE_RESET)
            self._open_gap()
        if self._gap_from is not None:
            self._gap_to = time.time()

    def counting_again(self) -> None:
        """Resynced after an interruption: report its interval (a warning with both times)."""
        start = self._gap_from
        if start is None:
            return
        self._gap_from = None
        end = max(self._gap_to, start)
        self._heard_wall = time.time()
        if self._gap_boot and self._gap_boot == self._link.ledger.boot:
            # the same boot resumed (main.py's `resume()`): its counts, ring and the beam edges
            # caught meanwhile were kept, and the resync fetched every event: nothing was missed
            log.info("tower firmware resumed, same boot: counting went on")
            return
        self._health.interruptions.append((start, end))
        self._link._warn(
            "interrupted",
            f"the tower was not counting from {_clock(start)} to {_clock(end)}: a cube thrown "
            "then may be missing from the count; check the castillo",
            {"from": round(start, 3), "to": round(end, 3)},
        )

    def after_mute_handshake(self, ser: Writable, heard: bool) -> None:
        """A handshake timed out: after `MUTE_HANDSHAKES` in a row without a byte, restart."""
        if heard or self.repl_wanted:
            self._mute_handshakes = 0
            return
        self._mute_handshakes += 1
        if self._mute_handshakes >= MUTE_HANDSHAKES:
            self._mute_handshakes = 0
            self.restart_firmware(ser, "the tower did not answer at all (raw REPL?)")


def _clock(wall: float) -> str:
    """A wall-clock time as the table reads it (local time, to the second)."""
    return time.strftime("%H:%M:%S", time.localtime(wall))
