"""What went wrong on a serial tower link and was dealt with, for `health()`: frames the codec
dropped, frames that broke their schema, firmware restarts, the latest such problem while it
is recent, and the intervals the firmware was not counting."""

from __future__ import annotations

import time
from collections import deque
from typing import Any

WARNING_S = 600.0  # how long a skipped frame or a firmware restart stays a warning
INTERRUPTIONS_KEPT = 16  # the latest intervals without counting, for `health()`


class LinkHealth:
    """The link's counters and its latest warning (touched by the I/O thread only)."""

    def __init__(self) -> None:
        self.bad_frames = 0
        self.invalid_frames = 0  # CRC-valid frames that broke their schema (skipped)
        self.firmware_restarts = 0  # times the firmware was found in the REPL and restarted
        self.interruptions: deque[tuple[float, float]] = deque(maxlen=INTERRUPTIONS_KEPT)
        self._problem = ""  # the latest skipped frame or restart, for warnings
        self._problem_kind = ""
        self._problem_at = -WARNING_S
        self._problem_params: dict[str, Any] = {}

    def record(self, kind: str, problem: str, params: dict[str, Any] | None = None) -> None:
        """Keep `problem` as the latest warning (for `WARNING_S`)."""
        self._problem, self._problem_kind = problem, kind
        self._problem_params = dict(params or {})
        self._problem_at = time.monotonic()

    def as_dict(self) -> dict[str, Any]:
        """`TowerLink.health()`'s answer."""
        recent = time.monotonic() - self._problem_at < WARNING_S
        return {
            "bad_frames": self.bad_frames,
            "invalid_frames": self.invalid_frames,
            "firmware_restarts": self.firmware_restarts,
            "warning": self._problem if recent else "",
            "warning_kind": self._problem_kind if recent else "",
            "warning_params": dict(self._problem_params) if recent else {},
            "interruptions": [list(gap) for gap in self.interruptions],
        }
