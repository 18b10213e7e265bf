"""El Grande: the rules engine (both editions), its data, scoring, views and records."""

from engine.core.actions import Action
from engine.core.errors import IllegalAction, NotationError, NotYourTurn, RecordError, UndoError
from engine.elgrande.game import CHANCE, Game, Options, new_game

__all__ = [
    "CHANCE",
    "Action",
    "Game",
    "IllegalAction",
    "NotYourTurn",
    "NotationError",
    "Options",
    "RecordError",
    "UndoError",
    "new_game",
]
