"""Notice a tower whose firmware stopped in the MicroPython REPL, and what restarts it.

A single Ctrl-C byte on the line (a terminal program, a noisy cable) stops the firmware on a
Pico that does not trap it: MicroPython prints its banner and a `>>> ` prompt and waits. The
link then sees REPL text instead of frames. It restarts the firmware as `mpremote` would:
Ctrl-C clears a half-typed line, Ctrl-B leaves the raw REPL (in the friendly REPL it only
prints the banner again), Ctrl-D soft-resets, and the reset runs `main.py` again.
"""

from __future__ import annotations

RESTART_BYTES = b"\x03\x02\x04"
HOLDOFF_S = 3.0  # after a restart: the reset prints a banner too; the firmware is back in ~1 s
# What only the REPL prints. A frame never holds a raw newline, so a prompt at the start of a
# line cannot come from one.
MARKERS = (
    b"\n>>> ",
    b"raw REPL; CTRL-B to exit",
    b'Type "help()" for more information',
    b"castillo: main loop stopped",
)
TAIL = 64  # bytes kept between reads: a marker split across two reads is still found


class ReplWatch:
    """Fed every byte the link reads; says when the firmware should be restarted."""

    def __init__(self) -> None:
        self._tail = b""
        self._quiet_until = 0.0

    def feed(self, data: bytes, now: float) -> bool:
        """True when `data` shows the REPL (at most once per `HOLDOFF_S`)."""
        if now < self._quiet_until:
            self._tail = b""  # what the restart itself prints is not a new stop
            return False
        seen = self._tail + data
        self._tail = seen[-TAIL:]
        if not any(marker in seen for marker in MARKERS):
            return False
        self._tail = b""
        self._quiet_until = now + HOLDOFF_S
        return True
