"""The castillo's secret in the table's log (docs/castillo-secrecy.md).

At the table each throw into the castillo is announced once. With the castillo closed (the
default; the table option `open_castillo` opens it) the log lines every client is shown keep the
castillo throws of the current turn only: the throws, the castillo corrections and the colours
the table confirmed for uncertain cubes of earlier turns are left out, so the castillo's
per-colour contents cannot be added up from the log. The stored game log keeps everything.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import NotationError
from engine.elgrande.game import Game
from engine.elgrande.verbs import VERBS
from engine.elgrande.views import castillo_step, turn_start


def _castillo_text(text: str) -> bool:
    """A log line's step puts a caballero into the castillo or corrects it (the engine's
    `castillo_step`, which its own public log hides the same way)."""
    try:
        return castillo_step(VERBS.parse(text))
    except NotationError:
        return False


def current_turn_from(game: Game, lines: list[dict[str, Any]]) -> int:
    """The index of the first log line of the current turn: walking back over the action lines
    of the turn's history entries (an undo line cancels the action line before it)."""
    need = len(game.history) - turn_start(game)
    undone = 0
    start = len(lines)
    for i in range(len(lines) - 1, -1, -1):
        if need <= 0:
            break
        kind = lines[i].get("kind")
        if kind == "undo":
            undone += 1
        elif kind == "action" and undone:
            undone -= 1
        elif kind == "action":
            need -= 1
        start = i
    return start


def public_log_lines(game: Game, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if game.options.open_castillo:
        return lines
    start = current_turn_from(game, lines)
    hidden: set[int] = set()
    for i, line in enumerate(lines[:start]):
        kind, text = line.get("kind"), str(line.get("text", ""))
        if kind in ("action", "undo") and _castillo_text(text):
            hidden.add(i)
            before = lines[i - 1] if i else {}
            if text == "to castillo" and str(before.get("text", "")).startswith("pick "):
                hidden.add(i - 1)
        elif kind == "correction" and text.startswith("confirm "):
            hidden.add(i)
    return [line for i, line in enumerate(lines) if i not in hidden]
