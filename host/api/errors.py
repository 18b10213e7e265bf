"""A refused request, as the table app answers it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class ActionError(Exception):
    """A refused request: `code` for the client, `reason` in plain English, and for an engine
    refusal its translation `key` and `params` (engine.core.errors.IllegalAction.to_json);
    refused options name each bad field in `errors` (engine.core.errors.OptionsError)."""

    def __init__(
        self,
        code: str,
        reason: str,
        key: str = "",
        params: Mapping[str, Any] | None = None,
        errors: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason
        self.key = key
        self.params: dict[str, Any] = dict(params or {})  # a nested refusal: {x_key, x_params}
        self.errors: dict[str, str] = dict(errors or {})

    def to_json(self) -> dict[str, object]:
        """The answer's fields: `error` (the code), `reason`, `key`, `params`, and `errors`
        when options were refused."""
        out: dict[str, object] = {"error": self.code, "reason": self.reason}
        out.update(key=self.key, params=self.params)
        if self.errors:
            out["errors"] = self.errors
        return out
