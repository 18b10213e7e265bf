"""Score one scoring event on a position described as data (the `castillo score` command).

A position is what lies on the table: the King's region, the Grandes, caballeros per region and
in the castillo, the scoring tiles and, for a general scoring, each player's disc. Input and
output are JSON-ready mappings (format: docs/score-input.md). Ranking and bonuses come from
`engine.elgrande.scoring.score_area`, board and cards from `engine.elgrande.data`; this module
only reads the position, checks it, and says which areas are scored in which order.

>>> result = score_position({
...     "players": ["purple", "green", "blue", "orange"], "king": "Toledo",
...     "regions": {"Galicia": {"orange": 4, "blue": 3, "purple": 2, "green": 1}},
...     "scoring": {"regions": ["Galicia"]}})
>>> result["areas"][0]["points"]
{'orange': 4, 'blue': 2, 'purple': 0, 'green': 0}
>>> result["totals"]
{'purple': 0, 'green': 0, 'blue': 2, 'orange': 4}
>>> score_position({"players": ["purple", "green"], "king": "Toledo", "scoring": "fair"})
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.core.errors.PositionError: scoring: card 'fair' (Fair) lets the player choose ...
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core.errors import PositionError
from engine.elgrande import data as gamedata
from engine.elgrande.scoring import AreaScore, note_text, regions_for_score_op, score_area

FIELDS = (
    "game",  # optional: the score command reads it to choose the game
    "edition",
    "players",
    "dummy",
    "king",
    "grandes",
    "regions",
    "castillo",
    "tiles",
    "discs",
    "scoring",
)
# Disc values that mean "set ambiguously": the caballeros go back to court.
UNCLEAR_DISC = ("", "?", "unclear", "ambiguous")
COURT = "court"
PROVINCE = "province"


@dataclass(frozen=True)
class Position:
    """A checked position. Areas are indices: regions in board order, then the castillo."""

    data: gamedata.GameData
    players: tuple[str, ...]  # the scoring players' colours
    dummy: str | None  # the 2-player game's dummy colour: takes places, never scores
    king: int  # a region, the castillo (Revolt), France or Portugal (Exile)
    grandes: Mapping[str, int]  # a region, or the castillo (Tournament)
    board: tuple[Mapping[str, int], ...]  # caballeros per region (board order)
    castillo: Mapping[str, int]
    tiles: Mapping[int, str]  # area -> scoring tile id
    discs: Mapping[str, int | None]  # colour -> region; None: set ambiguously

    @property
    def colours(self) -> tuple[str, ...]:
        """Every colour on the board: the players, then the dummy colour if any."""
        return self.players + ((self.dummy,) if self.dummy else ())

    @property
    def places(self) -> int:
        """How many places score: only two with 2 or 3 players."""
        return 2 if len(self.players) <= 3 else 3

    @property
    def castillo_area(self) -> int:
        return len(self.data.regions)

    def area_name(self, area: int) -> str:
        if area < self.castillo_area:
            return self.data.regions[area].name
        return (gamedata.CASTILLO, *gamedata.BORDERS)[area - self.castillo_area]

    def values(self, area: int) -> tuple[int, ...]:
        """The values an area scores with: a tile's if one lies there, else the printed ones."""
        tile = self.tiles.get(area)
        if tile is not None:
            return self.data.tile(tile).values
        if area == self.castillo_area:
            return self.data.castillo_values
        region = self.data.regions[area]
        return region.values if self.places == 3 else region.values_2_3_players


@dataclass(frozen=True)
class Scoring:
    """What is scored. `kind`: general, areas (a list given), card (automatic) or rivalry."""

    kind: str
    areas: tuple[int, ...] = ()
    card: str = ""
    steps: tuple[Mapping[str, Any], ...] = ()  # the card's `score` ops


