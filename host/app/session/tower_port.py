"""The tower and the lights as the session sees them: the link's durable sink (a ledger entry
and its game-log entry in one commit, then fed to the throw checks), the counting
interruptions, the throw windows that run out, what the lights show, the Grande flag the tower
is told, and the tower's status line with its warnings. A game uses them if its adapter says so
(`adapter.tower`, `adapter.lights`)."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from host.api.errors import ActionError
from host.app.session.transaction import REFUSALS
from host.app.towers import BadDrop, DropperError, TowerRuntime
from host.tower.events import LinkStatus
from host.tower.ledger import LedgerEntry
from host.tower.lights import LightsState, LightsWorker, program
from host.tower.link import LinkMessage

if TYPE_CHECKING:
    from host.app.session.hub import Session

log = logging.getLogger(__name__)

TOWER_WARNING_S = 600.0  # how long a tower event the checks could not take stays a warning


class TowerPort:
    """The session's side of the tower link and the board lights."""

    def __init__(self, session: Session) -> None:
        self._session = session
        self.tower: TowerRuntime | None = None
        self.lights: LightsWorker | None = None
        self._grande_sent: bool | None = None  # what the tower was last told (None: nothing)
        self.totals: dict[str, int] = {}  # the tower's latest per-colour counts
        self._problem = ""  # the latest tower event the throw checks could not take
        self._problem_at = -TOWER_WARNING_S
        # the tower's counting interruptions already known (before the active game, or logged)
        self._gaps_known: set[tuple[float, float]] = set()
        last = session.store.last_ledger()
        if last is not None:
            self.totals = last.totals

    # ------------------------------------------------------------------ wiring
    def attach(self, tower: TowerRuntime) -> None:
        self.tower = tower
        self._grande_sent = None
        if tower.link is not None:
            tower.link.add_listener(self._on_link_message)
            self.lights = LightsWorker(tower.link, on_problem=self._on_lights_problem)
        self._session._changed([{"type": "tower", "status": tower.status()}])

    def _on_lights_problem(self, _text: str) -> None:
        """From the lights thread: the board lights failed or work again; show or clear the
        tower warning."""
        self._session._changed([{"type": "tower", "status": self.status()}])

    def close(self) -> None:
        if self.lights is not None:
            self.lights.close()
        if self.tower is not None:
            self.tower.close()

    def game_started(self) -> None:
        """A game becomes active: it asks about interruptions from now on."""
        if self.tower is not None:
            self._gaps_known = set(self.tower.interruptions())

    # ------------------------------------------------------------------ the simulated tower
    def drop(self, cubes: list[str], how: str) -> None:
        if self.tower is None:
            raise ActionError("not_simulated", "there is no tower")
        try:
            self.tower.drop(cubes, how)
        except BadDrop as exc:  # a bad request, with or without the simulated tower
            raise ActionError("bad_message", str(exc)) from None
        except DropperError as exc:
            raise ActionError("not_simulated", str(exc)) from None

    def set_gate(self, is_open: bool) -> None:
        if self.tower is None:
            raise ActionError("not_simulated", "there is no tower")
        try:
            self.tower.set_gate(is_open)
        except BadDrop as exc:
            raise ActionError("bad_message", str(exc)) from None
        except DropperError as exc:
            raise ActionError("not_simulated", str(exc)) from None

    # ------------------------------------------------------------------ tower events
    def on_ledger_entry(self, entry: LedgerEntry) -> None:
        """The link's durable sink (called on the link's I/O thread before the device is
        acked): the ledger entry and the game-log entry in one commit, then applied."""
        session = self._session
        payload = {"kind": entry.kind, "frame": entry.frame, "totals": entry.totals}
        with session.lock:
            active = session.active
            checks = active.checks if active is not None else None
            game_id = active.id if active is not None and checks and checks.enabled else None
            at = session.clock()  # the session's clock, like every other log entry
            # raises only if nothing was committed: the link then keeps the event unacked
            stored = session.store.append_ledger(entry, game_id, payload, at)
            self.totals = entry.totals
            if stored and active is not None and game_id is not None:
                try:
                    session.transaction.apply(active, "tower", "tower", payload, at)
                except Exception as exc:
                    # durable already: raising would make the link fetch it and log it again;
                    # memory goes back to the store's (whose replay reports the row)
                    log.exception("tower entry seq %d not applied to the checks", entry.seq)
                    if not isinstance(exc, REFUSALS):
                        session.transaction.roll_back(active)
                    # the exception's text may name colours: it stays in the server log
                    self._problem = f"a tower event was not counted ({type(exc).__name__})"
                    self._problem_at = time.monotonic()
        session._changed()

    def _on_link_message(self, message: LinkMessage) -> None:
        if isinstance(message, LinkStatus) and self.tower is not None:
            self._record_interruptions()
            self._session._changed([{"type": "tower", "status": self.tower.status()}])

    def _record_interruptions(self) -> None:
        """Each interval the tower reports it was not counting becomes, in a game with throw
        checks, a logged `interrupted` tower entry: the checks ask the table to check the
        castillo (a cube thrown then may be missing from the count)."""
        tower = self.tower
        if tower is None:
            return
        session = self._session
        with session.lock:
            active = session.active
            gaps = [gap for gap in tower.interruptions() if gap not in self._gaps_known]
            self._gaps_known.update(gaps)
            if active is None or active.checks is None or not active.checks.enabled:
                return
            for start, end in gaps:
                payload = {
                    "kind": "interrupted",
                    "from": start,
                    "to": end,
                    "totals": dict(self.totals),
                }
                try:
                    session.transaction.record(active, "tower", "tower", payload)
                except ActionError as exc:
                    log.error("a counting interruption was not logged: %s", exc.reason)

    def reset_tower_counts(self) -> None:
        """After the castillo was emptied (on a thread of its own: the link answers on its
        I/O thread, which takes the session's lock)."""
        tower = self.tower
        if tower is None or tower.link is None:
            return
        try:
            tower.link.reset_counts(timeout=2.0)
        except Exception as exc:
            log.info("tower counts not reset: %s", exc)

    # ------------------------------------------------------------------ the throw windows
    def next_deadline(self) -> float | None:
        active = self._session.active
        if active is None or active.checks is None:
            return None
        return active.checks.next_deadline()

    def run_due(self) -> bool:
        """Turn run-out throw windows into issues (logged as a `tick`). True if any."""
        session = self._session
        with session.lock:
            active = session.active
            if active is None or active.checks is None:
                return False
            deadline = active.checks.next_deadline()
            if deadline is None or deadline > session.clock():
                return False
            session.transaction.record(active, "tick", "", {})
        session._changed()
        return True

    # ------------------------------------------------------------------ what the devices show
    def update_grande(self) -> None:
        """Tell the tower when a Grande may fall in (the link re-sends it after a reconnect)."""
        link = self.tower.link if self.tower is not None else None
        active = self._session.active
        possible = active is not None and active.adapter.grande_possible(active.game, self.totals)
        if link is not None and possible != self._grande_sent:
            self._grande_sent = possible
            link.set_grande_possible(possible)

    def update_lights(self, flash: bool) -> None:
        if self.lights is None:
            return
        self.lights.show(program(self.lights_state(), flash=flash))

    def lights_state(self) -> LightsState:
        """What the board lights show: nothing for a game without them."""
        active = self._session.active
        if active is None or not active.adapter.lights or active.checks is None:
            return LightsState()  # (the lights show the throw checks: a game with the tower)
        game, checks = active.game, active.checks
        prompt = active.adapter.prompt(game, checks)
        return active.adapter.lights_state(game, checks, prompt, active.sweep, active.flash)

    def status(self) -> dict[str, Any]:
        """The tower's status line, with the warning a client shows (none for a game that uses
        neither the tower nor the lights)."""
        status: dict[str, Any] = self.tower.status() if self.tower is not None else {"mode": "none"}
        active = self._session.active
        if active is not None and not (active.adapter.tower or active.adapter.lights):
            return status  # the game uses neither: no tower warnings
        if time.monotonic() - self._problem_at < TOWER_WARNING_S:
            status["warning"] = self._problem
            status["warning_key"] = "tower.warn.not_counted"
            status.pop("warning_params", None)  # they belonged to the link's warning
        lights = self.lights
        if lights is not None and lights.problem and "warning" not in status:
            status["warning"] = f"board lights: {lights.problem}"
            status["warning_key"] = "tower.warn.lights"
        if active is not None and active.checks is not None:
            status["recent"] = list(active.checks.recent)
        return status


class SessionSink:
    """The tower link's durable `EventSink`: the app's SQLite database."""

    def __init__(self, session: Session) -> None:
        self._session = session

    def append(self, entry: LedgerEntry) -> None:
        self._session.on_ledger_entry(entry)

    def last(self) -> LedgerEntry | None:
        return self._session.store.last_ledger()
