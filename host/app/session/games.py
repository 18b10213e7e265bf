"""Games as the store keeps them: a new game or an imported record, continuing one (at start-up
the one that was active), rebuilding one from its log, and exporting its record.

Restoring a game replays its log through the transaction's `apply`, so the engine state and the
throw checks come back exactly as they were. A row that does not replay (an older version wrote
something this one refuses, a damaged payload) is reported in the log and skipped: one bad row
never keeps a game from being continued.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine import registry
from engine.core import record as core_record
from engine.core.errors import EngineError, OptionsError
from engine.core.protocol import GameState
from engine.core.spec import GameSpec
from host.api.errors import ActionError
from host.app.session.computers import computers_of_request
from host.app.session.model import ActiveGame, Seat
from host.app.session.seats import new_tokens
from host.app.store import LogRow
from host.games import adapter_for
from host.tower.checks import Checks

if TYPE_CHECKING:
    from host.app.session.hub import Session

log = logging.getLogger(__name__)


class Games:
    """Creates, continues, rebuilds and exports the store's games."""

    def __init__(self, session: Session) -> None:
        self._session = session

    def restore_last(self) -> int | None:
        """At start-up: continue the game that was active (after a crash or a restart)."""
        raw = self._session.store.setting("active_game")
        if not raw.isdigit():
            return None
        try:
            self.continue_game(int(raw))
        except ActionError as exc:  # gone, or its start damaged: the lobby offers the rest
            log.error("the last game is not continued: %s", exc.reason)
            return None
        return int(raw)

    def new_game(self, body: Mapping[str, Any]) -> int:
        """A new game from a client's request: `game` (an engine.registry id, El Grande if
        none) and the game's options (its adapter reads them); it becomes active."""
        options = dict(body)
        game_name = options.pop("game", registry.DEFAULT)
        computers_raw = options.pop("computers", None)
        try:
            spec = registry.get(game_name) if isinstance(game_name, str) else None
        except KeyError:
            spec = None
        if spec is None:
            known = ", ".join(registry.ids())
            reason = f"'game' must be one of {known}, not {game_name!r}"
            raise ActionError("bad_options", reason, errors={"game": f"must be one of {known}"})
        try:
            game = adapter_for(spec).new_state(options)
        except OptionsError as exc:
            raise ActionError("bad_options", str(exc), errors=exc.errors) from None
        except (KeyError, TypeError, ValueError, EngineError) as exc:
            raise ActionError("bad_options", str(exc)) from None
        seats = adapter_for(spec).seats(game)
        computers = computers_of_request(spec, seats, game.seat_names(), computers_raw)
        # stored as a record: the dealer's set-up draws are in it, so a replay never redraws
        start: dict[str, Any] = {"record": core_record.to_record(spec, game)}
        if computers:
            start["computers"] = computers
        return self._create(spec, start, game)

    def import_record(self, record: Mapping[str, Any]) -> int:
        try:
            spec, state = registry.replay(dict(record))
        except (EngineError, KeyError, TypeError, ValueError) as exc:
            raise ActionError("bad_record", str(exc)) from None
        return self._create(spec, {"record": dict(record)}, state, activate=False)

    def _create(
        self, spec: GameSpec, start: dict[str, Any], game: GameState, activate: bool = True
    ) -> int:
        store = self._session.store
        adapter = adapter_for(spec)
        names = game.seat_names()
        computers = start.get("computers", {})
        people = [names[p] for p in adapter.seats(game) if names[p] not in computers]
        game_id = store.create_game(spec.id, start, new_tokens(people))
        store.set_summary(game_id, adapter.summary(game))
        if activate:
            self.continue_game(game_id, fresh=True)
        return game_id

    def continue_game(self, game_id: int, fresh: bool = False) -> None:
        session = self._session
        with session.lock:
            active = self._load_saved(game_id)
            session.active = active
            session.tower_port.game_started()
            session.store.set_setting("active_game", str(game_id))
            totals = session.tower_port.totals
            checks = active.checks
            if checks is not None and checks.enabled and (fresh or checks.totals != totals):
                # where the tower stands now (a new game starts from an empty castillo)
                payload = {"kind": "baseline", "totals": totals, "fresh": fresh}
                session.transaction.record(active, "tower", "tower", payload)
        session._changed()

    def _load_saved(self, game_id: int) -> ActiveGame:
        """A saved game as it stands; a refusal (not a crash) when it cannot be rebuilt at all."""
        try:
            saved = self._session.store.game_start(game_id)
            if saved is None:
                raise ActionError("no_game", f"there is no game {game_id}")
            return self.load(game_id, *saved)
        except ActionError:
            raise
        except Exception as exc:  # its start (options, record) is damaged: the rows are fine
            log.exception("game %d cannot be restored", game_id)
            raise ActionError(
                "unreadable", f"game {game_id} cannot be restored ({type(exc).__name__})"
            ) from None

    def load(self, game_id: int, game_name: str, start: Mapping[str, Any]) -> ActiveGame:
        """The game as its start and its stored log make it."""
        session = self._session
        spec, game, options = _game_from_start(game_name, start)
        adapter = adapter_for(spec)
        names = game.seat_names()
        rows = {row.colour: row for row in session.store.seats(game_id)}
        seats = {
            colour: Seat(colour, rows[colour].token, rows[colour].claimed, rows[colour].lang)
            for colour in (names[p] for p in adapter.seats(game))
            if colour in rows
        }
        # the throw checks only for a game that declares the tower
        checks = Checks(names, enabled=session.checks_enabled) if adapter.tower else None
        active = ActiveGame(game_id, spec, adapter, game, checks, seats)
        computers = start.get("computers")
        if isinstance(computers, dict):
            active.computers = {str(k): v for k, v in computers.items() if isinstance(v, int)}
        active.scorings = len(adapter.scorings(game))
        active.reveals = len(adapter.reveals(game))
        active.history = len(game.history)  # an imported record's actions are not logged
        if checks is not None:
            checks.sync_game(adapter.tower_facts(game), session.clock())
        for row in session.store.log(game_id):
            self._replay_row(active, row)
        spec.replay_end(game, options)  # a dealer game deals on from here
        return active

    def _replay_row(self, active: ActiveGame, row: LogRow) -> None:
        """One row of a restore; a row that does not replay is reported and skipped."""
        if row.problem:
            _report_row(active, row, "skipped", row.problem)
            return
        payload, repaired = _utf8_safe(row.payload)
        if repaired:
            _report_row(active, row, "repaired", "text that is not valid Unicode")
        try:
            self._session.transaction.apply(active, row.kind, row.actor, payload, row.at)
        except Exception as exc:  # whatever an old or damaged row raises: go on without it
            _report_row(active, row, "skipped", f"{type(exc).__name__}: {exc}")

    def export_record(self, game_id: int) -> dict[str, Any]:
        session = self._session
        saved = session.store.game_start(game_id)
        if saved is None:
            raise ActionError("no_game", f"there is no game {game_id}")
        with session.lock:
            active = session.active
            if active is None or active.id != game_id:
                active = self.load(game_id, *saved)
            refusal = active.spec.export_refusal(active.game)  # the game knows its secrets
            if refusal is not None:
                raise ActionError("unfinished", refusal)
            return core_record.to_record(active.spec, active.game)


