"""What each viewer may see, and the full state for persistence and tests.

Secrets: the castillo's per-colour contents (unless the table option `open_castillo` is on),
each player's hand and face-down power discards (unless the table option `open_power_cards`
opens the discard piles: then each player's discards, remaining power cards and Power of
attorney's card taken back are public; docs/variants.md), and disc choices before they are
revealed. A seat's view adds that seat's own secrets; the public view (viewer None) adds none.

The castillo's secret (docs/castillo-secrecy.md): at the table each throw is announced once.
With the castillo closed the views show the throws of the current turn only, drop the castillo
throws (and corrections) of earlier turns from the log, and show each colour's province to its
own seat only (with the board and the courts it would give the castillo's contents).
"""

from __future__ import annotations

from typing import Any

from engine.core.actions import Action
from engine.core.jsondata import copied
from engine.core.protocol import CHANCE
from engine.elgrande import driver
from engine.elgrande.board import Board
from engine.elgrande.castillo_fix import FIX_VERB
from engine.elgrande.frames import DiscFrame, PassFrame
from engine.elgrande.log import log_lines as step_log
from engine.elgrande.log import step_sees, text_log
from engine.elgrande.options import Options
from engine.elgrande.verbs import VERBS


def _board(g: Board) -> dict[str, Any]:
    return {
        g.tok[r]: {g.colours[p]: g.pieces[r][p] for p in range(g.n) if g.pieces[r][p]}
        for r in range(g.R)
    }


def _turn(g: Board) -> dict[str, Any] | None:
    t = g.turn
    if t is None:
        return None
    return {
        "player": g.colours[t.player],
        "take": t.take,
        "card": t.card,
        "place_left": t.place_left,
        "placing": t.placing,
        "placed": t.placed,
        "special": ("not started", "in progress", "done")[t.special],
    }


def _highlight(g: Board, viewer: int | None) -> list[str]:
    """Areas the acting player's legal actions point at: these become the lights."""
    players = driver.current_players(g)
    if len(players) != 1 or players[0] < 0:
        return []
    areas: list[str] = []
    for action in driver.legal_actions(g, players[0]):
        for arg in (action.arg, action.arg2):
            if arg in g.area_tokens and arg not in areas:
                areas.append(arg)
    return areas


def public_state(g: Board) -> dict[str, Any]:
    castillo_total = sum(g.pieces[g.CASTILLO])
    players = driver.current_players(g)
    out: dict[str, Any] = {
        "edition": g.data.edition,
        "players": [g.colours[p] for p in g.seats],
        "dummy": g.colours[g.dummy] if g.dummy >= 0 else None,
        "options": {k: v for k, v in g.options.to_json().items() if k not in ("seed", "overrides")},
        "phase": g.phase,
        # during a general scoring: the round it follows (the next one has not begun)
        "round": g.rounds[g.round_index - 1] if g.phase == "scoring" else g.round_number,
        "rounds": list(g.rounds),
        "acting": ["chance" if p < 0 else g.colours[p] for p in players],
        "first_player": g.colours[g.first] if g.first >= 0 else None,
        "king": g.tok[g.king] if g.king >= 0 else None,
        "grandes": {g.colours[p]: g.tok[a] for p, a in enumerate(g.grandes) if a >= 0},
        "tiles": {tile: g.tok[area] for tile, area in g.tiles.items()},
        "board": _board(g),
        "castillo": {"total": castillo_total},
        "throws": _throws(g, g.throws if g.options.open_castillo else heard_throws(g)),
        "court": dict(zip(g.colours, g.court, strict=True)),
        "scores": {g.colours[p]: g.scores[p] for p in g.seats},
        "hand_sizes": {g.colours[p]: len(g.hands[p]) for p in range(g.n)},
        "played": {g.colours[p]: v for p, v in enumerate(g.played) if v},
        "power_totals": {g.colours[p]: g.totals[p] for p in range(g.n) if g.played[p]},
        "modifiers_played": {g.colours[p]: m for p, m in enumerate(g.played_grey) if m},
        "taken": {g.colours[p]: card for p, card in enumerate(g.taken) if card},
        "modifier_hand_sizes": {g.colours[p]: len(g.grey_hands[p]) for p in g.seats},
        "face_up": [c for c in g.face_up if c],
        "deck_sizes": {str(d): g.deck_size(d) for d in range(1, 6) if g.deck_size(d)},
        "vetoes": [{"holder": g.colours[v.holder], "card": v.card} for v in g.vetoes],
        "turn": _turn(g),
        "scorings": g.scorings,  # built afresh on each call
        "score_history": copied(g.score_history),
        "disc_reveals": copied(g.disc_reveals),
    }
    if g.options.open_power_cards:
        # open discard piles: what is left in each hand is the rest of the 13 cards
        out["remaining_power"] = {g.colours[p]: sorted(g.hands[p]) for p in range(g.n)}
        out["discarded_power"] = {g.colours[p]: sorted(g.power_discards[p]) for p in range(g.n)}
        out["discarded_modifiers"] = {
            g.colours[p]: sorted(g.grey_discards[p]) for p in g.seats if g.grey_discards[p]
        }
    if g.options.open_castillo:
        out["province"] = dict(zip(g.colours, g.province, strict=True))
        out["castillo"]["contents"] = {
            g.colours[p]: g.pieces[g.CASTILLO][p] for p in range(g.n) if g.pieces[g.CASTILLO][p]
        }
    return out


