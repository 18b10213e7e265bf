"""Scores, bonuses and the winners with the rulebook's tie-breaks.

>>> winners([10, 10, 4], [5, 3, 9], [4, 4, 1])
[0]
>>> winners([10, 10], [5, 5], [4, 4])
[0, 1]
"""

from __future__ import annotations

from typing import Final

from engine.kingdomino.kingdom import Kingdom

MIDDLE_KINGDOM_BONUS: Final = 10
HARMONY_BONUS: Final = 5


class Breakdown:
    """One kingdom's score: its territories, bonuses, total, and the tie-break figures."""

    def __init__(
        self, kingdom: Kingdom, middle_kingdom: bool, harmony: bool, discarded: int
    ) -> None:
        self.territories = kingdom.territories()
        self.points = sum(squares * crowns for _, squares, crowns in self.territories)
        self.middle_kingdom = MIDDLE_KINGDOM_BONUS if middle_kingdom and kingdom.centred() else 0
        self.harmony = HARMONY_BONUS if harmony and discarded == 0 else 0
        self.total = self.points + self.middle_kingdom + self.harmony
        self.largest = max((squares for _, squares, _ in self.territories), default=0)
        self.crowns = sum(crowns for _, _, crowns in self.territories)


def winners(totals: list[int], largest: list[int], crowns: list[int]) -> list[int]:
    """The seats that win: the highest total, then the largest territory, then the most
    crowns; players still tied share the victory."""
    best = list(range(len(totals)))
    for figures in (totals, largest, crowns):
        top = max(figures[seat] for seat in best)
        best = [seat for seat in best if figures[seat] == top]
    return best


def deciding_tie_break(totals: list[int], largest: list[int], crowns: list[int]) -> str:
    """What decided the winner: "score", "largest_territory", "crowns" or "shared"."""
    best = list(range(len(totals)))
    for name, figures in (("score", totals), ("largest_territory", largest), ("crowns", crowns)):
        top = max(figures[seat] for seat in best)
        best = [seat for seat in best if figures[seat] == top]
        if len(best) == 1:
            return name
    return "shared"
