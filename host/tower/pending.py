"""The commands a serial tower link sent and waits for: each has an id; its `ok` or `err`
answer completes a caller's future or runs the I/O thread's callback."""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from host.tower.link import CommandFailed

log = logging.getLogger("host.tower.link")


@dataclass
class _Pending:
    name: str
    future: Future[dict[str, Any]] | None
    on_answer: Callable[[dict[str, Any]], None] | None


class PendingCommands:
    """Command ids and the commands waiting for their answer (thread-safe)."""

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._lock = threading.Lock()

    def next_id(self) -> int:
        """An id for a command nobody waits for (ack, grande, hello)."""
        return next(self._ids)

    def register(
        self,
        name: str,
        future: Future[dict[str, Any]] | None,
        on_answer: Callable[[dict[str, Any]], None] | None,
    ) -> int:
        ident = next(self._ids)
        with self._lock:
            self._pending[ident] = _Pending(name, future, on_answer)
        return ident

    def unregister(self, ident: int) -> None:
        with self._lock:
            self._pending.pop(ident, None)

    def fail_all(self, error: Exception) -> None:
        """The link closed or was lost: every waiting caller gets `error`."""
        with self._lock:
            pending, self._pending = self._pending, {}
        for item in pending.values():
            if item.future is not None and not item.future.done():
                item.future.set_exception(error)

    def answer(self, frame: dict[str, Any]) -> None:
        """An `ok` or `err` frame: complete the command it answers (if one still waits)."""
        ident = frame.get("id")
        if not isinstance(ident, int):
            if frame.get("t") == "err":  # the firmware reports a failing main loop pass
                log.warning("tower firmware error: %s", frame.get("why"))
            return
        with self._lock:
            pending = self._pending.pop(ident, None)
        if pending is None:
            return  # fire-and-forget (ack) or timed out
        if pending.on_answer is not None:
            pending.on_answer(frame)
        elif pending.future is not None and not pending.future.done():
            if frame.get("t") == "ok":
                pending.future.set_result(frame)
            else:
                pending.future.set_exception(CommandFailed(pending.name, str(frame.get("why"))))