def player_view(g: Board, viewer: int | None) -> dict[str, Any]:
    """The public state plus, for a seat, that seat's own hand, discards and disc."""
    out = public_state(g)
    out["viewer"] = None if viewer is None else g.colours[viewer]
    out["step"] = g.frame.describe(g, viewer) if g.frame is not None else None
    out["highlight"] = _highlight(g, viewer)
    out["log"] = public_log(g)
    if viewer is not None and not g.options.open_castillo:
        out["province"] = {g.colours[viewer]: g.province[viewer]}
    if viewer is not None:
        out["hand"] = list(g.hands[viewer])
        out["power_discards"] = list(g.power_discards[viewer])
        out["modifier_hand"] = list(g.grey_hands[viewer])
        out["modifier_discards"] = list(g.grey_discards[viewer])
        out["legal"] = [str(a) for a in driver.legal_actions(g, viewer)]
        out["can_undo"] = driver.can_undo(g, viewer)
    return out


def full_snapshot(g: Board) -> dict[str, Any]:
    """Everything, secrets included (never send this to a client)."""
    out = public_state(g)
    out["castillo"]["contents"] = {g.colours[p]: g.pieces[g.CASTILLO][p] for p in range(g.n)}
    out["throws"] = _throws(g, g.throws)
    out["province"] = dict(zip(g.colours, g.province, strict=True))
    out["hands"] = {g.colours[p]: list(g.hands[p]) for p in range(g.n)}
    out["modifier_hands"] = {g.colours[p]: list(g.grey_hands[p]) for p in range(g.n)}
    out["modifier_discards"] = {g.colours[p]: list(g.grey_discards[p]) for p in range(g.n)}
    out["modifier_deck"] = sorted(g.grey_deck)
    out["dummy_regions_left"] = [g.tok[r] for r in g.dummy_deck]
    out["power_discards"] = {g.colours[p]: list(g.power_discards[p]) for p in range(g.n)}
    out["decks"] = {str(d): sorted(g.decks[d]) for d in range(1, 5)}
    out["used_cards"] = list(g.used_cards)
    frame = g.frame
    out["step"] = frame.describe(g, None) if frame is not None else None
    if isinstance(frame, DiscFrame):
        out["step"]["discs"] = {g.colours[p]: g.tok[r] for p, r in sorted(frame.chosen.items())}
    if isinstance(frame, PassFrame):
        out["step"]["passes"] = {g.colours[p]: c for p, c in sorted(frame.chosen.items())}
    out["ops"] = [dict(op) for op in g.ops]
    out["history"] = [[p, str(a)] for p, a in g.history]
    return out


# Steps whose argument is a secret (the verb table's): the public log shows that they happened,
# not what they were. "remove": the card set aside for an alternative card goes back in the box
# unseen.
SECRET_STEPS = VERBS.secret


def public_step(action: Action, options: Options | None = None) -> str:
    """One step as the public log shows it when it is taken: its secret arguments masked, each
    as "?" (the verb table's `secret_from`: `deal purple ?`, `disc ?`, `remove 2 ?`), except the
    card Power of attorney takes back when `options` has open power cards (it leaves an open
    discard pile). The text of the step's public line (engine.elgrande.log): the engine's view,
    the table app's log and its undo lines all show it (docs/castillo-secrecy.md)."""
    return VERBS.text(VERBS.line(action, step_sees(options, (), CHANCE, action, None)))


def hidden_steps(g: Board) -> frozenset[int]:
    """The history indices every public log leaves out now: with the castillo closed, the
    castillo throws and corrections of earlier turns (`past_castillo_steps`); none with it
    open. The one rule: the engine's view (`public_log`) and the table app's log
    (host/games/elgrande/secrecy.py) both ask it."""
    if g.options.open_castillo:
        return frozenset()
    return frozenset(past_castillo_steps(g))


def log_lines(g: Board, viewer: int | None) -> list[dict[str, Any]]:
    """The log as `viewer` (None: the public) reads it now: a line per step (engine.core.log),
    secret arguments shown as engine.elgrande.log says, the `hidden_steps` left out."""
    return step_log(g, viewer, hidden_steps(g))


def public_log(g: Board) -> list[list[str]]:
    """The public log as [actor, action] lines, each action the text of its line (secret
    arguments "?"; disc choices shown once revealed, with `open_power_cards` the card Power of
    attorney takes back too), the `hidden_steps` left out."""
    return text_log(g, None, hidden_steps(g))


def _throws(g: Board, throws: list[Any]) -> list[dict[str, Any]]:
    return [
        {"round": t.round, "by": g.colours[t.by], "colour": g.colours[t.colour], "count": t.count}
        for t in throws
    ]


def heard_throws(g: Board) -> list[Any]:
    """The throws announced in the current turn (what a player at the table just heard)."""
    turn = g.turn
    return list(g.throws[turn.first_throw :]) if turn is not None else []


def turn_start(g: Board) -> int:
    """The history index where the current turn began (its length between turns)."""
    turn = g.turn
    return turn.first_action if turn is not None else len(g.history)


def castillo_step(action: Action) -> bool:
    """A step that puts a caballero into the castillo or corrects its contents."""
    kind = action.kind
    return (kind in ("place", "to") and action.arg == "castillo") or kind == FIX_VERB


def past_castillo_steps(g: Board) -> set[int]:
    """History indices of the castillo throws and corrections before the current turn (a move
    into the castillo with the `pick` that named its caballero)."""
    history = g.history
    out: set[int] = set()
    for i in range(turn_start(g)):
        action = history[i][1]
        if castillo_step(action):
            out.add(i)
            if action.kind == "to" and i and history[i - 1][1].kind == "pick":
                out.add(i - 1)
    return out
