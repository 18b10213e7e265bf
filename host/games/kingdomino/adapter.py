"""Kingdomino's host adapter: the table app plays it through the generic adapter; this adds
the scoring assistant's route, `GET /api/kingdomino/score?position=JSON` (public, like the
page `/games/kingdomino/score.html` that calls it). The position is `castillo score --game
kingdomino`'s input (docs/kingdomino-score.md); the answer is its output, or 400
`bad_position` with the field (row and column) in `errors`. And its typed entry,
`GET /api/kingdomino/kingdom?dominoes=TEXT&size=5`: the dominoes one a line ("17 c4e") laid by
the rules, answered as the rows of a position, or 400 `bad_position` naming the line (`key` and
`params` translate the reason)."""

from __future__ import annotations

import asyncio
from typing import Any

from engine.core.errors import PositionError
from engine.kingdomino.typed import TypedKingdomError, kingdom_rows
from host.app.errors import ActionError
from host.app.json_input import BadInput, parse
from host.games import GameAdapter, Route

MAX_POSITION = 16 << 10  # characters: four 7×7 kingdoms take about 1 KiB
MAX_TYPED = 4 << 10  # characters: 48 lines of "48 m13e" take about 400


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

        async def kingdom(dominoes: str, size: int = 5) -> dict[str, Any]:
            """Typed dominoes laid by the rules, as the rows of a score position."""
            if len(dominoes) > MAX_TYPED:
                raise ActionError("bad_position", f"at most {MAX_TYPED} characters")
            if size not in (5, 7):
                raise ActionError("bad_position", "size must be 5 (or 7 for the Mighty Duel)")
            try:
                rows = await asyncio.to_thread(kingdom_rows, dominoes, size)
            except TypedKingdomError as exc:
                raise ActionError("bad_position", str(exc), exc.key, exc.params) from None
            return {"rows": rows, "size": size}

        return [("/api/kingdomino/score", score), ("/api/kingdomino/kingdom", kingdom)]
