"""One player's kingdom: a flat grid around the castle, built for fast placement listing.

The kingdom must fit in a `size`×`size` square (5, or 7 in the Mighty Duel) that floats: any
such square holding the castle. Every square of a legal kingdom therefore lies in the window of
`2 size - 1` squares a side centred on the castle (9×9, 13×13); the grid is that window with a
border of blocked squares, so a neighbour never needs a bounds check. Beside each square's
terrain and crowns the grid keeps `touch`: a bit per terrain found on an occupied neighbour
(and one for the castle), updated on each placement, so the connection rule is one AND.

The score is kept as squares are laid: each territory is a union-find set of its squares (its
root holds its squares and crowns), so `points` is always the score and `gain` says what a
placement would add without laying it (the computer players' playouts score thousands of
placements a second). `territories()` still finds them by a flood fill, for the score sheets.

Placements are encoded as `cell * 4 + direction`: the first half of the domino on `cell`, the
second half on the neighbour in `direction` (0 north, 1 east, 2 south, 3 west).
"""

from __future__ import annotations

from typing import Final

from engine.core.errors import NotationError

# Final: mypyc compiles them in as constants (a plain module name is looked up at each use).
EMPTY: Final = 0
STATS: Final = 256  # a territory's stats: squares * STATS + crowns (crowns < STATS)
CASTLE: Final = 7
BLOCKED: Final = 8
CASTLE_BIT: Final = 1 << 7  # 1 << CASTLE
NORTH: Final = 0
EAST: Final = 1
SOUTH: Final = 2
WEST: Final = 3
DIRECTIONS: Final = "nesw"

# Why a placement is refused (Kingdom.check).
OK: Final = 0
OUTSIDE: Final = 1  # beyond the window: the kingdom could never stretch that far
OCCUPIED: Final = 2
TOO_WIDE: Final = 3
TOO_TALL: Final = 4
NO_CONTACT: Final = 5


_EMPTY_GRIDS: dict[int, list[int]] = {}


def _empty_grid(size: int) -> list[int]:
    """The terrain of an empty window with its blocked border (shared: callers copy it)."""
    grid = _EMPTY_GRIDS.get(size)
    if grid is None:
        width = 2 * size - 1
        pad = width + 2
        grid = [BLOCKED] * (pad * pad)
        for row in range(width):
            for col in range(width):
                grid[(row + 1) * pad + col + 1] = EMPTY
        _EMPTY_GRIDS[size] = grid
    return grid


