"""Scoring one area (a region or the castillo) by El Grande's majority rules.

Only players with at least one caballero score. Players are ranked by their caballeros (Grandes
never count). A lone player takes the current place and the next player moves on one place; tied
players all take the *next lower* place, and the players after them move down one place as well,
however many were tied. The King bonus and the Grande bonus (+2 each) go only to a sole first place.

The Navarra example of the rulebook (5/3/1): three players tied on 2 score 3 each; the player with
1 scores 1 for third place.

>>> result = score_area("Navarra", {"purple": 2, "blue": 2, "green": 2, "orange": 1}, (5, 3, 1))
>>> result.points
{'purple': 3, 'blue': 3, 'green': 3, 'orange': 1}
>>> result.ranks
{'purple': 2, 'blue': 2, 'green': 2, 'orange': 3}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

KING_BONUS = 2
GRANDE_BONUS = 2


@dataclass(slots=True)
class AreaScore:
    """The breakdown of one area's scoring.

    `ranks` maps each scoring candidate (≥ 1 caballero) to the place whose value it received
    (1-based; a tied group gets the next lower place); `points` holds the place points,
    `bonus` the King and Grande bonuses, and `notes` says in words why a bonus was or was not won.
    """

    area: str
    counts: Mapping[str, int]
    values: tuple[int, ...]
    ranks: Mapping[str, int]
    points: Mapping[str, int]
    bonus: Mapping[str, int]
    tied: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def total(self, player: str) -> int:
        return self.points.get(player, 0) + self.bonus.get(player, 0)

    def to_json(self) -> dict[str, object]:
        return {
            "area": self.area,
            "counts": dict(self.counts),
            "values": list(self.values),
            "ranks": dict(self.ranks),
            "points": dict(self.points),
            "bonus": dict(self.bonus),
            "tied": list(self.tied),
            "notes": list(self.notes),
        }


def score_area(
    area: str,
    counts: Mapping[str, int],
    values: Sequence[int],
    *,
    places: int | None = None,
    king_here: bool = False,
    grandes_here: Iterable[str] = (),
    first_place_only: bool = False,
) -> AreaScore:
    """Score one area.

    `counts`: caballeros per player in the area (Grandes excluded). `values`: points for 1st, 2nd,
    3rd place (a scoring tile's values if one lies here). `places`: how many places score (2 with
    2–3 players). `king_here`: the King bonus applies. `grandes_here`: owners of the Grandes in
    the area. `first_place_only`: only a sole first place scores (a tie for first scores nothing).
    """
    limit = len(values) if places is None else min(places, len(values))
    if first_place_only:
        limit = min(limit, 1)
    candidates = sorted(
        ((player, n) for player, n in counts.items() if n > 0), key=lambda item: -item[1]
    )
    ranks: dict[str, int] = {}
    points: dict[str, int] = {}
    tied: list[str] = []
    place = 0
    i = 0
    while i < len(candidates):
        j = i
        while j < len(candidates) and candidates[j][1] == candidates[i][1]:
            j += 1
        group = [player for player, _ in candidates[i:j]]
        awarded = place if len(group) == 1 else place + 1
        if len(group) > 1:
            tied.extend(group)
        for player in group:
            ranks[player] = awarded + 1
            points[player] = values[awarded] if awarded < limit else 0
        place += 1 if len(group) == 1 else 2
        i = j
    bonus: dict[str, int] = {}
    notes: list[str] = []
    sole_first = candidates[0][0] if candidates and ranks[candidates[0][0]] == 1 else None
    grande_owners = list(grandes_here)
    if king_here:
        if sole_first is not None:
            bonus[sole_first] = bonus.get(sole_first, 0) + KING_BONUS
            notes.append(f"{sole_first} wins the King bonus (+{KING_BONUS}) as sole first")
        elif candidates:
            notes.append("no King bonus: first place is tied")
    for owner in grande_owners:
        if owner == sole_first:
            bonus[owner] = bonus.get(owner, 0) + GRANDE_BONUS
            notes.append(f"{owner} wins the Grande bonus (+{GRANDE_BONUS}) as sole first")
        elif counts.get(owner, 0) > 0:
            reason = "first place is tied" if ranks.get(owner) == 2 and owner in tied else ""
            reason = reason or "not sole first"
            notes.append(f"{owner} loses the Grande bonus: {reason}")
    return AreaScore(
        area=area,
        counts={p: n for p, n in counts.items() if n > 0},
        values=tuple(values),
        ranks=ranks,
        points=points,
        bonus=bonus,
        tied=tuple(tied),
        notes=tuple(notes),
    )


def totals(results: Iterable[AreaScore]) -> dict[str, int]:
    """Points per player over several area scorings (place points plus bonuses)."""
    out: dict[str, int] = {}
    for result in results:
        for player in set(result.points) | set(result.bonus):
            out[player] = out.get(player, 0) + result.total(player)
    return out


def standings(scores: Mapping[str, int]) -> dict[str, int]:
    """Final places (1-based); tied players share a place.

    >>> standings({"purple": 80, "green": 75, "blue": 80, "orange": 60})
    {'purple': 1, 'green': 3, 'blue': 1, 'orange': 4}
    """
    ordered = sorted(scores.values(), reverse=True)
    return {player: ordered.index(score) + 1 for player, score in scores.items()}
