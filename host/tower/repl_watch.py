"""Notice a tower whose firmware stopped in the MicroPython REPL or is rebooting, and what
restarts it.

A single Ctrl-C byte on the line (a terminal program, a noisy cable) stops the firmware:
MicroPython prints its banner and a `>>> ` prompt and waits. The link then sees REPL text
instead of frames. It restarts the firmware: Ctrl-C clears a half-typed line, Ctrl-B leaves the
raw REPL (in the friendly REPL it only prints the banner again), and a typed line calls
main.py's `resume()`, which goes back into the main loop with the same boot (counts, the event
ring and the beam edges caught meanwhile kept); where main.py did not run (a board rebooted
into the raw REPL) or is older, the line soft-resets instead and main.py runs again.

A soft reset from anywhere (Ctrl-D at the REPL, `machine.soft_reset()`) prints
`MPY: soft reboot` first: the firmware is not counting until its next HELLO, but nothing needs
restarting.
"""

from __future__ import annotations

import enum

RESUME_LINE = b"globals().get('resume', __import__('machine').soft_reset)()\r"
RESTART_BYTES = b"\x03\x02" + RESUME_LINE
HOLDOFF_S = 3.0  # after a restart: the reset prints a banner too; the firmware is back in ~1 s
# What only the REPL prints. A frame never holds a raw newline, so a prompt at the start of a
# line cannot come from one.
MARKERS = (
    b"\n>>> ",
    b"raw REPL; CTRL-B to exit",
    b'Type "help()" for more information',
    b"castillo: main loop stopped",
)
REBOOT_MARKER = b"soft reboot"
TAIL = 64  # bytes kept between reads: a marker split across two reads is still found


class Seen(enum.Enum):
    NOTHING = 0
    REPL = 1  # the firmware stopped in the REPL: restart it
    REBOOT = 2  # the board is soft-rebooting: it comes back by itself


class ReplWatch:
    """Fed every byte the link reads; says when the firmware stopped or is rebooting."""

    def __init__(self) -> None:
        self._tail = b""
        self._quiet_until = 0.0

    def feed(self, data: bytes, now: float) -> Seen:
        """`Seen.REPL` when `data` shows the REPL (at most once per `HOLDOFF_S`, or until
        `running()`), `Seen.REBOOT` when it shows a soft reboot."""
        seen = self._tail + data
        self._tail = seen[-TAIL:]
        if now < self._quiet_until:
            if REBOOT_MARKER in seen:
                self._tail = b""
                return Seen.REBOOT
            return Seen.NOTHING  # what the restart itself prints is not a new stop
        if any(marker in seen for marker in MARKERS):
            self._tail = b""
            self._quiet_until = now + HOLDOFF_S
            return Seen.REPL
        if REBOOT_MARKER in seen:
            self._tail = b""
            return Seen.REBOOT
        return Seen.NOTHING

    def running(self) -> None:
        """The firmware announced itself (HELLO): REPL text from now on is a new stop."""
        self._quiet_until = 0.0
        self._tail = b""
