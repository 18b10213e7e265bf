"""A card catalogue: the whole set of area cards, typed in once by an owner of the game
(`[[card]]` tables in TOML, docs/elcaballero-cards.md), or the shipped SYNTHETIC set (not the
real cards) that dealer mode and the tests use.

A refused file says where: `CatalogueError` names the file, the line of the card (or of its
field) and the problem, in English and as a translation key with its parameters (a card's own
problem nested in them: `problem_key`, `problem_params`, from its CardError).

A game keeps a file's set in its options as entries (`to_entries`: "ID COUNT DESCRIPTION", the
description in the one-word notation), so that its record replays without the file
(`from_entries`).

>>> synthetic = load_synthetic()
>>> synthetic.synthetic, synthetic.total, synthetic.label.startswith("SYNTHETIC")
(True, 48, True)
>>> from_entries("my box", to_entries(synthetic)).total
48
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from engine.core import userfiles
from engine.core.errors import GameDataError
from engine.elcaballero.cards import CardDesc, CardError, card_from_mapping, card_from_text

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "elcaballero"
SYNTHETIC_FILE = DATA_DIR / "synthetic-cards-NOT-THE-REAL-CARDS.toml"
CARDS_IN_THE_BOX = 48
MAX_ID = 40  # a card's id is a label, never a paragraph
MAX_LABEL = 80
TOP_LEVEL = ("label", "synthetic", "card")
# where a line starts a card, or a field of one (for the line a refusal names)
_CARD_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*card[ \t]*\]\]")
_REGION = re.compile(r"regions\[(\d+)\]")
_AT_LINE = re.compile(r"\(at line (\d+), column \d+\)")  # where tomllib says it stopped
# Why a catalogue is refused: one English template per translation key (`ec.catalogue.<name>`,
# worded in every language in host/games/elcaballero/static/i18n/*/ui.json).
PREFIX = "ec.catalogue."
TEMPLATES: dict[str, str] = {
    "unknown_key": "unknown key {key} (known: label, synthetic, card; each card a [[card]])",
    "label": "label must be text of 1 to {max}",
    "synthetic": "synthetic must be true or false",
    "no_cards": "no cards (write each as a [[card]] table)",
    "card": "card #{n}: {problem}",
    "card_id": "card #{n} ({id}): {problem}",
    "id_missing": "every catalogue card needs an id",
    "id_long": "an id is at most {max} characters",
    "id_space": "the id {id} has a space or an unprintable character",
    "id_twice": "the id {id} is used twice",
    "total": "the counts add up to {total} cards, not the {expected} in the box",
    "no_start": "no card can be the start card (land, no gold, no fish)",
    # a file the rules for users' files refuse (engine.core.userfiles: UnreadableFile.kind);
    # the English problem is the rule's own message, these word it for the table app
    "unreadable": "the file cannot be read",
    "not_regular": "the file is not a regular file",
    "too_big": "the file is larger than {mib} MiB",
    "not_utf8": "the file is not UTF-8 text",
    "too_deep": "the file is nested deeper than {max} levels",
    "key_parts": "a key has more than {max} dotted parts",
    "not_toml": "the file is not valid TOML",
}
_UNREADABLE_PARAMS: dict[str, dict[str, Any]] = {
    "too_big": {"mib": userfiles.MAX_TOML_BYTES >> 20},
    "too_deep": {"max": userfiles.MAX_DEPTH},
    "key_parts": {"max": userfiles.MAX_KEY_PARTS},
}


class CatalogueError(GameDataError):
    """A catalogue refused: `source` (the file), `line` (0: the whole file) and `problem` (in
    English: TEMPLATES[name] unless given); `key` and `params` word it in any language (a
    card's problem nested: `problem_key`, `problem_params`)."""

    def __init__(
        self,
        source: str,
        line: int,
        name: str,
        params: dict[str, Any] | None = None,
        problem: str = "",
    ) -> None:
        self.params: dict[str, Any] = params or {}
        self.problem = problem or TEMPLATES[name].format(**self.params)
        where = f"{source}, line {line}" if line else source
        super().__init__(f"{where}: {self.problem}")
        self.source = source
        self.line = line
        self.key = PREFIX + name


class Catalogue:
    """The cards of one set, by id, with their copies."""

    def __init__(self, cards: list[CardDesc], label: str, synthetic: bool) -> None:
        self.cards: dict[str, CardDesc] = {card.id: card for card in cards}
        self.label = label
        self.synthetic = synthetic
        self.total = sum(card.count for card in cards)

    def deck(self) -> list[str]:
        """Every card id once per copy, in catalogue order."""
        return [card.id for card in self.cards.values() for _ in range(card.count)]

    def get(self, card_id: str) -> CardDesc | None:
        return self.cards.get(card_id)

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "synthetic": self.synthetic,
            "cards": [{**card.to_json(), "count": card.count} for card in self.cards.values()],
        }


