"""The engine's specific errors, shared by every game: an illegal action raises one with a
reason a player can read, and changes nothing."""

from __future__ import annotations

from collections.abc import Mapping


class EngineError(Exception):
    """Base class of the engine's errors."""


class NotationError(EngineError, ValueError):
    """The text is not an action in the game's notation."""


class IllegalAction(EngineError):
    """The action is not legal now; the state is unchanged. `reason` says why in plain English;
    `key` and `params` say it again for translation (the page words it in the player's
    language: key "" means only the English exists).

    >>> refused = IllegalAction("place 34 a1n", "no side touches a forest or your castle",
    ...                         key="kingdomino.refuse.no_contact", params={"domino": 34})
    >>> refused.to_json()["params"]
    {'domino': 34}
    """

    def __init__(
        self,
        action: str,
        reason: str,
        key: str = "",
        params: Mapping[str, str | int] | None = None,
    ) -> None:
        super().__init__(f"illegal action {action!r}: {reason}")
        self.action = action
        self.reason = reason
        self.key = key
        self.params: dict[str, str | int] = dict(params or {})

    def to_json(self) -> dict[str, object]:
        """What an API answer carries: the English reason, and the key and params if any."""
        return {
            "action": self.action,
            "reason": self.reason,
            "key": self.key,
            "params": self.params,
        }


class NotYourTurn(IllegalAction):
    """Someone other than the acting player tried to act."""


class UndoError(EngineError):
    """Nothing can be undone now (hidden information was revealed, or another player acted)."""


class RecordError(EngineError, ValueError):
    """A game record is malformed or does not replay."""


class OptionsError(EngineError, ValueError):
    """Game options refused, with one message per field (`errors`: field name -> reason)."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        self.errors = dict(errors)
        super().__init__("; ".join(f"'{name}': {reason}" for name, reason in self.errors.items()))


class PositionError(EngineError, ValueError):
    """A position given to score (`castillo score`) is malformed. `field` names where, e.g.
    `regions.Galicia` or `kingdoms.pink[2][3]`."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class GameDataError(EngineError, ValueError):
    """A game's data or override file is malformed; the message names the file and the field."""
