"""A burst of raw RGBC samples taken while a cube passes, and the choice of the best ones.

Preallocated: adding a sample never allocates, so the sampling path stays fast and safe.
"""

from array import array

from towerfw import const

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any

TICKS_MASK = const(0x3FFFFFFF)  # MicroPython's ticks_us wraps at 2**30
CAPACITY = 48  # 115 ms at 2.4 ms: far longer than a Grande or two merged cubes


class Burst:
    """Samples of one pulse. When full it keeps the newest ones (a stuck cube)."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self.t = array("l", [0] * capacity)
        self.rgbc = array("H", [0] * (4 * capacity))  # readings are 16-bit: stored unclamped
        self._seen = bytearray(capacity)  # pick(): 1 where a sample lies in the window
        self.sums = array("l", [0, 0, 0, 0])  # lit_sums(): r, g, b, c summed
        self.count = 0  # samples held (<= capacity)
        self.total = 0  # samples added since clear
        # the two largest clear counts added since clear and their slots (ties: the later one,
        # as best()'s sort has it); kept as samples arrive, so pick() needs no search after
        # the cube has left, when the event waits for it
        self.peak = 0
        self.second = -1
        self.i_peak = -1
        self.i_second = -1
        self._next = 0

    def clear(self) -> None:
        self.count = 0
        self.total = 0
        self.peak = 0
        self.second = -1
        self.i_peak = -1
        self.i_second = -1
        self._next = 0

    def add(self, t_us: int, sample: "Any") -> None:
        i = self._next
        self.t[i] = t_us
        j = 4 * i
        rgbc = self.rgbc
        # unrolled: a loop would allocate a range and its iterator on every sample
        rgbc[j] = sample[0]
        rgbc[j + 1] = sample[1]
        rgbc[j + 2] = sample[2]
        c = sample[3]
        rgbc[j + 3] = c
        if c >= self.peak:
            self.second = self.peak if self.i_peak >= 0 else -1
            self.i_second = self.i_peak
            self.peak = c
            self.i_peak = i
        elif c >= self.second:
            self.second = c
            self.i_second = i
        self._next = (i + 1) % self.capacity
        if self.count < self.capacity:
            self.count += 1
        self.total += 1

    def sample(self, i: int) -> tuple[int, int, int, int]:
        j = 4 * i
        r = self.rgbc
        return (r[j], r[j + 1], r[j + 2], r[j + 3])

    def max_clear(self) -> int:
        if self.total == self.count:
            return self.peak  # nothing overwritten: the running maximum is the held one
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

    def pick(
        self, n: int, t_from: int, t_to: int, ticks_diff: "Any", floor: float, share: float
    ) -> "Any":
        """(mean, lit): ``mean`` is ``best(n, t_from, t_to, ...)[0]`` (None if empty); ``lit``
        the mean (r, g, b, c) of every sample read in [t_from, t_to] whose clear count above
        ``floor`` is at least ``share`` of the brightest one's (more samples than ``best``
        takes: the colour's ratios get less shot noise), None if there is none.

        For n of 1 or 2 (the configured 2) no list, no sort, no tuple per sample, no call a
        sample (a cube the integer path settles, ``pieces.colour_in_steps``, never comes
        here)."""
        if not self.count:
            return None, None
        span = ticks_diff(t_to, t_from)
        times = self.t
        r = self.rgbc
        seen = self._seen
        # the two largest (clear, index): ties go to the later sample, as best()'s sort does
        c1 = c2 = i1 = i2 = -1
        found = 0
        for i in range(self.count):
            # ticks wrap at 2**30: a sample before t_from lands far above span (no call a sample)
            d = (times[i] - t_from) & TICKS_MASK
            if d > span:
                seen[i] = 0
                continue
            seen[i] = 1
            found += 1
            c = r[4 * i + 3]
            if c >= c1:
                c2 = c1
                i2 = i1
                c1 = c
                i1 = i
            elif c >= c2:
                c2 = c
                i2 = i
        if not found or n < 1 or n > 2:  # (rare) every sample counts, or another n
            mean, _ = self.best(n, t_from, t_to, ticks_diff)
        elif n == 1 or i2 < 0:
            j = 4 * i1
            mean = (float(r[j]), float(r[j + 1]), float(r[j + 2]), float(r[j + 3]))
        else:
            j = 4 * i1
            k = 4 * i2
            mean = (
                (r[j] + r[k]) / 2,
                (r[j + 1] + r[k + 1]) / 2,
                (r[j + 2] + r[k + 2]) / 2,
                (r[j + 3] + r[k + 3]) / 2,
            )
        used = self.lit_sums(c1 - floor, floor, share, True) if found else 0
        if not used:
            return mean, None
        s = self.sums
        return mean, (s[0] / used, s[1] / used, s[2] / used, s[3] / used)

    def lit_sums(self, top: float, floor: float, share: float, marked: bool) -> int:
        """How many samples are lit (their clear count above ``floor`` at least ``share`` of
        ``top``, the brightest one's; among those pick() marked in the window, or every one held
        if not ``marked``), with their r, g, b and clear counts summed into ``sums``: integers,
        so no float is made per sample. 0 if none."""
        if top <= 0:
            return 0
        # the smallest clear count that qualifies, as an int: no float per sample
        least = floor + share * top
        need = int(least)
        if need < least:
            need += 1
        r = self.rgbc
        seen = self._seen
        acc0 = acc1 = acc2 = acc3 = used = 0
        for i in range(self.count):
            j = 4 * i
            if r[j + 3] >= need and (not marked or seen[i]):
                acc0 += r[j]
                acc1 += r[j + 1]
                acc2 += r[j + 2]
                acc3 += r[j + 3]
                used += 1
        sums = self.sums
        sums[0] = acc0
        sums[1] = acc1
        sums[2] = acc2
        sums[3] = acc3
        return used

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
