"""Kingdomino's host adapter: the table app plays it through the generic adapter; this adds
the scoring assistant's route, `GET /api/kingdomino/score?position=JSON` (public, like the
page `/games/kingdomino/score.html` that calls it). The position is `castillo score --game
kingdomino`'s input (docs/kingdomino-score.md); the answer is its output, or 400
`bad_position` with the field (row and column) in `errors`."""

from __future__ import annotations

import asyncio
from typing import Any

from engine.core.errors import PositionError
from host.app.errors import ActionError
from host.app.json_input import BadInput, parse
from host.games import GameAdapter, Route

MAX_POSITION = 16 << 10  # characters: four 7×7 kingdoms take about 1 KiB


class Adapter(GameAdapter):
    def routes(self) -> list[Route]:
        spec = self.spec

        async def score(position: str) -> dict[str, Any]:
            """A finished position scored with its breakdown (and, asked, the tile check)."""
            if len(position) > MAX_POSITION:
                raise ActionError(
                    "bad_position", f"a position is at most {MAX_POSITION} characters"
                )
            try:
                raw = parse(position)
            except BadInput as exc:
                raise ActionError("bad_position", f"the position is not JSON: {exc}") from None
            if not isinstance(raw, dict):
                raise ActionError("bad_position", "the position is a JSON object")
            try:
                return await asyncio.to_thread(spec.score_position, raw)
            except PositionError as exc:
                message = str(exc).removeprefix(f"{exc.field}: ")
                raise ActionError("bad_position", str(exc), errors={exc.field: message}) from None

        return [("/api/kingdomino/score", score)]
