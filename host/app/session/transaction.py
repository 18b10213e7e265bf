"""The record: one change applied and written to the game log as one transaction.

A refusal (the engine or the throw checks refuse before changing anything) changes nothing;
anything else that fails before the commit (a game's bookkeeping, the disk) reloads the game
from the log and answers `server_error`/`storage`, so memory never runs ahead of the disk.
Restoring a game replays its log through the same `apply`: the engine actions and undos, the
tower entries, the clock ticks and the table's corrections.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core.errors import IllegalAction, NotationError
from engine.core.errors import UndoError as EngineUndoError
from engine.core.protocol import CHANCE
from host.api.errors import ActionError
from host.api.json_input import BadInput, check_loggable
from host.app.session.model import ActiveGame
from host.tower.checks import CheckError

if TYPE_CHECKING:
    from host.app.session.hub import Session

log = logging.getLogger(__name__)

# Refusals: raised by the engine or the throw checks before they change anything.
REFUSALS = (ActionError, IllegalAction, NotationError, EngineUndoError, CheckError)


class Transaction:
    """Applies log entries to the active game and makes them durable (see the module
    docstring). Called under the session's lock."""

    def __init__(self, session: Session) -> None:
        self._session = session

    def record(self, active: ActiveGame, kind: str, actor: str, payload: dict[str, Any]) -> int:
        """Apply one change and write it durably, as one transaction: a refusal changes
        nothing; any other failure before the commit puts the game back to its last durable
        state and answers that the server failed."""
        session = self._session
        try:  # what is logged is replayed and shown to every client: it must encode
            check_loggable(payload)
        except BadInput as exc:
            raise ActionError("bad_message", str(exc)) from None
        at = session.clock()
        try:
            self.apply(active, kind, actor, payload, at)
        except REFUSALS:
            raise  # checked before anything changed: the state is untouched
        except Exception:
            log.exception("a %s failed: game %d back to its saved state", kind, active.id)
            self.roll_back(active)
            raise ActionError(
                "server_error", "the server failed on this move; nothing changed: try again"
            ) from None
        try:
            session.store.append(active.id, kind, payload, at, actor, active.summary())
        except Exception:
            log.exception("could not save a %s: game %d back to its saved state", kind, active.id)
            self.roll_back(active)
            raise ActionError("storage", "the game could not be saved; nothing changed") from None
        return session.rev + 1

    def roll_back(self, active: ActiveGame) -> None:
        """Memory back to what the store holds (a replay of its log), keeping what is not
        stored: which seats are connected."""
        session = self._session
        try:
            saved = session.store.game_start(active.id)
            game_name, start = saved or (active.spec.id, {})
            fresh = session.games.load(active.id, game_name, start)
        except Exception:
            log.exception("game %d could not be reloaded after a failure", active.id)
            if session.active is active:
                session.active = None  # never play on from a state the disk does not hold
            return
        for colour, seat in fresh.seats.items():
            if colour in active.seats:
                seat.connected = active.seats[colour].connected
        if session.active is active:
            session.active = fresh

    def apply(
        self, active: ActiveGame, kind: str, actor: str, payload: Mapping[str, Any], at: float
    ) -> None:
        """One log entry, live or replayed. Raises without changing anything when refused."""
        self._apply(active, kind, actor, payload, at)
        active.settle_log()  # the change is wholly made: judge the lines that left the log

    def _apply(
        self, active: ActiveGame, kind: str, actor: str, payload: Mapping[str, Any], at: float
    ) -> None:
        game, checks = active.game, active.checks
        if kind == "action":
            player = CHANCE if actor == "chance" else active.player(actor)
            before = len(game.history)
            game.apply(str(payload["text"]), player)
            if "chance" in payload:  # a replay: the dealer's draws come from the log
                for text in payload["chance"]:
                    game.apply(str(text), CHANCE)
            elif isinstance(payload, dict):  # live: log what the dealer drew after it
                payload["chance"] = [str(a) for _, a in game.history[before + 1 :]]
            self._session._after_engine(active, at)
        elif kind == "undo":
            undone = game.undo(active.player(actor))
            active.history = len(game.history)
            active.note_step("undo", actor, undone, len(game.history))
            self._session._after_engine(active, at)
        elif kind == "tower":
            apply_tower(active, payload, at)
            frame = payload.get("frame") or {}
            if payload.get("kind") == "event" and frame.get("k") != "cal":
                active.note("tower", "tower", str(frame.get("k", "")))
        elif kind == "tick":
            if checks is not None:
                checks.tick(at)
        elif kind == "confirm":
            if checks is None:  # a game without the tower has no issue to answer
                raise CheckError(f"no open issue {int(payload['issue'])}")
            checks.confirm(int(payload["issue"]), list(payload["colours"]), at)
            active.note("correction", "table", "confirm " + " ".join(payload["colours"]))
        elif kind == "resolve":
            if checks is None:
                raise CheckError(f"no open issue {int(payload['issue'])}")
            checks.resolve(int(payload["issue"]), str(payload["how"]), at)
            note = str(payload.get("note", ""))
            active.note("correction", "table", str(payload["how"]), note=note)
        else:
            raise ActionError("bad_log", f"unknown log entry kind {kind!r}")


def apply_tower(active: ActiveGame, payload: Mapping[str, Any], at: float) -> None:
    """A tower ledger entry (or the baseline, an interruption) fed to the throw checks."""
    checks = active.checks
    if checks is None:  # a game without the tower: its entries are not the game's
        return
    kind = str(payload.get("kind", ""))
    totals = dict(payload.get("totals") or {})
    if kind == "baseline":
        checks.tower("baseline", {"fresh": bool(payload.get("fresh"))}, totals, at)
        return
    frame = payload.get("frame") or {}
    if kind == "event":
        checks.tower(str(frame.get("k", "")), frame, totals, at)
    elif kind == "snapshot":
        checks.tower("snapshot", {}, totals, at)
    elif kind == "interrupted":
        span = {"from": payload.get("from"), "to": payload.get("to")}
        checks.tower("interrupted", span, totals, at)
    else:
        checks.tower(kind, {}, totals, at)
