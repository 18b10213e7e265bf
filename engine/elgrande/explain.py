"""Why an action is illegal, in words a player understands.

Only called on the slow path (an action that is not in the legal list), so clarity beats speed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.elgrande.actions import Action

if TYPE_CHECKING:
    from engine.elgrande.game import Game

PHASE_WORDS = {
    "setup_first": "the first player is to be set",
    "setup_king": "the King's region card is to be revealed",
    "setup_home": "a player's home region card is to be revealed",
    "reveal": "the action cards are being revealed",
    "power": "power cards are being played",
    "take": "the player takes caballeros to the court",
    "card": "the player chooses an action card",
    "main": "the player places caballeros and/or does the special action",
    "scoring": "every player secretly sets a disc for the general scoring",
    "over": "the game is over",
}

STEP_VERBS = {
    "move": ("pick", "to", "done"),
    "place": ("place", "done"),
    "return": ("return",),
    "recall": ("recall",),
    "disc": ("disc",),
    "veto": ("veto", "allow"),
}


def explain(g: Game, player: int, action: Action) -> str:
    """A specific reason why `action` by `player` is not legal now."""
    reason = _area_reason(g, action) or _step_reason(g, player, action)
    if reason:
        return reason
    legal = g.legal_actions(player)
    sample = ", ".join(str(a) for a in legal[:8]) + (" …" if len(legal) > 8 else "")
    return f"not possible now ({PHASE_WORDS.get(g.phase, g.phase)}); legal: {sample}"


def _area(g: Game, token: str) -> int | None:
    try:
        return g.area(token)
    except KeyError:
        return None


def _area_reason(g: Game, action: Action) -> str:
    """Reasons that come from the board itself: the King's region, France, the castillo."""
    verbs = {"place": 0, "to": 0, "recall": 0, "pick": 1, "return": 1, "grande": 0, "tile": 1}
    if action.kind not in verbs:
        return ""
    token = action[1 + verbs[action.kind]]
    area = _area(g, token)
    if area is None:
        return ""
    if area in (g.FRANCE, g.PORTUGAL):
        return f"{token} is not a region: nothing but the King (by Exile) ever goes there"
    if area == g.king and g.king < g.CASTILLO:
        name = g.regions[area].name
        return f"the King's region ({name}) is untouchable: nothing may enter or leave it"
    if (area == g.CASTILLO and action.kind in ("pick", "recall")) or (
        area == g.CASTILLO and action.kind == "return" and action.arg2 == "castillo"
    ):
        return "caballeros never come out of the castillo before a general scoring"
    placing = action.kind == "place" and g.phase == "main" and g.frame is None
    if placing and area not in g.placement_targets():
        king = g.tok[g.king]
        return f"{token} is not next to the King's region ({king}): place there or in the castillo"
    return ""


def _step_reason(g: Game, player: int, action: Action) -> str:
    turn = g.turn
    if g.frame is not None:
        step = g.frame.kind
        allowed = STEP_VERBS.get(step)
        if allowed and action.kind not in allowed:
            return f"finish the current step first ({step}): use {', '.join(allowed)}"
        if step == "move" and action.kind == "pick":
            return _pick_reason(g, action)
        return ""
    if action.kind == "power" and g.phase == "power":
        value = int(action.arg) if action.arg.isdigit() else -1
        if value in g.played:
            who = g.colours[g.played.index(value)]
            return f"power card {value} was already played this round (by {who})"
        if value not in g.hands[player]:
            return f"you do not hold power card {action.arg}"
    if action.kind == "take" and g.phase == "take" and turn is not None:
        if not action.arg.isdigit():
            return "say how many caballeros to take, e.g. 'take 2'"
        if int(action.arg) > turn.take:
            return f"your power card lets you take at most {turn.take} caballero(s)"
        return "there are not that many of your caballeros in the province and regions"
    if action.kind == "card" and g.phase == "card":
        if action.arg in g.data.cards:
            return f"{g.data.cards[action.arg].name()} is not face up now"
        return f"there is no action card {action.arg!r}"
    if action.kind == "place" and g.phase == "main" and turn is not None:
        if turn.placed:
            return "your placement is already finished this turn"
        if not g.court[player]:
            return "your court is empty"
        if turn.special == 1:
            return "finish the special action before placing (no splitting)"
    if action.kind in ("special", "skip") and turn is not None:
        if turn.placing:
            return "finish placing (say 'done') before the special action: neither may be split"
        if turn.special:
            return "the special action is already done or skipped this turn"
    return ""


def _pick_reason(g: Game, action: Action) -> str:
    region = _area(g, action.arg2)
    colour = g._colour_index.get(action.arg.casefold())
    if region is None or colour is None:
        return ""
    if region < g.R and not g.pieces[region][colour]:
        return f"there is no {action.arg} caballero in {action.arg2}"
    frame = g.frame
    if getattr(frame, "from_one", False) and getattr(frame, "source", -1) not in (-1, region):
        return f"this card moves caballeros out of one region only ({g.tok[frame.source]})"  # type: ignore[union-attr]
    if colour == getattr(frame, "actor", -1):
        return "this card does not let you move more of your own caballeros"
    return "this card does not let you move more opponents' caballeros"