def _id_problem(card_id: str) -> tuple[str, dict[str, Any]]:
    """Why a card id cannot be one (it is a word of the notation: `reveal ID`): the name of its
    template and the parameters; ("", {}) if it can."""
    if not card_id:
        return "id_missing", {}
    if len(card_id) > MAX_ID:
        return "id_long", {"max": MAX_ID}
    if any(ch.isspace() or not ch.isprintable() for ch in card_id):
        return "id_space", {"id": repr(card_id)}
    return "", {}


class _Lines:
    """Where each card and field of a catalogue's text is: its line numbers (1-based)."""

    def __init__(self, text: str, entries: int) -> None:
        self.lines = text.splitlines()
        headers = [n for n, line in enumerate(self.lines) if _CARD_HEADER.match(line)]
        # the [[card]] headers are the cards only when they are all of them (not an inline list)
        self.headers = headers if len(headers) == entries else []

    def top(self, key: str) -> int:
        """The line of a top-level key (`key =` before the first card, or a `[key]` or
        `[[key]]` table anywhere); 0 if not found."""
        end = self.headers[0] if self.headers else len(self.lines)
        name = re.escape(key)
        value = re.compile(rf"^[ \t]*{name}[ \t]*=")
        table = re.compile(rf"^[ \t]*\[\[?[ \t]*{name}[ \t]*\]")
        for n, line in enumerate(self.lines):
            if (n < end and value.match(line)) or table.match(line):
                return n + 1
        return 0

    def card(self, index: int, field: str = "") -> int:
        """The line of card #index+1 (its [[card]]) or of one of its fields; 0: not known."""
        if not self.headers:
            return 0
        start = self.headers[index]
        end = self.headers[index + 1] if index + 1 < len(self.headers) else len(self.lines)
        region = _REGION.match(field)
        if region:  # the line where that region's inline table starts (one a line, or all)
            at = self.card(index, "regions")
            opened = [n for n in range(at - 1, end) if "{" in self.lines[n]]
            wanted = int(region.group(1))
            return opened[wanted] + 1 if wanted < len(opened) else at
        if field:
            pattern = re.compile(rf"^[ \t]*{re.escape(field)}[ \t]*=")
            for n in range(start + 1, end):
                if pattern.match(self.lines[n]):
                    return n + 1
        return start + 1


def catalogue_from_toml(
    raw: dict[str, Any], source: str, expected: int = CARDS_IN_THE_BOX, text: str = ""
) -> Catalogue:
    """Check and build a catalogue; CatalogueError names the file, the line (when `text`, the
    file's text, is given) and the entry."""
    entries = raw.get("card")
    lines = _Lines(text, len(entries) if isinstance(entries, list) else -1)
    unknown = [key for key in raw if key not in TOP_LEVEL]
    if unknown:
        raise CatalogueError(
            source, lines.top(unknown[0]), "unknown_key", {"key": repr(unknown[0])}
        )
    label = raw.get("label", Path(source).name)
    synthetic = raw.get("synthetic", False)
    if not isinstance(label, str) or not 0 < len(label) <= MAX_LABEL:
        raise CatalogueError(source, lines.top("label"), "label", {"max": MAX_LABEL})
    if not isinstance(synthetic, bool):
        raise CatalogueError(source, lines.top("synthetic"), "synthetic")
    if not isinstance(entries, list) or not entries:
        raise CatalogueError(source, 0, "no_cards")
    cards: list[CardDesc] = []
    seen: set[str] = set()
    for index, entry in enumerate(entries):
        where: dict[str, Any] = {"n": index + 1}
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            where["id"] = entry["id"]
        name = "card_id" if "id" in where else "card"
        try:
            card = card_from_mapping(entry)
        except CardError as bad:
            nested = {"problem": str(bad), "problem_key": bad.key, "problem_params": bad.params}
            raise CatalogueError(
                source, lines.card(index, bad.field), name, {**where, **nested}
            ) from None
        problem, params = _id_problem(card.id)
        if not problem and card.id in seen:
            problem, params = "id_twice", {"id": repr(card.id)}
        if problem:
            nested = {
                "problem": TEMPLATES[problem].format(**params),
                "problem_key": PREFIX + problem,
                "problem_params": params,
            }
            raise CatalogueError(source, lines.card(index, "id"), name, {**where, **nested})
        seen.add(card.id)
        cards.append(card)
    catalogue = Catalogue(cards, label, synthetic)
    if catalogue.total != expected:
        raise CatalogueError(source, 0, "total", {"total": catalogue.total, "expected": expected})
    if not any(card.start_ok for card in cards):
        raise CatalogueError(source, 0, "no_start")
    return catalogue


