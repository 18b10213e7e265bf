"""Area cards as data: the card description of docs/elcaballero-cards.md (the reference's §9.1).

A card has four edges (N, E, S, W, clockwise, in its printed orientation), each wholly land or
sea, and regions: a land or sea area touching some edges (or none: closed from the start), with
gold (land) or fish (sea). The printed cards are not known to us, so every card is a description
a user supplies; `card_from_mapping` reads one from a catalogue entry or a position,
`card_from_text` from the one-word notation, and both check it with a specific error.

>>> card = card_from_text("LNSg1+SE+SWf1")
>>> card.edges, card.start_ok, card.text
('LSLS', False, 'LNSg1+SE+SWf1')
>>> card_from_text("LNS+SEW").start_ok
Traceback (most recent call last):
...
engine.elcaballero.cards.CardError: the land region N-S and the sea region E-W would cross
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LAND = 0
SEA = 1
KIND_NAMES = ("land", "sea")
KIND_LETTERS = "LS"
EDGE_NAMES = "NESW"  # index = direction: 0 north, 1 east, 2 south, 3 west (clockwise)
MAX_TREASURE = 9  # gold or fish on one region: more is a typing error


# Why a card description is refused: one English template per translation key (the key is
# `ec.card.<name>`, worded in every language in host/games/elcaballero/static/i18n/*/ui.json;
# its parameters fill the {braces}: edges, parts and fields of the notation, never words).
CARD_PREFIX = "ec.card."
CARD_TEMPLATES: dict[str, str] = {
    "no_region": "a card needs at least one region",
    "edge_unowned": "edge {edge} belongs to no region",
    "edge_shared": "edge {edge} belongs to more than one region",
    "gold_range": "the land region {edges}: gold must be 0 to {max}",
    "gold_range_closed": "the land region touching no edge: gold must be 0 to {max}",
    "fish_range": "the sea region {edges}: fish must be 0 to {max}",
    "fish_range_closed": "the sea region touching no edge: fish must be 0 to {max}",
    "cross_land_land": "the land region {a} and the land region {b} would cross",
    "cross_land_sea": "the land region {a} and the sea region {b} would cross",
    "cross_sea_land": "the sea region {a} and the land region {b} would cross",
    "cross_sea_sea": "the sea region {a} and the sea region {b} would cross",
    "not_text": "not a card description: {text}",
    "region_kind": "a region starts with L (land) or S (sea): {part}",
    "edge_twice_text": "edge {edge} is listed twice in {part}",
    "after_edges_land": "{part}: after the edges only gold (gN) on land may follow",
    "after_edges_sea": "{part}: after the edges only fish (fN) on sea may follow",
    "not_table": "a card is a table with edges and regions, or a description text",
    "unknown_fields": "unknown field(s) {fields} (known: count, edges, id, regions)",
    "id_text": "id must be text",
    "count_whole": "count must be a whole number of at least 1",
    "regions_list": "regions must be a non-empty list",
    "edges_letters": "edges must be four letters L or S (N, E, S, W)",
    "edge_land_region_sea": "edge {edge} is land in edges but its region is sea",
    "edge_sea_region_land": "edge {edge} is sea in edges but its region is land",
    "region_table": "regions[{index}]: a region is a table with type and edges",
    "region_type": "regions[{index}]: type must be land or sea",
    "region_gold_on_sea": "regions[{index}]: gold only on a land region",
    "region_fish_on_land": "regions[{index}]: fish only on a sea region",
    "region_unknown_field": "regions[{index}]: unknown field {key}",
    "region_edges_list": "regions[{index}]: edges must be a list of N, E, S, W",
    "region_edge_twice": "regions[{index}]: edge {edge} listed twice",
    "region_gold_whole": "regions[{index}]: gold must be a whole number",
    "region_fish_whole": "regions[{index}]: fish must be a whole number",
}


class CardError(ValueError):
    """A card description is malformed; the message says what, for a player to fix. `key` and
    `params` word it in any language (CARD_TEMPLATES); `field` is the field of a catalogue
    entry it concerns (`regions[2]`, `count`; "": the entry as a whole), for the line a
    refused catalogue names."""

    def __init__(self, name: str, field: str = "regions", **params: str | int) -> None:
        super().__init__(CARD_TEMPLATES[name].format(**params))
        self.key = CARD_PREFIX + name
        self.params: dict[str, str | int] = params
        self.field = field


class RegionDesc:
    """One area of a card: its kind, the edges it touches (a bit mask, bit d = direction d) and
    its gold (land) or fish (sea)."""

    def __init__(self, kind: int, edge_mask: int, treasure: int) -> None:
        self.kind = kind
        self.edge_mask = edge_mask
        self.treasure = treasure

    @property
    def edge_names(self) -> list[str]:
        return [EDGE_NAMES[d] for d in range(4) if self.edge_mask >> d & 1]

    def text(self) -> str:
        out = KIND_LETTERS[self.kind] + "".join(self.edge_names)
        if self.treasure:
            out += ("g" if self.kind == LAND else "f") + str(self.treasure)
        return out

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": KIND_NAMES[self.kind], "edges": self.edge_names}
        out["gold" if self.kind == LAND else "fish"] = self.treasure
        return out


class CardDesc:
    """One area card (printed orientation). `id` is "" for a card entered without a catalogue."""

    def __init__(self, regions: list[RegionDesc], card_id: str = "", count: int = 1) -> None:
        check_regions(regions)
        self.id = card_id
        self.count = count
        self.regions: tuple[RegionDesc, ...] = tuple(regions)
        # edge_region[d]: the index of the region touching printed edge d
        self.edge_region: tuple[int, ...] = tuple(
            next(i for i, r in enumerate(regions) if r.edge_mask >> d & 1) for d in range(4)
        )
        self.land_mask = sum(1 << d for d in range(4) if regions[self.edge_region[d]].kind == LAND)
        self.edges = "".join("L" if self.land_mask >> d & 1 else "S" for d in range(4))
        self.text = "+".join(r.text() for r in regions)
        self.start_ok = all(r.treasure == 0 for r in regions) and any(
            r.kind == LAND for r in regions
        )

    def gold(self) -> int:
        return sum(r.treasure for r in self.regions if r.kind == LAND)

    def fish(self) -> int:
        return sum(r.treasure for r in self.regions if r.kind == SEA)

    def same_card(self, other: CardDesc) -> bool:
        """The same printed card in some rotation (what a revealed card is matched by)."""
        return other.text in rotations_text(self)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.id:
            out["id"] = self.id
        out["edges"] = self.edges
        out["regions"] = [r.to_json() for r in self.regions]
        return out


def rotated_mask(mask: int, turns: int) -> int:
    """An edge mask turned clockwise by `turns` quarter turns (N goes to E)."""
    turns %= 4
    return ((mask << turns) | (mask >> (4 - turns))) & 15


def rotations_text(card: CardDesc) -> set[str]:
    """The card's text in each of its four rotations (regions in a canonical order)."""
    out = set()
    for turns in range(4):
        regions = sorted(
            (
                RegionDesc(r.kind, rotated_mask(r.edge_mask, turns), r.treasure)
                for r in card.regions
            ),
            key=lambda r: (r.kind, _first_edge(r.edge_mask), r.treasure),
        )
        out.add("+".join(r.text() for r in regions))
    return out