# ---------------------------------------------------------------------------- reading
def _mapping(raw: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise PositionError(field, f"must be a JSON object, got {type(raw).__name__}")
    return raw


def _count(raw: Any, field: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise PositionError(field, f"a count must be a whole number, got {raw!r}")
    if raw < 0:
        raise PositionError(field, f"a count must not be negative, got {raw}")
    return raw


def _area(data: gamedata.GameData, raw: Any, field: str, *, castillo: bool = False) -> int:
    if not isinstance(raw, str):
        raise PositionError(field, f"a region name is text, got {raw!r}")
    if gamedata.fold(raw) == gamedata.CASTILLO:
        if castillo:
            return len(data.regions)
        raise PositionError(field, "the castillo is not a region here")
    index = data.region_index(raw)
    if index is None:
        known = ", ".join(r.name for r in data.regions)
        where = f"{known} or castillo" if castillo else known
        raise PositionError(field, f"unknown region {raw!r} (the board has {where})")
    return index


class _Colours:
    """Colour names of one position, matched case-insensitively."""

    def __init__(self, colours: Iterable[str]) -> None:
        self.by_key = {gamedata.fold(c): c for c in colours}

    def get(self, raw: Any, field: str) -> str:
        colour = self.by_key.get(gamedata.fold(raw)) if isinstance(raw, str) else None
        if colour is None:
            known = ", ".join(self.by_key.values())
            raise PositionError(field, f"{raw!r} is not a colour in this game ({known})")
        return colour


def _king(data: gamedata.GameData, raw: Any) -> int:
    """The King's area: a region, or with New Regency the castillo, France or Portugal."""
    for offset, name in enumerate(gamedata.BORDERS, start=1):
        if isinstance(raw, str) and gamedata.fold(raw) == gamedata.fold(name):
            return len(data.regions) + offset
    return _area(data, raw, "king", castillo=True)


def _edition_colour(data: gamedata.GameData, raw: Any, field: str) -> str:
    index = data.colour_index(raw) if isinstance(raw, str) else None
    if index is None:
        known = ", ".join(data.colours)
        raise PositionError(
            field, f"unknown colour {raw!r} (the {data.edition} edition has {known})"
        )
    return data.colours[index]


def _players(data: gamedata.GameData, raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list) or not 2 <= len(raw) <= len(data.colours):
        raise PositionError(
            "players", f"must list 2 to {len(data.colours)} colours in seat order, got {raw!r}"
        )
    players = tuple(_edition_colour(data, c, f"players[{i}]") for i, c in enumerate(raw))
    if len(set(players)) != len(players):
        raise PositionError("players", "each player needs a different colour")
    return players


def _dummy(data: gamedata.GameData, raw: Any, players: tuple[str, ...]) -> str | None:
    if raw is None:
        return None
    colour = _edition_colour(data, raw, "dummy")
    if len(players) != 2:
        raise PositionError("dummy", "only the 2-player game has a dummy colour")
    if colour in players:
        raise PositionError("dummy", f"{colour} is a player's colour")
    return colour


def _counts(raw: Any, field: str, colours: _Colours) -> dict[str, int]:
    counts: dict[str, int] = {}
    for key, value in _mapping(raw, field).items():
        colour = colours.get(key, f"{field}.{key}")
        if colour in counts:
            raise PositionError(f"{field}.{key}", f"{colour} is given twice")
        counts[colour] = _count(value, f"{field}.{key}")
    return counts


def _keyed_by_area(
    data: gamedata.GameData, raw: Any, field: str, *, castillo: bool = False
) -> dict[int, tuple[str, Any]]:
    """A JSON object keyed by region names: area -> (the name as written, the value)."""
    out: dict[int, tuple[str, Any]] = {}
    for key, value in _mapping(raw, field).items():
        area = _area(data, key, f"{field}.{key}", castillo=castillo)
        if area in out:
            raise PositionError(f"{field}.{key}", f"the same area as {out[area][0]!r}")
        out[area] = (key, value)
    return out


def _tiles(data: gamedata.GameData, raw: Any) -> dict[int, str]:
    tiles: dict[int, str] = {}
    ids = {gamedata.fold(t.id): t.id for t in data.tiles}
    for area, (key, value) in _keyed_by_area(data, raw, "tiles", castillo=True).items():
        tile = ids.get(gamedata.fold(value)) if isinstance(value, str) else None
        if tile is None:
            known = ", ".join(ids.values())
            raise PositionError(f"tiles.{key}", f"unknown scoring tile {value!r} ({known})")
        if tile in tiles.values():
            raise PositionError(f"tiles.{key}", f"tile {tile} lies in two places")
        tiles[area] = tile
    return tiles


def _discs(
    data: gamedata.GameData, raw: Any, colours: _Colours, dummy: str | None
) -> dict[str, int | None]:
    discs: dict[str, int | None] = {}
    for key, value in _mapping(raw, "discs").items():
        if dummy is not None and isinstance(key, str) and gamedata.fold(key) == dummy:
            raise PositionError(f"discs.{key}", "the dummy sets no disc")
        colour = colours.get(key, f"discs.{key}")
        if value is None or (isinstance(value, str) and value.strip().lower() in UNCLEAR_DISC):
            discs[colour] = None
        else:
            discs[colour] = _area(data, value, f"discs.{key}")
    return discs


def _check_supply(data: gamedata.GameData, position: Position) -> None:
    for colour in position.colours:
        used = sum(row.get(colour, 0) for row in position.board)
        used += position.castillo.get(colour, 0)
        if used > data.caballeros_per_colour:
            raise PositionError(
                f"regions/castillo ({colour})",
                f"{colour} has {used} caballeros on the board and in the castillo, but a colour "
                f"owns only {data.caballeros_per_colour} in the {data.edition} edition",
            )


def read_position(
    raw: Mapping[str, Any], overrides: Sequence[Path | str] = ()
) -> tuple[Position, Scoring]:
    """Check a JSON position (docs/score-input.md) and the scoring it asks for."""
    raw = _mapping(raw, "position")
    unknown = [key for key in raw if key not in FIELDS]
    if unknown:
        raise PositionError(unknown[0], f"unknown field (known: {', '.join(FIELDS)})")
    edition = raw.get("edition", "2023")
    if edition not in gamedata.EDITIONS:
        raise PositionError("edition", f"must be one of {', '.join(gamedata.EDITIONS)}")
    data = gamedata.load(edition, overrides)
    for required in ("players", "king", "scoring"):
        if required not in raw:
            raise PositionError(required, "required field is missing")
    players = _players(data, raw["players"])
    dummy = _dummy(data, raw.get("dummy"), players)
    colours = _Colours(players + ((dummy,) if dummy else ()))
    king = _king(data, raw["king"])
    grandes: dict[str, int] = {}
    owners = _Colours(players)
    for key, value in _mapping(raw.get("grandes", {}), "grandes").items():
        colour = owners.get(key, f"grandes.{key}")
        grandes[colour] = _area(data, value, f"grandes.{key}", castillo=True)
    board: list[dict[str, int]] = [{} for _ in data.regions]
    for area, (key, value) in _keyed_by_area(data, raw.get("regions", {}), "regions").items():
        board[area] = _counts(value, f"regions.{key}", colours)
    position = Position(
        data=data,
        players=players,
        dummy=dummy,
        king=king,
        grandes=grandes,
        board=tuple(board),
        castillo=_counts(raw.get("castillo", {}), "castillo", colours),
        tiles=_tiles(data, raw.get("tiles", {})),
        discs=_discs(data, raw.get("discs", {}), _Colours(players), dummy),
    )
    _check_supply(data, position)
    return position, read_scoring(data, raw["scoring"])


# ---------------------------------------------------------------------------- the scoring asked
def _card(data: gamedata.GameData, name: str) -> gamedata.Card:
    for card in data.cards.values():
        if gamedata.fold(card.id) == gamedata.fold(name):
            return card
    other = next(e for e in gamedata.EDITIONS if e != data.edition)
    if any(gamedata.fold(c) == gamedata.fold(name) for c in gamedata.load(other).cards):
        raise PositionError(
            "scoring", f'card {name!r} is a {other} edition card: set "edition": "{other}"'
        )
    raise PositionError(
        "scoring",
        f'unknown scoring {name!r}: use "general", {{"regions": [...]}}, '
        '{"castillo": true} or the id of a card that scores',
    )


def _card_scoring(card: gamedata.Card) -> Scoring:
    label = f"card {card.id!r} ({card.name()})"
    ops = {step["op"] for step in card.effect}
    if "rivalry" in ops:
        return Scoring("rivalry", card=card.id)
    steps = [step for step in card.effect if step["op"] == "score"]
    if any(step["select"] == "chosen" for step in steps):
        castillo = any(step.get("castillo_allowed") for step in steps)
        allowed = " (the castillo may be chosen too)" if castillo else ""
        raise PositionError(
            "scoring",
            f"{label} lets the player choose the region: describe it as "
            f'{{"regions": ["<region>"]}}{allowed}',
        )
    if not steps:
        raise PositionError("scoring", f"{label} does not score anything")
    return Scoring("card", card=card.id, steps=tuple(steps))


def read_scoring(data: gamedata.GameData, raw: Any) -> Scoring:
    if isinstance(raw, str):
        key = gamedata.fold(raw)
        if key == "general":
            return Scoring("general")
        if key == gamedata.CASTILLO:
            return Scoring("areas", areas=(len(data.regions),))
        return _card_scoring(_card(data, raw))
    spec = _mapping(raw, "scoring")
    if len(spec) != 1 or next(iter(spec)) not in ("regions", "castillo", "card"):
        raise PositionError(
            "scoring", 'give exactly one of "regions": [...], "castillo": true or "card": "<id>"'
        )
    if "card" in spec:
        if not isinstance(spec["card"], str):
            raise PositionError("scoring.card", "a card id is text")
        return _card_scoring(_card(data, spec["card"]))
    if "castillo" in spec:
        if spec["castillo"] is not True:
            raise PositionError("scoring.castillo", "must be true")
        return Scoring("areas", areas=(len(data.regions),))
    names = spec["regions"]
    if not isinstance(names, list) or not names:
        raise PositionError("scoring.regions", "must be a non-empty list of region names")
    areas: list[int] = []
    for i, name in enumerate(names):
        area = _area(data, name, f"scoring.regions[{i}]", castillo=True)
        if area in areas:
            raise PositionError(f"scoring.regions[{i}]", f"{name!r} is listed twice")
        areas.append(area)
    return Scoring("areas", areas=tuple(areas))


# ---------------------------------------------------------------------------- scoring
def _score_one(
    position: Position,
    area: int,
    counts: Mapping[str, int],
    first_only: bool = False,
    grandes: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    grandes = position.grandes if grandes is None else grandes
    result: AreaScore = score_area(
        position.area_name(area),
        {c: counts.get(c, 0) for c in position.colours},
        position.values(area),
        places=position.places,
        king_here=area == position.king,
        grandes_here=[c for c, where in grandes.items() if where == area],
        first_place_only=first_only,
    )
    out: dict[str, Any] = result.to_json()
    if area < position.castillo_area:
        out["token"] = position.data.regions[area].ascii
    reasons = list(result.reasons)
    out["tile"] = position.tiles.get(area)
    dummy = position.dummy
    if dummy is not None:
        out["points"] = {c: n for c, n in result.points.items() if c != dummy}
        out["bonus"] = {c: n for c, n in result.bonus.items() if c != dummy}
        reasons = [(key, params) for key, params in reasons if params.get("colour") != dummy]
        if dummy in result.ranks:
            reasons.append(("note.dummy", {"colour": dummy}))
    if area == position.king and area in position.tiles:
        reasons.append(("note.tile_stays", {}))
    out["notes"] = [note_text(key, params) for key, params in reasons]
    out["why"] = [{"key": key, "params": params} for key, params in reasons]
    return out


def _general(position: Position) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Castillo, then the discs, then every region. Returns the areas and where the castillo's
    caballeros (and Grandes, after a Tournament) went."""
    castillo = position.castillo_area
    areas = [_score_one(position, castillo, position.castillo)]
    board = [dict(row) for row in position.board]
    grandes = dict(position.grandes)
    moves: dict[str, Any] = {}
    for colour in position.colours:
        count = position.castillo.get(colour, 0)
        grande = grandes.get(colour) == castillo
        if not count and not grande:
            continue
        move: dict[str, Any] = {"count": count}
        disc = position.discs.get(colour, None)
        if position.king == castillo:
            move.update(to=gamedata.CASTILLO, why="the King is at the castillo: back inside")
        elif colour == position.dummy:
            move.update(to=PROVINCE, why="the dummy sets no disc: back to its supply")
        elif disc is None:
            why = "no disc" if colour not in position.discs else "disc set ambiguously"
            move.update(to=COURT, why=why)
        elif disc == position.king:
            move.update(to=COURT, why="disc shows the King's region")
        else:
            board[disc][colour] = board[disc].get(colour, 0) + count
            move["to"] = position.area_name(disc)
            if grande:
                grandes[colour] = disc
        if grande:
            # The rules move a Grande with its owner's caballeros; they do not say where it
            # goes when those go back to court, so it then stays in the castillo.
            move["grande"] = position.area_name(grandes[colour])
        moves[colour] = move
    areas += [_score_one(position, r, board[r], grandes=grandes) for r in range(len(board))]
    return areas, moves


def _rivalry(position: Position) -> list[dict[str, Any]]:
    missing = [c for c in position.players if c not in position.discs]
    if missing:
        raise PositionError("discs", f"rivalry needs every player's disc (missing: {missing})")
    votes = [0] * len(position.board)
    for colour in position.players:
        region = position.discs[colour]
        if region is not None:
            votes[region] += 1
    return [_score_one(position, r, position.board[r]) for r in range(len(votes)) if votes[r] == 1]


def _card_areas(position: Position, scoring: Scoring) -> list[dict[str, Any]]:
    areas: list[dict[str, Any]] = []
    first_values = [position.values(r)[0] for r in range(len(position.board))]
    totals = [sum(row.values()) for row in position.board]
    for step in scoring.steps:
        first_only = bool(step.get("first_only", False))
        if step["select"] == "castillo":
            areas.append(_score_one(position, position.castillo_area, position.castillo))
            continue
        for region in regions_for_score_op(step, first_values, totals):
            areas.append(_score_one(position, region, position.board[region], first_only))
    return areas


def score(position: Position, scoring: Scoring) -> dict[str, Any]:
    """Score the event; the result is JSON-ready (docs/score-input.md)."""
    out: dict[str, Any] = {
        "edition": position.data.edition,
        "players": list(position.players),
        "places": position.places,
    }
    if position.dummy:
        out["dummy"] = position.dummy
    if scoring.kind == "general":
        out["scoring"] = "general"
        out["areas"], out["castillo_moves"] = _general(position)
    elif scoring.kind == "rivalry":
        out["scoring"] = {"card": scoring.card}
        out["areas"] = _rivalry(position)
    elif scoring.kind == "card":
        out["scoring"] = {"card": scoring.card}
        out["areas"] = _card_areas(position, scoring)
    else:
        out["scoring"] = {"areas": [position.area_name(a) for a in scoring.areas]}
        out["areas"] = [
            _score_one(
                position,
                a,
                position.castillo if a == position.castillo_area else position.board[a],
            )
            for a in scoring.areas
        ]
    totals = dict.fromkeys(position.players, 0)
    for area in out["areas"]:
        for colour in position.players:
            totals[colour] += area["points"].get(colour, 0) + area["bonus"].get(colour, 0)
    out["totals"] = totals
    return out


def score_position(raw: Mapping[str, Any], overrides: Sequence[Path | str] = ()) -> dict[str, Any]:
    """Read, check and score a JSON position; a bad one raises PositionError (or GameDataError
    for a bad override file)."""
    position, scoring = read_position(raw, overrides)
    return score(position, scoring)
