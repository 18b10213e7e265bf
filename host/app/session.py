"""The table session: the one place that joins the engine, the tower, the lights and the store.

Everything that changes a game goes through `Session` under one lock, in this order:
check it (the engine or the throw checks refuse bad input without changing anything), apply it,
write it to the game log (durable), then tell the clients and the lights. A write that fails
reloads the game from the log, so memory never runs ahead of the disk. Tower events come the
other way: the SQLite sink (the link's durable sink) writes the ledger entry and its game-log
entry in one commit, applies it, and only then does the link ack the device.

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
from dataclasses import dataclass, field
from typing import Any

from engine import registry
from engine.core import record as core_record
from engine.core.spec import GameSpec
from engine.elgrande.actions import Action
from engine.elgrande.errors import EngineError, IllegalAction, NotationError, NotYourTurn
from engine.elgrande.errors import UndoError as EngineUndoError
from engine.elgrande.game import CHANCE, Game
from host.app.checks import CheckError, Checks, GameFacts
from host.app.game_options import options_from_request
from host.app.grande import grande_possible, grandes_in_castillo
from host.app.json_input import BadInput, check_loggable
from host.app.lights import LightsState, LightsWorker, program, sweep_of
from host.app.prompts import SECRET_KINDS, prompt_for
from host.app.store import LogRow, Store
from host.app.towers import DropperError, TowerRuntime
from host.tower.events import LinkStatus
from host.tower.ledger import LedgerEntry
from host.tower.link import LinkMessage

log = logging.getLogger("host.app.session")

LANGUAGES = ("en", "cs", "pl", "uk")
# Choices the table's buttons never list: secret steps, and a power card with a modifier (the
# choices would show the player's secret modifier hand; the player plays it from their page).
NOT_AT_TABLE = SECRET_KINDS | {"shift"}
LOG_LINES = 200  # public log lines kept in `state.log`
TOWER_WARNING_S = 600.0  # how long a tower event the checks could not take stays a warning
TOKEN_BYTES = 16
Listener = Callable[[list[dict[str, Any]]], None]


class ActionError(Exception):
    """A refused request: `code` for the client, `reason` in plain English."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


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
    game: Game
    checks: Checks
    seats: dict[str, Seat]
    scorings: int = 0
    sweep: tuple[tuple[str, tuple[str, ...]], ...] = ()
    flash: int = 0
    recount_cards: frozenset[str] = frozenset()
    area_by_name: dict[str, str] = field(default_factory=dict)
    log: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    logged: int = 0  # log lines so far (their `n`)
    history: int = 0  # engine history entries already in the log

    def note(self, kind: str, actor: str, text: str, **extra: Any) -> None:
        """One line of the public log (docs/table-api.md, `state.log`)."""
        self.logged += 1
        line = {"n": self.logged, "kind": kind, "actor": actor, "text": text}
        line["round"] = self.game.round_number
        line.update(extra)
        self.log.append(line)


def seat_indices(game: Game) -> list[int]:
    """The colours that are players (a 2-player game's dummy is not a seat)."""
    seats = getattr(game, "seats", None)
    return list(seats) if seats is not None else list(range(game.n))


def options_view(game: Game) -> dict[str, Any]:
    """The game's options as every client may see them (never the dealer's seed): with
    2 players the dummy's colour and the merged decks 2+3 as the engine set them."""
    options = game.options
    dummy = getattr(game, "dummy", -1)
    return {
        "edition": game.data.edition,
        "mode": options.mode,
        "players": [game.colours[p] for p in seat_indices(game)],
        "short_game": options.short_game,
        "open_castillo": options.open_castillo,
        "merge_decks_2_3": options.merge_decks_2_3 or dummy >= 0,
        "new_regency": options.new_regency,
        "power_shift": options.power_shift,
        "alternatives": list(options.alternatives),
        "dummy": game.colours[dummy] if dummy >= 0 else None,
    }


def _summary(game: Game) -> dict[str, Any]:
    seats = seat_indices(game)
    return {
        "edition": game.data.edition,
        "players": [game.colours[p] for p in seats],
        "options": options_view(game),
        "mode": game.options.mode,
        "phase": game.phase,
        "round": game.round_number,
        "finished": game.is_terminal(),
        "scores": {game.colours[p]: game.scores[p] for p in seats},
        "actions": len(game.history),
    }


