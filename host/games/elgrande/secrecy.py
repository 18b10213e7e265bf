"""The castillo's secret in the table's log (docs/castillo-secrecy.md).

At the table each throw into the castillo is announced once. With the castillo closed (the
default; the table option `open_castillo` opens it) the log lines every client is shown keep the
castillo throws of the current turn only, so the castillo's per-colour contents cannot be added
up from the log. The stored game log keeps everything.

The engine says which steps are hidden now (`engine.elgrande.views.hidden_steps`, the rule its
own public log follows); this module only maps the table's log lines to what they refer to, by
the history index every line of an engine step carries (`step`), never by a line's text:

- the line of a step the history holds: left out when the engine hides that step;
- a step taken back (its action line, and the undo line with the same `step` after it): left
  out once its turn is over when it was a castillo step (the engine's `castillo_step`, kept on
  the lines when they were noted: the history no longer holds the step);
- the colours the table confirmed for uncertain cubes (the host's own `confirm …` corrections,
  about the throws just made): left out once their turn is over.

A line is of an earlier turn when it comes before the line of the current turn's first step.

The lines kept keep their `n` as logged here: the session numbers the lines shown without a gap
and takes the bookkeeping (`step`, `castillo_step`) off for every game (`ActiveGame.public_log`).
"""

from __future__ import annotations

from typing import Any

from engine.core.actions import Action
from engine.elgrande.game import Game
from engine.elgrande.views import castillo_step, hidden_steps, turn_start

CASTILLO_STEP = "castillo_step"  # a step line's own field: kept by the session, never shown
CONFIRM = "confirm "  # a correction line naming the colours the table confirmed
# with the castillo closed a line's `step` is not shown either: the steps of the lines kept
# would tell where a step was left out (a lone `place castillo` in its actor's turn); the session
# takes both off for every game too (`ActiveGame.private`)
CLOSED_PRIVATE = (CASTILLO_STEP, "step")


def step_fields(action: Action) -> dict[str, Any]:
    """What a log line of `action` keeps of it: whether it is a castillo step."""
    return {CASTILLO_STEP: True} if castillo_step(action) else {}


def step_lines(lines: list[dict[str, Any]], history: int) -> tuple[dict[int, int], set[int]]:
    """The position of the line of each step the history (of `history` entries) holds, by its
    index; and the positions of the lines of steps taken back: an undo line cancels the latest
    line of the same `step` before it that no undo cancelled yet."""
    taken: dict[int, list[int]] = {}
    undone: set[int] = set()
    for i, line in enumerate(lines):
        step = line.get("step")
        if not isinstance(step, int):
            continue
        if line.get("kind") == "action":
            taken.setdefault(step, []).append(i)
        elif line.get("kind") == "undo":
            undone.add(i)
            cancelled = taken.get(step)
            if cancelled:
                undone.add(cancelled.pop())
    live = {step: at[-1] for step, at in taken.items() if at and step < history}
    return live, undone


def _shown(line: dict[str, Any], private: tuple[str, ...]) -> dict[str, Any]:
    if not any(key in line for key in private):
        return line
    return {k: v for k, v in line.items() if k not in private}


def public_log_lines(game: Game, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines every client is shown now (see the module docstring)."""
    if game.options.open_castillo:
        return [_shown(line, (CASTILLO_STEP,)) for line in lines]
    hidden = hidden_steps(game.state)
    length = len(game.history)
    live, undone = step_lines(lines, length)
    first = turn_start(game.state)
    # between turns every line is of an earlier turn; a turn whose first line is no longer
    # kept began before all of them
    start = live.get(first, 0) if first < length else len(lines)
    out = []
    for i, line in enumerate(lines):
        kind = line.get("kind")
        if i in undone:
            hide = i < start and bool(line.get(CASTILLO_STEP))
        elif kind == "action" and isinstance(line.get("step"), int):
            hide = line["step"] in hidden
        elif kind == "correction":
            hide = i < start and str(line.get("text", "")).startswith(CONFIRM)
        else:
            hide = False
        if not hide:
            out.append(_shown(line, CLOSED_PRIVATE))
    return out
