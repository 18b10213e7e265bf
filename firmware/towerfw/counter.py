"""Per-colour counts since the last reset, and the ring of unacknowledged events."""

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


class EventRing:
    """The last ``size`` unacknowledged events as (seq, encoded frame), oldest first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: list[Any] = []
        self.dropped = 0  # overflowed before being acknowledged

    def push(self, seq: int, frame: bytes) -> None:
        self._items.append((seq, frame))
        if len(self._items) > self.size:
            self._items.pop(0)
            self.dropped += 1

    def ack(self, seq: int) -> None:
        """Forget every event with a sequence number <= ``seq``."""
        items = self._items
        i = 0
        while i < len(items) and items[i][0] <= seq:
            i += 1
        if i:
            self._items = items[i:]

    def after(self, seq: int) -> list[bytes]:
        """Frames of buffered events with a sequence number > ``seq``, in order."""
        out: list[bytes] = []
        for s, frame in self._items:
            if s > seq:
                out.append(frame)
        return out

    def __len__(self) -> int:
        return len(self._items)

    def oldest(self) -> int:
        return self._items[0][0] if self._items else 0
