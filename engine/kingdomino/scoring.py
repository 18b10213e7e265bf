"""Scores, bonuses and the winners with the rulebook's tie-breaks; a game state's breakdown
and totals.

>>> winners([10, 10, 4], [5, 3, 9], [4, 4, 1])
[0]
>>> winners([10, 10], [5, 5], [4, 4])
[0, 1]
"""

from __future__ import annotations

from typing import Final

from engine.kingdomino.kingdom import Kingdom
from engine.kingdomino.state import State
from engine.kingdomino.steps import OVER

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


def breakdown(state: State, seat: int) -> Breakdown:
    """The seat's score in the game in progress (or just finished)."""
    return Breakdown(
        state.kingdoms[seat],
        state.options.middle_kingdom,
        state.options.harmony,
        state.discarded[seat],
    )


def totals(state: State) -> list[int]:
    """Each seat's total: the finished games of a Dynasty plus the game in progress."""
    out = [sum(game[seat] for game in state.past) for seat in range(state.setup.players)]
    if state.step != OVER:
        out = [t + breakdown(state, s).total for s, t in enumerate(out)]
    return out


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
