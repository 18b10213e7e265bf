"""Game data for El Grande, read from TOML files in `engine/data/elgrande/`.

Nothing about the board or the cards is written in code: this module only reads, merges and
checks the data. A user corrects a printed value or adds a card with an override file:

>>> data = load("2023")
>>> data.region("Toledo").values
(7, 4, 2)
>>> data.region("cataluna").name
'Cataluña'
>>> sorted({c.deck for c in data.cards.values() if not c.alternative})
[1, 2, 3, 4, 5]
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core import userfiles
from engine.core.errors import GameDataError

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "elgrande"
EDITIONS = ("2023", "1995")
CASTILLO = "castillo"
FRANCE = "France"
PORTUGAL = "Portugal"
BORDERS = (FRANCE, PORTUGAL)

# The effect vocabulary (docs/game-data.md): op name -> the keys it may carry.
EFFECT_OPS: dict[str, frozenset[str]] = {
    "move": frozenset({"own", "foreign", "any", "from"}),
    "place": frozenset({"count", "to", "from"}),
    "return": frozenset({"count", "from", "chooser"}),
    "court": frozenset({"count"}),
    "score": frozenset({"select", "values", "first_only", "castillo_allowed"}),
    "disc_return": frozenset({"who", "min_own", "count"}),
    "coup": frozenset(),
    "rivalry": frozenset(),
    "king": frozenset({"to"}),
    "grande": frozenset({"any"}),
    "tile": frozenset(),
    "power_back": frozenset(),
    "either": frozenset({"options"}),
    "veto": frozenset(),
}


KING_MOVES = frozenset(
    {
        "any",
        "adjacent",
        "border",
        "escort",
        "castillo",
        "fewest",
        "tournament",
        "swap_grande",
        "infiltrate",
    }
)


def fold(name: str) -> str:
    """Case- and accent-insensitive key: 'Aragón', 'aragon' and 'ARAGON' fold alike."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold().strip()


@dataclass(frozen=True)
class Region:
    index: int
    name: str
    ascii: str
    name_1995: str
    values: tuple[int, ...]
    values_2_3_players: tuple[int, ...]
    neighbours: tuple[int, ...]
    borders: tuple[str, ...]
    unverified: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tile:
    id: str
    values: tuple[int, ...]


@dataclass(frozen=True)
class Card:
    id: str
    deck: int
    place: int
    copies: int
    names: Mapping[str, str]
    text: str
    effect: tuple[Mapping[str, Any], ...]
    alternative: bool = False
    king_card: bool = False
    regency: bool = False  # a New Regency King card (deck 5 of that mini-expansion)
    source: str = ""
    unverified: tuple[str, ...] = ()
    # the effect in each language ("en" is `text`); a missing language falls back to English
    texts: Mapping[str, str] = field(default_factory=dict)
    # what each option of an "either" effect does, per language (the choice buttons' labels)
    option_labels: tuple[Mapping[str, str], ...] = ()

    def name(self, language: str = "en") -> str:
        return self.names.get(language) or self.names.get("en") or self.id

    def text_in(self, language: str = "en") -> str:
        return self.texts.get(language) or self.text


@dataclass(frozen=True)
class GreyCard:
    """A Power Shift modifier card: adds `value` to a power card; may carry a special effect."""

    id: str
    value: int
    copies: int
    names: Mapping[str, str]
    text: str
    effect: tuple[Mapping[str, Any], ...]
    unverified: tuple[str, ...] = ()
    texts: Mapping[str, str] = field(default_factory=dict)

    def name(self, language: str = "en") -> str:
        return self.names.get(language) or self.names.get("en") or self.id

    def text_in(self, language: str = "en") -> str:
        return self.texts.get(language) or self.text


