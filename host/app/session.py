"""The table session: the one place that joins the engine, the tower, the lights and the store.

It knows no game: what it needs of one beyond the engine protocol comes from the game's host
adapter (host/games/__init__.py), which also says whether the game uses the tower (throw
checks) and the lights.

Everything that changes a game goes through `Session` under one lock, in this order:
check it (the engine or the throw checks refuse bad input without changing anything), apply it,
write it to the game log (durable), then tell the clients and the lights. The apply and the
write are one transaction: a refusal changes nothing, and anything else that fails before the
commit (a game's bookkeeping, the disk) reloads the game from the log and answers
`server_error`/`storage`, so memory never runs ahead of the disk. What follows the commit (the
lights, the clients, a computer seat) is logged when it fails and never undoes the action.
Tower events come the other way: the SQLite sink (the link's durable sink) writes the ledger
entry and its game-log entry in one commit, applies it, and only then does the link ack the
device.

Restoring a game replays its log through the same code (`_apply`): the engine actions and undos,
the tower entries, the clock ticks and the table's corrections, so the engine state and the
throw checks come back exactly as they were. A row that does not replay (an older version wrote
something this one refuses, a damaged payload) is reported in the log and skipped: one bad row
never keeps a game from being continued.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from engine import registry
from engine.core import record as core_record
from engine.core.actions import Action
from engine.core.errors import EngineError, IllegalAction, NotationError, NotYourTurn, OptionsError
from engine.core.errors import UndoError as EngineUndoError
from engine.core.protocol import CHANCE, GameState
from engine.core.spec import ComputerPlayer, GameSpec
from host.api.errors import ActionError as ActionError  # re-exported: tests and the server
from host.api.json_input import BadInput, check_loggable
from host.app.store import LogRow, Store
from host.app.towers import BadDrop, DropperError, TowerRuntime
from host.games import GameAdapter, adapter_for
from host.tower.checks import CheckError, Checks
from host.tower.events import LinkStatus
from host.tower.ledger import LedgerEntry
from host.tower.lights import LightsState, LightsWorker, program
from host.tower.link import LinkMessage

log = logging.getLogger("host.app.session")

LANGUAGES = ("en", "cs", "pl", "uk")
# Refusals: raised by the engine or the throw checks before they change anything.
REFUSALS = (ActionError, IllegalAction, NotationError, EngineUndoError, CheckError)
LOG_LINES = 200  # public log lines kept in `state.log`
TOWER_WARNING_S = 600.0  # how long a tower event the checks could not take stays a warning
TOKEN_BYTES = 16
Listener = Callable[[list[dict[str, Any]]], None]


@dataclass(frozen=True)
class Role:
    kind: str  # "table" or "seat"
    colour: str | None = None

    @classmethod
    def table(cls) -> Role:
        return cls("table")


@dataclass
class Seat:
    colour: str
    token: str
    claimed: bool
    lang: str
    connected: int = 0


@dataclass
class ActiveGame:
    id: int
    spec: GameSpec
    adapter: GameAdapter
    game: GameState
    checks: Checks
    seats: dict[str, Seat]
    scorings: int = 0
    reveals: int = 0  # secret choices revealed so far (each logged once)
    sweep: tuple[tuple[str, tuple[str, ...]], ...] = ()
    flash: int = 0
    log: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    logged: int = 0  # log lines so far (their `n`): a new one for every move
    history: int = 0  # engine history entries already in the log
    computers: dict[str, int] = field(default_factory=dict)  # computer seats: name → level
    proposal: tuple[int, str] | None = None  # (`logged` then, move) a computer waits to confirm

    def computer_acting(self) -> str | None:
        """The name of a computer seat that acts now, if one does (where several seats choose
        at once, e.g. El Grande's secret discs, the first computer seat among them)."""
        for player in self.game.current_players():
            if player == CHANCE:
                return None
            name = self.names[player]
            if name in self.computers:
                return name
        return None

    def note(self, kind: str, actor: str, text: str, **extra: Any) -> None:
        """One line of the public log (docs/table-api.md, `state.log`)."""
        self.logged += 1
        line = {"n": self.logged, "kind": kind, "actor": actor, "text": text}
        line.update(self.adapter.log_fields(self.game))
        line.update(extra)
        self.log.append(line)

    @property
    def names(self) -> list[str]:
        """Every player's name by seat index (El Grande: the colours, its dummy's too)."""
        return self.game.seat_names()

    def name_of(self, player: int) -> str:
        return "chance" if player == CHANCE else self.names[player]

    def player(self, name: str) -> int:
        """A player's seat index by name (KeyError if the game has none of that name)."""
        return self.adapter.seat_of(self.game, name)

    def summary(self) -> dict[str, Any]:
        return self.adapter.summary(self.game)


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


class Session:
    """The table app's state (see the module docstring). Thread-safe."""

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
        self.tower: TowerRuntime | None = None
        self._grande_sent: bool | None = None  # what the tower was last told (None: nothing)
        self.lights: LightsWorker | None = None
        self.rev = int(clock() * 1000)
        self._listeners: list[Listener] = []
        self._tower_totals: dict[str, int] = {}
        self._tower_problem = ""  # the latest tower event the throw checks could not take
        self._tower_problem_at = -TOWER_WARNING_S
        # the tower's counting interruptions already known (before the active game, or logged)
        self._gaps_known: set[tuple[float, float]] = set()
        last = store.last_ledger()
        if last is not None:
            self._tower_totals = last.totals
        self.sink = _SessionSink(self)
        self.table_lang = store.setting("table_lang", "en")
        # computer seats think here, one move at a time, never on a request's thread
        self._computer_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer")
        self._computing: tuple[int, int] | None = None  # (game id, `logged`) being thought on
        self._closed = False

    # ------------------------------------------------------------------ wiring
    def attach_tower(self, tower: TowerRuntime) -> None:
        self.tower = tower
        self._grande_sent = None
        if tower.link is not None:
            tower.link.add_listener(self._on_link_message)
            self.lights = LightsWorker(tower.link, on_problem=self._on_lights_problem)
        self._changed([{"type": "tower", "status": tower.status()}])

    def _on_lights_problem(self, _text: str) -> None:
        """From the lights thread: the board lights failed or work again; show or clear the
        tower warning."""
        self._changed([{"type": "tower", "status": self.tower_status()}])

    def add_listener(self, listener: Listener) -> None:
        self._listeners = [*self._listeners, listener]

    def remove_listener(self, listener: Listener) -> None:
        self._listeners = [known for known in self._listeners if known is not listener]

    def close(self) -> None:
        self._closed = True  # a computer still thinking makes no move any more
        self._computer_pool.shutdown(wait=False, cancel_futures=True)
        if self.lights is not None:
            self.lights.close()
        if self.tower is not None:
            self.tower.close()

    def _changed(self, messages: list[dict[str, Any]] | None = None) -> None:
        """After every change: a new revision, the lights, and every client told. The change
        is durable already: a failure here is logged and never undoes or blocks it."""
        with self.lock:
            self.rev = max(self.rev + 1, int(self.clock() * 1000))
            try:
                self._update_lights(flash=False)
                self._update_grande()
            except Exception:
                log.exception("after a change: the tower or the lights not updated")
        for listener in self._listeners:
            try:
                listener(messages or [])
            except Exception:
                log.exception("session listener failed")
        try:
            self._schedule_computer()
        except Exception:
            log.exception("after a change: the computer seat not scheduled")

    # ------------------------------------------------------------------ computer seats
    def _schedule_computer(self) -> None:
        """When a computer seat acts now, think on a copy of the game in the computer thread."""
        with self.lock:
            active = self.active
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
            self._computer_pool.submit(self._computer_move, marker, name, seat, player, copy)
        except RuntimeError:  # the session is closing
            self._computing = None

    def _computer_move(
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
        with self.lock:
            if self._computing == marker:
                self._computing = None
            active = self.active
            if self._closed or not action or active is None:
                return
            if (active.id, active.logged) != marker:
                return  # the game moved on meanwhile: that change scheduled a new move
            # A secret choice (a disc) is made on the seat's own behalf at once, even at a real
            # table: shown there as a proposal, it would be revealed before its time.
            if not active.adapter.computer_confirms(active.game) or _secret(active, action):
                try:
                    self.act(Role("seat", name), action)
                except ActionError as exc:
                    log.error("the computer's move %r was refused: %s", action, exc.reason)
                return
            active.proposal = (active.logged, action)
        self._changed()

    def hint(self, role: Role) -> str:
        """The move the game's computer player suggests to the acting seat (a seat asks for its
        own turn only). Thought on a copy, outside the lock: the game goes on meanwhile."""
        with self.lock:
            active = self._require_game()
            spec, game = active.spec, active.game
            if not spec.hint_level:
                raise ActionError("no_hint", f"{spec.title} has no computer player to ask")
            actors = game.current_players()
            if not actors or actors[0] == CHANCE:
                raise ActionError("no_hint", "no player moves now")
            if role.kind == "seat":
                # a seat asks for its own move (several seats may choose at once)
                seat = next((p for p in actors if active.names[p] == role.colour), None)
                if seat is None:
                    raise ActionError("not_your_turn", "a hint is for your own turn")
            elif len(actors) != 1:
                raise ActionError("no_hint", "several players choose now: ask on a seat's page")
            else:
                seat = actors[0]
                if any(active.adapter.secret(a) for a in game.legal_actions(seat)):
                    # shown at the shared screen, a hint would tell the seat's secret choice
                    raise ActionError("no_hint", "a secret choice: ask on the seat's page")
            player = spec.computer(spec.hint_level)
            copy = spec.computer_copy(game)
        return str(player.choose(copy, seat))

    # ------------------------------------------------------------------ games
    def restore_last(self) -> int | None:
        """At start-up: continue the game that was active (after a crash or a restart)."""
        raw = self.store.setting("active_game")
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
        computers = _computers(spec, seats, game.seat_names(), computers_raw)
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
        game_id = self._create(spec, {"record": dict(record)}, state, activate=False)
        return game_id

    def _create(
        self, spec: GameSpec, start: dict[str, Any], game: GameState, activate: bool = True
    ) -> int:
        adapter = adapter_for(spec)
        names = game.seat_names()
        computers = start.get("computers", {})
        people = [names[p] for p in adapter.seats(game) if names[p] not in computers]
        tokens = {name: secrets.token_urlsafe(TOKEN_BYTES) for name in people}
        game_id = self.store.create_game(spec.id, start, tokens)
        self.store.set_summary(game_id, adapter.summary(game))
        if activate:
            self.continue_game(game_id, fresh=True)
        return game_id

    def continue_game(self, game_id: int, fresh: bool = False) -> None:
        with self.lock:
            active = self._load_saved(game_id)
            self.active = active
            if self.tower is not None:  # the game asks about interruptions from now on
                self._gaps_known = set(self.tower.interruptions())
            self.store.set_setting("active_game", str(game_id))
            if active.checks.enabled and (fresh or active.checks.totals != self._tower_totals):
                # where the tower stands now (a new game starts from an empty castillo)
                payload = {"kind": "baseline", "totals": self._tower_totals, "fresh": fresh}
                self._record(active, "tower", "tower", payload)
        self._changed()

    def _load_saved(self, game_id: int) -> ActiveGame:
        """A saved game as it stands; a refusal (not a crash) when it cannot be rebuilt at all."""
        try:
            saved = self.store.game_start(game_id)
            if saved is None:
                raise ActionError("no_game", f"there is no game {game_id}")
            return self._load(game_id, *saved)
        except ActionError:
            raise
        except Exception as exc:  # its start (options, record) is damaged: the rows are fine
            log.exception("game %d cannot be restored", game_id)
            raise ActionError(
                "unreadable", f"game {game_id} cannot be restored ({type(exc).__name__})"
            ) from None

    def _load(self, game_id: int, game_name: str, start: Mapping[str, Any]) -> ActiveGame:
        spec, game, options = _game_from_start(game_name, start)
        adapter = adapter_for(spec)
        names = game.seat_names()
        rows = {row.colour: row for row in self.store.seats(game_id)}
        seats = {
            colour: Seat(colour, rows[colour].token, rows[colour].claimed, rows[colour].lang)
            for colour in (names[p] for p in adapter.seats(game))
            if colour in rows
        }
        checks = Checks(names, enabled=self.checks_enabled and adapter.tower)
        active = ActiveGame(game_id, spec, adapter, game, checks, seats)
        computers = start.get("computers")
        if isinstance(computers, dict):
            active.computers = {str(k): v for k, v in computers.items() if isinstance(v, int)}
        active.scorings = len(adapter.scorings(game))
        active.reveals = len(adapter.reveals(game))
        active.history = len(game.history)  # an imported record's actions are not logged
        if adapter.tower:
            checks.sync_game(adapter.tower_facts(game), self.clock())
        for row in self.store.log(game_id):
            self._replay_row(active, row)
        spec.replay_end(game, options)  # a dealer game deals on from here
        return active

    def _replay_row(self, active: ActiveGame, row: LogRow) -> None:
        """One row of a restore; a row that does not replay is reported and skipped."""
        if row.problem:
            self._report_row(active, row, "skipped", row.problem)
            return
        payload, repaired = _utf8_safe(row.payload)
        if repaired:
            self._report_row(active, row, "repaired", "text that is not valid Unicode")
        try:
            self._apply(active, row.kind, row.actor, payload, row.at)
        except Exception as exc:  # whatever an old or damaged row raises: go on without it
            self._report_row(active, row, "skipped", f"{type(exc).__name__}: {exc}")

    @staticmethod
    def _report_row(active: ActiveGame, row: LogRow, what: str, reason: str) -> None:
        """In the server log with the reason; in the public log without it (the reason may
        quote a secret action)."""
        log.error("game %d log entry %d %s on restore: %s", active.id, row.id, what, reason)
        active.note("problem", "table", what, entry=row.id, entry_kind=_utf8_safe(row.kind)[0])

    def list_games(self) -> list[dict[str, Any]]:
        return self.store.list_games()

    def export_record(self, game_id: int) -> dict[str, Any]:
        saved = self.store.game_start(game_id)
        if saved is None:
            raise ActionError("no_game", f"there is no game {game_id}")
        with self.lock:
            active = self.active
            if active is None or active.id != game_id:
                active = self._load(game_id, *saved)
            refusal = active.spec.export_refusal(active.game)  # the game knows its secrets
            if refusal is not None:
                raise ActionError("unfinished", refusal)
            return core_record.to_record(active.spec, active.game)

    # ------------------------------------------------------------------ the log
    def _record(self, active: ActiveGame, kind: str, actor: str, payload: dict[str, Any]) -> int:
        """Apply one change and write it durably, as one transaction (see the module
        docstring): a refusal changes nothing; any other failure before the commit puts the
        game back to its last durable state and answers that the server failed."""
        try:  # what is logged is replayed and shown to every client: it must encode
            check_loggable(payload)
        except BadInput as exc:
            raise ActionError("bad_message", str(exc)) from None
        at = self.clock()
        try:
            self._apply(active, kind, actor, payload, at)
        except REFUSALS:
            raise  # checked before anything changed: the state is untouched
        except Exception:
            log.exception("a %s failed: game %d back to its saved state", kind, active.id)
            self._roll_back(active)
            raise ActionError(
                "server_error", "the server failed on this move; nothing changed: try again"
            ) from None
        try:
            self.store.append(active.id, kind, payload, at, actor, active.summary())
        except Exception:
            log.exception("could not save a %s: game %d back to its saved state", kind, active.id)
            self._roll_back(active)
            raise ActionError("storage", "the game could not be saved; nothing changed") from None
        return self.rev + 1

    def _roll_back(self, active: ActiveGame) -> None:
        """Memory back to what the store holds (a replay of its log), keeping what is not
        stored: which seats are connected."""
        try:
            saved = self.store.game_start(active.id)
            game_name, start = saved or (active.spec.id, {})
            fresh = self._load(active.id, game_name, start)
        except Exception:
            log.exception("game %d could not be reloaded after a failure", active.id)
            if self.active is active:
                self.active = None  # never play on from a state the disk does not hold
            return
        for colour, seat in fresh.seats.items():
            if colour in active.seats:
                seat.connected = active.seats[colour].connected
        if self.active is active:
            self.active = fresh

    def _apply(
        self, active: ActiveGame, kind: str, actor: str, payload: Mapping[str, Any], at: float
    ) -> None:
        """One log entry, live or replayed. Raises without changing anything when refused."""
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
            self._after_engine(active, at)
        elif kind == "undo":
            undone = game.undo(active.player(actor))
            active.history = len(game.history)
            active.note("undo", actor, active.adapter.public_text(undone, game))
            self._after_engine(active, at)
        elif kind == "tower":
            self._apply_tower(active, payload, at)
            frame = payload.get("frame") or {}
            if payload.get("kind") == "event" and frame.get("k") != "cal":
                active.note("tower", "tower", str(frame.get("k", "")))
        elif kind == "tick":
            checks.tick(at)
        elif kind == "confirm":
            checks.confirm(int(payload["issue"]), list(payload["colours"]), at)
            active.note("correction", "table", "confirm " + " ".join(payload["colours"]))
        elif kind == "resolve":
            checks.resolve(int(payload["issue"]), str(payload["how"]), at)
            note = str(payload.get("note", ""))
            active.note("correction", "table", str(payload["how"]), note=note)
        else:
            raise ActionError("bad_log", f"unknown log entry kind {kind!r}")

    def _after_engine(self, active: ActiveGame, at: float) -> None:
        game, adapter = active.game, active.adapter
        if adapter.tower:
            active.checks.sync_game(adapter.tower_facts(game), at)
        for player, action in game.history[active.history :]:
            active.note("action", active.name_of(player), adapter.public_text(action, game))
        active.history = len(game.history)
        reveals = adapter.reveals(game)
        for reveal in reveals[min(active.reveals, len(reveals)) :]:
            discs = {str(k): str(v) for k, v in reveal["discs"].items()}
            active.note("reveal", "table", str(reveal["card"]), discs=discs)
        active.reveals = len(reveals)
        scorings = adapter.scorings(game)
        active.sweep = ()
        if len(scorings) > active.scorings:
            active.sweep = adapter.sweep(game, scorings[-1])
            scoring = scorings[-1]
            # a scoring's line is of the round it scores (the game may be in the next already)
            when = {"round": scoring["round"]} if "round" in scoring else {}
            active.note("scoring", "table", adapter.scoring_label(scoring), **when)
        active.scorings = len(scorings)

    @staticmethod
    def _apply_tower(active: ActiveGame, payload: Mapping[str, Any], at: float) -> None:
        checks = active.checks
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

    # ------------------------------------------------------------------ requests
    def _require_game(self) -> ActiveGame:
        active = self.active
        if active is None:
            raise ActionError("no_game", "no game is active: start or continue one")
        return active

    def _who(self, active: ActiveGame, role: Role, as_colour: str | None) -> int:
        game = active.game
        actors = game.current_players()
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
            raise self._refused(active, *refusal)
        return CHANCE

    def act(self, role: Role, text: str, as_colour: str | None = None) -> int:
        """One engine action; the new revision once it is durable."""
        with self.lock:
            active = self._require_game()
            game = active.game
            try:
                action = game.parse(text)
            except NotationError as exc:
                raise self._refused(active, "notation", str(exc)) from None
            adapter = active.adapter
            seat_chance = role.kind == "seat" and adapter.seat_enters(action)
            if seat_chance:
                player = self._own_chance(active, role, action, as_colour)
            else:
                player = self._who(active, role, as_colour)
            if player == CHANCE and role.kind != "table" and not seat_chance:
                raise ActionError("forbidden", "chance steps are entered at the table")
            if role.kind == "table" and adapter.secret(action):
                raise self._refused(
                    active, "forbidden", f"'{action.kind}' is a secret choice: make it on your page"
                )
            self._check_not_blocked(active, action)
            try:
                self._record(active, "action", active.name_of(player), {"text": str(action)})
            except NotYourTurn as exc:
                raise self._refused(active, "not_your_turn", exc.reason, exc) from None
            except IllegalAction as exc:
                reason = f"illegal action {exc.action!r}: {exc.reason}"
                raise self._refused(active, "illegal", reason, exc) from None
            scoring = self._scoring_message(self.active)
        self._changed(scoring)
        return self.rev

    @staticmethod
    def _scoring_message(active: ActiveGame | None) -> list[dict[str, Any]]:
        """The scoring just made, announced to every client (after the commit: a failure is
        logged, the action stands)."""
        if active is None or not active.sweep:
            return []
        try:
            return [{"type": "scoring", "scoring": active.adapter.scorings(active.game)[-1]}]
        except Exception:
            log.exception("the scoring of game %d not announced", active.id)
            return []

    def _check_not_blocked(self, active: ActiveGame, action: Action) -> None:
        checks = active.checks
        if checks.blocked:
            raise self._refused(active, "blocked", f"resolve first: {checks.issues[0].text}")
        waits = active.adapter.waits_for_scoring_check(action)
        if waits and checks.waiting_for_scoring_check():
            raise self._refused(
                active,
                "blocked",
                "the castillo count is being checked against the tower: try again in a moment",
            )

    def _refused(
        self, active: ActiveGame, code: str, reason: str, refusal: IllegalAction | None = None
    ) -> ActionError:
        """A refusal (the lights flash); an engine refusal keeps its translation key."""
        active.flash += 1
        self._update_lights(flash=True)
        if refusal is None:
            return ActionError(code, reason)
        return ActionError(code, reason, refusal.key, refusal.params)

    def undo(self, role: Role, as_colour: str | None = None) -> tuple[str, int]:
        with self.lock:
            active = self._require_game()
            game = active.game
            if role.kind == "seat":
                player = self._who(active, role, as_colour)
            elif as_colour:
                if as_colour not in active.names:
                    raise ActionError("bad_message", "'as' must be a colour of this game")
                player = active.player(as_colour)
            elif game.history:
                player = game.history[-1][0]
            else:
                raise ActionError("undo", "nothing to undo")
            if player < 0 or not game.can_undo(player):
                raise self._refused(
                    active,
                    "undo",
                    "nothing to undo: hidden information was revealed or another player acted",
                )
            undone = str(game.history[-1][1])
            try:
                self._record(active, "undo", active.name_of(player), {"undone": undone})
            except EngineUndoError as exc:
                raise ActionError("undo", str(exc)) from None
        self._changed()
        return undone, self.rev

    def confirm(self, issue: int, colours: list[str]) -> int:
        with self.lock:
            active = self._require_game()
            try:
                self._record(active, "confirm", "table", {"issue": issue, "colours": colours})
            except CheckError as exc:
                raise ActionError("check", str(exc)) from None
        self._changed()
        return self.rev

    def resolve(self, issue: int, how: str, note: str = "") -> int:
        reset_tower = False
        with self.lock:
            active = self._require_game()
            kinds = {i.id: i.kind for i in active.checks.issues}
            payload = {"issue": issue, "how": how, "note": note[:500]}
            try:
                self._record_corrections(active, issue, how)
                self._record(active, "resolve", "table", payload)
            except CheckError as exc:
                raise ActionError("check", str(exc)) from None
            reset_tower = kinds.get(issue) == "empty" and how == "done"
        if reset_tower and self.tower is not None and self.tower.link is not None:
            # outside the lock: the link answers on its I/O thread, which takes the lock
            threading.Thread(target=self._reset_tower_counts, daemon=True).start()
        self._changed()
        return self.rev

    def _record_corrections(self, active: ActiveGame, issue: int, how: str) -> None:
        """The tower's count wins: the game records its castillo corrections (public engine
        actions of the table) before the fix itself; all are checked before any is applied."""
        wanted = active.checks.corrections(issue, how)
        try:
            texts = [active.adapter.castillo_correction(active.game, *c) for c in wanted]
        except IllegalAction as exc:
            raise self._refused(active, "illegal", exc.reason, exc) from None
        for text in texts:
            try:
                self._record(active, "action", "chance", {"text": text})
            except IllegalAction as exc:  # the game is over
                raise self._refused(active, "illegal", exc.reason, exc) from None

    def _reset_tower_counts(self) -> None:
        tower = self.tower
        if tower is None or tower.link is None:
            return
        try:
            tower.link.reset_counts(timeout=2.0)
        except Exception as exc:
            log.info("tower counts not reset: %s", exc)

    def set_language(self, role: Role, lang: str) -> None:
        if lang not in LANGUAGES:
            raise ActionError("bad_message", f"language must be one of {', '.join(LANGUAGES)}")
        with self.lock:
            if role.kind == "table":
                self.table_lang = lang
                self.store.set_setting("table_lang", lang)
            else:
                active = self._require_game()
                assert role.colour is not None
                active.seats[role.colour].lang = lang
                self.store.update_seat(active.id, role.colour, lang=lang)
        self._changed()

    # ------------------------------------------------------------------ seats
    def seat_for_token(self, token: str) -> str | None:
        """The colour whose link in the active game this is (a token belongs to one game)."""
        active = self.active
        if active is None or not token or not token.isascii():  # tokens are URL-safe ASCII
            return None
        for seat in active.seats.values():
            if secrets.compare_digest(seat.token, token):
                return seat.colour
        return None

    def seat_link_problem(self, token: str, game_id: int | None) -> str | None:
        """Why a seat link opened in game `game_id` sees nothing more: `game_changed` (another
        game, or none, is active) or `replaced` (the link was reissued); None while valid."""
        with self.lock:
            active = self.active
            if active is None or active.id != game_id:
                return "game_changed"
            return "replaced" if self.seat_for_token(token) is None else None

    def seat_connected(self, colour: str, delta: int, game_id: int | None = None) -> None:
        """A seat page (of game `game_id`, when given) connected (+1) or left (-1)."""
        with self.lock:
            active = self.active
            if active is None or colour not in active.seats:
                return
            if game_id is not None and active.id != game_id:
                return
            seat = active.seats[colour]
            seat.connected = max(0, seat.connected + delta)
            if delta > 0 and not seat.claimed:
                seat.claimed = True
                self.store.update_seat(active.id, colour, claimed=1)
        self._changed()

    def reissue(self, colour: str) -> Seat:
        with self.lock:
            active = self._require_game()
            if colour not in active.seats:
                raise ActionError("no_seat", f"{colour} is not a seat of this game")
            seat = active.seats[colour]
            token = secrets.token_urlsafe(TOKEN_BYTES)
            self.store.update_seat(active.id, colour, token=token, claimed=0)  # durable first
            seat.token, seat.claimed = token, False
        self._changed([{"type": "reissued", "colour": colour}])
        return seat

    # ------------------------------------------------------------------ the tower
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

    def on_ledger_entry(self, entry: LedgerEntry) -> None:
        """The link's durable sink (called on the link's I/O thread before the device is
        acked): the ledger entry and the game-log entry in one commit, then applied."""
        payload = {"kind": entry.kind, "frame": entry.frame, "totals": entry.totals}
        with self.lock:
            active = self.active
            game_id = active.id if active is not None and active.checks.enabled else None
            at = self.clock()  # the session's clock, like every other log entry
            # raises only if nothing was committed: the link then keeps the event unacked
            stored = self.store.append_ledger(entry, game_id, payload, at)
            self._tower_totals = entry.totals
            if stored and active is not None and game_id is not None:
                try:
                    self._apply(active, "tower", "tower", payload, at)
                except Exception as exc:
                    # durable already: raising would make the link fetch it and log it again;
                    # memory goes back to the store's (whose replay reports the row)
                    log.exception("tower entry seq %d not applied to the checks", entry.seq)
                    if not isinstance(exc, REFUSALS):
                        self._roll_back(active)
                    # the exception's text may name colours: it stays in the server log
                    self._tower_problem = f"a tower event was not counted ({type(exc).__name__})"
                    self._tower_problem_at = time.monotonic()
        self._changed()

    def _on_link_message(self, message: LinkMessage) -> None:
        if isinstance(message, LinkStatus) and self.tower is not None:
            self._record_interruptions()
            self._changed([{"type": "tower", "status": self.tower.status()}])

    def _record_interruptions(self) -> None:
        """Each interval the tower reports it was not counting becomes, in a game with throw
        checks, a logged `interrupted` tower entry: the checks ask the table to check the
        castillo (a cube thrown then may be missing from the count)."""
        tower = self.tower
        if tower is None:
            return
        with self.lock:
            active = self.active
            gaps = [gap for gap in tower.interruptions() if gap not in self._gaps_known]
            self._gaps_known.update(gaps)
            if active is None or not active.checks.enabled:
                return
            for start, end in gaps:
                payload = {
                    "kind": "interrupted",
                    "from": start,
                    "to": end,
                    "totals": dict(self._tower_totals),
                }
                try:
                    self._record(active, "tower", "tower", payload)
                except ActionError as exc:
                    log.error("a counting interruption was not logged: %s", exc.reason)

    def next_deadline(self) -> float | None:
        active = self.active
        return active.checks.next_deadline() if active is not None else None

    def run_due(self) -> bool:
        """Turn run-out throw windows into issues (logged as a `tick`). True if any."""
        with self.lock:
            active = self.active
            if active is None:
                return False
            deadline = active.checks.next_deadline()
            if deadline is None or deadline > self.clock():
                return False
            self._record(active, "tick", "", {})
        self._changed()
        return True

    # ------------------------------------------------------------------ views
    def _update_grande(self) -> None:
        """Tell the tower when a Grande may fall in (the link re-sends it after a reconnect)."""
        link = self.tower.link if self.tower is not None else None
        active = self.active
        possible = active is not None and active.adapter.grande_possible(
            active.game, self._tower_totals
        )
        if link is not None and possible != self._grande_sent:
            self._grande_sent = possible
            link.set_grande_possible(possible)

    def _update_lights(self, flash: bool) -> None:
        if self.lights is None:
            return
        self.lights.show(program(self.lights_state(), flash=flash))

    def lights_state(self) -> LightsState:
        """What the board lights show: nothing for a game without them."""
        active = self.active
        if active is None or not active.adapter.lights:
            return LightsState()
        game, checks = active.game, active.checks
        prompt = active.adapter.prompt(game, checks)
        return active.adapter.lights_state(game, checks, prompt, active.sweep, active.flash)

    def tower_status(self) -> dict[str, Any]:
        status: dict[str, Any] = self.tower.status() if self.tower is not None else {"mode": "none"}
        active = self.active
        if active is not None and not (active.adapter.tower or active.adapter.lights):
            return status  # the game uses neither: no tower warnings
        if time.monotonic() - self._tower_problem_at < TOWER_WARNING_S:
            status["warning"] = self._tower_problem
            status["warning_key"] = "tower.warn.not_counted"
            status.pop("warning_params", None)  # they belonged to the link's warning
        lights = self.lights
        if lights is not None and lights.problem and "warning" not in status:
            status["warning"] = f"board lights: {lights.problem}"
            status["warning_key"] = "tower.warn.lights"
        if self.active is not None:
            checks = self.active.checks
            status["recent"] = list(checks.recent)
        return status

    def state_for(self, role: Role) -> dict[str, Any]:
        """The `state` object for one client (docs/table-api.md): only what it may see."""
        with self.lock:
            lang = self.table_lang
            base: dict[str, Any] = {
                "role": role.kind,
                "seat": role.colour,
                "rev": self.rev,
                "sim": bool(self.tower is not None and self.tower.simulated),
                "tower": self.tower_status(),
            }
            active = self.active
            if active is None:
                base.update(game_id=None, game=None, lang=lang, prompt=None, highlights=[])
                base.update(legal=[], acting_as=None, can_undo=False, seats=[], checks=None)
                base.update(checklist=None)
                return base
            game = active.game
            viewer = active.player(role.colour) if role.kind == "seat" and role.colour else None
            if viewer is not None and role.colour in active.seats:
                lang = active.seats[role.colour].lang
            prompt = active.adapter.prompt(game, active.checks)
            legal, acting_as, can_undo = self._controls(active, role, viewer)
            own = active.adapter.seat_prompt(game, viewer, legal) if viewer is not None else None
            base.update(
                game_id=active.id,
                game_type=active.spec.id,
                lang=lang,
                game=game.view(viewer),
                prompt=(own or prompt).to_json(),
                highlights=[h.to_json() for h in prompt.highlights],
                legal=legal,
                acting_as=acting_as,
                can_undo=can_undo,
                checks=active.checks.public(),
                log=active.adapter.public_log(game, list(active.log)),
                seats=self._seats_view(active, role),
                options=active.adapter.options_view(game),
                checklist=active.adapter.setup_checklist(game) if role.kind == "table" else None,
                computer=self._computer_view(active),
            )
            return base

    @staticmethod
    def _computer_view(active: ActiveGame) -> dict[str, Any] | None:
        """The computer seat acting now: its level and, at a real table, its move to confirm."""
        name = active.computer_acting()
        if name is None:
            return None
        proposal = active.proposal
        move = proposal[1] if proposal is not None and proposal[0] == active.logged else None
        return {"colour": name, "level": active.computers[name], "proposal": move}

    def _controls(
        self, active: ActiveGame, role: Role, viewer: int | None
    ) -> tuple[list[str], str | None, bool]:
        game, adapter = active.game, active.adapter
        actors = game.current_players()
        if viewer is not None:
            colour = active.names[viewer]
            chance = adapter.seat_chance(game, colour)
            if chance is not None:
                return chance, colour, False
            legal = [str(a) for a in game.legal_actions(viewer)] if viewer in actors else []
            return legal, (colour if legal else None), game.can_undo(viewer)
        if len(actors) != 1:
            return [], None, False
        player = actors[0]
        legal = [str(a) for a in game.legal_actions(player) if not adapter.not_at_table(a)]
        name = active.name_of(player)
        last = game.history[-1][0] if game.history else CHANCE
        return legal, name, last >= 0 and game.can_undo(last)

    def _seats_view(self, active: ActiveGame, role: Role) -> list[dict[str, Any]]:
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


def _secret(active: ActiveGame, text: str) -> bool:
    """Whether a computer's move is a secret choice (never shown to the table)."""
    try:
        return active.adapter.secret(active.game.parse(text))
    except NotationError:
        return False


def _computers(spec: GameSpec, seats: list[int], names: list[str], raw: Any) -> dict[str, int]:
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


class _SessionSink:
    """The tower link's durable `EventSink`: the app's SQLite database."""

    def __init__(self, session: Session) -> None:
        self._session = session

    def append(self, entry: LedgerEntry) -> None:
        self._session.on_ledger_entry(entry)

    def last(self) -> LedgerEntry | None:
        return self._session.store.last_ledger()