def parse_catalogue(text: str, source: str) -> Catalogue:
    """A catalogue from its TOML text, by the rules for users' files (nesting, key sizes)."""
    try:
        raw = userfiles.parse_toml(text, source)
    except userfiles.UnreadableFile as unreadable:
        message = str(unreadable).removeprefix(source).lstrip(":").strip()
        found = _AT_LINE.search(message) if unreadable.kind == "not_toml" else None
        problem = _AT_LINE.sub("", message.removeprefix("is ")).strip()
        line = int(found.group(1)) if found else 0
        raise _unreadable(source, line, unreadable, problem) from None
    return catalogue_from_toml(raw, source, text=text)


def load_catalogue(path: Path | str, source: str = "") -> Catalogue:
    """A user's catalogue file (their own copy of the real cards), read by the rules for users'
    files (engine.core.userfiles: a regular file of at most 1 MiB, nested at most 32 levels).
    `source`: how refusals name the file (default: its path)."""
    source = source or str(path)
    try:
        text = userfiles.read_text(path, userfiles.MAX_TOML_BYTES)
    except userfiles.UnreadableFile as unreadable:
        problem = str(unreadable).replace(str(path), "the file")
        raise _unreadable(source, 0, unreadable, problem) from None
    return parse_catalogue(text, source)


def _unreadable(
    source: str, line: int, unreadable: userfiles.UnreadableFile, problem: str
) -> CatalogueError:
    """A file the rules for users' files refuse: the rule's English, worded by its kind."""
    name = unreadable.kind if unreadable.kind in TEMPLATES else "unreadable"
    return CatalogueError(source, line, name, _UNREADABLE_PARAMS.get(name), problem)


def to_entries(catalogue: Catalogue) -> tuple[str, ...]:
    """The set as a game's options keep it: "ID COUNT DESCRIPTION" a card."""
    return tuple(f"{card.id} {card.count} {card.text}" for card in catalogue.cards.values())


@functools.lru_cache(maxsize=8)
def from_entries(label: str, entries: tuple[str, ...]) -> Catalogue:
    """The set kept in a game's options (`to_entries`), checked as a file is: GameDataError
    names the entry."""
    if len(entries) > CARDS_IN_THE_BOX:  # each card at least once: more cannot add up to 48
        raise GameDataError(f"{len(entries)} cards: the box has {CARDS_IN_THE_BOX}")
    cards: list[CardDesc] = []
    seen: set[str] = set()
    for index, entry in enumerate(entries):
        where = f"entry #{index + 1}"
        parts = entry.split(" ")
        if len(parts) != 3 or not parts[1].isdigit() or not 1 <= int(parts[1]) <= CARDS_IN_THE_BOX:
            raise GameDataError(f"{where}: write ID COUNT DESCRIPTION, not {entry[:60]!r}")
        card_id, count, text = parts[0], int(parts[1]), parts[2]
        problem, params = _id_problem(card_id)
        if problem:
            raise GameDataError(f"{where}: {TEMPLATES[problem].format(**params)}")
        if card_id in seen:
            raise GameDataError(f"{where}: the id is used twice")
        try:
            card = card_from_text(text, card_id)
        except CardError as bad:
            raise GameDataError(f"{where} ({card_id}): {bad}") from None
        if card.text != text:  # written by `to_entries`: the notation as the engine writes it
            raise GameDataError(f"{where} ({card_id}): write the description as {card.text}")
        card.count = count
        seen.add(card_id)
        cards.append(card)
    catalogue = Catalogue(cards, label, synthetic=False)
    if catalogue.total != CARDS_IN_THE_BOX:
        raise GameDataError(
            f"the counts add up to {catalogue.total} cards, not the {CARDS_IN_THE_BOX} in the box"
        )
    if not any(card.start_ok for card in cards):
        raise GameDataError("no card can be the start card (land, no gold, no fish)")
    return catalogue


@functools.lru_cache(maxsize=1)
def load_synthetic() -> Catalogue:
    """The shipped SYNTHETIC set: made up for dealer mode and tests, not the real cards."""
    catalogue = load_catalogue(SYNTHETIC_FILE)
    if not catalogue.synthetic or "not the real cards" not in catalogue.label:
        raise GameDataError(f"{SYNTHETIC_FILE}: must say it is synthetic, not the real cards")
    return catalogue