def _first_edge(mask: int) -> int:
    return next((d for d in range(4) if mask >> d & 1), 4)


def _cross(a: int, b: int) -> bool:
    """Two disjoint edge sets interleave around the card (a1 < b1 < a2 < b2 clockwise)."""
    seen = [d for d in range(4) if (a | b) >> d & 1]
    marks = ["a" if a >> d & 1 else "b" for d in seen]
    changes = sum(1 for i in range(len(marks)) if marks[i] != marks[i - 1])
    return changes >= 4


def check_regions(regions: list[RegionDesc]) -> None:
    """The reference's validation rules, each with its own message."""
    if not regions:
        raise CardError("no_region")
    for d in range(4):
        holders = [r for r in regions if r.edge_mask >> d & 1]
        if not holders:
            raise CardError("edge_unowned", edge=EDGE_NAMES[d])
        if len(holders) > 1:
            raise CardError("edge_shared", edge=EDGE_NAMES[d])
    for r in regions:
        if not 0 <= r.treasure <= MAX_TREASURE:
            name = ("gold" if r.kind == LAND else "fish") + "_range"
            edges = "-".join(r.edge_names)
            if not edges:
                raise CardError(name + "_closed", max=MAX_TREASURE)
            raise CardError(name, edges=edges, max=MAX_TREASURE)
    for i, a in enumerate(regions):
        for b in regions[i + 1 :]:
            if _cross(a.edge_mask, b.edge_mask):
                raise CardError(
                    f"cross_{KIND_NAMES[a.kind]}_{KIND_NAMES[b.kind]}",
                    a="-".join(a.edge_names),
                    b="-".join(b.edge_names),
                )


