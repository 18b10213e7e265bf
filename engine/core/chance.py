"""The dealer's draws, shared by every game: seeded (reproducible) or unpredictable."""

from __future__ import annotations

import random
import secrets
from typing import Final

_MASK64: Final = (1 << 64) - 1
# Dealer mode without a seed: outcomes nobody can predict from the draws seen so far (the
# record keeps each outcome, so a replay never draws again).
_UNPREDICTABLE: Final[random.Random] = secrets.SystemRandom()


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
    x = (seed * 0x9E3779B97F4A7C15 + (position + 1) * 0xD1B54A32D192ED03) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    x ^= x >> 31
    return (x * count) >> 64


def dealer_draw(seed: int | None, position: int, count: int) -> int:
    """The dealer's uniform draw among `count` outcomes: `seeded_draw` with a seed, else one
    nobody can predict."""
    if seed is None:
        return _UNPREDICTABLE.randrange(count)
    return seeded_draw(seed, position, count)
