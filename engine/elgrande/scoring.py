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

import operator
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

KING_BONUS: Final = 2
GRANDE_BONUS: Final = 2


class AreaScore:
    """The breakdown of one area's scoring.

    `ranks` maps each scoring candidate (≥ 1 caballero) to the place whose value it received
    (1-based; a tied group gets the next lower place); `points` holds the place points,
    `bonus` the King and Grande bonuses, and `notes` says in words why a bonus was or was not won.

    A plain class with an explicit __init__ (made at every scoring: compiled with mypyc, a
    dataclass's generated __init__ runs as interpreted Python); equality and repr are written
    out as a dataclass's would be.
    """

    area: str
    counts: dict[str, int]
    values: tuple[int, ...]
    ranks: dict[str, int]
    points: dict[str, int]
    bonus: dict[str, int]
    tied: tuple[str, ...]
    king_here: bool
    grandes_here: tuple[str, ...]
    token: str  # the area's ASCII token ("Aragon"); `area` is its printed name

    def __init__(
        self,
        area: str,
        counts: dict[str, int],
        values: tuple[int, ...],
        ranks: dict[str, int],
        points: dict[str, int],
        bonus: dict[str, int],
        tied: tuple[str, ...] = (),
        king_here: bool = False,
        grandes_here: tuple[str, ...] = (),
        token: str = "",
    ) -> None:
        self.area = area
        self.counts = counts
        self.values = values
        self.ranks = ranks
        self.points = points
        self.bonus = bonus
        self.tied = tied
        self.king_here = king_here
        self.grandes_here = grandes_here
        self.token = token

    def _fields(self) -> tuple[Any, ...]:
        return (
            self.area,
            self.counts,
            self.values,
            self.ranks,
            self.points,
            self.bonus,
            self.tied,
            self.king_here,
            self.grandes_here,
            self.token,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AreaScore) or other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}(area={self.area!r}, counts={self.counts!r}, "
            f"values={self.values!r}, ranks={self.ranks!r}, points={self.points!r}, "
            f"bonus={self.bonus!r}, tied={self.tied!r}, king_here={self.king_here!r}, "
            f"grandes_here={self.grandes_here!r}, token={self.token!r})"
        )

    def total(self, player: str) -> int:
        return self.points.get(player, 0) + self.bonus.get(player, 0)

    @property
    def sole_first(self) -> str | None:
        firsts = [p for p, rank in self.ranks.items() if rank == 1]
        return firsts[0] if firsts else None

    @property
    def reasons(self) -> tuple[tuple[str, dict[str, str | int]], ...]:
        """Why each bonus was won or lost, as translation keys (`note.*`) and their parameters
        (made on demand: scoring is a hot path)."""
        reasons: list[tuple[str, dict[str, str | int]]] = []
        first = self.sole_first
        if self.king_here:
            if first is not None:
                reasons.append(("note.king_win", {"colour": first, "n": KING_BONUS}))
            elif self.counts:
                reasons.append(("note.king_tied", {}))
        for owner in self.grandes_here:
            if owner == first:
                reasons.append(("note.grande_win", {"colour": owner, "n": GRANDE_BONUS}))
            elif not self.counts.get(owner):
                reasons.append(("note.grande_none", {"colour": owner}))
            elif owner in self.tied and self.ranks.get(owner) == 2:
                reasons.append(("note.grande_tied", {"colour": owner}))
            else:
                reasons.append(("note.grande_notfirst", {"colour": owner}))
        return tuple(reasons)

    @property
    def notes(self) -> tuple[str, ...]:
        """The reasons in English words (the CLI's and the record's form)."""
        return tuple(note_text(key, params) for key, params in self.reasons)

    def __deepcopy__(self, memo: dict[int, Any]) -> AreaScore:
        # Explicit, so that copy.deepcopy works on the compiled engine too.
        return AreaScore(
            self.area,
            dict(self.counts),
            self.values,
            dict(self.ranks),
            dict(self.points),
            dict(self.bonus),
            self.tied,
            self.king_here,
            self.grandes_here,
            self.token,
        )

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
            "token": self.token or self.area,
            "why": [{"key": key, "params": params} for key, params in self.reasons],
        }


# The English text of each reason key (the app translates the keys: its i18n tables `note.*`).
NOTE_TEXTS = {
    "note.king_win": "{colour} wins the King bonus (+{n}) as sole first",
    "note.king_tied": "no King bonus: first place is tied",
    "note.grande_win": "{colour} wins the Grande bonus (+{n}) as sole first",
    "note.grande_none": "{colour} scores no Grande bonus: no caballero here",
    "note.grande_tied": "{colour} loses the Grande bonus: first place is tied",
    "note.grande_notfirst": "{colour} loses the Grande bonus: not first",
    "note.dummy": "{colour} is dummy: it takes its place but scores nothing",
    "note.tile_stays": "the tile lay here before the King came: it stays and replaces the values",
}


