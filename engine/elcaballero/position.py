"""Score an El Caballero position given as data (`castillo score --game elcaballero FILE|-`).

The format (docs/elcaballero-score.md): the players, the area cards by cell (a description or
a catalogue id, and a rotation), the caballero cards (owner, side, rotation, ships, castillo,
Grande) and the Governors. Every problem raises PositionError naming the cell. A Grande or a
Governor is a piece of the extended game: a position holds one only with `"extended": true`,
and as many as the extended game gives each player (`rules.toml`, `[extended]`).

>>> result = score_position({
...     "players": ["red", "blue"],
...     "areas": [{"cell": "0,0", "card": "LE+SNSW"}, {"cell": "1,0", "card": "LW+SNES"}],
...     "caballeros": [{"cell": "0,1", "owner": "red", "side": "front", "rotation": 0,
...                     "ships": ["N"]}]})
>>> result["totals"]
{'red': 1, 'blue': 0}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core.errors import GameDataError, PositionError
from engine.elcaballero.board import DIRS, CaballeroCard, Map, cell_from_text, key_of, xy_of
from engine.elcaballero.cards import LAND, SEA, CardDesc, CardError, card_from_mapping
from engine.elcaballero.catalogue import Catalogue, load_catalogue, load_synthetic
from engine.elcaballero.rules import GameSize, load_rules
from engine.elcaballero.scoring import TWO_PLAYER_TIE_CHOICES, Governor, score_map

FIELDS = (
    "game",
    "players",
    "extended",
    "catalogue",
    "two_player_tie",
    "areas",
    "caballeros",
    "governors",
)
SIDES = ("front", "back")


def parse_cell(raw: Any, where: str) -> tuple[int, int]:
    """ "x,y" (whole numbers; y grows southwards) to (x, y)."""
    key = cell_from_text(raw)
    if key is None:
        raise PositionError(
            where, f'a cell is "x,y" (whole numbers, at most 200 from the start), got {raw!r}'
        )
    return xy_of(key)


def _catalogue(raw: Mapping[str, Any], overrides: Sequence[Path | str]) -> Catalogue | None:
    named = raw.get("catalogue")
    if overrides:
        if len(overrides) > 1:
            raise PositionError("--override", "give one catalogue file")
        if named is not None:
            raise PositionError("catalogue", 'a catalogue file is given: leave out "catalogue"')
        try:
            return load_catalogue(overrides[0])
        except GameDataError as bad:
            raise PositionError("--override", str(bad)) from None
    if named is None:
        return None
    if named != "synthetic":
        raise PositionError(
            "catalogue", 'only "synthetic" (give your own catalogue file with --override)'
        )
    return load_synthetic()


def _card(raw: Any, catalogue: Catalogue | None, where: str) -> CardDesc:
    if isinstance(raw, str) and catalogue is not None:
        found = catalogue.get(raw)
        if found is not None:
            return found
    try:
        return card_from_mapping(raw)
    except CardError as bad:
        hint = "" if catalogue is None else f" (and not an id of the {catalogue.label!r} catalogue)"
        raise PositionError(where, f"{bad}{hint}") from None


def _rotation(raw: Any, where: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= 3:
        raise PositionError(where, "rotation is 0 to 3 quarter turns clockwise")
    return raw


def _list(raw: Mapping[str, Any], field: str) -> list[Any]:
    value = raw.get(field, [])
    if not isinstance(value, list):
        raise PositionError(field, "must be a list")
    return value


def _entry(item: Any, where: str, known: set[str]) -> Mapping[str, Any]:
    if not isinstance(item, Mapping):
        raise PositionError(where, "must be an object")
    unknown = sorted(str(k) for k in item if k not in known)
    if unknown:
        raise PositionError(where, f"unknown field(s) {', '.join(unknown)}")
    return item


def _extended_piece(piece: str, owner: Any, names: list[str], where: str, size: GameSize) -> None:
    """Refuse a Grande or a Governor the game has none of (the base game)."""
    if (size.grandes if piece == "Grande" else size.governors) <= 0:
        whose = f"{owner}'s {piece}" if owner in names else f"a {piece}"
        raise PositionError(
            where,
            f"{whose} is a piece of the extended game, and this is a base-game position "
            '(set "extended": true to score it)',
        )


def build_map(
    raw: Mapping[str, Any], names: list[str], catalogue: Catalogue | None, size: GameSize
) -> tuple[Map, list[Governor]]:
    """The map, caballero cards and Governors of a position, each checked; `size`: the base or
    the extended game's pieces (a Grande and Governors only in the extended game)."""
    board = Map()
    _place_areas(board, raw, catalogue)
    _place_caballeros(board, raw, names, size)
    return board, _governors(board, raw, names, size)


def _place_areas(board: Map, raw: Mapping[str, Any], catalogue: Catalogue | None) -> None:
    """The position's area cards onto the map, each checked."""
    for index, item in enumerate(_list(raw, "areas")):
        entry = _entry(item, f"areas[{index}]", {"cell", "card", "rotation"})
        x, y = parse_cell(entry.get("cell"), f"areas[{index}].cell")
        where = f"cell {x},{y}"
        card = _card(entry.get("card"), catalogue, where)
        rotation = _rotation(entry.get("rotation", 0), where)
        key = key_of(x, y)
        if not board.is_empty(key):
            raise PositionError(where, "holds two cards")
        side = board.fit_side(card, rotation, key)
        if side >= 0:
            raise PositionError(where, f"its {DIRS[side]} side: land would meet sea")
        board.place_area_key(card, rotation, key)


