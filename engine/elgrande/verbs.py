"""El Grande's verb table (docs/notation.md): the one list of verbs and their facts.

Argument kinds: "colour" (a player's colour, canonicalised), "area" (a region, `castillo`,
`court`, France or Portugal, canonicalised), "card" (an action card id), "modifier" (a Power Shift
card id), "deck", "number", "card-or-modifier", "tile", "colour-change" (a colour and a signed
number: `green+1`), "reason". Groups: "chance" (outcomes entered at the table or drawn by the
dealer), "power" (the power card), "turn" (the steps of a turn), "step"
(the steps of a card's special action and the secret choices), "table" (the castillo
correction, entered by the table at any moment). Tags: "not-king-region" — the
verb never takes a caballero into or out of the King's region; "choice" — the verb answers a
one-choice step (a ChoiceFrame whose kind is the verb); "castillo-count" — at a table with the
tower the verb waits while the castillo's count is checked at a general scoring.

What the host asks of a verb is read from this table, never listed again (SECRET_CHOICES,
SEAT_CHANCE, CASTILLO_COUNT_WAITS below; the table app: host/games/elgrande/adapter.py).

>>> sorted(SECRET_CHOICES), sorted(SEAT_CHANCE), sorted(VERBS.seat_only - SECRET_CHOICES)
(['deal', 'disc', 'pass', 'powerback'], ['deal'], ['shift'])
"""

from __future__ import annotations

from typing import Final

from engine.core.verbs import Verb, VerbTable

NOT_KING = frozenset({"not-king-region"})
CHOICE = frozenset({"choice"})  # answers a one-choice step whose kind is the verb itself
# waits while the castillo's count is checked against the tower (at a general scoring)
CASTILLO_COUNT = frozenset({"castillo-count"})

VERBS = VerbTable(
    [
        # chance: entered at the table, or drawn by the dealer
        Verb("first", ("colour",), "who holds the first-player marker", chance=True),
        Verb("kingcard", ("area",), "the region card that places the King", chance=True),
        Verb("home", ("colour", "area"), "a player's home region card", chance=True),
        Verb("reveal", ("deck", "card"), "an action card turned face up", chance=True),
        Verb(
            "remove",
            ("deck", "card"),
            "a card set aside for an alternative card (back in the box unseen)",
            chance=True,
            secret_from=1,
        ),
        Verb(
            "deal",
            ("colour", "modifier"),
            "a Power Shift card dealt to a player",
            chance=True,
            secret_from=1,
            seat_only=True,
        ),
        Verb("dummycard", ("area",), "2 players: a region card drawn for the dummy", chance=True),
        Verb("dummypower", ("number",), "2 players: the dummy's power card", chance=True),
        # the power card
        Verb("power", ("number",), "play a power card", undo_barrier=True, group="power"),
        Verb(
            "shift",
            ("number", "modifier"),
            "a power card with a Power Shift modifier",
            undo_barrier=True,
            seat_only=True,
            group="power",
        ),
        # a turn
        Verb("grey", (), "use the played modifier card's special effect", group="turn"),
        Verb("take", ("number",), "caballeros from the province to the court", group="turn"),
        Verb("card", ("card",), "choose an action card", group="turn"),
        Verb(
            "place",
            ("area",),
            "one caballero from the court",
            group="turn",
            steps=("place",),
            tags=NOT_KING,
        ),
        Verb("special", (), "start the card's special action", group="turn"),
        Verb("skip", (), "skip the special action", group="turn"),
        # steps of a special action, and the secret choices
        Verb(
            "pick",
            ("colour", "area"),
            "choose a caballero to move",
            group="step",
            steps=("move", "escort"),
            tags=NOT_KING,
        ),
        Verb(
            "to",
            ("area",),
            "where the picked caballero goes",
            group="step",
            steps=("move",),
            tags=NOT_KING,
        ),
        Verb("done", (), "finish the current step", group="turn", steps=("move", "place")),
        Verb(
            "return",
            ("colour", "area"),
            "one caballero to the province",
            group="step",
            steps=("return",),
            tags=NOT_KING,
        ),
        Verb(
            "recall",
            ("area",),
            "one own caballero from a region to the court",
            group="step",
            steps=("recall",),
            tags=NOT_KING,
        ),
        Verb(
            "disc",
            ("area",),
            "a secret disc choice",
            secret_from=0,
            undo_barrier=True,
            seat_only=True,
            group="step",
            steps=("disc",),
            tags=CASTILLO_COUNT,
        ),
        Verb(
            "region",
            ("area",),
            "a region chosen for a card effect",
            group="step",
            tags=CHOICE,
        ),
        Verb("king", ("area",), "move the King", group="step", tags=CHOICE),
        Verb("grande", ("area",), "move your Grande", group="step", tags=NOT_KING | CHOICE),
        Verb(
            "movegrande",
            ("colour", "area"),
            "move any Grande (Power Shift)",
            group="step",
            tags=NOT_KING | CHOICE,
        ),
        Verb(
            "viceroy",
            ("colour",),
            "swap the King with that colour's Grande",
            group="step",
            tags=CHOICE,
        ),
        Verb(
            "tile",
            ("tile", "area"),
            "place or move a scoring tile",
            group="step",
            tags=NOT_KING | CHOICE,
        ),
        Verb(
            "powerback",
            ("card-or-modifier",),
            "take a power (or modifier) card back",
            secret_from=0,
            undo_barrier=True,
            seat_only=True,
            group="step",
            tags=CHOICE,
        ),
        Verb(
            "option",
            ("number",),
            "choose one branch of an either/or card",
            group="step",
            tags=CHOICE,
        ),
        Verb("veto", (), "cancel the announced special action", group="step", steps=("veto",)),
        Verb("allow", (), "let the announced special action happen", group="step", steps=("veto",)),
        # the table: the tower's physical count wins a disagreement (engine.elgrande.castillo_fix)
        Verb(
            "castillo-fix",
            ("colour-change", "reason"),
            "the castillo corrected to the tower: e.g. green+1 wrong-colour (table only)",
            undo_barrier=True,
            group="table",
        ),
        Verb(
            "pass",
            ("modifier",),
            "the modifier passed face down to the left",
            secret_from=0,
            undo_barrier=True,
            seat_only=True,
            group="step",
            steps=("pass",),
        ),
    ]
)

# Secret choices: made on the player's own device, their argument hidden from the others. Not
# `remove` (its card is hidden, but it is a chance step the table enters) nor `shift` (entered on
# the player's device so the table never lists their modifier hand, but played face up).
SECRET_CHOICES: Final = VERBS.secret & VERBS.seat_only
# Chance steps a seat enters on its own page, their outcome that seat's secret (Power Shift's deal)
SEAT_CHANCE: Final = frozenset(v.name for v in VERBS.verbs.values() if v.chance and v.seat_only)
# Steps that wait while the castillo's count is checked against the tower
CASTILLO_COUNT_WAITS: Final = frozenset(VERBS.tagged("castillo-count"))
