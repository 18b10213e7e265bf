"""The map: a grid of cells holding area cards (with rotation) and caballero cards, with its
land and sea regions kept by union-find as cards are placed (never a flood fill per query).

Cells are (x, y) with y growing southwards; a cell's key packs them into one int. Directions
are 0 north, 1 east, 2 south, 3 west. An area card turned `rotation` quarter turns clockwise
shows its printed edge p on map side (p + rotation) % 4.

Each region of each placed area card is a node; nodes of neighbouring cards are joined across
matching edges. A root keeps its region's kind, the cells it reaches (a card counts once even
if the region reaches it through two parts: EC-31), its gold or fish, and how many of its
edges face no area card (0: closed, for the extended game's Governors).

>>> from engine.elcaballero.cards import card_from_text
>>> m = Map()
>>> m.place_area(card_from_text("LE+SNSW"), 0, 0, 0)
>>> m.fit(card_from_text("LW+SNES"), 0, 1, 0)
0
>>> m.place_area(card_from_text("LW+SNES"), 0, 1, 0)
>>> island = m.region_at(0, 0, 0)
>>> m.region_cards(island), m.is_closed(island)
(2, True)
"""

from __future__ import annotations

from engine.elcaballero.cards import LAND, SEA, CardDesc, rotated_mask

WIDTH = 1024  # cells per grid row in a key; the map never grows 512 cells from the start
OFFSET = 512
DELTA = (-1, WIDTH, 1, -WIDTH)  # key step to the neighbour north, east, south, west
DIRS = "NESW"

FIT_OK = 0
FIT_OCCUPIED = 1
FIT_NO_AREA = 2  # no side touches an area card
FIT_MISMATCH = 3  # land would meet sea (fit_side says where)


def key_of(x: int, y: int) -> int:
    return (x + OFFSET) * WIDTH + (y + OFFSET)


def xy_of(key: int) -> tuple[int, int]:
    return key // WIDTH - OFFSET, key % WIDTH - OFFSET


def cell_from_text(text: object) -> int | None:
    """'x,y' (whole numbers, at most 200 from the start) to a cell key; None if it is not."""
    if not isinstance(text, str):
        return None
    parts = text.split(",")
    if len(parts) != 2:
        return None
    try:
        x, y = int(parts[0]), int(parts[1])
    except ValueError:
        return None
    if not (-200 <= x <= 200 and -200 <= y <= 200):
        return None
    return key_of(x, y)


_NAMES: dict[int, str] = {}


def cell_name(key: int) -> str:
    """'x,y' of a cell key (memoised: listings name the same cells over and over)."""
    name = _NAMES.get(key)
    if name is None:
        x, y = xy_of(key)
        name = f"{x},{y}"
        _NAMES[key] = name
    return name


class PlacedArea:
    """An area card on the map."""

    def __init__(self, card: CardDesc, rotation: int, key: int, nodes: list[int]) -> None:
        self.card = card
        self.rotation = rotation
        self.land_mask = rotated_mask(card.land_mask, rotation)  # land sides on the map
        self.key = key
        self.nodes = nodes  # node id of each of the card's regions (card.regions order)
        # the node on each map side
        self.edge_node = [nodes[card.edge_region[(d - rotation) % 4]] for d in range(4)]

    def land(self, side: int) -> bool:
        return bool(self.land_mask >> side & 1)


class CaballeroCard:
    """A caballero card on the map. `ships`: a bit per map side carrying a ship."""

    def __init__(self, owner: int, side: int, rotation: int, key: int) -> None:
        self.owner = owner
        self.side = side  # 0 front (1-4), 1 back (5-8)
        self.rotation = rotation
        self.key = key
        self.ships = 0
        self.castillo = False
        self.grande = False

    def copy(self) -> CaballeroCard:
        out = CaballeroCard(self.owner, self.side, self.rotation, self.key)
        out.ships = self.ships
        out.castillo = self.castillo
        out.grande = self.grande
        return out


class Governor:
    """An alcalde on a closed region (extended game), by one node of that region; `ship`: its
    owner's ship on that lake (EC-8)."""

    def __init__(self, owner: int, node: int, ship: bool) -> None:
        self.owner = owner
        self.node = node
        self.ship = ship

    def copy(self) -> Governor:
        return Governor(self.owner, self.node, self.ship)


