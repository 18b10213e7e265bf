"""`castillo score --game kingdomino`: score finished kingdoms given as JSON (the format and
its checks: docs/kingdomino-score.md).

>>> result = score_position({"kingdoms": {"pink": ["W1 W0 C . .", *[". . . . ."] * 4]}})
>>> result["totals"], result["winners"]
({'pink': 2}, ['pink'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core.errors import PositionError
from engine.kingdomino.data import GameData, load
from engine.kingdomino.kingdom import Kingdom
from engine.kingdomino.options import COLOURS
from engine.kingdomino.scoring import Breakdown, deciding_tie_break, winners

FIELDS = ("game", "size", "kingdoms", "middle_kingdom", "harmony", "discarded", "check_tiles")
SIZES = (5, 7)


class ScoreInputError(PositionError):
    """A refusal of a score position with its words as a key and parameters
    (`kingdomino.position.<key>` in the UI's bundles: the scoring assistant shows it in the
    page's language); the English message stays the command line's."""

    def __init__(self, field: str, message: str, key: str, **params: Any) -> None:
        super().__init__(field, message)
        self.key = f"kingdomino.position.{key}"
        self.params: dict[str, Any] = params


class Square:
    """One square read from a row: its position and content (terrain 0: empty, -1: castle)."""

    def __init__(self, row: int, col: int, terrain: int, crowns: int) -> None:
        self.row = row
        self.col = col
        self.terrain = terrain
        self.crowns = crowns


def _where(colour: str, row: int, col: int | None = None) -> str:
    field = f"kingdoms.{colour}[{row}]"
    return field if col is None else f"{field}[{col}]"


def _bool(raw: Mapping[str, Any], name: str) -> bool:
    value = raw.get(name, False)
    if not isinstance(value, bool):
        raise ScoreInputError(name, "must be true or false", "not_bool", name=name)
    return value


def _size(raw: Mapping[str, Any]) -> int:
    size = raw.get("size", 5)
    if isinstance(size, bool) or size not in SIZES:
        raise ScoreInputError("size", "must be 5 (or 7 for the Mighty Duel)", "bad_size")
    assert isinstance(size, int)
    return size


def max_crowns(data: GameData) -> dict[int, int]:
    """The most crowns any printed square of each terrain carries."""
    most: dict[int, int] = {}
    for n in data.numbers():
        for terrain, crowns in (
            (data.terrain_a[n], data.crowns_a[n]),
            (data.terrain_b[n], data.crowns_b[n]),
        ):
            most[terrain] = max(most.get(terrain, 0), crowns)
    return most


def read_square(
    data: GameData, most: dict[int, int], text: str, where: str, at: tuple[int, int]
) -> tuple[int, int]:
    """A square's text to (terrain, crowns); terrain 0 empty, -1 the castle."""
    if text == "C":
        return -1, 0
    if text == ".":
        return 0, 0
    row, col = at
    place = f"row {row}, column {col}"
    letter, crowns = text[:1].upper(), text[1:]
    if letter not in data.code:
        known = " ".join(data.letters)
        raise ScoreInputError(
            where,
            f"{place}: unknown terrain {text[:1]!r} in {text!r} "
            f"(known: {known}, C the castle, . empty)",
            "unknown_terrain",
            row=row,
            col=col,
            text=text,
        )
    if not crowns.isdigit():
        raise ScoreInputError(
            where,
            f"{place}: {text!r} needs its crowns after the letter, e.g. {letter}0",
            "no_crowns_count",
            row=row,
            col=col,
            text=text,
        )
    terrain = data.code[letter]
    limit = most.get(terrain, 0)
    if int(crowns) > limit:
        name = data.terrain_name(terrain)
        raise ScoreInputError(
            where,
            f"{place}: no {name} square carries {int(crowns)} crown(s) (at most {limit})",
            "too_many_crowns",
            row=row,
            col=col,
            terrain=letter,
            crowns=int(crowns),
            most=limit,
        )
    return terrain, int(crowns)


def read_kingdom(
    data: GameData, most: dict[int, int], colour: str, rows: Any, size: int
) -> list[Square]:
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise ScoreInputError(
            f"kingdoms.{colour}",
            f"must be a list of {size} rows of text",
            "bad_rows",
            colour=colour,
            size=size,
        )
    if len(rows) != size:
        raise ScoreInputError(
            f"kingdoms.{colour}",
            f"has {len(rows)} rows, not {size}",
            "row_count",
            colour=colour,
            rows=len(rows),
            size=size,
        )
    squares: list[Square] = []
    for r, row in enumerate(rows):
        texts = row.split()
        if len(texts) != size:
            raise ScoreInputError(
                _where(colour, r),
                f"row {r + 1} has {len(texts)} squares, not {size}",
                "row_squares",
                colour=colour,
                row=r + 1,
                squares=len(texts),
                size=size,
            )
        for c, text in enumerate(texts):
            terrain, crowns = read_square(data, most, text, _where(colour, r, c), (r + 1, c + 1))
            squares.append(Square(r, c, terrain, crowns))
    castles = [s for s in squares if s.terrain < 0]
    if not castles:
        raise ScoreInputError(f"kingdoms.{colour}", "no castle (C)", "no_castle", colour=colour)
    if len(castles) > 1:
        spots = " and ".join(f"row {s.row + 1}, column {s.col + 1}" for s in castles)
        first, second = castles[0], castles[1]
        raise ScoreInputError(
            _where(colour, second.row, second.col),
            f"two castles: {spots}",
            "two_castles",
            colour=colour,
            row=first.row + 1,
            col=first.col + 1,
            row2=second.row + 1,
            col2=second.col + 1,
        )
    return squares


def build(squares: list[Square], size: int) -> Kingdom:
    """The kingdom in the engine's grid, the castle at its centre."""
    castle = next(s for s in squares if s.terrain < 0)
    kingdom = Kingdom(size)
    for s in squares:
        if s.terrain > 0:
            kingdom.set_square(
                s.row - castle.row + size - 1, s.col - castle.col + size - 1, s.terrain, s.crowns
            )
    return kingdom


def check_tiles(data: GameData, kingdoms: Mapping[str, list[Square]]) -> None:
    """The kingdoms (alone and together: one box) use no more squares of a kind than the
    dominoes have, and an even number of squares each (dominoes come in pairs)."""
    stock: Counter[tuple[int, int]] = Counter()
    for n in data.numbers():
        stock[(data.terrain_a[n], data.crowns_a[n])] += 1
        stock[(data.terrain_b[n], data.crowns_b[n])] += 1
    together: Counter[tuple[int, int]] = Counter()
    for colour, squares in kingdoms.items():
        used = Counter((s.terrain, s.crowns) for s in squares if s.terrain > 0)
        if sum(used.values()) % 2:
            raise ScoreInputError(
                f"kingdoms.{colour}",
                f"{sum(used.values())} squares: dominoes cover an even number",
                "odd_squares",
                colour=colour,
                squares=sum(used.values()),
            )
        _compare(data, used, stock, f"kingdoms.{colour}", "the dominoes have", "")
        together.update(used)
    _compare(
        data,
        together,
        stock,
        "kingdoms",
        "all the kingdoms together use more than the box's",
        "box_",
    )


def _compare(
    data: GameData,
    used: Counter[tuple[int, int]],
    stock: Counter[tuple[int, int]],
    field: str,
    what: str,
    together: str,
) -> None:
    """`together`: "box_" for all the kingdoms at once (the keys' prefix), else ""."""
    colour = field.partition(".")[2]
    for (terrain, crowns), count in sorted(used.items()):
        if count > stock[(terrain, crowns)]:
            kind = data.half_text(terrain, crowns)
            raise ScoreInputError(
                field,
                f"{count} squares {kind}: {what} {stock[(terrain, crowns)]}",
                f"{together}too_many_squares",
                colour=colour,
                count=count,
                terrain=data.letters[terrain - 1],
                crowns=crowns,
                have=stock[(terrain, crowns)],
            )
    for terrain in range(1, len(data.letters) + 1):
        have = sum(c * n for (t, c), n in stock.items() if t == terrain)
        crowned = sum(c * n for (t, c), n in used.items() if t == terrain)
        if crowned > have:
            name = data.terrain_name(terrain)
            raise ScoreInputError(
                field,
                f"{crowned} crowns on {name} squares: {what} {have}",
                f"{together}too_many_crowned",
                colour=colour,
                crowned=crowned,
                terrain=data.letters[terrain - 1],
                have=have,
            )


def score_position(raw: Mapping[str, Any], overrides: Sequence[Path | str] = ()) -> dict[str, Any]:
    unknown = [key for key in raw if key not in FIELDS]
    if unknown:
        raise ScoreInputError(
            str(unknown[0]),
            f"unknown field (known: {', '.join(FIELDS)})",
            "unknown_field",
            name=str(unknown[0]),
            known=", ".join(FIELDS),
        )
    game = raw.get("game", "kingdomino")
    if game != "kingdomino":
        raise ScoreInputError("game", 'must be "kingdomino"', "not_kingdomino")
    size = _size(raw)
    middle, harmony, tiles = (
        _bool(raw, "middle_kingdom"),
        _bool(raw, "harmony"),
        _bool(raw, "check_tiles"),
    )
    data = load(overrides)
    most = max_crowns(data)
    given = raw.get("kingdoms")
    if not isinstance(given, dict) or not given:
        raise ScoreInputError(
            "kingdoms", f"must map colours ({', '.join(COLOURS)}) to rows", "bad_kingdoms"
        )
    kingdoms: dict[str, list[Square]] = {}
    for colour, rows in given.items():
        if colour not in COLOURS:
            raise ScoreInputError(
                f"kingdoms.{colour}",
                f"unknown colour (the box has {', '.join(COLOURS)})",
                "unknown_colour",
                colour=colour,
            )
        kingdoms[colour] = read_kingdom(data, most, colour, rows, size)
    discarded = raw.get("discarded", {})
    if not isinstance(discarded, dict):
        raise ScoreInputError(
            "discarded", "must map colours to a number of discarded dominoes", "bad_discarded"
        )
    for colour, count in discarded.items():
        if colour not in kingdoms:
            raise ScoreInputError(
                f"discarded.{colour}",
                "names no kingdom of this position",
                "discarded_no_kingdom",
                colour=colour,
            )
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ScoreInputError(
                f"discarded.{colour}",
                "must be a whole number, 0 or more",
                "discarded_count",
                colour=colour,
            )
    if tiles:
        check_tiles(data, kingdoms)
    colours = list(kingdoms)
    scores: list[Breakdown] = []
    for colour in colours:
        kingdom = build(kingdoms[colour], size)
        # Without a count of discards, a complete kingdom is one without (they coincide).
        lost = discarded.get(colour, 0 if kingdom.complete() else 1)
        scores.append(Breakdown(kingdom, middle, harmony, lost))
    totals = [s.total for s in scores]
    largest = [s.largest for s in scores]
    crowns = [s.crowns for s in scores]
    return {
        "totals": {c: s.total for c, s in zip(colours, scores, strict=True)},
        "winners": [colours[i] for i in winners(totals, largest, crowns)],
        "decided_by": deciding_tie_break(totals, largest, crowns),
        "territories": {
            c: [
                {"terrain": data.terrain_name(t), "squares": n, "crowns": k, "points": n * k}
                for t, n, k in s.territories
            ]
            for c, s in zip(colours, scores, strict=True)
        },
        "bonus": {
            c: {"middle_kingdom": s.middle_kingdom, "harmony": s.harmony}
            for c, s in zip(colours, scores, strict=True)
        },
    }