@dataclass(frozen=True)
class GameData:
    """Everything the engine knows about one edition's components."""

    edition: str
    edition_name: str
    colours: tuple[str, ...]
    caballeros_per_colour: int
    court_at_start: int
    start_caballeros: int
    rounds: int
    scoring_after: tuple[int, ...]
    short_game_rounds: tuple[int, ...]
    deck_size: int
    regions: tuple[Region, ...]
    castillo_values: tuple[int, ...]
    tiles: tuple[Tile, ...]
    power_caballeros: tuple[int, ...]
    cards: Mapping[str, Card]
    grey_cards: Mapping[str, GreyCard] = field(default_factory=dict)
    unverified: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    _aliases: Mapping[str, int] = field(default_factory=dict, repr=False)

    def region(self, name: str) -> Region:
        """A region by its 2023 name, ASCII form or 1995 name (any case, accents optional)."""
        index = self._aliases.get(fold(name))
        if index is None:
            raise KeyError(f"unknown region {name!r}")
        return self.regions[index]

    def region_index(self, name: str) -> int | None:
        return self._aliases.get(fold(name))

    def colour_index(self, name: str) -> int | None:
        key = fold(name)
        for i, colour in enumerate(self.colours):
            if fold(colour) == key:
                return i
        return None

    def tile(self, tile_id: str) -> Tile:
        for tile in self.tiles:
            if tile.id == tile_id:
                return tile
        raise KeyError(f"unknown scoring tile {tile_id!r}")

    def deck_cards(self, deck: int, *, regency: bool = False) -> list[str]:
        """The base card ids (one entry per copy) of a deck at setup. Deck 5 is the King card,
        or with `regency` the New Regency King cards. Alternative cards are never included."""
        ids: list[str] = []
        for card in self.cards.values():
            if card.deck != deck or card.alternative or (deck == 5 and card.regency != regency):
                continue
            ids.extend([card.id] * card.copies)
        return ids

    def grey_deck(self) -> list[str]:
        """The Power Shift modifier cards, one entry per copy."""
        return [g.id for g in self.grey_cards.values() for _ in range(g.copies)]


def _read_toml(path: Path) -> dict[str, Any]:
    """A data file, the game's own or a user's override, read by the rules for users' files
    (engine.core.userfiles: a regular file, size and depth capped)."""
    if not path.exists():
        raise GameDataError(f"{path}: no such data file")
    try:
        return userfiles.load_toml(path)
    except userfiles.UnreadableFile as exc:
        raise GameDataError(str(exc)) from None


def _merge_records(
    base: list[dict[str, Any]], extra: Sequence[dict[str, Any]], key: str
) -> list[dict[str, Any]]:
    """Records in `extra` replace fields of the base record with the same key, or are added."""
    merged = [dict(record) for record in base]
    for record in extra:
        for existing in merged:
            if fold(str(existing.get(key, ""))) == fold(str(record.get(key, ""))):
                if "text" in record and "texts" not in record:
                    existing.pop("texts", None)  # translations of the old effect no longer apply
                existing.update(record)
                break
        else:
            merged.append(dict(record))
    return merged