def _report_row(active: ActiveGame, row: LogRow, what: str, reason: str) -> None:
    """In the server log with the reason; in the public log without it (the reason may quote a
    secret action)."""
    log.error("game %d log entry %d %s on restore: %s", active.id, row.id, what, reason)
    active.note("problem", "table", what, entry=row.id, entry_kind=_utf8_safe(row.kind)[0])


def _game_from_start(game_id: str, start: Mapping[str, Any]) -> tuple[GameSpec, GameState, Any]:
    """The game's spec, the game as it started, taking chance steps from what is applied (a
    replay takes them from the log, never from the dealer's generator), and the options to
    resume with afterwards. A record names its game (engine.registry dispatches by it); an
    older start of bare options is of the store's `game`."""
    if "record" in start:
        spec, record = registry.spec_of_record(dict(start["record"]))
        options = spec.options_of_record(record)
        return spec, core_record.replay(spec, record, resume=False), options
    spec = registry.get(game_id)
    options = spec.options_from_json(dict(start["options"]))
    return spec, spec.new_state(options), options


def _utf8_safe(value: Any) -> tuple[Any, bool]:
    """`value` with every string made encodable as UTF-8 (a lone surrogate, which JSON allows,
    becomes U+FFFD), and whether anything changed. Old versions stored such text."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
            return value, False
        except UnicodeEncodeError:
            return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in value), True
    if isinstance(value, dict):
        pairs = [(_utf8_safe(k), _utf8_safe(v)) for k, v in value.items()]
        return {k: v for (k, _), (v, _) in pairs}, any(a or b for (_, a), (_, b) in pairs)
    if isinstance(value, list):
        items = [_utf8_safe(v) for v in value]
        return [v for v, _ in items], any(changed for _, changed in items)
    return value, False
