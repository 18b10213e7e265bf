"""Scoring areas of an El Grande board: the majority rules (engine.elgrande.scoring) applied to
the pieces on it, the points added to the scores, and each scoring recorded (`Board.scorings`).
"""

from __future__ import annotations

from typing import Any

from engine.elgrande.board import Board
from engine.elgrande.scoring import AreaScore, score_ranked


def score(g: Board, area: int, first_only: bool = False) -> AreaScore:
    """Score one area by the majority rules and add the points (the dummy scores nothing)."""
    row = g.pieces[area]
    colours = g.colours
    # (colour, caballeros), most first, equal counts in seat order (as score_area's stable
    # sort ranks them): each one goes in after every count at least as large
    candidates: list[tuple[str, int]] = []
    for p, count in enumerate(row):
        if count > 0:
            at = len(candidates)
            while at and candidates[at - 1][1] < count:
                at -= 1
            candidates.insert(at, (colours[p], count))
    where = g.grandes
    grandes = tuple([colours[p] for p in range(g.n) if where[p] == area])
    values = g.values_of(area)
    limit = min(g.places, len(values))
    result = score_ranked(
        g.layout.area_names[area],
        candidates,
        values,
        min(limit, 1) if first_only else limit,
        area == g.king,
        grandes,
        g.layout.tok[area],
    )
    dummy = g.dummy
    if dummy >= 0 and colours[dummy] in result.ranks:
        name = colours[dummy]
        result.points = {c: v for c, v in result.points.items() if c != name}
        result.bonus = {c: v for c, v in result.bonus.items() if c != name}
    if candidates:
        points = result.points
        bonus = result.bonus
        scores = g.scores
        for p in range(g.n):
            if row[p] > 0:
                name = colours[p]
                scores[p] += points.get(name, 0) + bonus.get(name, 0)
    if area == g.CASTILLO:
        g.checkpoint = len(g.history)  # its contents are public now: no undo past
    return result


def record_scoring(g: Board, kind: str, results: list[AreaScore], **extra: Any) -> None:
    g.score_events.append(
        {
            "kind": kind,
            "round": g.rounds[g.round_index - 1] if kind == "general" else g.round_number,
            "areas": results,
            "totals": {g.colours[p]: g.scores[p] for p in g.seats},
            **extra,
        }
    )
