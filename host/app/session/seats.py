"""Seats and tokens: each person's seat link (a secret token in its URL), whether it is claimed
and connected, its language, and reissuing a link that was shared by mistake."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from host.api.errors import ActionError
from host.app.session.model import LANGUAGES, TOKEN_BYTES, ActiveGame, Role, Seat
from host.app.session.pipeline import require_game

if TYPE_CHECKING:
    from host.app.session.hub import Session


def new_tokens(people: list[str]) -> dict[str, str]:
    """A fresh secret link token for each person's seat."""
    return {name: secrets.token_urlsafe(TOKEN_BYTES) for name in people}


class SeatLinks:
    """The seat links of the active game (their tokens are stored with the game)."""

    def __init__(self, session: Session) -> None:
        self._session = session

    def seat_for_token(self, token: str) -> str | None:
        """The colour whose link in the active game this is (a token belongs to one game)."""
        active = self._session.active
        if active is None or not token or not token.isascii():  # tokens are URL-safe ASCII
            return None
        for seat in active.seats.values():
            if secrets.compare_digest(seat.token, token):
                return seat.colour
        return None

    def seat_link_problem(self, token: str, game_id: int | None) -> str | None:
        """Why a seat link opened in game `game_id` sees nothing more: `game_changed` (another
        game, or none, is active) or `replaced` (the link was reissued); None while valid."""
        with self._session.lock:
            active = self._session.active
            if active is None or active.id != game_id:
                return "game_changed"
            return "replaced" if self.seat_for_token(token) is None else None

    def seat_connected(self, colour: str, delta: int, game_id: int | None = None) -> None:
        """A seat page (of game `game_id`, when given) connected (+1) or left (-1)."""
        session = self._session
        with session.lock:
            active = session.active
            if active is None or colour not in active.seats:
                return
            if game_id is not None and active.id != game_id:
                return
            seat = active.seats[colour]
            seat.connected = max(0, seat.connected + delta)
            if delta > 0 and not seat.claimed:
                seat.claimed = True
                session.store.update_seat(active.id, colour, claimed=1)
        session._changed()

    def reissue(self, colour: str) -> Seat:
        session = self._session
        with session.lock:
            active = require_game(session)
            if colour not in active.seats:
                raise ActionError("no_seat", f"{colour} is not a seat of this game")
            seat = active.seats[colour]
            token = secrets.token_urlsafe(TOKEN_BYTES)
            session.store.update_seat(active.id, colour, token=token, claimed=0)  # durable first
            seat.token, seat.claimed = token, False
        session._changed([{"type": "reissued", "colour": colour}])
        return seat

    def set_language(self, role: Role, lang: str) -> None:
        """The table's language, or a seat's own."""
        if lang not in LANGUAGES:
            raise ActionError("bad_message", f"language must be one of {', '.join(LANGUAGES)}")
        session = self._session
        with session.lock:
            if role.kind == "table":
                session.table_lang = lang
                session.store.set_setting("table_lang", lang)
            else:
                active = require_game(session)
                assert role.colour is not None
                active.seats[role.colour].lang = lang
                session.store.update_seat(active.id, role.colour, lang=lang)
        session._changed()


def seats_view(active: ActiveGame, role: Role) -> list[dict[str, Any]]:
    """The seats as a client sees them: the table sees the links not claimed yet."""
    out = []
    for seat in active.seats.values():
        entry: dict[str, Any] = {
            "colour": seat.colour,
            "claimed": seat.claimed,
            "connected": seat.connected > 0,
            "lang": seat.lang,
        }
        if role.kind == "table" and not seat.claimed:
            entry["token"] = seat.token
            entry["url"] = f"/seat/{seat.token}"
        out.append(entry)
    for name, level in active.computers.items():
        out.append({"colour": name, "computer": level, "claimed": True, "connected": True})
    return out
