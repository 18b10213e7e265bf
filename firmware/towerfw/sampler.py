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

    def mean_lit(
        self, t_from: int, t_to: int, ticks_diff: "Any", floor: float, share: float
    ) -> "Any":
        """Mean (r, g, b, c) of every sample read in [t_from, t_to] whose clear count above
        ``floor`` is at least ``share`` of the brightest one's; None if there is none. More
        samples than ``best`` takes: the colour's ratios get less shot noise."""
        top = 0.0
        for i in range(self.count):
            t = self.t[i]
            if ticks_diff(t, t_from) >= 0 and ticks_diff(t_to, t) >= 0:
                top = max(top, self.rgbc[4 * i + 3] - floor)
        if top <= 0:
            return None
        acc0 = acc1 = acc2 = acc3 = 0
        used = 0
        r = self.rgbc
        for i in range(self.count):
            t = self.t[i]
            j = 4 * i
            if (
                ticks_diff(t, t_from) < 0
                or ticks_diff(t_to, t) < 0
                or r[j + 3] - floor < share * top
            ):
                continue
            acc0 += r[j]
            acc1 += r[j + 1]
            acc2 += r[j + 2]
            acc3 += r[j + 3]
            used += 1
        return (acc0 / used, acc1 / used, acc2 / used, acc3 / used)

    def dips(self, t_from: int, t_to: int, ticks_diff: "Any", floor: float, depth: float) -> int:
        """Dark seams: runs of samples (read in [t_from, t_to]) whose clear count above
        ``floor`` falls below ``depth`` x the brightest before them and then recovers by the
        same factor. One cube reads flat between its edges; touching cubes dip where their
        rounded edges meet. Allocates nothing."""
        found = 0
        peak = 0.0
        low = -1.0  # the darkest value of the dip being followed, -1 outside one
        start = self._next if self.count == self.capacity else 0
        for k in range(self.count):
            i = (start + k) % self.capacity
            t = self.t[i]
            if ticks_diff(t, t_from) < 0 or ticks_diff(t_to, t) < 0:
                continue
            v = self.rgbc[4 * i + 3] - floor
            if low >= 0:
                if v < low:
                    low = v
                elif low < depth * v:
                    found += 1
                    low = -1.0
                    peak = v
            elif v < depth * peak:
                low = v
            elif v > peak:
                peak = v
        return found
