"""`Session`: the table app's state, a thin front over the pieces of host/app/session (see the
package docstring). It holds what they share (the store, the clock, the lock, the active game,
the revision, the listeners) and answers the routes by handing each call to its piece."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from host.app.session import events
from host.app.session.computers import ComputerSeats
from host.app.session.games import Games
from host.app.session.model import ActiveGame, Listener, Role, Seat
from host.app.session.pipeline import Pipeline
from host.app.session.seats import SeatLinks
from host.app.session.tower_port import SessionSink, TowerPort
from host.app.session.transaction import Transaction
from host.app.session.views import ViewCache, state_for, table_prompt
from host.app.store import Store
from host.app.towers import TowerRuntime
from host.tower.ledger import LedgerEntry
from host.tower.lights import LightsState, LightsWorker

log = logging.getLogger(__name__)


class Session:
    """The table app's state (see the package docstring). Thread-safe."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        checks_enabled: bool = True,
    ) -> None:
        self.store = store
        self.clock = clock
        self.checks_enabled = checks_enabled
        self.lock = threading.RLock()
        self.active: ActiveGame | None = None
        self.rev = int(clock() * 1000)
        self._listeners: list[Listener] = []
        self.table_lang = store.setting("table_lang", "en")
        self.transaction = Transaction(self)
        self.games = Games(self)
        self.pipeline = Pipeline(self)
        self.seat_links = SeatLinks(self)
        self.computers = ComputerSeats(self)
        self.tower_port = TowerPort(self)
        self.sink = SessionSink(self)
        self.views = ViewCache()  # each role's game view, once per revision

    # ------------------------------------------------------------------ wiring
    @property
    def tower(self) -> TowerRuntime | None:
        return self.tower_port.tower

    @property
    def lights(self) -> LightsWorker | None:
        return self.tower_port.lights

    def attach_tower(self, tower: TowerRuntime) -> None:
        self.tower_port.attach(tower)

    def add_listener(self, listener: Listener) -> None:
        self._listeners = [*self._listeners, listener]

    def remove_listener(self, listener: Listener) -> None:
        self._listeners = [known for known in self._listeners if known is not listener]

    def close(self) -> None:
        self.computers.close()
        self.tower_port.close()

    def _changed(self, messages: list[dict[str, Any]] | None = None) -> None:
        """After every change: a new revision, the lights, and every client told. The change
        is durable already: a failure here is logged and never undoes or blocks it."""
        with self.lock:
            self.rev = max(self.rev + 1, int(self.clock() * 1000))
            try:
                self._update_lights(flash=False)
                self.tower_port.update_grande()
            except Exception:
                log.exception("after a change: the tower or the lights not updated")
        for listener in self._listeners:
            try:
                listener(messages or [])
            except Exception:
                log.exception("session listener failed")
        try:
            self.computers.schedule()
        except Exception:
            log.exception("after a change: the computer seat not scheduled")

    def _after_engine(self, active: ActiveGame, at: float) -> None:
        """After every engine change, live or replayed (inside the transaction)."""
        events.after_engine(active, at)

    def _update_lights(self, flash: bool) -> None:
        self.tower_port.update_lights(flash)

    # ------------------------------------------------------------------ games
    def restore_last(self) -> int | None:
        return self.games.restore_last()

    def new_game(self, body: Mapping[str, Any]) -> int:
        return self.games.new_game(body)

    def import_record(self, record: Mapping[str, Any]) -> int:
        return self.games.import_record(record)

    def continue_game(self, game_id: int, fresh: bool = False) -> None:
        self.games.continue_game(game_id, fresh)

    def list_games(self) -> list[dict[str, Any]]:
        return self.store.list_games()

    def export_record(self, game_id: int) -> dict[str, Any]:
        return self.games.export_record(game_id)

    # ------------------------------------------------------------------ requests
    def act(self, role: Role, text: str, as_colour: str | None = None) -> int:
        return self.pipeline.act(role, text, as_colour)

    def undo(self, role: Role, as_colour: str | None = None) -> tuple[str, int]:
        return self.pipeline.undo(role, as_colour)

    def confirm(self, issue: int, colours: list[str]) -> int:
        return self.pipeline.confirm(issue, colours)

    def resolve(self, issue: int, how: str, note: str = "") -> int:
        return self.pipeline.resolve(issue, how, note)

    def hint(self, role: Role) -> str:
        return self.computers.hint(role)

    def set_language(self, role: Role, lang: str) -> None:
        self.seat_links.set_language(role, lang)

    # ------------------------------------------------------------------ seats
    def seat_for_token(self, token: str) -> str | None:
        return self.seat_links.seat_for_token(token)

    def seat_link_problem(self, token: str, game_id: int | None) -> str | None:
        return self.seat_links.seat_link_problem(token, game_id)

    def seat_connected(self, colour: str, delta: int, game_id: int | None = None) -> None:
        self.seat_links.seat_connected(colour, delta, game_id)

    def reissue(self, colour: str) -> Seat:
        return self.seat_links.reissue(colour)

    # ------------------------------------------------------------------ the tower
    def drop(self, cubes: list[str], how: str) -> None:
        self.tower_port.drop(cubes, how)

    def set_gate(self, is_open: bool) -> None:
        self.tower_port.set_gate(is_open)

    def on_ledger_entry(self, entry: LedgerEntry) -> None:
        self.tower_port.on_ledger_entry(entry)

    def next_deadline(self) -> float | None:
        return self.tower_port.next_deadline()

    def run_due(self) -> bool:
        return self.tower_port.run_due()

    # ------------------------------------------------------------------ views
    def lights_state(self) -> LightsState:
        return self.tower_port.lights_state()

    def tower_status(self) -> dict[str, Any]:
        return self.tower_port.status()

    def state_for(self, role: Role) -> dict[str, Any]:
        return state_for(self, role)

    def table_prompt(self) -> dict[str, Any]:
        return table_prompt(self)