def note_text(key: str, params: Mapping[str, str | int]) -> str:
    """A reason key in English words."""
    return NOTE_TEXTS[key].format(**params)


_COUNT: Final = operator.itemgetter(1)


def score_area(
    area: str,
    counts: Mapping[str, int],
    values: Sequence[int],
    places: int | None = None,
    king_here: bool = False,
    grandes_here: Iterable[str] = (),
    first_place_only: bool = False,
    token: str = "",
) -> AreaScore:
    """Score one area.

    `counts`: caballeros per player in the area (Grandes excluded). `values`: points for 1st, 2nd,
    3rd place (a scoring tile's values if one lies here). `places`: how many places score (2 with
    2–3 players). `king_here`: the King bonus applies. `grandes_here`: owners of the Grandes in
    the area. `first_place_only`: only a sole first place scores (a tie for first scores nothing).
    `token`: the area's ASCII token, carried into the breakdown.
    """
    values = values if isinstance(values, tuple) else tuple(values)
    limit = len(values) if places is None else min(places, len(values))
    if first_place_only:
        limit = min(limit, 1)
    # A stable sort: players with equal counts keep their order.
    candidates = sorted([item for item in counts.items() if item[1] > 0], key=_COUNT, reverse=True)
    return score_ranked(area, candidates, values, limit, king_here, tuple(grandes_here), token)


def score_ranked(
    area: str,
    candidates: list[tuple[str, int]],
    values: tuple[int, ...],
    limit: int,
    king_here: bool,
    grandes: tuple[str, ...],
    token: str,
) -> AreaScore:
    """`score_area` once the players are ranked: `candidates` holds (player, caballeros) for
    every player with caballeros here, most first (equal counts in a fixed order); `limit` is
    how many places score. The board scores through here without building the mappings."""
    if not candidates:
        return AreaScore(area, {}, values, {}, {}, {}, (), king_here, grandes, token)
    counts: dict[str, int] = {}
    ranks: dict[str, int] = {}
    points: dict[str, int] = {}
    tied: list[str] = []
    place = 0
    i = 0
    size = len(candidates)
    while i < size:
        count = candidates[i][1]
        j = i + 1
        while j < size and candidates[j][1] == count:
            j += 1
        if j - i == 1:
            player = candidates[i][0]
            counts[player] = count
            ranks[player] = place + 1
            points[player] = values[place] if place < limit else 0
            place += 1
        else:
            awarded = place + 1
            value = values[awarded] if awarded < limit else 0
            for player, _ in candidates[i:j]:
                counts[player] = count
                tied.append(player)
                ranks[player] = awarded + 1
                points[player] = value
            place += 2
        i = j
    bonus: dict[str, int] = {}
    first = candidates[0][0]
    if ranks[first] == 1:
        if king_here:
            bonus[first] = KING_BONUS
        if first in grandes:
            bonus[first] = bonus.get(first, 0) + GRANDE_BONUS
    return AreaScore(
        area, counts, values, ranks, points, bonus, tuple(tied), king_here, grandes, token
    )


def regions_for_score_op(
    step: Mapping[str, Any], first_values: Sequence[int], totals: Sequence[int]
) -> list[int]:
    """The regions a card's automatic `score` step scores, in board order.

    `first_values`: each region's current first-place value (a tile's if one lies there);
    `totals`: caballeros of all colours per region. The castillo is never among them.

    >>> regions_for_score_op({"select": "fewest"}, [4, 5, 6], [3, 0, 3])
    [0, 2]
    """
    select = step["select"]
    if select == "all":
        return list(range(len(totals)))
    if select == "value":
        wanted = set(step["values"])
        return [r for r, value in enumerate(first_values) if value in wanted]
    if select in ("fewest", "most"):
        occupied = [t for t in totals if t > 0]
        if not occupied:
            return []
        target = min(occupied) if select == "fewest" else max(occupied)
        return [r for r, t in enumerate(totals) if t == target]
    if select == "castillo":
        return []
    raise ValueError(f"score step {select!r} needs a player's choice")


def totals(results: Iterable[AreaScore]) -> dict[str, int]:
    """Points per player over several area scorings (place points plus bonuses)."""
    out: dict[str, int] = {}
    for result in results:
        for player in set(result.points) | set(result.bonus):
            out[player] = out.get(player, 0) + result.total(player)
    return out
