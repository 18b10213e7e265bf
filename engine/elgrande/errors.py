"""The engine's specific errors (engine.core.errors), under El Grande's names."""

from __future__ import annotations

from engine.core.errors import (
    EngineError,
    IllegalAction,
    NotationError,
    NotYourTurn,
    OptionsError,
    RecordError,
    UndoError,
)

__all__ = [
    "EngineError",
    "IllegalAction",
    "NotYourTurn",
    "NotationError",
    "OptionsError",
    "RecordError",
    "UndoError",
]