class Kingdom:
    """The squares of one kingdom (see the module docstring)."""

    size: int
    width: int
    pad: int
    centre: int
    terrain: list[int]
    crowns: list[int]
    touch: list[int]
    top: int
    bottom: int
    left: int
    right: int
    dominoes: int
    group: list[int]  # union-find parent of each square of a territory
    stats: list[int]  # at a territory's root: squares * STATS + crowns
    points: int  # the score: sum of squares * crowns over the territories
    offsets: list[int]  # the cell steps north, east, south, west (shared by copies)

    def __init__(self, size: int, source: Kingdom | None = None) -> None:
        """An empty kingdom (the castle alone), or a copy of `source`."""
        if source is not None:
            self.size, self.width, self.pad = source.size, source.width, source.pad
            self.centre = source.centre
            self.terrain = source.terrain[:]
            self.crowns = source.crowns[:]
            self.touch = source.touch[:]
            self.top, self.bottom = source.top, source.bottom
            self.left, self.right = source.left, source.right
            self.dominoes = source.dominoes
            self.group = source.group[:]
            self.stats = source.stats[:]
            self.points = source.points
            self.offsets = source.offsets
            return
        self.size = size
        self.width = 2 * size - 1
        self.pad = self.width + 2
        cells = self.pad * self.pad
        self.terrain = _empty_grid(size)[:]
        self.crowns = [0] * cells
        self.touch = [0] * cells
        self.group = list(range(cells))
        self.stats = [0] * cells
        self.points = 0
        self.offsets = [-self.pad, 1, self.pad, -1]
        middle = size - 1
        self.centre = self.cell(middle, middle)
        self.top = self.bottom = self.left = self.right = middle
        self.dominoes = 0
        self._set(self.centre, CASTLE, 0)

    def copy(self) -> Kingdom:
        return Kingdom(self.size, self)

    # ------------------------------------------------------------------ coordinates
    def cell(self, row: int, col: int) -> int:
        return (row + 1) * self.pad + col + 1

    def row_col(self, cell: int) -> tuple[int, int]:
        return cell // self.pad - 1, cell % self.pad - 1

    def step(self, direction: int) -> int:
        """The cell offset of one step in a direction."""
        if direction == NORTH:
            return -self.pad
        if direction == EAST:
            return 1
        if direction == SOUTH:
            return self.pad
        return -1

    # ------------------------------------------------------------------ placing
    def _set(self, cell: int, terrain: int, crowns: int) -> None:
        self.terrain[cell] = terrain
        self.crowns[cell] = crowns
        bit = 1 << terrain
        pad = self.pad
        touch = self.touch  # the four neighbours, unrolled: no tuple per square
        touch[cell - pad] |= bit
        touch[cell + 1] |= bit
        touch[cell + pad] |= bit
        touch[cell - 1] |= bit
        row = cell // pad - 1
        col = cell - (row + 1) * pad - 1
        if row < self.top:
            self.top = row
        if row > self.bottom:
            self.bottom = row
        if col < self.left:
            self.left = col
        if col > self.right:
            self.right = col
        if terrain != CASTLE:
            self._join(cell, terrain, crowns)

    def _find(self, cell: int) -> int:
        """The root of a square's territory (path halving)."""
        group = self.group
        parent = group[cell]
        while parent != cell:
            grand = group[parent]
            group[cell] = grand
            cell = parent
            parent = grand
        return cell

    def _join(self, cell: int, terrain: int, crowns: int) -> None:
        """A new square of `terrain` on `cell`: it joins (and merges) the territories of that
        terrain beside it; `points` follows."""
        squares, crowned, before = 1, crowns, 0
        r0 = r1 = r2 = r3 = -1
        terrain_of, stats, offsets = self.terrain, self.stats, self.offsets
        for k in range(4):
            near = cell + offsets[k]
            if terrain_of[near] == terrain:
                root = self._find(near)
                if root != r0 and root != r1 and root != r2:
                    if r0 < 0:
                        r0 = root
                    elif r1 < 0:
                        r1 = root
                    elif r2 < 0:
                        r2 = root
                    else:
                        r3 = root
                    stat = stats[root]
                    area, crown = stat // STATS, stat % STATS
                    squares += area
                    crowned += crown
                    before += area * crown
        group = self.group
        group[cell] = cell
        if r0 >= 0:
            group[r0] = cell
        if r1 >= 0:
            group[r1] = cell
        if r2 >= 0:
            group[r2] = cell
        if r3 >= 0:
            group[r3] = cell
        stats[cell] = squares * STATS + crowned
        self.points += squares * crowned - before

    def gain(self, move: int, ta: int, ca: int, tb: int, cb: int) -> int:
        """What placing the domino by `move` would add to the score (nothing is laid)."""
        cell = move >> 2
        other = cell + self.step(move & 3)
        if ta != tb:
            return self._gain_one(cell, ta, ca) + self._gain_one(other, tb, cb)
        terrain, stats = self.terrain, self.stats
        squares, crowned, before = 2, ca + cb, 0
        roots = [-1, -1, -1, -1, -1, -1]
        found = 0
        offsets = self.offsets
        for k in range(8):
            near = (cell if k < 4 else other) + offsets[k & 3]
            if terrain[near] == ta:
                root = self._find(near)
                index = 0
                while index < found and roots[index] != root:
                    index += 1
                if index == found:
                    roots[found] = root
                    found += 1
                    stat = stats[root]
                    area, crown = stat // STATS, stat % STATS
                    squares += area
                    crowned += crown
                    before += area * crown
        return squares * crowned - before

    def _gain_one(self, cell: int, terrain: int, crowns: int) -> int:
        """What one new square of `terrain` on `cell` would add (its neighbours of that
        terrain only: the other half of the domino is another terrain)."""
        squares, crowned, before = 1, crowns, 0
        r0 = r1 = r2 = -1
        terrain_of, offsets = self.terrain, self.offsets
        for k in range(4):
            near = cell + offsets[k]
            if terrain_of[near] == terrain:
                root = self._find(near)
                if root != r0 and root != r1 and root != r2:
                    if r0 < 0:
                        r0 = root
                    elif r1 < 0:
                        r1 = root
                    else:
                        r2 = root
                    stat = self.stats[root]
                    area, crown = stat // STATS, stat % STATS
                    squares += area
                    crowned += crown
                    before += area * crown
        return squares * crowned - before

    def set_square(self, row: int, col: int, terrain: int, crowns: int) -> None:
        """Put one square (a position being scored, not a rules placement)."""
        self._set(self.cell(row, col), terrain, crowns)

    def place(self, move: int, ta: int, ca: int, tb: int, cb: int) -> None:
        """Put a domino (halves a and b) by an encoded placement already found legal."""
        cell = move >> 2
        self._set(cell, ta, ca)
        self._set(cell + self.step(move & 3), tb, cb)
        self.dominoes += 1

    def check(self, move: int, ta: int, tb: int) -> int:
        """OK, or why the placement `move` of a domino with terrains ta, tb is refused."""
        cell = move >> 2
        other = cell + self.step(move & 3)
        terrain = self.terrain
        if terrain[cell] == BLOCKED or terrain[other] == BLOCKED:
            return OUTSIDE
        if terrain[cell] != EMPTY or terrain[other] != EMPTY:
            return OCCUPIED
        (r1, c1), (r2, c2) = self.row_col(cell), self.row_col(other)
        if max(self.right, c1, c2) - min(self.left, c1, c2) >= self.size:
            return TOO_WIDE
        if max(self.bottom, r1, r2) - min(self.top, r1, r2) >= self.size:
            return TOO_TALL
        if not (
            self.touch[cell] & ((1 << ta) | CASTLE_BIT)
            or self.touch[other] & ((1 << tb) | CASTLE_BIT)
        ):
            return NO_CONTACT
        return OK

    def placements(self, ta: int, ca: int, tb: int, cb: int) -> list[int]:
        """Every legal placement of the domino (a twin's mirror images listed once: east and
        south only). Only empty squares beside the kingdom can make the contact, so the scan
        covers the bounding box plus one ring: the placements whose first half touches its
        terrain (or the castle), then those where only the second half does."""
        out: list[int] = []
        size, pad = self.size, self.pad
        row_lo = max(0, self.bottom - size + 1)
        row_hi = min(self.width - 1, self.top + size - 1)
        col_lo = max(0, self.right - size + 1)
        col_hi = min(self.width - 1, self.left + size - 1)
        twin = ta == tb and ca == cb
        mask_a = (1 << ta) | CASTLE_BIT
        mask_b = (1 << tb) | CASTLE_BIT
        terrain, touch = self.terrain, self.touch
        for row in range(max(row_lo, self.top - 1), min(row_hi, self.bottom + 1) + 1):
            base = (row + 1) * pad + 1
            for col in range(max(col_lo, self.left - 1), min(col_hi, self.right + 1) + 1):
                here = base + col
                near = touch[here]
                if near == 0 or terrain[here] != EMPTY:
                    continue
                if near & mask_a:  # the first half here joins: any free neighbour
                    if col < col_hi and terrain[here + 1] == EMPTY:
                        out.append(here * 4 + EAST)
                    if row < row_hi and terrain[here + pad] == EMPTY:
                        out.append(here * 4 + SOUTH)
                    if not twin:
                        if col > col_lo and terrain[here - 1] == EMPTY:
                            out.append(here * 4 + WEST)
                        if row > row_lo and terrain[here - pad] == EMPTY:
                            out.append(here * 4 + NORTH)
                if near & mask_b:  # the second half here joins; the first does not
                    if col > col_lo:
                        first = here - 1
                        if terrain[first] == EMPTY and not touch[first] & mask_a:
                            out.append(first * 4 + EAST)
                    if row > row_lo:
                        first = here - pad
                        if terrain[first] == EMPTY and not touch[first] & mask_a:
                            out.append(first * 4 + SOUTH)
                    if not twin:
                        if col < col_hi:
                            first = here + 1
                            if terrain[first] == EMPTY and not touch[first] & mask_a:
                                out.append(first * 4 + WEST)
                        if row < row_hi:
                            first = here + pad
                            if terrain[first] == EMPTY and not touch[first] & mask_a:
                                out.append(first * 4 + NORTH)
        return out

    def placements_by_scan(self, ta: int, ca: int, tb: int, cb: int) -> list[int]:
        """The same set as `placements`, by checking every placement in the window (slow: the
        tests compare the two)."""
        twin = ta == tb and ca == cb
        return [
            self.cell(row, col) * 4 + direction
            for row in range(self.width)
            for col in range(self.width)
            for direction in ((EAST, SOUTH) if twin else (NORTH, EAST, SOUTH, WEST))
            if self.check(self.cell(row, col) * 4 + direction, ta, tb) == OK
        ]

    def mirror(self, move: int) -> int:
        """The same squares named from the other half (for a twin domino: one canonical form)."""
        other = (move >> 2) + self.step(move & 3)
        return other * 4 + (move & 3 ^ 2)

    # ------------------------------------------------------------------ scoring
    def territories(self) -> list[tuple[int, int, int]]:
        """Each territory as (terrain, squares, crowns), in reading order of its first square."""
        out: list[tuple[int, int, int]] = []
        pad = self.pad
        seen = [False] * len(self.terrain)
        terrain, crowns = self.terrain, self.crowns
        for row in range(self.top, self.bottom + 1):
            for col in range(self.left, self.right + 1):
                start = self.cell(row, col)
                kind = terrain[start]
                if kind in (EMPTY, CASTLE) or seen[start]:
                    continue
                seen[start] = True
                stack = [start]
                squares = crowned = 0
                while stack:
                    cell = stack.pop()
                    squares += 1
                    crowned += crowns[cell]
                    for near in (cell - pad, cell + 1, cell + pad, cell - 1):
                        if not seen[near] and terrain[near] == kind:
                            seen[near] = True
                            stack.append(near)
                out.append((kind, squares, crowned))
        return out

    def score(self) -> int:
        return sum(squares * crowned for _, squares, crowned in self.territories())

    def squares(self) -> int:
        """Occupied squares, the castle included."""
        return sum(
            1
            for row in range(self.top, self.bottom + 1)
            for col in range(self.left, self.right + 1)
            if self.terrain[self.cell(row, col)] != EMPTY
        )

    def centred(self) -> bool:
        """Middle Kingdom: every square lies in the size×size square centred on the castle
        (for a complete kingdom: the castle is in its centre)."""
        reach = (self.size - 1) // 2
        middle = self.size - 1
        return (
            self.top >= middle - reach
            and self.bottom <= middle + reach
            and self.left >= middle - reach
            and self.right <= middle + reach
        )

    def complete(self) -> bool:
        """No empty square inside the frame."""
        return self.squares() == self.size * self.size


def parse_placement(kingdom: Kingdom, text: str) -> int:
    """A placement's notation ("c4e": the first half's square, the second half's direction) to
    its encoding in `kingdom`'s window (NotationError if it is not one)."""
    width = kingdom.width
    text = text.lower()
    col = ord(text[:1] or " ") - ord("a")
    digits, direction = text[1:-1], text[-1:]
    if not (0 <= col < width and digits.isdigit() and direction and direction in DIRECTIONS):
        last = f"{chr(ord('a') + width - 1)}{width}"
        raise NotationError(
            f"{text!r} is not a placement: a square a1 to {last} and a direction n, e, s, w"
        )
    row = int(digits) - 1
    if not 0 <= row < width:
        raise NotationError(f"{text!r}: rows go from 1 to {width}")
    return kingdom.cell(row, col) * 4 + DIRECTIONS.index(direction)
