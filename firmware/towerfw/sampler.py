"""A burst of raw RGBC samples taken while a cube passes, and the choice of the best ones.

Preallocated: adding a sample never allocates, so the sampling path stays fast and safe.
"""

from array import array

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any

CAPACITY = 48  # 115 ms at 2.4 ms: far longer than a Grande or two merged cubes


class Burst:
    """Samples of one pulse. When full it keeps the newest ones (a stuck cube)."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self.t = array("l", [0] * capacity)
        self.rgbc = array("H", [0] * (4 * capacity))
        self.count = 0  # samples held (<= capacity)
        self.total = 0  # samples added since clear
        self._next = 0

    def clear(self) -> None:
        self.count = 0
        self.total = 0
        self._next = 0

    def add(self, t_us: int, sample: "Any") -> None:
        i = self._next
        self.t[i] = t_us
        j = 4 * i
        rgbc = self.rgbc
        # unrolled: a loop would allocate a range and its iterator on every sample
        rgbc[j] = min(sample[0], 65535)
        rgbc[j + 1] = min(sample[1], 65535)
        rgbc[j + 2] = min(sample[2], 65535)
        rgbc[j + 3] = min(sample[3], 65535)
        self._next = (i + 1) % self.capacity
        if self.count < self.capacity:
            self.count += 1
        self.total += 1

    def sample(self, i: int) -> tuple[int, int, int, int]:
        j = 4 * i
        r = self.rgbc
        return (r[j], r[j + 1], r[j + 2], r[j + 3])

    def max_clear(self) -> int:
        best = 0
        for i in range(self.count):
            c = self.rgbc[4 * i + 3]
            if c > best:
                best = c
        return best

    def best(
        self, n: int, t_from: int, t_to: int, ticks_diff: "Any", fallback: bool = True
    ) -> "Any":
        """Mean (r, g, b, c) of the ``n`` samples with the largest clear count.

        Only samples whose integration ended in [t_from, t_to] count (the cube was in view);
        if there are none, every sample counts (unless not ``fallback``). Returns (mean, used) or
        (None, 0) if empty.
        """
        picked: list[Any] = []
        for window in (True, False) if fallback else (True,):
            for i in range(self.count):
                t = self.t[i]
                if window and (ticks_diff(t, t_from) < 0 or ticks_diff(t_to, t) < 0):
                    continue
                picked.append((self.rgbc[4 * i + 3], i))
            if picked:
                break
        if not picked:
            return None, 0
        picked.sort()
        chosen = picked[-n:] if n > 0 else picked
        acc = [0, 0, 0, 0]
        for _, i in chosen:
            s = self.sample(i)
            for k in range(4):
                acc[k] += s[k]
        used = len(chosen)
        return (acc[0] / used, acc[1] / used, acc[2] / used, acc[3] / used), used