def _public_text(action: Action) -> str:
    """An action as the public log shows it: secret choices without their argument. A deal
    keeps its colour and a card set aside its deck: who is dealt a card and which deck lost one
    are public, not which card (the rulebook sets it aside unseen)."""
    if action.kind in ("deal", "remove"):
        return f"{action.kind} {action.arg}"
    return action.kind if action.kind in SECRET_KINDS else str(action)


def dealing_to(game: Game) -> str | None:
    """Power Shift in table mode: the colour whose modifier cards are entered now. The cards
    are that player's secret hand, so only that player's own page enters them."""
    if game.phase != "setup_deal" or game.current_players() != (CHANCE,):
        return None
    chance = game.legal_actions(CHANCE)
    return chance[0].arg if chance else None


def deal_choices(game: Game, colour: str) -> list[str]:
    """The deal steps a dealt player's page offers: every modifier card of the edition, not
    only those left in the deck (which would tell what the others were dealt)."""
    return [f"deal {colour} {card}" for card in game.data.grey_cards]


def _game_from_start(game_id: str, start: Mapping[str, Any]) -> tuple[GameSpec, Game, Any]:
    """The game's spec, the game as it started, taking chance steps from what is applied (a
    replay takes them from the log, never from the dealer's generator), and the options to
    resume with afterwards. A record names its game (engine.registry dispatches by it); an
    older start of bare options is of the store's `game`."""
    if "record" in start:
        spec, record = registry.spec_of_record(dict(start["record"]))
        options = spec.options_of_record(record)
        return spec, core_record.replay(spec, record, resume=False), options  # type: ignore[return-value]
    spec = registry.get(game_id)
    options = spec.options_from_json(dict(start["options"]))
    return spec, spec.new_state(options), options  # type: ignore[return-value]


def _recount_cards(game: Game) -> frozenset[str]:
    """Cards whose effect scores the castillo (Revelation): the castillo is lifted and its
    caballeros thrown back in."""
    return frozenset(
        card.id
        for card in game.data.cards.values()
        if any(op.get("op") == "score" and op.get("select") == "castillo" for op in card.effect)
    )