def _place_caballeros(board: Map, raw: Mapping[str, Any], names: list[str], size: GameSize) -> None:
    """The position's caballero cards onto the map, each checked."""
    grande_cells: dict[str, str] = {}  # owner -> the cell of their Grande
    for index, item in enumerate(_list(raw, "caballeros")):
        entry = _entry(
            item,
            f"caballeros[{index}]",
            {"cell", "owner", "side", "rotation", "ships", "castillo", "grande"},
        )
        x, y = parse_cell(entry.get("cell"), f"caballeros[{index}].cell")
        where = f"cell {x},{y}"
        key = key_of(x, y)
        if not board.is_empty(key):
            raise PositionError(where, "holds two cards")
        owner = entry.get("owner")
        if owner not in names:
            raise PositionError(where, f"owner must be one of {', '.join(names)}")
        side_name = entry.get("side", "front")
        if side_name not in SIDES:
            raise PositionError(where, 'side is "front" (1-4) or "back" (5-8)')
        cab = CaballeroCard(names.index(str(owner)), SIDES.index(str(side_name)), 0, key)
        cab.rotation = _rotation(entry.get("rotation", 0), where)
        castillo, grande = entry.get("castillo", False), entry.get("grande", False)
        if not isinstance(castillo, bool) or not isinstance(grande, bool):
            raise PositionError(where, "castillo and grande are true or false")
        cab.castillo, cab.grande = castillo, grande
        if grande:
            _extended_piece("Grande", owner, names, where, size)
            if owner in grande_cells:
                raise PositionError(
                    where, f"{owner} has one Grande, already at {grande_cells[str(owner)]}"
                )
            grande_cells[str(owner)] = f"{x},{y}"
        if not board.touches_area(key):
            raise PositionError(where, "a caballero cab lies next to an area cab")
        if board.land_sides(key) > 1 and not grande:
            raise PositionError(
                where, "touches land on more than one side without a Grande: it would be removed"
            )
        ships = entry.get("ships", [])
        if not isinstance(ships, list):
            raise PositionError(where, "ships is a list of edges (N, E, S, W)")
        for edge in ships:
            if not isinstance(edge, str) or edge.upper() not in DIRS:
                raise PositionError(where, f"ship edge {edge!r} is not N, E, S or W")
            d = DIRS.index(edge.upper())
            if cab.ships >> d & 1:
                raise PositionError(where, f"two ships on edge {DIRS[d]}")
            if board.facing(key, d)[0] != SEA:
                raise PositionError(where, f"the ship on edge {DIRS[d]} faces no sea")
            cab.ships |= 1 << d
        board.place_caballero(cab)


def _governors(
    board: Map, raw: Mapping[str, Any], names: list[str], size: GameSize
) -> list[Governor]:
    """The position's Governors, each on a closed region of the map."""
    governors: list[Governor] = []
    taken: set[int] = set()
    for index, item in enumerate(_list(raw, "governors")):
        entry = _entry(item, f"governors[{index}]", {"cell", "region", "owner", "ship"})
        x, y = parse_cell(entry.get("cell"), f"governors[{index}].cell")
        where = f"cell {x},{y}"
        _extended_piece("Governor", entry.get("owner"), names, where, size)
        area = board.areas.get(key_of(x, y))
        if area is None:
            raise PositionError(where, "a Governor stands on a region of an area card")
        region = entry.get("region", 0)
        if isinstance(region, bool) or not isinstance(region, int):
            raise PositionError(where, "region is the index of the card's region (0, 1, ...)")
        if not 0 <= region < len(area.nodes):
            raise PositionError(where, f"the card has regions 0 to {len(area.nodes) - 1}")
        owner = entry.get("owner")
        if owner not in names:
            raise PositionError(where, f"owner must be one of {', '.join(names)}")
        root = board.find(area.nodes[region])
        if not board.is_closed(root):
            raise PositionError(where, "a Governor stands only on a closed region")
        if root in taken:
            raise PositionError(where, "a closed region holds one Governor at most")
        taken.add(root)
        ship = entry.get("ship", False)
        if not isinstance(ship, bool):
            raise PositionError(where, "ship is true or false")
        if ship and board.kind[root] == LAND:
            raise PositionError(where, "a Governor's ship sails on a closed lake, not an island")
        seat = names.index(str(owner))
        if sum(1 for g in governors if g.owner == seat) >= size.governors:
            raise PositionError(where, f"{owner} has {size.governors} Governors")
        governors.append(Governor(seat, root, ship))
    return governors


def score_position(raw: Mapping[str, Any], overrides: Sequence[Path | str] = ()) -> dict[str, Any]:
    unknown = sorted(str(k) for k in raw if k not in FIELDS)
    if unknown:
        raise PositionError(unknown[0], f"unknown field (known: {', '.join(FIELDS)})")
    names = raw.get("players")
    if (
        not isinstance(names, list)
        or not 2 <= len(names) <= 4
        or not all(isinstance(n, str) and n for n in names)
        or len(set(names)) != len(names)
    ):
        raise PositionError("players", "2 to 4 different player names")
    tie = raw.get("two_player_tie", "second")
    if tie not in TWO_PLAYER_TIE_CHOICES:
        raise PositionError("two_player_tie", f"one of {', '.join(TWO_PLAYER_TIE_CHOICES)}")
    extended = raw.get("extended", False)
    if not isinstance(extended, bool):
        raise PositionError("extended", "true (the extended game) or false (the base game)")
    rules = load_rules()
    catalogue = _catalogue(raw, overrides)
    board, governors = build_map(
        raw, list(names), catalogue, rules.extended if extended else rules.base
    )
    if not board.areas:
        raise PositionError("areas", "the map holds no area card")
    result = score_map(board, rules.layout, list(names), governors, str(tie))
    result["players"] = list(names)
    result["extended"] = extended
    if catalogue is not None:
        result["catalogue"] = catalogue.label
    return result
