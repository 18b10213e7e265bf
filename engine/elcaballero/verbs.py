"""El Caballero's verbs (docs/elcaballero-notation.md). A spot is a cell and a side, "x,yD"
(D = N, E, S or W); a cell is "x,y" (y grows southwards; the start card lies at 0,0). The
last five verbs before `done` belong to the extended game."""

from __future__ import annotations

from engine.core.verbs import Verb, VerbTable

VERBS = VerbTable(
    [
        Verb("start", ("card",), "the start card (chance)", chance=True, group="chance"),
        Verb(
            "reveal",
            ("card",),
            "a card turned face up into the market",
            chance=True,
            group="chance",
        ),
        Verb(
            "power",
            ("value",),
            "play a power card",
            undo_barrier=True,
            group="power",
            seat_only=True,
        ),
        Verb("reinforce", (), "add the power card's caballeros to the court", group="turn"),
        Verb(
            "area",
            ("slot", "spot"),
            "place market card SLOT at the cell, its printed north facing D",
            group="turn",
        ),
        Verb(
            "knight",
            ("spot", "number"),
            "place a caballero card: NUMBER faces side D",
            group="turn",
        ),
        Verb(
            "raise",
            ("spot", "number"),
            "turn a caballero card to show a higher NUMBER towards side D",
            group="turn",
        ),
        Verb("ship", ("spot",), "buy a ship (2) onto your card's edge facing sea", group="turn"),
        Verb("reship", ("spot",), "put a ship from your court back into play (1)", group="turn"),
        Verb("castillo", ("cell",), "buy a castillo (1) onto your card", group="turn"),
        Verb("withdraw", ("cell",), "take your caballero card back", group="turn"),
        Verb("shipback", ("spot",), "take a ship back to your court", group="turn"),
        Verb(
            "moveship",
            ("spot", "spot"),
            "move a ship to another of your cards (1)",
            group="turn",
            names=("from", "to"),
        ),
        Verb(
            "movecastillo",
            ("cell", "cell"),
            "move a castillo to another of your cards (1)",
            group="turn",
            names=("from", "to"),
        ),
        # the extended game
        Verb(
            "governor",
            ("cell", "region"),
            "put a Governor (1) on a closed region: REGION of the card at the cell",
            group="turn",
        ),
        Verb(
            "lakeship",
            ("cell", "region"),
            "buy a ship (2) onto the closed lake with your Governor",
            group="turn",
        ),
        Verb("grande", ("cell",), "put your Grande from the court on your card (2)", group="turn"),
        Verb(
            "movegrande",
            ("cell", "cell"),
            "move your Grande to another of your cards (1, once a turn)",
            group="turn",
            names=("from", "to"),
        ),
        Verb(
            "knightgrande",
            ("spot", "number"),
            "place a caballero card on several lands with your Grande: NUMBER, the highest "
            "facing land, faces side D",
            group="turn",
        ),
        Verb("done", (), "end the turn", undo_barrier=True, group="turn"),
    ]
)
