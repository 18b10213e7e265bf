"""Final places from scores, for any game."""

from __future__ import annotations

from collections.abc import Mapping


def standings(scores: Mapping[str, int]) -> dict[str, int]:
    """Final places (1-based); tied players share a place.

    >>> standings({"purple": 80, "green": 75, "blue": 80, "orange": 60})
    {'purple': 1, 'green': 3, 'blue': 1, 'orange': 4}
    """
    ordered = sorted(scores.values(), reverse=True)
    return {player: ordered.index(score) + 1 for player, score in scores.items()}