def _merge(base: dict[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for section, value in override.items():
        if section == "region":
            merged["region"] = _merge_records(merged.get("region", []), value, "name")
        elif section == "card":
            merged["card"] = _merge_records(merged.get("card", []), value, "id")
        elif section == "tile":
            merged["tile"] = _merge_records(merged.get("tile", []), value, "id")
        elif section == "grey":
            merged["grey"] = _merge_records(merged.get("grey", []), value, "id")
        elif isinstance(value, Mapping) and isinstance(merged.get(section), Mapping):
            merged[section] = {**merged[section], **value}
        else:
            merged[section] = value
    return merged


# Older card sets of an edition, kept so that records of older game versions replay the same
# (option `card_set`): each is a layer applied before any override file.
CARD_SETS = {("2023", "v1"): DATA_DIR / "cards_2023_v1.toml"}


def load(
    edition: str = "2023", overrides: Sequence[Path | str] = (), card_set: str = ""
) -> GameData:
    """Read the board and an edition's components, then apply override files in order.
    `card_set`: "" (current) or an older card set of the edition ("v1", records only).

    Results are cached per edition and override files (by path and modification time)."""
    layer = CARD_SETS.get((edition, card_set))
    if layer is not None:
        overrides = [layer, *overrides]
    stamps = tuple(
        (str(p), Path(p).stat().st_mtime_ns if Path(p).exists() else 0) for p in overrides
    )
    return _load_cached(edition, stamps)


@functools.lru_cache(maxsize=16)
def _load_cached(edition: str, stamps: tuple[tuple[str, int], ...]) -> GameData:
    overrides = [path for path, _ in stamps]
    if edition not in EDITIONS:
        raise GameDataError(f"unknown edition {edition!r}: choose one of {', '.join(EDITIONS)}")
    raw = _merge(
        _read_toml(DATA_DIR / "board.toml"), _read_toml(DATA_DIR / f"edition_{edition}.toml")
    )
    for path in overrides:
        try:
            raw = _merge(raw, _read_toml(Path(path)))
        except (AttributeError, TypeError):
            raise GameDataError(
                f"{path}: region, card, tile and grey sections must be arrays of tables "
                "([[card]] ...)"
            ) from None
    return _build(raw, source=f"edition {edition} with {len(overrides)} override file(s)")


def _ints(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
        raise GameDataError(f"{where}: expected a list of whole numbers, got {value!r}")
    return tuple(value)


def _build(raw: Mapping[str, Any], source: str) -> GameData:
    try:
        return _build_checked(raw)
    except GameDataError as exc:
        raise GameDataError(f"{source}: {exc}") from None
    except (KeyError, TypeError, ValueError) as error:  # not `exc`: mypyc types it per name
        raise GameDataError(f"{source}: missing or malformed field {error}") from None


def _build_checked(raw: Mapping[str, Any]) -> GameData:
    order = [fold(n) for n in raw["board"]["scoring_order"]]
    records = {fold(r["name"]): r for r in raw["region"]}
    if sorted(order) != sorted(records):
        raise GameDataError("board.scoring_order must list every region exactly once")
    aliases: dict[str, int] = {}
    for index, key in enumerate(order):
        record = records[key]
        for alias in (record["name"], record.get("ascii", ""), record.get("name_1995", "")):
            if alias:
                aliases[fold(alias)] = index
    regions: list[Region] = []
    for index, key in enumerate(order):
        record = records[key]
        neighbours: list[int] = []
        for neighbour in record.get("neighbours", []):
            if fold(neighbour) not in aliases:
                raise GameDataError(f"region {record['name']}: unknown neighbour {neighbour!r}")
            neighbours.append(aliases[fold(neighbour)])
        borders = tuple(record.get("borders", []))
        for border in borders:
            if border not in BORDERS:
                raise GameDataError(f"region {record['name']}: unknown border {border!r}")
        values = _ints(record["values"], f"region {record['name']}.values")
        regions.append(
            Region(
                index=index,
                name=record["name"],
                ascii=record.get("ascii", record["name"]),
                name_1995=record.get("name_1995", record["name"]),
                values=values,
                values_2_3_players=_ints(
                    record.get("values_2_3_players", list(values[:2])),
                    f"region {record['name']}.values_2_3_players",
                ),
                neighbours=tuple(sorted(neighbours)),
                borders=borders,
                unverified=tuple(record.get("unverified", ())),
            )
        )
    for region in regions:
        for neighbour in region.neighbours:
            if region.index not in regions[neighbour].neighbours:
                raise GameDataError(
                    f"adjacency is not symmetric: {region.name} lists "
                    f"{regions[neighbour].name} but not the other way round"
                )
    edition = raw["edition"]
    cards = {card.id: card for card in (_card(c) for c in raw.get("card", []))}
    grey = {g.id: g for g in (_grey(r) for r in raw.get("grey", []))}
    power = raw["power"]
    if _ints(power["values"], "power.values") != tuple(range(1, 14)):
        raise GameDataError("power.values must be 1..13")
    colours = tuple(edition["colours"])
    if len(set(map(fold, colours))) != len(colours):
        raise GameDataError("edition.colours must be distinct")
    return GameData(
        edition=str(edition["id"]),
        edition_name=str(edition["name"]),
        colours=colours,
        caballeros_per_colour=int(edition["caballeros_per_colour"]),
        court_at_start=int(edition["court_at_start"]),
        start_caballeros=int(edition["start_caballeros"]),
        rounds=int(edition["rounds"]),
        scoring_after=_ints(edition["scoring_after"], "edition.scoring_after"),
        short_game_rounds=_ints(edition["short_game_rounds"], "edition.short_game_rounds"),
        deck_size=int(edition["deck_size"]),
        regions=tuple(regions),
        castillo_values=_ints(raw["castillo"]["values"], "castillo.values"),
        tiles=tuple(Tile(str(t["id"]), _ints(t["values"], f"tile {t['id']}")) for t in raw["tile"]),
        power_caballeros=_ints(power["caballeros"], "power.caballeros"),
        cards=cards,
        grey_cards=grey,
        unverified={
            "board": tuple(raw["board"].get("unverified", ())),
            "edition": tuple(edition.get("unverified", ())),
        },
        _aliases=aliases,
    )


def _check_effect(effect: Any, where: str) -> tuple[Mapping[str, Any], ...]:
    if not isinstance(effect, list):
        raise GameDataError(f"{where}: effect must be a list of steps")
    for step in effect:
        if not isinstance(step, dict) or step.get("op") not in EFFECT_OPS:
            raise GameDataError(f"{where}: unknown effect step {step!r}")
        extra = set(step) - {"op"} - EFFECT_OPS[step["op"]]
        if extra:
            raise GameDataError(f"{where}: op {step['op']!r} takes no {sorted(extra)}")
        if step["op"] == "either":
            for option in step["options"]:
                _check_effect(option, where)
        if step["op"] == "king" and step.get("to") not in KING_MOVES:
            raise GameDataError(
                f"{where}: King move {step.get('to')!r} is not one of {sorted(KING_MOVES)}"
            )
    return tuple(effect)


def _card(record: Mapping[str, Any]) -> Card:
    where = f"card {record.get('id', '?')}"
    deck = record.get("deck")
    if not isinstance(deck, int) or not 1 <= deck <= 5:
        raise GameDataError(f"{where}: deck must be 1..5")
    if not isinstance(record.get("place"), int):
        raise GameDataError(f"{where}: place must be a whole number")
    return Card(
        id=str(record["id"]),
        deck=deck,
        place=int(record["place"]),
        copies=int(record.get("copies", 1)),
        names=dict(record.get("names", {"en": record["id"]})),
        text=str(record.get("text", "")),
        texts=_texts(record, where),
        option_labels=_option_labels(record, where),
        effect=_check_effect(record.get("effect", []), where),
        alternative=bool(record.get("alternative", False)),
        king_card=bool(record.get("king_card", False)),
        regency=bool(record.get("regency", False)),
        source=str(record.get("source", "")),
        unverified=tuple(record.get("unverified", ())),
    )


def _grey(record: Mapping[str, Any]) -> GreyCard:
    where = f"grey card {record.get('id', '?')}"
    return GreyCard(
        id=str(record["id"]),
        value=int(record["value"]),
        copies=int(record.get("copies", 1)),
        names=dict(record.get("names", {"en": record["id"]})),
        text=str(record.get("text", "")),
        texts=_texts(record, where),
        effect=_check_effect(record.get("effect", []), where),
        unverified=tuple(record.get("unverified", ())),
    )


def _language_map(value: Any, where: str) -> dict[str, str]:
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise GameDataError(f"{where}: expected a table of language = text")
    return dict(value)


def _texts(record: Mapping[str, Any], where: str) -> dict[str, str]:
    """`text` (English) and `texts` (other languages) as one map; English lives in `text`."""
    texts = _language_map(record.get("texts", {}), f"{where}: texts")
    english = str(record.get("text", ""))
    if texts.get("en", english) != english:
        raise GameDataError(f"{where}: texts.en differs from text (give English in `text`)")
    return {**texts, "en": english}


def _option_labels(record: Mapping[str, Any], where: str) -> tuple[dict[str, str], ...]:
    labels = record.get("option_labels", [])
    if not isinstance(labels, list):
        raise GameDataError(f"{where}: option_labels must be a list")
    options = [
        len(step["options"]) for step in record.get("effect", []) if step.get("op") == "either"
    ]
    if labels and options != [len(labels)]:
        raise GameDataError(f"{where}: option_labels must name each option of its `either` effect")
    return tuple(_language_map(label, f"{where}: option_labels") for label in labels)
