"""The seeded dealer's draws are pinned: every dealer game with a seed, and so every recorded
self-play game and replay, depends on them being the same numbers forever (plain and compiled)."""

from __future__ import annotations

import hashlib

import pytest

from engine.core import chance
from engine.core.chance import seeded_draw

# (seed, position, count) -> the draw: small and large seeds (past 32 and 64 bits, negative),
# late positions, counts up to and past 2**30 and 2**64.
PINNED = [
    ((0, 0, 2), 1),
    ((7, 0, 10), 4),
    ((7, 7, 10), 2),
    ((1, 41, 13), 10),
    ((123456789, 250, 6), 1),
    ((2**32 - 1, 2**32 - 2, 97), 69),
    ((2**32, 3, 5), 2),
    ((2**62 - 1, 9, 1000), 596),
    ((2**62, 9, 1000), 625),
    ((2**64 + 5, 3, 6), 1),
    ((-1, 0, 10), 8),
    ((-987654321, 12, 4), 1),
    ((10**30, 2, 52), 36),
    ((5, 2**40, 7), 3),
    ((5, 3, 2**30 - 1), 217777184),
    ((5, 3, 2**30), 217777184),
    ((5, 3, 2**64), 3741383538725676610),
    ((99, 0, 1), 0),
]
# SHA-256 of the draws over a grid of seeds, positions and counts (each draw as 8 bytes).
GRID_DIGEST = "e9c3e0ed2c91af4cc643ac8058de7ec46992541a287bbec984a4d82daa18fb35"


@pytest.mark.parametrize(("args", "expected"), PINNED)
def test_seeded_draws_are_pinned(args: tuple[int, int, int], expected: int) -> None:
    assert seeded_draw(*args) == expected


def test_a_grid_of_seeded_draws_is_pinned() -> None:
    digest = hashlib.sha256()
    for seed in range(0, 2000, 7):
        for position in range(0, 600, 13):
            for count in (1, 2, 3, 5, 6, 13, 52):
                digest.update(seeded_draw(seed, position, count).to_bytes(8, "little"))
    assert digest.hexdigest() == GRID_DIGEST


def test_the_native_draw_equals_the_wide_one() -> None:
    """The compiled engine draws on 64-bit halves (chance._draw_halves); plain Python on its
    ints. Both give the same numbers wherever the halves are used (run plain, this checks the
    arithmetic; run compiled, the native integers)."""
    seeds = [0, 1, 7, 2**31, 2**32 - 1, 2**32, 2**40 + 3, 2**62 - 1]
    seeds += [k * 7919 for k in range(200)]
    for seed in seeds:
        for position in [0, 1, 5, 99, 1000, 2**31 - 1]:
            for count in [1, 2, 6, 13, 52, 1000, 2**30 - 1]:
                wide = chance._draw_wide(seed, position, count)
                assert (
                    chance._draw_halves(seed >> 32, seed & 0xFFFFFFFF, position + 1, count) == wide
                )
