"""Computer seats and hints: the game's computer player thinks on a copy of the game in one
worker thread, never on a request's thread, and its move goes through the same pipeline as a
person's (or, at a real table, waits for the players to confirm it)."""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from engine.core.errors import NotationError
from engine.core.protocol import CHANCE, GameState
from engine.core.spec import ComputerPlayer, GameSpec
from host.api.errors import ActionError
from host.app.session.model import ActiveGame, Role
from host.app.session.pipeline import require_game

if TYPE_CHECKING:
    from host.app.session.hub import Session

log = logging.getLogger(__name__)


class ComputerSeats:
    """Schedules the computer seat that acts now, one move at a time."""

    def __init__(self, session: Session) -> None:
        self._session = session
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer")
        self._computing: tuple[int, int] | None = None  # (game id, `logged`) being thought on
        self._closed = False

    def close(self) -> None:
        self._closed = True  # a computer still thinking makes no move any more
        self._pool.shutdown(wait=False, cancel_futures=True)

    def schedule(self) -> None:
        """When a computer seat acts now, think on a copy of the game in the computer thread."""
        with self._session.lock:
            active = self._session.active
            name = active.computer_acting() if active is not None else None
            if active is None or name is None:
                return
            marker = (active.id, active.logged)
            waiting = active.proposal is not None and active.proposal[0] == active.logged
            if self._computing == marker or waiting:
                return
            self._computing = marker
            player = active.spec.computer(active.computers[name])
            seat = active.spec.seat_of(active.game, name)
            copy = active.spec.computer_copy(active.game)
        try:
            self._pool.submit(self._move, marker, name, seat, player, copy)
        except RuntimeError:  # the session is closing
            self._computing = None

    def _move(
        self,
        marker: tuple[int, int],
        name: str,
        seat: int,
        player: ComputerPlayer,
        copy: GameState,
    ) -> None:
        """The computer's move, made through the same path as a player's (`act`: checked,
        durable, then announced), or, at a real table, shown for the players to confirm."""
        try:
            action = str(player.choose(copy, seat))
        except Exception:
            log.exception("the computer player of %s failed", name)
            action = ""
        session = self._session
        with session.lock:
            if self._computing == marker:
                self._computing = None
            active = session.active
            if self._closed or not action or active is None:
                return
            if (active.id, active.logged) != marker:
                return  # the game moved on meanwhile: that change scheduled a new move
            # A secret choice (a disc) is made on the seat's own behalf at once, even at a real
            # table: shown there as a proposal, it would be revealed before its time.
            if not active.adapter.computer_confirms(active.game) or _secret(active, action):
                try:
                    session.act(Role("seat", name), action)
                except ActionError as exc:
                    log.error("the computer's move %r was refused: %s", action, exc.reason)
                return
            active.proposal = (active.logged, action)
        session._changed()

    def hint(self, role: Role) -> str:
        """The move the game's computer player suggests to the acting seat (a seat asks for its
        own turn only). Thought on a copy, outside the lock: the game goes on meanwhile."""
        with self._session.lock:
            active = require_game(self._session)
            spec, game = active.spec, active.game
            if not spec.hint_level:
                raise ActionError("no_hint", f"{spec.title} has no computer player to ask")
            seat = _hinted_seat(active, role)
            player = spec.computer(spec.hint_level)
            copy = spec.computer_copy(game)
        return str(player.choose(copy, seat))


def _hinted_seat(active: ActiveGame, role: Role) -> int:
    """The seat a hint is for: the asking seat on its turn, or the one player acting now."""
    game = active.game
    actors = game.current_players()
    if not actors or actors[0] == CHANCE:
        raise ActionError("no_hint", "no player moves now")
    if role.kind == "seat":
        # a seat asks for its own move (several seats may choose at once)
        seat = next((p for p in actors if active.names[p] == role.colour), None)
        if seat is None:
            raise ActionError("not_your_turn", "a hint is for your own turn")
        return seat
    if len(actors) != 1:
        raise ActionError("no_hint", "several players choose now: ask on a seat's page")
    if any(active.adapter.secret(a) for a in game.legal_actions(actors[0])):
        # shown at the shared screen, a hint would tell the seat's secret choice
        raise ActionError("no_hint", "a secret choice: ask on the seat's page")
    return actors[0]


def _secret(active: ActiveGame, text: str) -> bool:
    """Whether a computer's move is a secret choice (never shown to the table)."""
    try:
        return active.adapter.secret(active.game.parse(text))
    except NotationError:
        return False


def computer_view(active: ActiveGame) -> dict[str, Any] | None:
    """The computer seat acting now: its level and, at a real table, its move to confirm."""
    name = active.computer_acting()
    if name is None:
        return None
    proposal = active.proposal
    move = proposal[1] if proposal is not None and proposal[0] == active.logged else None
    return {"colour": name, "level": active.computers[name], "proposal": move}


def computers_of_request(
    spec: GameSpec, seats: list[int], names: list[str], raw: Any
) -> dict[str, int]:
    """A new game's computer seats (`computers`: seat name → level), checked."""
    if raw is None or raw == {}:
        return {}
    field_error = "computers"
    if not isinstance(raw, dict):
        reason = "'computers' must map seats to levels"
    elif not spec.computer_levels:
        reason = f"{spec.title} has no computer player"
    else:
        levels = spec.computer_levels
        playing = {names[p] for p in seats}
        bad = [n for n in raw if n not in playing]
        wrong = [n for n, v in raw.items() if isinstance(v, bool) or v not in levels]
        if not bad and not wrong:
            return {str(n): int(v) for n, v in raw.items()}
        reason = (
            f"{bad[0]!r} is not a seat of this game"
            if bad
            else f"levels are {', '.join(map(str, levels))}"
        )
    raise ActionError("bad_options", reason, errors={field_error: reason})