class Map:
    """Cells, cards and regions (see the module docstring)."""

    def __init__(self) -> None:
        self.areas: dict[int, PlacedArea] = {}
        self.caballeros: dict[int, CaballeroCard] = {}
        self.frontier: set[int] = set()  # empty cells next to an area card
        self.parent: list[int] = []
        self.kind: list[int] = []
        self.node_treasure: list[int] = []
        self.node_key: list[int] = []
        self.root_cells: list[set[int]] = []
        self.root_treasure: list[int] = []
        self.root_open: list[int] = []
        self.governors: list[Governor] = []  # in the order placed
        self.version = 0  # bumped whenever a card is laid, removed or turned (for caches)
        self._free: list[tuple[int, int, int, int, int]] = []
        self._free_at = -1
        self._closed: list[int] = []
        self._closed_at = -1

    # --- copying (undo keeps copies of the map) ---

    def copy(self) -> Map:
        out = Map()
        out.areas = dict(self.areas)  # placed areas never change
        out.caballeros = {k: c.copy() for k, c in self.caballeros.items()}
        out.frontier = set(self.frontier)
        out.parent = list(self.parent)
        out.kind = list(self.kind)
        out.node_treasure = list(self.node_treasure)
        out.node_key = list(self.node_key)
        out.root_cells = [set(s) if s else s for s in self.root_cells]
        out.root_treasure = list(self.root_treasure)
        out.root_open = list(self.root_open)
        out.governors = [g.copy() for g in self.governors]
        out.version = self.version
        return out

    # --- union-find ---

    def find(self, node: int) -> int:
        parent = self.parent
        root = node
        while parent[root] != root:
            root = parent[root]
        while parent[node] != root:
            parent[node], node = root, parent[node]
        return root

    def _new_node(self, kind: int, treasure: int, key: int) -> int:
        node = len(self.parent)
        self.parent.append(node)
        self.kind.append(kind)
        self.node_treasure.append(treasure)
        self.node_key.append(key)
        self.root_cells.append({key})
        self.root_treasure.append(treasure)
        self.root_open.append(0)
        return node

    def _union(self, a: int, b: int) -> int:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        if len(self.root_cells[ra]) < len(self.root_cells[rb]):
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.root_cells[ra] |= self.root_cells[rb]
        self.root_cells[rb] = set()
        self.root_treasure[ra] += self.root_treasure[rb]
        self.root_open[ra] += self.root_open[rb]
        return ra

    # --- queries ---

    def region_cards(self, root: int) -> int:
        """The size of a region: the area cards it reaches (each once)."""
        return len(self.root_cells[self.find(root)])

    def region_treasure(self, root: int) -> int:
        return self.root_treasure[self.find(root)]

    def is_closed(self, root: int) -> bool:
        """No edge of the region faces an empty cell or a caballero card (EC-29: geometry)."""
        return self.root_open[self.find(root)] == 0

    def governor_of(self, root: int) -> Governor | None:
        """The Governor on the region of `root`, if any."""
        root = self.find(root)
        for placed in self.governors:
            if self.find(placed.node) == root:
                return placed
        return None

    def region_index(self, key: int, root: int) -> int:
        """The index, on the area card at `key`, of its region belonging to `root` (-1: none)."""
        area = self.areas[key]
        root = self.find(root)
        return next((i for i, n in enumerate(area.nodes) if self.find(n) == root), -1)

    def region_at(self, x: int, y: int, region_index: int) -> int:
        """The root of one region of the area card at (x, y), by its index on the card."""
        return self.find(self.areas[key_of(x, y)].nodes[region_index])

    def roots(self) -> list[int]:
        """Every region's root, in the order regions first appeared."""
        return [n for n in range(len(self.parent)) if self.parent[n] == n]

    def closed_roots(self) -> list[int]:
        """Every closed region's root (EC-29), in the order regions first appeared (kept until
        the map changes)."""
        if self._closed_at != self.version:
            parent, still_open = self.parent, self.root_open
            self._closed = [n for n in range(len(parent)) if parent[n] == n and not still_open[n]]
            self._closed_at = self.version
        return self._closed

    def facing(self, key: int, side: int) -> tuple[int, int]:
        """What the cell `key` faces on `side`: (kind, root) of the area card's edge there, or
        (-1, -1) when no area card is there."""
        area = self.areas.get(key + DELTA[side])
        if area is None:
            return -1, -1
        back = (side + 2) % 4
        return (LAND if area.land(back) else SEA), self.find(area.edge_node[back])

    def side_kind(self, key: int, side: int) -> int:
        """LAND or SEA of the area card's edge facing `side` of the cell, -1 if none."""
        area = self.areas.get(key + DELTA[side])
        if area is None:
            return -1
        return LAND if area.land_mask >> ((side + 2) % 4) & 1 else SEA

    def land_sides(self, key: int) -> int:
        """How many sides of the cell face a land edge of an area card."""
        count = 0
        for side in range(4):
            area = self.areas.get(key + DELTA[side])
            if area is not None and area.land((side + 2) % 4):
                count += 1
        return count

    def neighbour_masks(self, key: int) -> tuple[int, int]:
        """(sides with an area card, sides where that card's edge is land), as bit masks."""
        present = 0
        land = 0
        for side in range(4):
            area = self.areas.get(key + DELTA[side])
            if area is not None:
                present |= 1 << side
                if area.land((side + 2) % 4):
                    land |= 1 << side
        return present, land

    def touches_area(self, key: int) -> bool:
        return any(key + DELTA[side] in self.areas for side in range(4))

    def is_empty(self, key: int) -> bool:
        return key not in self.areas and key not in self.caballeros

    def fit(self, card: CardDesc, rotation: int, x: int, y: int) -> int:
        """FIT_OK if the card may lie there by the basic rule (next to an area card, land on
        land and sea on sea wherever it touches one), else why not (see fit_side)."""
        key = key_of(x, y)
        return self.fit_key(card, rotation, key)

    def fit_key(self, card: CardDesc, rotation: int, key: int) -> int:
        if not self.is_empty(key):
            return FIT_OCCUPIED
        if self.fit_side(card, rotation, key) >= 0:
            return FIT_MISMATCH
        return FIT_OK if self.touches_area(key) else FIT_NO_AREA

    def fit_side(self, card: CardDesc, rotation: int, key: int) -> int:
        """The first side where land would meet sea, or -1."""
        mask = card.land_mask
        for side in range(4):
            area = self.areas.get(key + DELTA[side])
            if area is not None:
                mine = mask >> ((side - rotation) % 4) & 1
                theirs = 1 if area.land((side + 2) % 4) else 0
                if mine != theirs:
                    return side
        return -1

    # --- changes ---

    def place_area(self, card: CardDesc, rotation: int, x: int, y: int) -> None:
        """Lay an area card (legality is the caller's) and join its regions to the map's."""
        self.place_area_key(card, rotation % 4, key_of(x, y))

    def changed(self) -> None:
        """A caballero card on the map was turned: its numbers changed."""
        self.version += 1

    def free_cells(self) -> list[tuple[int, int, int, int, int]]:
        """(cell, sides with an area card and sides facing land as bit masks, how many sides
        face land, the first such side or -1) of every empty cell next to an area card, in key
        order (kept until the map changes)."""
        if self._free_at != self.version:
            out = []
            for key in sorted(self.frontier):
                present, land = self.neighbour_masks(key)
                first = next((side for side in range(4) if land >> side & 1), -1)
                out.append((key, present, land, bin(land).count("1"), first))
            self._free = out
            self._free_at = self.version
        return self._free

    def place_area_key(self, card: CardDesc, rotation: int, key: int) -> None:
        self.version += 1
        nodes = [self._new_node(r.kind, r.treasure, key) for r in card.regions]
        placed = PlacedArea(card, rotation, key, nodes)
        self.areas[key] = placed
        self.frontier.discard(key)
        for side in range(4):
            node = placed.edge_node[side]
            neighbour_key = key + DELTA[side]
            neighbour = self.areas.get(neighbour_key)
            if neighbour is None:
                self.root_open[self.find(node)] += 1
                if neighbour_key not in self.caballeros:
                    self.frontier.add(neighbour_key)
                continue
            other = neighbour.edge_node[(side + 2) % 4]
            self.root_open[self.find(other)] -= 1  # that edge faced this empty cell
            if self.kind[other] == self.kind[node]:
                self._union(node, other)

    def place_caballero(self, card: CaballeroCard) -> None:
        self.version += 1
        self.caballeros[card.key] = card
        self.frontier.discard(card.key)

    def remove_caballero(self, key: int) -> CaballeroCard:
        self.version += 1
        card = self.caballeros.pop(key)
        if self.touches_area(key):
            self.frontier.add(key)
        return card

    def crowded_around(self, key: int) -> list[int]:
        """Caballero cards next to `key` that touch land on more than one side and have no
        Grande: after an area card is laid at `key`, they must go (EC-9: two sides facing the
        same island count as two)."""
        out = []
        for side in range(4):
            neighbour = key + DELTA[side]
            card = self.caballeros.get(neighbour)
            if card is not None and not card.grande and self.land_sides(neighbour) > 1:
                out.append(neighbour)
        return out
