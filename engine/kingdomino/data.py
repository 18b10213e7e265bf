"""Kingdomino's data: the terrains and the 48 dominoes, read from
`engine/data/kingdomino/dominoes.toml` (an override file with the same layout replaces entries).

>>> data = load()
>>> data.domino_text(48)
'W0 M3'
>>> sum(data.crowns_a[n] + data.crowns_b[n] for n in data.numbers())
39
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.core import userfiles
from engine.core.errors import GameDataError

DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "kingdomino" / "dominoes.toml"
MAX_CROWNS = 3  # no printed square carries more


class GameData:
    """Terrains (codes 1.. in file order; 0 is an empty square) and dominoes by number. Each
    domino has a first half `a` and a second half `b` (terrain code and crowns)."""

    def __init__(self, terrains: list[tuple[str, str]], dominoes: dict[int, str], source: str):
        self.letters: list[str] = [letter for letter, _ in terrains]
        self.names: list[str] = [name for _, name in terrains]
        self.code: dict[str, int] = {letter: i + 1 for i, letter in enumerate(self.letters)}
        self.count = max(dominoes) if dominoes else 0
        size = self.count + 1
        self.terrain_a: list[int] = [0] * size
        self.terrain_b: list[int] = [0] * size
        self.crowns_a: list[int] = [0] * size
        self.crowns_b: list[int] = [0] * size
        for number, text in sorted(dominoes.items()):
            halves = text.split()
            if len(halves) != 2:
                raise GameDataError(
                    f"{source}: domino {number}: two squares expected, got {text!r}"
                )
            (ta, ca), (tb, cb) = (self.square(h, f"{source}: domino {number}") for h in halves)
            self.terrain_a[number], self.crowns_a[number] = ta, ca
            self.terrain_b[number], self.crowns_b[number] = tb, cb
        if sorted(dominoes) != list(range(1, self.count + 1)):
            raise GameDataError(f"{source}: dominoes must be numbered 1 to {self.count}")

    def square(self, text: str, where: str) -> tuple[int, int]:
        """A square's text ("F1") as (terrain code, crowns); GameDataError otherwise."""
        letter, crowns = text[:1].upper(), text[1:]
        if letter not in self.code:
            raise GameDataError(f"{where}: unknown terrain {text[:1]!r} in {text!r}")
        if not crowns.isdigit() or int(crowns) > MAX_CROWNS:
            raise GameDataError(f"{where}: crowns must be 0 to {MAX_CROWNS} in {text!r}")
        return self.code[letter], int(crowns)

    def numbers(self) -> range:
        return range(1, self.count + 1)

    def half_text(self, terrain: int, crowns: int) -> str:
        return f"{self.letters[terrain - 1]}{crowns}"

    def domino_text(self, number: int) -> str:
        a = self.half_text(self.terrain_a[number], self.crowns_a[number])
        return f"{a} {self.half_text(self.terrain_b[number], self.crowns_b[number])}"

    def terrain_name(self, code: int) -> str:
        return self.names[code - 1]


def _read(path: Path | str) -> dict[str, Any]:
    """A data file, the game's own or a user's override, read by the rules for users' files
    (engine.core.userfiles: a regular file, size and depth capped)."""
    try:
        return userfiles.load_toml(path)
    except userfiles.UnreadableFile as exc:
        raise GameDataError(str(exc)) from None


def _table(raw: Mapping[str, Any], name: str, source: str) -> dict[str, str]:
    table = raw.get(name, {})
    if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
        raise GameDataError(f'{source}: [{name}] must map keys to text such as "F1 W0"')
    return dict(table)


def load(overrides: Sequence[Path | str] = ()) -> GameData:
    """The data file, then each override file's entries over it (cached by path and time)."""
    stamps = tuple(
        (str(p), Path(p).stat().st_mtime_ns if Path(p).exists() else 0) for p in overrides
    )
    return _load(stamps)


@functools.lru_cache(maxsize=8)
def _load(stamps: tuple[tuple[str, int], ...]) -> GameData:
    base = _read(DATA_FILE)
    terrains = _table(base, "terrains", str(DATA_FILE))
    dominoes = _table(base, "dominoes", str(DATA_FILE))
    for path, _ in stamps:
        extra = _read(path)
        unknown = set(extra) - {"terrains", "dominoes"}
        if unknown:
            raise GameDataError(f"{path}: unknown section(s) {', '.join(sorted(unknown))}")
        terrains.update(_table(extra, "terrains", path))
        dominoes.update(_table(extra, "dominoes", path))
    numbered: dict[int, str] = {}
    for key, text in dominoes.items():
        if not key.isdigit():
            raise GameDataError(f"domino number {key!r} is not a whole number")
        numbered[int(key)] = text
    source = f"{DATA_FILE.name} with {len(stamps)} override file(s)"
    return GameData(list(terrains.items()), numbered, source)
