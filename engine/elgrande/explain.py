"""Why an action is illegal, in words a player understands, and again as a translation key with
parameters (engine.core.errors.IllegalAction: the page words it in the player's language).

The rules are written once, as predicates (engine.elgrande.rules, choice_rules, and the frames'
own) that the legal actions are listed by; the checks (engine.elgrande.checks, chance_checks,
step_checks) read the same predicates and word a refusal (engine.elgrande.refusals: the keys,
their parameters and English templates). `check` walks them in order and finds the first that
refuses an action (None: every check allows it, as for each legal action); `explain` adds the
last resort.

Only called on the slow path (an action that is not in the legal list), so clarity beats speed.
Reasons go to the player who tried the action: they never reveal another player's secrets.
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.elgrande import driver
from engine.elgrande.board import Board
from engine.elgrande.chance_checks import chance_check
from engine.elgrande.checks import area_check, card_check, main_check, power_check, take_check
from engine.elgrande.refusals import (
    KEY_PREFIX,
    PARAM_KINDS,
    PHASE_WORDS,
    REFUSALS,
    Refusal,
    refusal,
    sample,
)
from engine.elgrande.step_checks import frame_check, offered
from engine.elgrande.verbs import VERBS

__all__ = ["KEY_PREFIX", "PARAM_KINDS", "PHASE_WORDS", "REFUSALS", "Refusal", "check", "explain"]

# The chance verbs, and the verbs that only answer a step of a special action.
CHANCE_VERBS = VERBS.chance
STEP_ONLY_VERBS = frozenset(VERBS.group("step"))


def explain(g: Board, player: int, action: Action) -> Refusal:
    """A specific reason why `action` by `player` is not legal now."""
    reason = check(g, player, action)
    if reason is not None:
        return reason
    legal = driver.legal_actions(g, player)
    words = PHASE_WORDS.get(g.phase, g.phase)
    return refusal("not_now", phase=g.phase, words=words, legal=sample(list(legal)))


def check(g: Board, player: int, action: Action) -> Refusal | None:
    """The first rule that refuses `action` by `player` now, None if none does."""
    frame = g.frame
    if frame is not None and offered(frame, player, action):
        return None
    if frame is None and g.phase != "main":
        # Out of order (e.g. placing during the power cards): the order is the reason.
        return _step_check(g, player, action) or area_check(g, action)
    return area_check(g, action) or _step_check(g, player, action)


def _step_check(g: Board, player: int, action: Action) -> Refusal | None:
    """The pending step's rules: a frame's, a chance step's, or the phase of the turn's."""
    if g.frame is not None:
        return frame_check(g, g.frame, player, action)
    if g.is_chance():
        return chance_check(g, action)
    if action.kind in CHANCE_VERBS:
        return refusal("no_card_to_enter", verb=action.kind)
    if action.kind == "grey":
        return refusal("modifier_not_now")
    if action.kind in STEP_ONLY_VERBS:
        words = PHASE_WORDS.get(g.phase, g.phase)
        return refusal("no_special_step", phase=g.phase, verb=action.kind, words=words)
    if g.phase == "power":
        return power_check(g, player, action)
    if g.phase == "take":
        return take_check(g, player, action)
    if g.phase == "card":
        return card_check(g, action)
    if g.phase == "main":
        return main_check(g, player, action)
    return None
