"""What the pieces of a serial tower link (`host.tower.frames`, `host.tower.restart_window`)
need from the link they serve: its ledger and state, sending a command, telling the listeners,
warning. `SerialTowerLink` provides it; a piece never opens or reads the port itself."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol

from host.tower.events import LinkState
from host.tower.ledger import Ledger
from host.tower.link import LinkMessage


class LinkLost(Exception):
    """The current session is over; the I/O thread reopens the port."""


class LinkCore(Protocol):
    ledger: Ledger
    _write_lock: threading.Lock

    @property
    def state(self) -> LinkState: ...

    @property
    def _session_boot(self) -> str: ...

    def _send(
        self, name: str, on_answer: Callable[[dict[str, Any]], None] | None, **fields: Any
    ) -> None: ...

    def _deliver(self, message: LinkMessage) -> None: ...

    def _set_state(self, state: LinkState, boot: str = "", detail: str = "") -> None: ...

    def _warn(self, kind: str, problem: str, params: dict[str, Any] | None = None) -> None: ...
