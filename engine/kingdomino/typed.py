"""A finished kingdom typed as its dominoes, in the order they were laid: one a line, the
domino's number and its placement in the notation of docs/kingdomino-notation.md (`17 c4e`:
the first half on c4, the second east of it; the castle stands on e5, on g7 in the Mighty
Duel). Each domino is checked by the rules as it is laid (it touches its terrain or the castle,
the kingdom stays within its frame, no square twice, no domino twice), and the kingdom comes out
as the rows of `castillo score`'s position format (docs/kingdomino-score.md): the scoring
assistant's typed entry.

>>> kingdom_rows("3 e3s\\n1 f5e", 5)
['. . F0 . .', '. . F0 . .', '. . C W0 W0', '. . . . .', '. . . . .']
>>> kingdom_rows("3 e3s\\n3 d5s", 5)
Traceback (most recent call last):
...
engine.kingdomino.typed.TypedKingdomError: line 2: domino 3 is laid already (line 1)
"""

from __future__ import annotations

from engine.core.errors import IllegalAction, NotationError
from engine.kingdomino.data import GameData, load
from engine.kingdomino.kingdom import CASTLE, EMPTY, Kingdom, parse_placement
from engine.kingdomino.refusals import placement_refusal

MAX_LINES = 48  # dominoes in the box: a kingdom never holds more


class TypedKingdomError(IllegalAction):
    """A line that cannot be laid; `line` counts from 1, and `key`/`params` translate the
    reason (params carry `line`). Nothing is laid from a refused list."""

    def __init__(self, line: int, text: str, reason: str, key: str, params: dict[str, str | int]):
        super().__init__(text, reason, key=key, params={**params, "line": line})
        self.line = line
        self.args = (f"line {line}: {reason}",)

    def __str__(self) -> str:
        return str(self.args[0])


def _refuse(line: int, text: str, reason: str, key: str, **params: str | int) -> TypedKingdomError:
    return TypedKingdomError(line, text, reason, f"kingdomino.typed.{key}", params)


def lay(text: str, size: int, data: GameData | None = None) -> Kingdom:
    """The kingdom the typed lines build (TypedKingdomError naming the first bad line)."""
    data = data or load()
    kingdom = Kingdom(size)
    laid: dict[int, int] = {}
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) > MAX_LINES:
        n = lines[MAX_LINES][0]
        raise _refuse(n, lines[MAX_LINES][1], f"at most {MAX_LINES} dominoes", "too_many")
    for n, line in lines:
        parts = line.split()
        if len(parts) != 2 or not parts[0].isdigit():
            raise _refuse(
                n, line, f"{line!r} is not a domino and a placement, e.g. 17 c4e", "bad_line"
            )
        number = int(parts[0])
        if not 1 <= number <= data.count:
            raise _refuse(
                n,
                line,
                f"there is no domino {number} (1 to {data.count})",
                "no_such_domino",
                domino=number,
                count=data.count,
            )
        if number in laid:
            raise _refuse(
                n,
                line,
                f"domino {number} is laid already (line {laid[number]})",
                "twice",
                domino=number,
                first=laid[number],
            )
        try:
            move = parse_placement(kingdom, parts[1])
        except NotationError as exc:
            raise _refuse(n, line, str(exc), "bad_square", square=parts[1]) from None
        refusal = placement_refusal(data, kingdom, number, move, line)
        if refusal is not None:
            raise TypedKingdomError(n, line, refusal.reason, refusal.key, refusal.params)
        kingdom.place(
            move,
            data.terrain_a[number],
            data.crowns_a[number],
            data.terrain_b[number],
            data.crowns_b[number],
        )
        laid[number] = n
    return kingdom


def rows(kingdom: Kingdom, data: GameData) -> list[str]:
    """The kingdom as `size` rows of squares: the frame centred on the castle when the kingdom
    fits it (so Middle Kingdom reads true), else the frame from its top-left corner."""
    size, middle = kingdom.size, kingdom.size - 1
    reach = (size - 1) // 2
    if kingdom.centred():
        top, left = middle - reach, middle - reach
    else:
        top, left = kingdom.top, kingdom.left
    out: list[str] = []
    for row in range(top, top + size):
        squares: list[str] = []
        for col in range(left, left + size):
            cell = kingdom.cell(row, col)
            terrain = kingdom.terrain[cell]
            if terrain == CASTLE:
                squares.append("C")
            elif terrain == EMPTY:
                squares.append(".")
            else:
                squares.append(data.half_text(terrain, kingdom.crowns[cell]))
        out.append(" ".join(squares))
    return out


def kingdom_rows(text: str, size: int = 5, data: GameData | None = None) -> list[str]:
    """The typed dominoes laid by the rules, as the rows of a score position."""
    data = data or load()
    return rows(lay(text, size, data), data)
