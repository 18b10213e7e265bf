"""The dealer's draws, shared by every game: seeded (reproducible) or unpredictable."""

from __future__ import annotations

import random
import secrets
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # only a type: mypyc makes it a native 64-bit integer, plain Python an int
    from mypy_extensions import i64

_MASK64: Final = (1 << 64) - 1
# Dealer mode without a seed: outcomes nobody can predict from the draws seen so far (the
# record keeps each outcome, so a replay never draws again).
_UNPREDICTABLE: Final[random.Random] = secrets.SystemRandom()
# A dealer's seeds are below this: the compiled draw's fast path (`seeded_draw`).
SEED_LIMIT: Final = 2**62
# Compiled with mypyc (an extension module), the draw runs on native 64-bit integers; plain
# Python keeps its own ints, which are faster there than the halves below.
_NATIVE: Final = not __file__.endswith(".py")
_LOW32: Final = 0xFFFFFFFF
_LOW16: Final = 0xFFFF


def seeded_draw(seed: int, position: int, count: int) -> int:
    """A seeded dealer's draw among `count` outcomes at `position` (the game's step count):
    SplitMix64 of (seed, position), so a game resumed from its record deals exactly what the
    uninterrupted game would have, without seeding a generator per draw. Predictable by
    design: for tests and self-play only.

    >>> [seeded_draw(7, position, 10) for position in range(8)]
    [4, 5, 7, 5, 5, 3, 2, 2]
    >>> all(0 <= seeded_draw(seed, 3, 6) < 6 for seed in range(100))
    True
    """
    if _NATIVE and 0 <= seed < 1 << 62 and 0 <= position < 1 << 31 and 0 < count < 1 << 30:
        return _draw_halves(seed >> 32, seed & _LOW32, position + 1, count)
    return _draw_wide(seed, position, count)


def _draw_wide(seed: int, position: int, count: int) -> int:
    """The draw on Python ints (any seed, position and count)."""
    x = (seed * 0x9E3779B97F4A7C15 + (position + 1) * 0xD1B54A32D192ED03) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    x ^= x >> 31
    return (x * count) >> 64


def _draw_halves(seed_high: i64, seed_low: i64, step: i64, count: i64) -> int:
    """The same draw with each 64-bit number as its two 32-bit halves (high, low): no value
    here reaches 2**63, so native 64-bit integers never overflow and every result equals
    `_draw_wide`'s. For a seed below 2**62, a step (position + 1) up to 2**31, a count below
    2**30."""
    sh, sl = _times(seed_high, seed_low, 0x9E3779B9, 0x7F4A7C15)
    ph, pl = _times(0, step, 0xD1B54A32, 0xD192ED03)
    low = sl + pl
    h, lo = _xor_shift((sh + ph + (low >> 32)) & _LOW32, low & _LOW32, 30)
    h, lo = _times(h, lo, 0xBF58476D, 0x1CE4E5B9)
    h, lo = _xor_shift(h, lo, 27)
    h, lo = _times(h, lo, 0x94D049BB, 0x133111EB)
    h, lo = _xor_shift(h, lo, 31)
    return int((h * count + ((lo * count) >> 32)) >> 32)  # (x * count) >> 64


def _times(ah: i64, al: i64, bh: i64, bl: i64) -> tuple[i64, i64]:
    """a * b mod 2**64, as halves; the low halves are multiplied 16 bits at a time."""
    low = al * (bl & _LOW16)  # < 2**48
    mid = al * (bl >> 16)  # < 2**48
    total = low + ((mid & _LOW16) << 16)
    carry = (total >> 32) + (mid >> 16)  # al * bl == carry * 2**32 + total % 2**32
    return (carry + _times32(ah, bl) + _times32(al, bh)) & _LOW32, total & _LOW32


def _times32(a: i64, b: i64) -> i64:
    """a * b mod 2**32 for 32-bit a and b."""
    return (a * (b & _LOW16) + (((a * (b >> 16)) & _LOW16) << 16)) & _LOW32


def _xor_shift(high: i64, low: i64, shift: i64) -> tuple[i64, i64]:
    """x ^ (x >> shift) for 0 < shift < 32, as halves."""
    carried = (high << (32 - shift)) & _LOW32  # high < 2**32: below 2**37 before the mask
    return high ^ (high >> shift), low ^ ((low >> shift) | carried)


def fresh_seed() -> int:
    """A dealer seed nobody can predict (below 2**62: the compiled draw's fast path). A game's
    `clone()` deals from one, so a copy never deals the real game's future cards."""
    return _UNPREDICTABLE.randrange(SEED_LIMIT)


def dealer_draw(seed: int | None, position: int, count: int) -> int:
    """The dealer's uniform draw among `count` outcomes: `seeded_draw` with a seed, else one
    nobody can predict."""
    if seed is None:
        return _UNPREDICTABLE.randrange(count)
    return seeded_draw(seed, position, count)
