"""Kingdomino's host adapter: the table app plays it through the generic adapter; this adds
the scoring assistant's route, `GET /api/kingdomino/score?position=JSON` (public, like the
page `/games/kingdomino/score.html` that calls it). The position is `castillo score --game
kingdomino`'s input (docs/kingdomino-score.md); the answer is its output, or 400
`bad_position` with the field (row and column) in `errors` and the reason as `key` and `params`
(`kingdomino.position.*`: the page shows it in its language). And its typed entry,
`GET /api/kingdomino/kingdom?dominoes=TEXT&size=5`: the dominoes one a line ("17 c4e") laid by
the rules, answered as the rows of a position, or 400 `bad_position` naming the line (`key` and
`params` translate the reason)."""

from __future__ import annotations

import asyncio
from typing import Any

from engine.core.errors import PositionError
from engine.core.protocol import GameState
from engine.kingdomino.game import Game
from engine.kingdomino.typed import TypedKingdomError, kingdom_rows
from host.api.errors import ActionError
from host.api.json_input import BadInput, parse
from host.games import GameAdapter, Route

MAX_POSITION = 16 << 10  # characters: four 7×7 kingdoms take about 1 KiB
MAX_TYPED = 4 << 10  # characters: 48 lines of "48 m13e" take about 400


LOGGED_DOMINO = ("draw", "claim", "place", "discard")  # actions naming a domino by its number


class Adapter(GameAdapter):
    def public_log(self, state: GameState, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Each line naming a domino carries its `faces` ("F1 L0"): the plugin words the log
        as sentences ("Blue claimed domino 28 (forest, 1 crown / lake)")."""
        if not isinstance(state, Game):
            return lines
        data = state.state.data
        out = []
        for line in lines:
            number = str((line.get("params") or {}).get("number") or "")
            named = line.get("key") in LOGGED_DOMINO and number.isdigit()
            if named and int(number) in data.numbers():
                line = {**line, "faces": data.domino_text(int(number))}
            out.append(line)
        return out

    def routes(self) -> list[Route]:
        spec = self.spec

        async def score(position: str) -> dict[str, Any]:
            """A finished position scored with its breakdown (and, asked, the tile check)."""
            if len(position) > MAX_POSITION:
                raise ActionError(
                    "bad_position",
                    f"a position is at most {MAX_POSITION} characters",
                    "kingdomino.position.too_long",
                    {"most": MAX_POSITION},
                )
            try:
                raw = parse(position)
            except BadInput as exc:
                raise ActionError(
                    "bad_position",
                    f"the position is not JSON: {exc}",
                    "kingdomino.position.not_json",
                ) from None
            if not isinstance(raw, dict):
                raise ActionError(
                    "bad_position", "the position is a JSON object", "kingdomino.position.not_json"
                )
            try:
                return await asyncio.to_thread(spec.score_position, raw)
            except PositionError as exc:
                message = str(exc).removeprefix(f"{exc.field}: ")
                key = getattr(exc, "key", "")  # ScoreInputError: the words as a key
                params = getattr(exc, "params", None)
                raise ActionError(
                    "bad_position", str(exc), key, params, errors={exc.field: message}
                ) from None

        async def kingdom(dominoes: str, size: int = 5) -> dict[str, Any]:
            """Typed dominoes laid by the rules, as the rows of a score position."""
            if len(dominoes) > MAX_TYPED:
                raise ActionError(
                    "bad_position",
                    f"at most {MAX_TYPED} characters",
                    "kingdomino.position.too_long",
                    {"most": MAX_TYPED},
                )
            if size not in (5, 7):
                raise ActionError(
                    "bad_position",
                    "size must be 5 (or 7 for the Mighty Duel)",
                    "kingdomino.position.bad_size",
                )
            try:
                rows = await asyncio.to_thread(kingdom_rows, dominoes, size)
            except TypedKingdomError as exc:
                raise ActionError("bad_position", str(exc), exc.key, exc.params) from None
            return {"rows": rows, "size": size}

        return [("/api/kingdomino/score", score), ("/api/kingdomino/kingdom", kingdom)]
