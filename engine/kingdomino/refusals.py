"""Why a Kingdomino action is refused: the legality checks of `Game.apply` and `Game.is_legal`
over the game's `State`, each raising IllegalAction with a translation key
(kingdomino.refuse.KEY; the texts are in host/games/kingdomino/static/i18n/<lang>/engine.json)
and its parameters.

>>> refuse("claim 9", "the game is over", "game_over").key
'kingdomino.refuse.game_over'
"""

from __future__ import annotations

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.kingdomino import kingdom as kd
from engine.kingdomino.data import GameData
from engine.kingdomino.kingdom import Kingdom
from engine.kingdomino.state import State
from engine.kingdomino.steps import CLAIM, DISCARD, DRAW, KING, STEP_NAMES

# Every refusal's key (kingdomino.refuse.KEY); the texts are in
# host/games/kingdomino/static/i18n/<lang>/engine.json.
REFUSALS = frozenset(
    {
        "bad_number",
        "cannot_place",
        "chance_expected",
        "claim_now",
        "claimed",
        "drawn_already",
        "game_over",
        "king_drawn",
        "must_place",
        "no_contact",
        "no_such_domino",
        "no_such_king",
        "not_in_line",
        "not_your_domino",
        "not_your_turn",
        "nothing_to_claim",
        "occupied",
        "outside",
        "place_first",
        "place_now",
        "too_tall",
        "too_wide",
        "unknown_action",
    }
)


def refuse(action: str, reason: str, key: str, **params: str | int) -> IllegalAction:
    assert key in REFUSALS, f"refusal key {key!r} is not listed in REFUSALS"
    return IllegalAction(action, reason, key=f"kingdomino.refuse.{key}", params=params)


def placement_refusal(
    data: GameData, kingdom: Kingdom, number: int, move: int, text: str
) -> IllegalAction | None:
    """Why domino `number` cannot go to `move` in `kingdom` (None: the rules allow it)."""
    ta, tb = data.terrain_a[number], data.terrain_b[number]
    why = kingdom.check(move, ta, tb)
    size = kingdom.size
    if why == kd.OUTSIDE:
        return refuse(
            text,
            f"{number} cannot go there: your kingdom would be more than {size} squares across",
            "outside",
            domino=number,
            size=size,
        )
    if why == kd.OCCUPIED:
        return refuse(
            text, f"{number} cannot go there: the square is taken", "occupied", domino=number
        )
    if why in (kd.TOO_WIDE, kd.TOO_TALL):
        (r1, c1) = kingdom.row_col(move >> 2)
        (r2, c2) = kingdom.row_col((move >> 2) + kingdom.step(move & 3))
        if why == kd.TOO_WIDE:
            span = max(kingdom.right, c1, c2) - min(kingdom.left, c1, c2) + 1
            word, key = "wide", "too_wide"
        else:
            span = max(kingdom.bottom, r1, r2) - min(kingdom.top, r1, r2) + 1
            word, key = "tall", "too_tall"
        return refuse(
            text,
            f"your kingdom would be {span} squares {word} (at most {size})",
            key,
            domino=number,
            span=span,
            size=size,
        )
    if why == kd.NO_CONTACT:
        first, second = data.terrain_name(ta), data.terrain_name(tb)
        touches = first if ta == tb else f"{first} or {second}"
        return refuse(
            text,
            f"{number} cannot go there: no side touches a {touches} or your castle",
            "no_contact",
            domino=number,
            first=data.letters[ta - 1],
            second=data.letters[tb - 1],
        )
    return None


def check_chance(game: State, action: Action) -> None:
    """Refuse (IllegalAction) a chance step that is not a legal one now."""
    text = str(action)
    if action.kind == "draw" and game.step == DRAW:
        if not action.arg.isdigit() or not 1 <= int(action.arg) <= game.data.count:
            raise refuse(
                text,
                f"domino numbers go from 1 to {game.data.count}",
                "no_such_domino",
                count=game.data.count,
            )
        if game.seen[int(action.arg)]:
            raise refuse(
                text,
                f"domino {action.arg} was drawn already",
                "drawn_already",
                domino=int(action.arg),
            )
        return
    if action.kind == "king" and game.step == KING:
        if action.arg not in game.options.players:
            raise refuse(text, f"no {action.arg} king plays", "no_such_king", colour=action.arg)
        seat = game.options.players.index(action.arg)
        if not any(game.setup.seat_of_king[k] == seat for k in game.kings_left()):
            raise refuse(
                text,
                f"every {action.arg} king was drawn already",
                "king_drawn",
                colour=action.arg,
            )
        return
    wanted = "a drawn domino (draw N)" if game.step == DRAW else "the next king (king COLOUR)"
    raise refuse(text, f"chance enters {wanted} now", "chance_expected", step=STEP_NAMES[game.step])


def check_move(game: State, action: Action) -> int:
    """The move an action stands for if it is legal now; IllegalAction with the reason."""
    text = str(action)
    if not action.arg.isdigit():
        raise refuse(text, "name a domino by its number", "bad_number")
    if game.step == CLAIM:
        if action.kind != "claim":
            raise refuse(text, "claim a domino of the next line now", "claim_now")
        number = int(action.arg)
        if number not in game.line_next:
            shown = ", ".join(map(str, game.line_next))
            raise refuse(
                text,
                f"{number} is not in the line to claim from ({shown})",
                "not_in_line",
                domino=number,
                line=shown,
            )
        owner = game.next_kings[game.line_next.index(number)]
        if owner >= 0:
            colour = game.options.players[game.setup.seat_of_king[owner]]
            raise refuse(
                text,
                f"{number} is claimed already by {colour}",
                "claimed",
                domino=number,
                colour=colour,
            )
        return number
    mine = game.current_domino()
    if action.kind == "claim":
        if not game.line_next:
            raise refuse(text, "the last round has nothing left to claim", "nothing_to_claim")
        raise refuse(text, f"place or discard your domino {mine} first", "place_first", domino=mine)
    if action.kind not in ("place", "discard"):
        raise refuse(text, f"place your domino {mine} now", "place_now", domino=mine)
    if int(action.arg) != mine:
        raise refuse(
            text,
            f"your king stands on domino {mine}, not {action.arg}",
            "not_your_domino",
            domino=mine,
        )
    legal = game.moves()
    if action.kind == "discard":
        if legal != [DISCARD]:
            raise refuse(
                text,
                f"{mine} fits in your kingdom ({len(legal)} placements): it must be placed",
                "must_place",
                domino=mine,
                placements=len(legal),
            )
        return DISCARD
    move = game.parse_placement(action.arg2)
    if move in legal:
        return move
    _explain_placement(game, text, mine, move)
    raise refuse(text, f"{mine} cannot go there", "cannot_place", domino=mine)


def _explain_placement(game: State, text: str, number: int, move: int) -> None:
    kingdom = game.kingdoms[game.acting()[0]]
    refusal = placement_refusal(game.data, kingdom, number, move, text)
    if refusal is not None:
        raise refusal
