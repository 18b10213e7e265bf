"""The strings a page shows while a game is active: the shell's table
(host/app/static/i18n/<lang>.json) with the game's bundle over it
(host/games/<game>/static/i18n/<lang>/*.json, merged in name order), as the pages merge them
(host/app/static/js/i18n.js)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SHELL = REPO / "host" / "app" / "static" / "i18n"
GAMES = REPO / "host" / "games"
# a placeholder: {name}, or the head of a plural {name, plural, one {…} other {…}} (i18n.js)
PLACEHOLDER = re.compile(r"\{(\w+)(?:\}|\s*,\s*plural\s*,)")


def placeholders(text: str) -> set[str]:
    """The parameters a translated string uses: a language may write a count as a plural where
    another writes the bare number (English "1 caballero", Czech's invariant "caballeros")."""
    return set(PLACEHOLDER.findall(text))


def shell_strings(lang: str) -> dict[str, str]:
    strings: dict[str, str] = json.loads((SHELL / f"{lang}.json").read_text("utf-8"))
    return strings


def game_bundle(game: str, lang: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in sorted((GAMES / game / "static" / "i18n" / lang).glob("*.json")):
        part: dict[str, Any] = json.loads(path.read_text("utf-8"))
        out.update(part)
    return out


def page_strings(lang: str, game: str = "elgrande") -> dict[str, str]:
    """What a page in `lang` can say while `game` is active."""
    return {**shell_strings(lang), **game_bundle(game, lang)}
