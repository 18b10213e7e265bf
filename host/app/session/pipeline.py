"""The action pipeline: who may act, whether a throw check blocks the action, then the record.

Every request that changes a game comes through here under the session's lock: it is checked
(the player it acts for, a secret choice kept off the shared screen, an open throw-check issue),
handed to the transaction (`Transaction.record`: applied and durable, or nothing changed) and
only then announced (`Session._changed`). A refusal flashes the lights.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any

from engine.core.actions import Action
from engine.core.errors import IllegalAction, NotationError, NotYourTurn
from engine.core.errors import UndoError as EngineUndoError
from engine.core.protocol import CHANCE
from host.api.errors import ActionError
from host.app.session.capabilities import capabilities
from host.app.session.model import ActiveGame, Role
from host.tower.checks import CheckError

if TYPE_CHECKING:
    from host.app.session.hub import Session

log = logging.getLogger(__name__)


def require_game(session: Session) -> ActiveGame:
    active = session.active
    if active is None:
        raise ActionError("no_game", "no game is active: start or continue one")
    return active


class Pipeline:
    """Engine actions, undos and the table's answers to the throw checks."""

    def __init__(self, session: Session) -> None:
        self._session = session

    # ------------------------------------------------------------------ who may act
    def who(self, active: ActiveGame, role: Role, as_colour: str | None) -> int:
        """The player a request acts for: a seat for itself, the table for the one player who
        acts now (or the one it names)."""
        actors = active.game.current_players()
        if role.kind == "seat":
            assert role.colour is not None
            me = active.player(role.colour)
            if as_colour and as_colour != role.colour:
                raise ActionError("forbidden", "a seat acts only for its own colour")
            return me
        if as_colour:
            if as_colour == "chance":
                return CHANCE
            try:
                return active.player(as_colour)
            except KeyError:
                raise ActionError("bad_message", f"{as_colour!r} is not in this game") from None
        if not actors:
            raise ActionError("illegal", "the game is over")
        if len(actors) > 1:
            names = ", ".join(active.names[p] for p in actors)
            raise ActionError("forbidden", f"several players choose now ({names}) on their pages")
        return actors[0]

    def _own_chance(
        self, active: ActiveGame, role: Role, action: Action, as_colour: str | None
    ) -> int:
        """A seat enters a chance step of its own (El Grande: the modifier cards dealt to it,
        its secret hand): it acts as chance, if the game says this one is its to enter now."""
        assert role.colour is not None
        refusal = active.adapter.seat_chance_refusal(active.game, role.colour, action, as_colour)
        if refusal is not None:
            raise self.refused(active, *refusal)
        return CHANCE

    def _acting_player(
        self, active: ActiveGame, role: Role, action: Action, as_colour: str | None
    ) -> int:
        """Who `role` may enter `action` for; refused if nobody (nothing has changed)."""
        adapter = active.adapter
        seat_chance = role.kind == "seat" and adapter.seat_enters(action)
        if seat_chance:
            player = self._own_chance(active, role, action, as_colour)
        else:
            player = self.who(active, role, as_colour)
        if player == CHANCE and role.kind != "table" and not seat_chance:
            raise ActionError("forbidden", "chance steps are entered at the table")
        if role.kind == "table" and adapter.secret(action):
            raise self.refused(
                active, "forbidden", f"'{action.kind}' is a secret choice: make it on your page"
            )
        return player

    def _check_not_blocked(self, active: ActiveGame, action: Action) -> None:
        """A capability may block an action until a check is settled (the tower: an open
        throw-check issue, a scoring's castillo count)."""
        for capability in capabilities(active):
            refusal = capability.refusal(active, action)
            if refusal is not None:
                raise self.refused(active, *refusal)

    def refused(
        self, active: ActiveGame, code: str, reason: str, refusal: IllegalAction | None = None
    ) -> ActionError:
        """A refusal (the lights flash); an engine refusal keeps its translation key."""
        active.flash += 1
        self._session._update_lights(flash=True)
        if refusal is None:
            return ActionError(code, reason)
        return ActionError(code, reason, refusal.key, refusal.params)

    # ------------------------------------------------------------------ requests
    def act(self, role: Role, text: str, as_colour: str | None = None) -> int:
        """One engine action; the new revision once it is durable."""
        session = self._session
        with session.lock:
            active = require_game(session)
            try:
                action = active.game.parse(text)
            except NotationError as exc:
                raise self.refused(active, "notation", str(exc)) from None
            player = self._acting_player(active, role, action, as_colour)
            self._check_not_blocked(active, action)
            scorings = active.scorings
            try:
                session.transaction.record(
                    active, "action", active.name_of(player), {"text": str(action)}
                )
            except NotYourTurn as exc:
                raise self.refused(active, "not_your_turn", exc.reason, exc) from None
            except IllegalAction as exc:
                reason = f"illegal action {exc.action!r}: {exc.reason}"
                raise self.refused(active, "illegal", reason, exc) from None
            scoring = scoring_message(session.active, scorings)
        session._changed(scoring)
        return session.rev

    def undo(self, role: Role, as_colour: str | None = None) -> tuple[str, int]:
        session = self._session
        with session.lock:
            active = require_game(session)
            game = active.game
            if role.kind == "seat":
                player = self.who(active, role, as_colour)
            elif as_colour:
                if as_colour not in active.names:
                    raise ActionError("bad_message", "'as' must be a colour of this game")
                player = active.player(as_colour)
            elif game.history:
                player = game.history[-1][0]
            else:
                raise ActionError("undo", "nothing to undo")
            if player < 0 or not game.can_undo(player):
                raise self.refused(
                    active,
                    "undo",
                    "nothing to undo: hidden information was revealed or another player acted",
                )
            undone = str(game.history[-1][1])
            try:
                session.transaction.record(
                    active, "undo", active.name_of(player), {"undone": undone}
                )
            except EngineUndoError as exc:
                raise ActionError("undo", str(exc)) from None
        session._changed()
        return undone, session.rev

    def confirm(self, issue: int, colours: list[str]) -> int:
        session = self._session
        with session.lock:
            active = require_game(session)
            payload = {"issue": issue, "colours": colours}
            try:
                session.transaction.record(active, "confirm", "table", payload)
            except CheckError as exc:
                raise ActionError("check", str(exc)) from None
        session._changed()
        return session.rev

    def resolve(self, issue: int, how: str, note: str = "") -> int:
        session = self._session
        with session.lock:
            active = require_game(session)
            issues = active.checks.issues if active.checks is not None else []
            kinds = {i.id: i.kind for i in issues}
            payload = {"issue": issue, "how": how, "note": note[:500]}
            try:
                self._record_corrections(active, issue, how)
                session.transaction.record(active, "resolve", "table", payload)
            except CheckError as exc:
                raise ActionError("check", str(exc)) from None
            reset_tower = kinds.get(issue) == "empty" and how == "done"
        tower = session.tower
        if reset_tower and tower is not None and tower.link is not None:
            # outside the lock: the link answers on its I/O thread, which takes the lock
            target = session.tower_port.reset_tower_counts
            threading.Thread(target=target, daemon=True).start()
        session._changed()
        return session.rev

    def _record_corrections(self, active: ActiveGame, issue: int, how: str) -> None:
        """The tower's count wins: the game records its castillo corrections (public engine
        actions of the table) before the fix itself; all are checked before any is applied."""
        if active.checks is None:  # a game without the tower: no issue (the record refuses)
            return
        wanted = active.checks.corrections(issue, how)
        try:
            texts = [active.adapter.castillo_correction(active.game, *c) for c in wanted]
        except IllegalAction as exc:
            raise self.refused(active, "illegal", exc.reason, exc) from None
        for text in texts:
            try:
                self._session.transaction.record(active, "action", "chance", {"text": text})
            except IllegalAction as exc:  # the game is over
                raise self.refused(active, "illegal", exc.reason, exc) from None


def scoring_message(active: ActiveGame | None, before: int) -> list[dict[str, Any]]:
    """The scoring just made (the game has more than the `before` it had), announced to every
    client in every game, with or without the lights (after the commit: a failure is logged,
    the action stands)."""
    if active is None or active.scorings <= before:
        return []
    try:
        return [{"type": "scoring", "scoring": active.adapter.scorings(active.game)[-1]}]
    except Exception:
        log.exception("the scoring of game %d not announced", active.id)
        return []
