"""The state table: every game state has a prompt and a set of highlights (BGA style).

`prompt_for(game, checks)` is a pure function. The prompt's `key` is stable (the UI translates
it, with `params`); `text` is the English fallback from host/games/elgrande/data/prompts.json. The
highlights are the areas the acting player's legal actions point at, in that player's colour:
the same list drives the board lights (host/tower/lights.py). An open throw issue overrides the
game's prompt: play waits for it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from engine.elgrande.frames import ChoiceFrame, DiscFrame, MoveFrame, PlaceFrame
from engine.elgrande.game import CHANCE, Game
from engine.elgrande.verbs import SECRET_CHOICES
from host.games import Highlight
from host.tower.checks import Checks

SPECIAL_NOT_STARTED = 0  # engine.elgrande.options.Turn.special: not started, in progress, done
DATA_FILE = Path(__file__).resolve().parent / "data" / "prompts.json"
# Actions whose choice is secret: made on the player's own page, never at the shared table (the
# engine's verb table says which: engine/elgrande/verbs.py).
SECRET_KINDS = SECRET_CHOICES
# What each prompt parameter holds, written once: the page words a parameter by its kind (GET
# /api/games/elgrande/verbs). "colour": a colour; "colours": a list of colours (or "table" /
# "chance"); "area": an area token; "card": an action card id; any other kind is shown as it is.
# `actor` is the prompt's actors, which the page passes as a parameter too.
PARAM_KINDS: Final = {
    "actor": "colours",
    "waiting_for": "colours",
    "who": "colours",
    "colour": "colour",
    "against": "colour",
    "from": "area",
    "region": "area",
    "king": "area",
    "card": "card",
    "deck": "number",
    "dealt": "number",
    "left": "number",
    "max": "number",
    "n": "number",
    "castillo": "number",
    "scores": "scores",
    "purpose": "purpose",
    "issue": "issue",
    "detail": "text",
}


@dataclass(frozen=True)
class Prompt:
    key: str
    actors: tuple[str, ...]
    params: dict[str, Any] = field(default_factory=dict)
    highlights: tuple[Highlight, ...] = ()

    @property
    def text(self) -> str:
        template = prompt_texts().get(self.key, self.key)
        values = {"actor": ", ".join(self.actors) or "-", **self.params}
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            return template

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "actors": list(self.actors),
            "params": dict(self.params),
            "text": self.text,
        }


@functools.cache
def prompt_texts() -> dict[str, str]:
    raw = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in raw["prompts"].items()}


def _actor_names(game: Game) -> tuple[str, ...]:
    return tuple("chance" if p == CHANCE else game.state.colours[p] for p in game.current_players())


def highlights(game: Game) -> tuple[Highlight, ...]:
    """Areas the single acting player's public legal actions point at."""
    players = game.current_players()
    if len(players) != 1 or players[0] < 0:
        return ()
    player = players[0]
    board = game.state
    colour = board.colours[player]
    out: list[Highlight] = []
    seen: set[str] = set()
    for action in game.legal_actions(player):
        if action.kind in SECRET_KINDS:
            continue
        for arg in (action.arg, action.arg2):
            if arg in board.area_tokens and arg not in seen and arg != "court":
                seen.add(arg)
                out.append(Highlight(arg, colour, action.kind))
    return tuple(out)


def game_prompt(game: Game) -> Prompt:
    actors = _actor_names(game)
    lights = highlights(game)
    board = game.state
    phase = board.phase
    frame = board.frame
    if phase == "over":
        return Prompt("over", (), {"scores": dict(zip(board.colours, board.scores, strict=True))})
    if phase == "setup_home":
        chance = game.legal_actions(CHANCE)
        colour = chance[0].arg if chance else ""
        return Prompt("setup.home", actors, {"colour": colour})
    if phase in CHANCE_KEYS:
        return _chance_prompt(game, actors)
    if frame is not None:
        return _frame_prompt(game, frame, actors, lights)
    turn = board.turn
    if phase == "power":
        return Prompt("power", actors)
    if phase == "take" and turn is not None:
        return Prompt("take", actors, {"max": turn.take})
    if phase == "card":
        return Prompt("card", actors)
    if phase == "main" and turn is not None:
        if turn.placing or (not turn.placed and turn.place_left and board.court[turn.player]):
            key = "main.placing" if turn.placing else "main.place"
            if key == "main.place" and turn.special != SPECIAL_NOT_STARTED:
                key = "main.place_only"  # the special action is over: placing or finishing
            return Prompt(key, actors, {"left": turn.place_left, "card": turn.card}, lights)
        return Prompt("main.special", actors, {"card": turn.card}, lights)
    return Prompt(phase, actors, {}, lights)


# Chance steps (entered at the table; Power Shift's deal on the dealt player's own page).
CHANCE_KEYS = {
    "setup_first": "setup.first",
    "setup_king": "setup.king",
    "setup_remove": "setup.remove",
    "setup_deal": "setup.deal",
    "reveal": "reveal",
    "dummy_regions": "dummy.regions",
    "dummy_power": "dummy.power",
}