def card_from_text(text: str, card_id: str = "") -> CardDesc:
    """The one-word notation: regions joined by '+', each a kind letter (L land, S sea), the
    edges it touches (N E S W, none for a closed region), then gN gold or fN fish."""
    if not text or len(text) > 40:
        raise CardError("not_text", text=repr(text))
    regions = []
    for part in text.split("+"):
        regions.append(_region_from_text(part))
    return CardDesc(regions, card_id)


def _region_from_text(part: str) -> RegionDesc:
    if not part or part[0].upper() not in KIND_LETTERS:
        raise CardError("region_kind", part=repr(part))
    kind = KIND_LETTERS.index(part[0].upper())
    mask = 0
    i = 1
    while i < len(part) and part[i].upper() in EDGE_NAMES:
        bit = 1 << EDGE_NAMES.index(part[i].upper())
        if mask & bit:
            raise CardError("edge_twice_text", edge=part[i].upper(), part=repr(part))
        mask |= bit
        i += 1
    treasure = 0
    if i < len(part):
        letter = part[i].lower()
        wanted = "g" if kind == LAND else "f"
        if letter != wanted or not part[i + 1 :].isdigit():
            name = "after_edges_land" if kind == LAND else "after_edges_sea"
            raise CardError(name, part=repr(part))
        treasure = int(part[i + 1 :])
    return RegionDesc(kind, mask, treasure)


def card_from_mapping(raw: Any, card_id: str = "") -> CardDesc:
    """A card from a catalogue entry or a position (`edges`, `regions`, optional `id`,
    `count`); CardError says what is wrong."""
    if isinstance(raw, str):
        return card_from_text(raw, card_id)
    if not isinstance(raw, Mapping):
        raise CardError("not_table", field="")
    known = {"id", "count", "edges", "regions"}
    unknown = sorted(str(k) for k in raw if k not in known)
    if unknown:
        raise CardError("unknown_fields", field=unknown[0], fields=", ".join(unknown))
    label = raw.get("id", card_id)
    if not isinstance(label, str):
        raise CardError("id_text", field="id")
    count = raw.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise CardError("count_whole", field="count")
    regions_raw = raw.get("regions")
    if not isinstance(regions_raw, list) or not regions_raw:
        raise CardError("regions_list")
    regions = [_region_from_mapping(r, i) for i, r in enumerate(regions_raw)]
    card = CardDesc(regions, label, count)
    edges = raw.get("edges")
    if edges is not None:
        if not isinstance(edges, str) or len(edges) != 4 or set(edges.upper()) - {"L", "S"}:
            raise CardError("edges_letters", field="edges")
        for d in range(4):
            if edges[d].upper() != card.edges[d]:
                name = "edge_sea_region_land" if card.edges[d] == "L" else "edge_land_region_sea"
                raise CardError(name, field="edges", edge=EDGE_NAMES[d])
    return card


def _region_from_mapping(raw: Any, index: int) -> RegionDesc:
    where = f"regions[{index}]"
    if not isinstance(raw, Mapping):
        raise CardError("region_table", field=where, index=index)
    kind_name = raw.get("type")
    if kind_name not in KIND_NAMES:
        raise CardError("region_type", field=where, index=index)
    kind = KIND_NAMES.index(str(kind_name))
    known = {"type", "edges", "gold" if kind == LAND else "fish"}
    for key in raw:
        if key not in known:
            if key in ("gold", "fish"):
                name = "region_fish_on_land" if key == "fish" else "region_gold_on_sea"
                raise CardError(name, field=where, index=index)
            raise CardError("region_unknown_field", field=where, index=index, key=repr(key))
    edges = raw.get("edges", [])
    if not isinstance(edges, list) or not all(
        isinstance(e, str) and e.upper() in EDGE_NAMES and len(e) == 1 for e in edges
    ):
        raise CardError("region_edges_list", field=where, index=index)
    mask = 0
    for e in edges:
        bit = 1 << EDGE_NAMES.index(e.upper())
        if mask & bit:
            raise CardError("region_edge_twice", field=where, index=index, edge=e.upper())
        mask |= bit
    treasure = raw.get("gold" if kind == LAND else "fish", 0)
    if isinstance(treasure, bool) or not isinstance(treasure, int):
        name = "region_gold_whole" if kind == LAND else "region_fish_whole"
        raise CardError(name, field=where, index=index)
    return RegionDesc(kind, mask, treasure)