def _facts(active: ActiveGame) -> GameFacts:
    game = active.game
    throws: dict[str, int] = {}
    for throw in game.throws:
        colour = game.colours[throw.colour]
        throws[colour] = throws.get(colour, 0) + throw.count
    castillo = {game.colours[p]: n for p, n in enumerate(game.pieces[game.CASTILLO]) if n}
    scorings = game.scorings
    return GameFacts(
        grandes=grandes_in_castillo(game),
        colours=tuple(game.colours),
        phase=game.phase,
        round_index=game.round_index,
        throws=throws,
        castillo=castillo,
        scorings=len(scorings),
        last_scoring=str(scorings[-1]["kind"]) if scorings else "",
        recount_cards=active.recount_cards,
    )


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
        last = store.last_ledger()
        if last is not None:
            self._tower_totals = last.totals
        self.sink = _SessionSink(self)
        self.table_lang = store.setting("table_lang", "en")

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
        if self.lights is not None:
            self.lights.close()
        if self.tower is not None:
            self.tower.close()

    def _changed(self, messages: list[dict[str, Any]] | None = None) -> None:
        """After every change: a new revision, the lights, and every client told."""
        with self.lock:
            self.rev = max(self.rev + 1, int(self.clock() * 1000))
            self._update_lights(flash=False)
            self._update_grande()
        for listener in self._listeners:
            try:
                listener(messages or [])
            except Exception:
                log.exception("session listener failed")

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

    def new_game(self, options: Mapping[str, Any]) -> int:
        """A new game from a client's options (host/app/game_options.py); it becomes active."""
        try:
            game = Game(options_from_request(options))
        except (KeyError, TypeError, ValueError, EngineError) as exc:
            raise ActionError("bad_options", str(exc)) from None
        spec = registry.get(registry.DEFAULT)
        # stored as a record: the dealer's set-up draws are in it, so a replay never redraws
        return self._create(spec, {"record": core_record.to_record(spec, game)}, game)

    def import_record(self, record: Mapping[str, Any]) -> int:
        try:
            spec, state = registry.replay(dict(record))
        except (EngineError, KeyError, TypeError, ValueError) as exc:
            raise ActionError("bad_record", str(exc)) from None
        assert isinstance(state, Game)
        game_id = self._create(spec, {"record": dict(record)}, state, activate=False)
        return game_id

    def _create(
        self, spec: GameSpec, start: dict[str, Any], game: Game, activate: bool = True
    ) -> int:
        tokens = {game.colours[p]: secrets.token_urlsafe(TOKEN_BYTES) for p in seat_indices(game)}
        game_id = self.store.create_game(spec.id, start, tokens)
        self.store.set_summary(game_id, _summary(game))
        if activate:
            self.continue_game(game_id, fresh=True)
        return game_id

    def continue_game(self, game_id: int, fresh: bool = False) -> None:
        with self.lock:
            active = self._load_saved(game_id)
            self.active = active
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
        rows = {row.colour: row for row in self.store.seats(game_id)}
        seats = {
            colour: Seat(colour, rows[colour].token, rows[colour].claimed, rows[colour].lang)
            for colour in (game.colours[p] for p in seat_indices(game))
            if colour in rows
        }
        checks = Checks([game.colours[p] for p in range(game.n)], enabled=self.checks_enabled)
        active = ActiveGame(game_id, spec, game, checks, seats)
        active.recount_cards = _recount_cards(game)
        active.area_by_name = {r.name: r.ascii for r in game.regions}
        active.area_by_name["castillo"] = "castillo"
        active.scorings = len(game.scorings)
        active.history = len(game.history)  # an imported record's actions are not logged
        checks.sync_game(_facts(active), self.clock())
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
            game = active.game
            if not game.is_terminal():
                raise ActionError(
                    "unfinished",
                    "a game in play cannot be exported: its record would reveal undisclosed "
                    "discs and the castillo. Finish the game first.",
                )
            return core_record.to_record(active.spec, game)

    # ------------------------------------------------------------------ the log
    def _record(self, active: ActiveGame, kind: str, actor: str, payload: dict[str, Any]) -> int:
        """Apply one change and write it durably (see the module docstring)."""
        try:  # what is logged is replayed and shown to every client: it must encode
            check_loggable(payload)
        except BadInput as exc:
            raise ActionError("bad_message", str(exc)) from None
        at = self.clock()
        self._apply(active, kind, actor, payload, at)
        try:
            self.store.append(active.id, kind, payload, at, actor, _summary(active.game))
        except Exception:
            log.exception("could not save a %s: reloading game %d", kind, active.id)
            saved = self.store.game_start(active.id)
            game_name, start = saved or (active.spec.id, {})
            self.active = self._load(active.id, game_name, start)
            raise ActionError("storage", "the game could not be saved; nothing changed") from None
        return self.rev + 1

    def _apply(
        self, active: ActiveGame, kind: str, actor: str, payload: Mapping[str, Any], at: float
    ) -> None:
        """One log entry, live or replayed. Raises without changing anything when refused."""
        game, checks = active.game, active.checks
        if kind == "action":
            player = CHANCE if actor == "chance" else game.colour(actor)
            before = len(game.history)
            game.apply(str(payload["text"]), player)
            if "chance" in payload:  # a replay: the dealer's draws come from the log
                for text in payload["chance"]:
                    game.apply(str(text), CHANCE)
            elif isinstance(payload, dict):  # live: log what the dealer drew after it
                payload["chance"] = [str(a) for _, a in game.history[before + 1 :]]
            self._after_engine(active, at)
        elif kind == "undo":
            undone = game.undo(game.colour(actor))
            active.history = len(game.history)
            active.note("undo", actor, _public_text(undone))
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
        game = active.game
        active.checks.sync_game(_facts(active), at)
        for player, action in game.history[active.history :]:
            actor = "chance" if player == CHANCE else game.colours[player]
            active.note("action", actor, _public_text(action))
        active.history = len(game.history)
        scorings = game.scorings
        active.sweep = ()
        if len(scorings) > active.scorings:
            active.sweep = sweep_of(scorings[-1], active.area_by_name)
            active.note("scoring", "table", str(scorings[-1]["kind"]))
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
            me = game.colour(role.colour)
            if as_colour and as_colour != role.colour:
                raise ActionError("forbidden", "a seat acts only for its own colour")
            return me
        if as_colour:
            if as_colour == "chance":
                return CHANCE
            try:
                return game.colour(as_colour)
            except KeyError:
                raise ActionError("bad_message", f"{as_colour!r} is not in this game") from None
        if not actors:
            raise ActionError("illegal", "the game is over")
        if len(actors) > 1:
            names = ", ".join(game.colours[p] for p in actors)
            raise ActionError("forbidden", f"several players choose now ({names}) on their pages")
        return actors[0]

    def _own_deal(
        self, active: ActiveGame, role: Role, action: Action, as_colour: str | None
    ) -> int:
        """A seat enters a modifier card dealt to itself (a chance step: it acts as chance)."""
        if as_colour not in (None, role.colour, "chance") or action.arg != role.colour:
            raise self._refused(
                active, "forbidden", "a seat enters only the modifier cards dealt to itself"
            )
        dealing = dealing_to(active.game)
        if dealing is None:
            raise self._refused(active, "not_your_turn", "no modifier cards are being dealt now")
        if dealing != role.colour:
            raise self._refused(
                active, "not_your_turn", f"{dealing}'s modifier cards are being dealt now"
            )
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
            if role.kind == "seat" and action.kind == "deal":
                player = self._own_deal(active, role, action, as_colour)
            else:
                player = self._who(active, role, as_colour)
            if player == CHANCE and role.kind != "table" and action.kind != "deal":
                raise ActionError("forbidden", "chance steps are entered at the table")
            if role.kind == "table" and action.kind in SECRET_KINDS:
                raise self._refused(
                    active, "forbidden", f"'{action.kind}' is a secret choice: make it on your page"
                )
            self._check_not_blocked(active, action)
            actor = "chance" if player == CHANCE else game.colours[player]
            try:
                self._record(active, "action", actor, {"text": str(action)})
            except NotYourTurn as exc:
                raise self._refused(active, "not_your_turn", exc.reason) from None
            except IllegalAction as exc:
                reason = f"illegal action {exc.action!r}: {exc.reason}"
                raise self._refused(active, "illegal", reason) from None
            scoring = self._scoring_message(active)
        self._changed(scoring)
        return self.rev

    def _scoring_message(self, active: ActiveGame) -> list[dict[str, Any]]:
        if not active.sweep:
            return []
        return [{"type": "scoring", "scoring": active.game.scorings[-1]}]

    def _check_not_blocked(self, active: ActiveGame, action: Action) -> None:
        checks = active.checks
        if checks.blocked:
            raise self._refused(active, "blocked", f"resolve first: {checks.issues[0].text}")
        if action.kind == "disc" and checks.waiting_for_scoring_check():
            raise self._refused(
                active,
                "blocked",
                "the castillo count is being checked against the tower: try again in a moment",
            )

    def _refused(self, active: ActiveGame, code: str, reason: str) -> ActionError:
        active.flash += 1
        self._update_lights(flash=True)
        return ActionError(code, reason)

    def undo(self, role: Role, as_colour: str | None = None) -> tuple[str, int]:
        with self.lock:
            active = self._require_game()
            game = active.game
            if role.kind == "seat":
                player = self._who(active, role, as_colour)
            elif as_colour:
                if as_colour not in game.colours:
                    raise ActionError("bad_message", "'as' must be a colour of this game")
                player = game.colour(as_colour)
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
                self._record(active, "undo", game.colours[player], {"undone": undone})
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
                self._record(active, "resolve", "table", payload)
            except CheckError as exc:
                raise ActionError("check", str(exc)) from None
            reset_tower = kinds.get(issue) == "empty" and how == "done"
        if reset_tower and self.tower is not None and self.tower.link is not None:
            # outside the lock: the link answers on its I/O thread, which takes the lock
            threading.Thread(target=self._reset_tower_counts, daemon=True).start()
        self._changed()
        return self.rev

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
            seat.token = secrets.token_urlsafe(TOKEN_BYTES)
            seat.claimed = False
            self.store.update_seat(active.id, colour, token=seat.token, claimed=0)
        self._changed([{"type": "reissued", "colour": colour}])
        return seat

    # ------------------------------------------------------------------ the tower
    def drop(self, cubes: list[str], how: str) -> None:
        if self.tower is None:
            raise ActionError("not_simulated", "there is no tower")
        try:
            self.tower.drop(cubes, how)
        except DropperError as exc:
            raise ActionError("not_simulated", str(exc)) from None

    def set_gate(self, is_open: bool) -> None:
        if self.tower is None:
            raise ActionError("not_simulated", "there is no tower")
        try:
            self.tower.set_gate(is_open)
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
                    # durable already: raising would make the link fetch it and log it again
                    log.exception("tower entry seq %d not applied to the checks", entry.seq)
                    # the exception's text may name colours: it stays in the server log
                    self._tower_problem = f"a tower event was not counted ({type(exc).__name__})"
                    self._tower_problem_at = time.monotonic()
        self._changed()

    def _on_link_message(self, message: LinkMessage) -> None:
        if isinstance(message, LinkStatus) and self.tower is not None:
            self._changed([{"type": "tower", "status": self.tower.status()}])

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
        possible = active is not None and grande_possible(active.game, self._tower_totals)
        if link is not None and possible != self._grande_sent:
            self._grande_sent = possible
            link.set_grande_possible(possible)

    def _update_lights(self, flash: bool) -> None:
        if self.lights is None:
            return
        self.lights.show(program(self.lights_state(), flash=flash))

    def lights_state(self) -> LightsState:
        active = self.active
        if active is None:
            return LightsState()
        game, checks = active.game, active.checks
        prompt = prompt_for(game, checks)
        return LightsState(
            king=game.tok[game.king] if game.king >= 0 else None,
            highlights=tuple((h.area, h.colour) for h in prompt.highlights),
            waiting_throw=bool(checks.expected),
            blocked=checks.blocked,
            sweep=active.sweep,
            flash=active.flash,
        )

    def tower_status(self) -> dict[str, Any]:
        status: dict[str, Any] = self.tower.status() if self.tower is not None else {"mode": "none"}
        if time.monotonic() - self._tower_problem_at < TOWER_WARNING_S:
            status["warning"] = self._tower_problem
            status["warning_key"] = "tower.warn.not_counted"
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
                return base
            game = active.game
            viewer = game.colour(role.colour) if role.kind == "seat" and role.colour else None
            if viewer is not None and role.colour in active.seats:
                lang = active.seats[role.colour].lang
            prompt = prompt_for(game, active.checks)
            legal, acting_as, can_undo = self._controls(active, role, viewer)
            base.update(
                game_id=active.id,
                lang=lang,
                game=game.view(viewer),
                prompt=prompt.to_json(),
                highlights=[h.to_json() for h in prompt.highlights],
                legal=legal,
                acting_as=acting_as,
                can_undo=can_undo,
                checks=active.checks.public(),
                log=list(active.log),
                seats=self._seats_view(active, role),
                options=options_view(game),
            )
            return base

    def _controls(
        self, active: ActiveGame, role: Role, viewer: int | None
    ) -> tuple[list[str], str | None, bool]:
        game = active.game
        actors = game.current_players()
        if viewer is not None:
            colour = game.colours[viewer]
            if dealing_to(game) == colour:
                return deal_choices(game, colour), colour, False
            legal = [str(a) for a in game.legal_actions(viewer)] if viewer in actors else []
            return legal, (colour if legal else None), game.can_undo(viewer)
        if len(actors) != 1:
            return [], None, False
        player = actors[0]
        legal = [str(a) for a in game.legal_actions(player) if a.kind not in NOT_AT_TABLE]
        name = "chance" if player == CHANCE else game.colours[player]
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
        return out


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