def _chance_prompt(game: Game, actors: tuple[str, ...]) -> Prompt:
    board = game.state
    key = CHANCE_KEYS[board.phase]
    chance = game.legal_actions(CHANCE)
    params: dict[str, Any] = {}
    if key == "reveal" and chance:
        params["deck"] = int(chance[0].arg)  # the deck's slot (2 holds decks 2+3 when merged)
    elif key == "setup.remove" and chance:
        params = {"deck": int(chance[0].arg), "card": board.pending_alternatives[0]}
    elif key == "setup.deal" and chance:
        colour = chance[0].arg
        params = {"colour": colour, "dealt": len(board.grey_hands[board.colour(colour)])}
    elif key.startswith("dummy.") and board.dummy >= 0:
        params["colour"] = board.colours[board.dummy]
    return Prompt(key, actors, params)


def _frame_prompt(
    game: Game, frame: Any, actors: tuple[str, ...], lights: tuple[Highlight, ...]
) -> Prompt:
    board = game.state
    params: dict[str, Any] = {}
    if isinstance(frame, DiscFrame):
        key = "disc.general" if frame.purpose == "general" else f"disc.{frame.purpose}"
        return Prompt(key, actors, {"waiting_for": list(actors)})
    if isinstance(frame, MoveFrame):
        key = "move.to" if frame.picked is not None else "move.pick"
        params = {}
        if frame.picked is not None:
            params["colour"] = board.colours[frame.picked[0]]
            params["from"] = board.tok[frame.picked[1]]
        return Prompt(key, actors, params, lights)
    if isinstance(frame, PlaceFrame):
        return Prompt("place", actors, {"left": frame.left}, lights)
    if isinstance(frame, ChoiceFrame):
        key = f"choice.{frame.kind}"
        if frame.purpose and f"{key}.{frame.purpose}" in prompt_texts():
            key = f"{key}.{frame.purpose}"
        elif frame.purpose:
            params["purpose"] = frame.purpose
        if key == "choice.option" and board.turn is not None:
            params["card"] = board.turn.card
        return Prompt(key, actors, params, lights if frame.kind != "powerback" else ())
    described = frame.describe(board, None)
    params = {k: v for k, v in described.items() if k in ("left", "colour", "against")}
    return Prompt(str(frame.kind), actors, params, lights)


# A seat's own prompt for the secret choices made on its page, by the verb it may play.
SEAT_KEYS = (("power", "seat.power"), ("powerback", "seat.powerback"), ("pass", "seat.pass"))


def seat_prompt(game: Game, viewer: int, legal: Sequence[str]) -> Prompt | None:
    """The prompt of a seat's own page when it is not the table's: its secret choice, or whom
    it waits for. None: the seat sees the table's prompt."""
    verbs = {text.split(" ", 1)[0] for text in legal}
    mine = (game.state.colours[viewer],)
    if "disc" in verbs:
        return _seat_disc_prompt(game, viewer, mine)
    for verb, key in SEAT_KEYS:
        if verb in verbs:
            return Prompt(key, mine)
    if "deal" in verbs:
        return Prompt("seat.deal", mine, {"n": len(game.state.grey_hands[viewer]) + 1})
    waiting = tuple(name for name in _actor_names(game) if name != "chance")
    if not legal and waiting and not game.is_terminal():
        return Prompt("seat.wait", waiting, {"who": list(waiting)})
    return None


def _seat_disc_prompt(game: Game, viewer: int, mine: tuple[str, ...]) -> Prompt:
    """A secret disc, with what it decides (the player sees why on their phone)."""
    board = game.state
    frame = board.frame
    if not isinstance(frame, DiscFrame):
        return Prompt("seat.disc", mine)
    purpose = frame.purpose
    card = board.turn.card if board.turn is not None else ""
    if purpose == "general":
        own = board.pieces[board.CASTILLO][viewer]  # the player's own throws: theirs to know
        if not own:
            return Prompt("seat.disc.general.empty", mine)
        king = board.tok[board.king] if board.king >= 0 else ""
        return Prompt("seat.disc.general", mine, {"castillo": own, "king": king})
    if purpose == "coup" and isinstance(frame.payload, int):
        return Prompt("seat.disc.coup", mine, {"region": board.tok[frame.payload], "card": card})
    if purpose == "return":
        count = frame.payload
        if count == "all":
            return Prompt("seat.disc.return.all", mine, {"card": card})
        return Prompt("seat.disc.return.n", mine, {"card": card, "n": count})
    if purpose == "rivalry":
        return Prompt("seat.disc.rivalry", mine, {"card": card})
    return Prompt("seat.disc", mine)


def prompt_for(game: Game, checks: Checks | None) -> Prompt:
    """The prompt the whole table sees: an open throw issue comes first."""
    if checks is not None and checks.issues:
        issue = checks.issues[0]
        return Prompt(f"check.{issue.kind}", ("table",), {"issue": issue.id, "detail": issue.text})
    if checks is not None and checks.waiting_for_scoring_check():
        return Prompt("check.scoring", ("table",), {})
    return game_prompt(game)
