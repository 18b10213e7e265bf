"""What a seat (or the public) sees of a Kingdomino game, and the full snapshot.

Kingdomino has no secret: every line is revealed when drawn and every kingdom is open. What the
engine never knows in table mode (the dominoes removed unseen) it cannot show; in dealer mode
the dealer draws each domino when the line is laid out, so there is no hidden pile order to
leak. A seat's view adds its own legal actions. `game` is the game's state (the `State` that
engine.kingdomino.game.Game holds).
"""

from __future__ import annotations

from typing import Any

from engine.core.log import text_log
from engine.core.protocol import CHANCE
from engine.kingdomino import kingdom as kd
from engine.kingdomino.legal import legal_actions
from engine.kingdomino.scoring import breakdown, deciding_tie_break, totals, winners
from engine.kingdomino.state import State
from engine.kingdomino.verbs import VERBS

STEPS = ("draw", "king", "place", "claim", "over")


def kingdom_rows(game: State, seat: int) -> list[str]:
    """The kingdom's bounding box as rows of squares ("C" castle, "." empty, "F1"...), with
    the window coordinates of its top-left square."""
    kingdom: kd.Kingdom = game.kingdoms[seat]
    rows = []
    for row in range(kingdom.top, kingdom.bottom + 1):
        squares = []
        for col in range(kingdom.left, kingdom.right + 1):
            cell = kingdom.cell(row, col)
            terrain = kingdom.terrain[cell]
            if terrain == kd.CASTLE:
                squares.append("C")
            elif terrain == kd.EMPTY:
                squares.append(".")
            else:
                squares.append(game.data.half_text(terrain, kingdom.crowns[cell]))
        rows.append(" ".join(squares))
    return rows


def _king_name(game: State, king: int) -> str:
    seat = game.setup.seat_of_king[king]
    colour: str = game.options.players[seat]
    return colour if game.setup.kings_each == 1 else f"{colour}-{king % 2 + 1}"


def _line(
    game: State, numbers: list[int], kings: list[int], done: frozenset[int] = frozenset()
) -> list[dict[str, Any]]:
    """A line's dominoes with the king on each; `placed`: its king has placed it this round
    (the domino stays in the line, its king has moved on)."""
    out = []
    for slot, number in enumerate(numbers):
        king = kings[slot] if slot < len(kings) else -1
        out.append(
            {
                "domino": number,
                "faces": game.data.domino_text(number),
                "king": _king_name(game, king) if king >= 0 else "",
                "placed": king in done,
            }
        )
    return out


def _kings_done(game: State) -> frozenset[int]:
    """The kings of the current line that have placed their domino this round."""
    if game.step not in (2, 3) or not game.line:
        return frozenset()
    done = game.turn + (1 if game.step == 3 else 0)
    return frozenset(game.order[:done])


def _seat(game: State, seat: int) -> dict[str, Any]:
    kingdom: kd.Kingdom = game.kingdoms[seat]
    score = breakdown(game, seat)
    return {
        "colour": game.options.players[seat],
        "kingdom": kingdom_rows(game, seat),
        "top_left": game.square_name(kingdom.cell(kingdom.top, kingdom.left)),
        "dominoes": kingdom.dominoes,
        "discarded": game.discarded[seat],
        "territories": [
            {
                "terrain": game.data.terrain_name(terrain),
                "squares": squares,
                "crowns": crowns,
                "points": squares * crowns,
            }
            for terrain, squares, crowns in score.territories
        ],
        "middle_kingdom": score.middle_kingdom,
        "harmony": score.harmony,
        "score": score.total,
    }


def result(game: State) -> dict[str, Any]:
    """The winners and what decided: the score, the largest territory, the crowns, or a
    shared win. A Dynasty is decided by its sum alone (the rulebook names no tie-break)."""
    totals_now = totals(game)
    seats = range(game.setup.players)
    if game.setup.games > 1:
        largest = crowns = [0 for _ in seats]
    else:
        largest = [breakdown(game, seat).largest for seat in seats]
        crowns = [breakdown(game, seat).crowns for seat in seats]
    players = game.options.players
    return {
        "winners": [players[seat] for seat in winners(totals_now, largest, crowns)],
        "decided_by": deciding_tie_break(totals_now, largest, crowns),
        "largest": largest,
        "crowns": crowns,
    }


def view(game: State, viewer: int | None = None) -> dict[str, Any]:
    actors = game.acting()
    king = game.acting_king()
    out: dict[str, Any] = {
        "game": game.game_number + 1,
        "games": game.setup.games,
        "step": STEPS[game.step],
        "mode": game.options.mode,
        "size": game.setup.size,
        "acting": ["chance" if p == CHANCE else game.options.players[p] for p in actors],
        "acting_king": _king_name(game, king) if king >= 0 else "",
        "domino": game.current_domino() if game.step in (2, 3) else 0,
        "line": _line(game, game.line, game.line_kings, _kings_done(game)),
        "next_line": _line(game, game.line_next, game.next_kings),
        "left_over": list(game.left_over),
        "drawn": game.drawn,
        "in_play": game.setup.dominoes,
        "seats": [_seat(game, seat) for seat in range(game.setup.players)],
        "past_games": [list(row) for row in game.past],
        "totals": totals(game),
        "log": text_log(VERBS, game.history, game.options.players, None),
    }
    if game.is_over():
        out["result"] = result(game)
    if viewer is not None:
        out["legal"] = [str(a) for a in legal_actions(game, viewer)]
    return out


def snapshot(game: State) -> dict[str, Any]:
    """Everything, for persistence and tests (Kingdomino has no secret to keep out)."""
    return {
        **view(game, None),
        "seen": [n for n in game.data.numbers() if game.seen[n]],
        "order": list(game.order),
        "turn": game.turn,
        "kings_drawn": list(game.kings_drawn),
    }
