"""The host's ledger of tower counts: the source of truth across device resets.

The device counts per boot and forgets everything on power loss. The ledger keeps
`carried` (the totals of earlier boots since the last counts reset) and `device` (this boot's
latest count vector), so `totals = carried + device`: nothing lost, nothing doubled.

Every change is written to an `EventSink` and is durable when `append` returns; the link acks
an event to the device only after that. The table app can plug its own store (e.g. SQLite) in
by implementing `EventSink`.
"""

from __future__ import annotations

import json
import os
import stat
import threading
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from host.paths import private_dir
from host.tower.events import Counts, parse_counts


def add_counts(a: Counts, b: Counts) -> dict[str, int]:
    total = dict(a)
    for key, value in b.items():
        total[key] = total.get(key, 0) + value
    return total


def _nonzero(counts: Counts) -> dict[str, int]:
    return {key: value for key, value in counts.items() if value}


@dataclass(frozen=True)
class LedgerEntry:
    """One durable ledger change; it holds the full ledger state after the change.

    kind: `event` (an accepted device event, `frame` is the `ev` frame), `boot` (a new boot id
    was adopted; a known old boot's counts were carried over), `snapshot` (the device's vector
    was adopted from a `snap` answer because events were lost from its ring), `skipped` (an
    event frame that broke the protocol: `frame` is `{"seq", "why"}`, the counts unchanged).
    """

    kind: str
    boot: str
    seq: int
    carried: dict[str, int]
    device: dict[str, int]
    frame: dict[str, Any] | None = None
    at: float = field(default_factory=time.time)

    @property
    def totals(self) -> dict[str, int]:
        return add_counts(self.carried, self.device)

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, line: str) -> LedgerEntry:
        raw = json.loads(line)
        if not isinstance(raw, dict):
            raise ValueError("ledger line is not an object")
        frame = raw.get("frame")
        return cls(
            kind=str(raw["kind"]),
            boot=str(raw["boot"]),
            seq=int(raw["seq"]),
            carried=parse_counts(raw.get("carried")),
            device=parse_counts(raw.get("device")),
            frame=frame if isinstance(frame, dict) else None,
            at=float(raw.get("at", 0.0)),
        )


class EventSink(Protocol):
    """Durable storage for ledger entries."""

    def append(self, entry: LedgerEntry) -> None:
        """Store `entry`; it must be durable (survive power loss) when this returns."""

    def last(self) -> LedgerEntry | None:
        """The latest stored entry, to restore the ledger at start-up (None when empty)."""


class MemorySink:
    """Keeps entries in memory. NOT durable: for tests and throw-away sessions only."""

    def __init__(self) -> None:
        self.entries: list[LedgerEntry] = []

    def append(self, entry: LedgerEntry) -> None:
        self.entries.append(entry)

    def last(self) -> LedgerEntry | None:
        return self.entries[-1] if self.entries else None


class LedgerFileError(ValueError):
    """The ledger's path is not a file the ledger can keep (the message names it and why)."""


LEDGER_MODE = 0o600  # the ledger holds the game's castillo counts: the owner's only


