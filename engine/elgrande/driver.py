"""The rules driver over the board: who acts, what they may do, and one step applied.

Each is a function of the board (`engine.elgrande.board.Board`, the plain state): the game
protocol (`engine.elgrande.game.Game`) calls them with the state it holds, and the views and
the refusals read who acts and the legal actions here too. Who acts (`current_players`) and each
seat's legal actions (`legal_actions`) are cached on the board until the next step
(`forget_derived`).

A step goes to the pending frame (a step of a special action, secret choices:
engine.elgrande.frames) when there is one, else to the rule of the phase (`PHASE_RULES`). A
frame that is finished is then resolved here: a one-choice step by its effect
(`effects.resolve_choice`), a Veto by `phase_turn.resolve_veto`, and what follows the frame by
`after_frame`. In dealer mode `deal` draws the chance steps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from engine.core.actions import Action
from engine.core.chance import dealer_draw
from engine.elgrande import effects, legal, phase_round, phase_setup, phase_turn
from engine.elgrande.board import CHANCE, CHANCE_PHASES, Board, Frame
from engine.elgrande.frames import ChoiceFrame, DiscFrame, PassFrame, RecallFrame, VetoFrame

__all__ = [
    "PHASE_RULES",
    "can_undo",
    "compute_actors",
    "current_players",
    "deal",
    "forget_derived",
    "legal_actions",
    "step",
]

_TURN_PHASES: Final = frozenset({"take", "card", "main"})

# The rule of each phase when no step is pending (a pending step is its frame's): it applies
# an action Game.apply has found legal. The turn's phases are in phase_turn, the round's in
# phase_round, the set-up's in phase_setup.
PhaseRule = Callable[[Board, int, Action], None]
PHASE_RULES: Final[dict[str, PhaseRule]] = {
    "main": phase_turn.do_main,
    "take": phase_turn.do_take,
    "card": phase_turn.do_card,
    "power": phase_round.do_power,
    "reveal": phase_round.do_reveal,
    "dummy_power": phase_round.do_dummy_power,
    "dummy_regions": phase_round.do_dummy_regions,
    "setup_first": phase_setup.do_setup_first,
    "setup_remove": phase_setup.do_setup_remove,
    "setup_king": phase_setup.do_setup_king,
    "setup_home": phase_setup.do_setup_home,
    "setup_deal": phase_setup.do_setup_deal,
}


# ---------------------------------------------------------------------- who acts, what is legal
def current_players(b: Board) -> tuple[int, ...]:
    """Who acts now: one seat, several seats choosing at once, `(CHANCE,)`, or nobody (over)."""
    actors = b._actors
    if actors is None:
        actors = b._actors = compute_actors(b)
    return actors


def compute_actors(b: Board) -> tuple[int, ...]:
    """Who acts now, worked out afresh (`current_players` caches it)."""
    frame = b.frame
    if frame is not None:
        return frame.actors(b)
    turn = b.turn
    phase = b.phase
    if turn is not None and phase in _TURN_PHASES:
        return (turn.player,)
    if phase in CHANCE_PHASES:
        return (CHANCE,)
    if phase == "power":
        return (b.power_order[b.power_pos],)
    return ()  # game over


def legal_actions(b: Board, player: int | None = None) -> list[Action]:
    """The actions `player` (default: the first actor) may take now; `[]` for a seat that does
    not act. Cached on the board: the list is never changed once listed (do not mutate it)."""
    if player is None:
        players = current_players(b)
        if not players:
            return []
        player = players[0]
    last = b._legal_last  # the last seat asked: no dict lookup on the hot path
    if last is not None and b._legal_for == player:
        return last
    cached = b._legal.get(player)
    if cached is None:
        actors = b._actors or current_players(b)
        cached = legal.compute_legal(b, player) if player in actors else []
        b._legal[player] = cached
    b._legal_for = player
    b._legal_last = cached
    return cached


def forget_derived(b: Board) -> None:
    """After a step: forget the cached legal actions and work out who acts now."""
    b._legal = {}
    b._legal_last = None
    b._actors = compute_actors(b)


def can_undo(b: Board, player: int) -> bool:
    """Whether `player` may take back the last step: theirs, after the last undo barrier
    (`checkpoint`), and they still act."""
    history = b.history
    return len(history) > b.checkpoint and history[-1][0] == player and player in current_players(b)


# ---------------------------------------------------------------------- applying
def step(b: Board, player: int, action: Action) -> None:
    """Apply one legal action (the caller has checked it): the pending frame's, else the
    phase's rule. Leaves the derived caches stale (`forget_derived`)."""
    frame = b.frame
    if frame is None:
        rule = PHASE_RULES.get(b.phase)
        if rule is None:
            raise AssertionError(f"no rule for phase {b.phase!r}")
        rule(b, player, action)
    elif frame.apply(b, player, action):
        if isinstance(frame, ChoiceFrame):
            effects.resolve_choice(b, frame, action)
        elif isinstance(frame, VetoFrame):
            phase_turn.resolve_veto(b, frame, action.kind == "veto")
        if b.frame is frame:
            b.frame = None
            after_frame(b, frame)


def after_frame(b: Board, frame: Frame) -> None:
    """What follows a finished frame: the rest of the turn, the round or the card's steps."""
    if isinstance(frame, VetoFrame):
        if b.turn is not None and b.turn.special == 1 and not b.ops_context:
            phase_turn.ask_veto_or_run(b)
            return
    elif isinstance(frame, PassFrame):
        phase_setup.finish_pass(b, frame.chosen)
        return
    elif isinstance(frame, DiscFrame):
        phase_round.record_reveal(b, frame)
        if frame.purpose == "general":
            phase_round.finish_general_scoring(b, frame.chosen)
            return
        effects.resolve_discs(b, frame)
    elif isinstance(frame, RecallFrame) and not b.ops_context:
        phase_turn.after_take(b)
        return
    phase_turn.run_ops(b)


def deal(b: Board) -> None:
    """Dealer mode: draw the chance steps due now (none in table mode), each recorded in the
    history; a chance step is an undo barrier."""
    if not b._dealer or b.phase not in CHANCE_PHASES:
        return
    history = b.history
    while b.phase in CHANCE_PHASES and b.frame is None:
        phase = b.phase
        if phase == "reveal":
            # A uniform draw among the copies left.
            slot = legal.reveal_slot(b)
            pool = b.decks[slot]
            chosen = legal.reveal_action(slot, pool[_draw(b, len(pool))])
        elif phase in ("setup_remove", "setup_deal"):
            pool = legal.chance_pool(b) or []
            card = pool[_draw(b, len(pool))]
            chosen = next(a for a in legal.chance_actions(b) if a.arg2 == card)
        else:
            options = legal.chance_actions(b)
            chosen = options[_draw(b, len(options))]
        history.append((CHANCE, chosen))
        step(b, CHANCE, chosen)
    # A chance step is always an undo barrier; who acts is known again after the batch.
    forget_derived(b)
    b.checkpoint = len(history)


def _draw(b: Board, count: int) -> int:
    """The dealer's uniform draw among `count` outcomes."""
    return dealer_draw(b.dealer_seed, len(b.history), count)
