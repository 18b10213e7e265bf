"""Kingdomino's verbs (the notation: docs/kingdomino-notation.md)."""

from __future__ import annotations

from engine.core.verbs import Verb, VerbTable

VERBS = VerbTable(
    [
        Verb(
            "draw",
            ("number",),
            "a domino drawn for the line being laid out",
            chance=True,
            undo_barrier=True,
            group="chance",
        ),
        Verb(
            "king",
            ("seat",),
            "the next king drawn for the first pick",
            chance=True,
            undo_barrier=True,
            group="chance",
        ),
        Verb(
            "place",
            ("number", "square"),
            "place your domino: its first half's square and the direction of the second",
            group="turn",
            steps=("place",),
        ),
        Verb(
            "discard",
            ("number",),
            "discard your domino (only when it fits nowhere)",
            group="turn",
            steps=("place",),
        ),
        Verb(
            "claim",
            ("number",),
            "put your king on a domino of the next line",
            undo_barrier=True,
            group="turn",
            steps=("claim",),
        ),
    ]
)