class JsonLinesSink:
    """Appends one JSON line per entry and fsyncs it before returning. The ledger is a regular
    file, 0600, in a private (0700) folder (host.paths.private_dir); anything else at its path
    (a FIFO, a device, a folder) is refused with LedgerFileError before anything is written."""

    def __init__(self, path: Path) -> None:
        self.path = path
        private_dir(path.parent)
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
        try:
            if path.exists() and not path.is_file():
                raise LedgerFileError(f"the tower ledger {path} is not a regular file")
            fd = os.open(path, flags, LEDGER_MODE)  # never blocks: a FIFO is not waited on
        except OSError as cannot:
            raise LedgerFileError(
                f"cannot open the tower ledger {path}: {cannot.strerror}"
            ) from None
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            raise LedgerFileError(f"the tower ledger {path} is not a regular file")
        if info.st_uid == os.geteuid() and stat.S_IMODE(info.st_mode) != LEDGER_MODE:
            os.fchmod(fd, LEDGER_MODE)  # a ledger an older version made 0644
        os.set_blocking(fd, True)
        self._file = os.fdopen(fd, "a", encoding="utf-8")

    def append(self, entry: LedgerEntry) -> None:
        self._file.write(entry.to_json() + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def last(self) -> LedgerEntry | None:
        if not self.path.exists():
            return None
        latest: LedgerEntry | None = None
        with self.path.open(encoding="utf-8") as lines:
            for line in lines:
                try:
                    latest = LedgerEntry.from_json(line)
                except (ValueError, KeyError, TypeError):
                    continue  # a line torn by a crash mid-write was never acked: skip it
        return latest

    def close(self) -> None:
        self._file.close()


@dataclass(frozen=True)
class Accepted:
    """An event the ledger accepted (durably): the entry and the totals before it."""

    entry: LedgerEntry
    totals_before: dict[str, int]


class Ledger:
    """Reconciles device counts across boots; thread-safe."""

    def __init__(self, sink: EventSink) -> None:
        self._sink = sink
        self._lock = threading.Lock()
        last = sink.last()
        self._boot = last.boot if last else ""
        self._seq = last.seq if last else 0
        self._carried: dict[str, int] = dict(last.carried) if last else {}
        self._device: dict[str, int] = dict(last.device) if last else {}

    @property
    def boot(self) -> str:
        return self._boot

    @property
    def seq(self) -> int:
        """The last event sequence number accepted for the current boot."""
        return self._seq

    def totals(self) -> dict[str, int]:
        with self._lock:
            return add_counts(self._carried, self._device)

    def _commit(
        self,
        kind: str,
        boot: str,
        seq: int,
        carried: dict[str, int],
        device: dict[str, int],
        frame: dict[str, Any] | None = None,
    ) -> LedgerEntry:
        """Write the new state to the sink, then adopt it: if the sink raises, the ledger is
        unchanged (so the event is neither acked nor skipped, and a replay brings it back)."""
        entry = LedgerEntry(kind, boot, seq, dict(carried), dict(device), frame)
        self._sink.append(entry)
        self._boot, self._seq, self._carried, self._device = boot, seq, carried, device
        return entry

    def adopt_boot(self, boot: str, device_seq: int) -> bool:
        """Called with every HELLO. Returns True when this is a device reset (a known boot was
        replaced): the old boot's counts are carried over. A same boot id whose sequence went
        backwards is treated as a reset too."""
        with self._lock:
            if boot == self._boot and device_seq >= self._seq:
                return False
            was_known = self._boot != ""
            carried = add_counts(self._carried, self._device) if was_known else {}
            self._commit("boot", boot, 0, carried, {})
            return was_known

    def accept(self, boot: str, frame: Mapping[str, Any]) -> Accepted | None:
        """Accept an `ev` frame durably, or return None for a duplicate / foreign-boot frame."""
        seq = frame.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool):
            return None
        with self._lock:
            if boot != self._boot or seq <= self._seq:
                return None
            before = add_counts(self._carried, self._device)
            # a reset empties the castillo: the totals restart with the device
            carried = {} if frame.get("k") == "reset" else self._carried
            device = parse_counts(frame.get("n"))
            entry = self._commit("event", boot, seq, carried, device, dict(frame))
            return Accepted(entry=entry, totals_before=before)

    def skip(self, boot: str, seq: int, why: str) -> LedgerEntry | None:
        """Pass over the next event, `seq`, whose frame broke the protocol: its sequence number
        is used up durably (so it is acked and never fetched again), the counts stay as they
        are (the next event's full vector carries them). None if it is not the next one."""
        with self._lock:
            if boot != self._boot or seq != self._seq + 1:
                return None
            skipped = {"seq": seq, "why": why}
            return self._commit("skipped", boot, seq, self._carried, self._device, skipped)

    def adopt_snapshot(self, boot: str, seq: int, counts: Counts) -> bool:
        """Adopt a `snap` answer when it is at least as new as what the ledger holds and differs
        (events lost from the device ring). Returns True when adopted."""
        with self._lock:
            if boot != self._boot or seq < self._seq:
                return False
            fresh = parse_counts(dict(counts))
            if seq == self._seq and _nonzero(fresh) == _nonzero(self._device):
                return False
            # a count that went down means a lost `reset` event emptied the castillo
            went_down = any(fresh.get(key, 0) < value for key, value in self._device.items())
            carried = {} if went_down else self._carried
            self._commit("snapshot", boot, seq, carried, fresh)
            return True
