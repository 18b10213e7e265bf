"""Per-colour counts since the last reset, and the ring of unacknowledged events."""

import json

from towerfw import codec

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any

UNCERTAIN = "uncertain"


class Counts:
    """The count vector: one key per palette colour and ``uncertain``, plus ``grande:<c>``."""

    def __init__(self, colours: list[str]) -> None:
        self.colours = colours
        self.n: dict[str, int] = {}
        self.reset()
        # a drop event's frame joined from byte pieces: json.dumps took ~0.7 ms on the Pico (and
        # the str it returns is checked against every interned string), one bytes % template
        # ~0.25 ms (it copies the template byte by byte); the pieces are the literal text, the
        # colour names and the numbers, and a count is formatted again only when it changed.
        # None if a name would need escaping (drops then go through codec.encode).
        self.keys = list(colours)
        self.keys.append(UNCERTAIN)
        parts: Any = [b'{"t":"ev","seq":', b"", b',"k":"drop","ms":', b"", b',"n":{']
        for k in self.keys:
            if json.dumps(k) != '"' + k + '"':
                parts = None
                break
            parts[-1] += b'"' + k.encode() + b'":'
            parts.append(b"")  # the count
            parts.append(b",")
        if parts is not None:
            parts[-1] = b'},"pulse_us":'
            parts.extend((b"", b',"c":"', b"", b'","d":', b"", b"}"))
        self.parts = parts
        self._shown = [-1] * len(self.keys)  # the counts the pieces hold now
        # the colour names as bytes (no new bytes object per drop)
        self.names: dict[str, bytes] = {}
        for k in self.keys:
            self.names[k] = k.encode()

    def drop_frame(self, seq: int, ms: int, colour: str, pulse: int, d: float) -> "Any":
        """The frame of a drop event (the same JSON as codec.encode gives, up to key order;
        ``d`` to two decimals), or None when the pieces do not fit (a Grande's count)."""
        keys = self.keys
        n = self.n
        parts = self.parts
        if parts is None or len(n) != len(keys):
            return None
        parts[1] = b"%d" % seq
        parts[3] = b"%d" % ms
        shown = self._shown
        i = 0
        for k in keys:
            v = n[k]
            if v != shown[i]:
                shown[i] = v
                parts[5 + 2 * i] = b"%d" % v
            i += 1
        j = 5 + 2 * i
        parts[j] = b"%d" % pulse
        parts[j + 2] = self.names.get(colour) or colour.encode()
        hundredths = int(d * 100 + 0.5)
        parts[j + 4] = b"%d.%02d" % (hundredths // 100, hundredths % 100)
        return codec.frame(b"".join(parts))

    def reset(self) -> None:
        n: dict[str, int] = {}
        for c in self.colours:
            n[c] = 0
        n[UNCERTAIN] = 0
        self.n = n

    def add(self, key: str, k: int = 1) -> None:
        self.n[key] = self.n.get(key, 0) + k

    def vector(self) -> dict[str, int]:
        return dict(self.n)

    def total(self) -> int:
        t = 0
        for k in self.n:
            t += self.n[k]
        return t


class FrameQueue:
    """Fixed-capacity FIFO of frames. Preallocated: it never grows, so it never fragments the
    heap; when full, the oldest frame goes (events stay replayable from the ring)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._slots: list[Any] = [None] * size
        self._head = 0
        self.count = 0  # frames held (len() of it is a Python call on MicroPython)
        self.dropped = 0

    def push(self, frame: bytes) -> None:
        if self.count == self.size:
            self._slots[self._head] = None
            self._head = (self._head + 1) % self.size
            self.count -= 1
            self.dropped += 1
        self._slots[(self._head + self.count) % self.size] = frame
        self.count += 1

    def pop(self) -> "Any":
        """The oldest frame, or None when empty."""
        if not self.count:
            return None
        frame = self._slots[self._head]
        self._slots[self._head] = None
        self._head = (self._head + 1) % self.size
        self.count -= 1
        return frame

    def __len__(self) -> int:
        return self.count


class EventRing:
    """The last ``size`` unacknowledged events as (seq, encoded frame), oldest first.

    Preallocated slots, like FrameQueue: a ring full of unacknowledged events (the host is
    away) must not fragment a 128k heap."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._seqs = [0] * size
        self._frames: list[Any] = [None] * size
        self._head = 0
        self._count = 0
        self.dropped = 0  # overflowed before being acknowledged

    def push(self, seq: int, frame: bytes) -> None:
        if self._count == self.size:
            self._frames[self._head] = None
            self._head = (self._head + 1) % self.size
            self._count -= 1
            self.dropped += 1
        i = (self._head + self._count) % self.size
        self._seqs[i] = seq
        self._frames[i] = frame
        self._count += 1

    def ack(self, seq: int) -> None:
        """Forget every event with a sequence number <= ``seq``."""
        while self._count and self._seqs[self._head] <= seq:
            self._frames[self._head] = None
            self._head = (self._head + 1) % self.size
            self._count -= 1

    def after(self, seq: int) -> list[bytes]:
        """Frames of buffered events with a sequence number > ``seq``, in order."""
        out: list[bytes] = []
        for k in range(self._count):
            i = (self._head + k) % self.size
            if self._seqs[i] > seq:
                out.append(self._frames[i])
        return out

    def __len__(self) -> int:
        return self._count

    def oldest(self) -> int:
        return self._seqs[self._head] if self._count else 0
