"""One random complete game through the running table app, played as its pages play it.

Each seat acts through its own seat link (its WebSocket, now and then its HTTP route), the table
acts for the chance steps; every actor picks uniformly among the `legal` actions its state
offers it. A local copy of the engine (the mirror: the same options, so a dealer game deals the
same from the seed) follows every acknowledged action, so at every point the suite knows what
each viewer must see. The server is killed with SIGKILL at random moments (a timer, or just
after an action was sent) and started again on the same data.

Checked (each failure raises AssertionError naming the game, the step and the seed):
- every client's `state.game` is the engine's view for that viewer (the table's: the public
  view), after every acknowledged action and after every restart; the `legal` a seat is offered
  is the engine's legal actions for it;
- after a restart every client's state equals the state before the kill (modulo `rev`, the
  tower status and the seats' connection flags); an action whose answer was lost is applied
  at most once (the mirror tells which);
- every acknowledged action is in the final record exactly once, in order; the record replays
  through `castillo replay` (a subprocess) to the engine's scores, which are the saved game's;
- no HTTP answer is a 5xx, no socket is closed while the server lives, the server prints no
  traceback;
- no viewer's message carries another seat's secret (`Secrets`).
"""

from __future__ import annotations

import json
import random
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from engine.core.protocol import CHANCE, GameState
from engine.core.spec import GameSpec
from host.games import adapter_for
from tests.app.app_conformance import plans
from tests.app.app_conformance.loglines import check_log_lines
from tests.app.app_conformance.secrets import Secrets
from tests.app.app_conformance.server import CLI, REPO, Server

RECV_TIMEOUT_S = 30.0
MAX_STEPS = 5000  # more actions than any game of the kit takes
HTTP_SHARE = 0.2  # the share of actions sent through the HTTP routes rather than the socket
# state fields that may differ across a restart: the revision counter, the tower link and the
# seats' connection flags
VOLATILE = ("rev", "tower")


class Killed(Exception):
    """The server was killed (by the suite): expected, recover."""


def normal(value: Any) -> Any:
    """A value as it looks after a JSON round trip."""
    return json.loads(json.dumps(value))


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in state.items() if k not in VOLATILE}
    out["seats"] = [
        {k: v for k, v in seat.items() if k not in ("connected", "claimed", "token", "url")}
        for seat in state.get("seats") or []
    ]
    return out


@dataclass
class Figures:
    """What one game (or a run of games) did."""

    games: dict[str, int] = field(default_factory=dict)  # game id -> games finished
    labels: list[str] = field(default_factory=list)
    acked: int = 0
    unanswered: int = 0  # sent, the server killed before the answer
    unanswered_stored: int = 0
    kills: int = 0
    kills_in_flight: int = 0
    restarts_compared: int = 0
    messages: int = 0
    http_actions: int = 0
    refused_after_listening: int = 0  # connections refused after "listening on" was printed
    seconds: float = 0.0

    def add(self, other: Figures) -> None:
        for key, count in other.games.items():
            self.games[key] = self.games.get(key, 0) + count
        self.labels += other.labels
        for name in (
            "acked",
            "unanswered",
            "unanswered_stored",
            "kills",
            "kills_in_flight",
            "restarts_compared",
            "messages",
            "http_actions",
            "refused_after_listening",
            "seconds",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def line(self) -> str:
        return (
            f"games {self.games}, {self.acked} actions acknowledged ({self.http_actions} over "
            f"HTTP), {self.unanswered} unanswered ({self.unanswered_stored} stored), "
            f"{self.kills} kills ({self.kills_in_flight} in flight), {self.restarts_compared} "
            f"restarts compared, {self.messages} messages audited, "
            f"{self.refused_after_listening} connections refused after 'listening on', "
            f"{self.seconds:.1f} s"
        )


class Conn:
    """One page's WebSocket: the table's or a seat's."""

    def __init__(self, game: GamePlay, name: str, token: str | None) -> None:
        self.game = game
        self.name = name  # "table" or the seat's colour
        self.token = token
        self.ws: ClientConnection | None = None
        self.rev = -1
        self.state: dict[str, Any] = {}
        self.answers: dict[int, dict[str, Any]] = {}

    @property
    def query(self) -> str:
        return f"seat={self.token}" if self.token else "role=table"

    def open(self) -> None:
        url = f"{self.game.server.ws_base}/ws?{self.query}"
        try:
            self.ws = connect(url, open_timeout=20, max_size=None, close_timeout=1)
        except (OSError, ConnectionClosed, TimeoutError) as exc:
            self.game.lost(self, f"could not connect: {exc!r}")
        self.rev = -1
        hello = self.recv()
        # docs/table-api.md: "On connect the server sends hello then a full state" (a seat
        # connecting as the others got a change once got that change first)
        assert hello["type"] == "hello", f"{self.name} got {hello['type']!r} before its hello"
        assert hello["seat"] == (None if self.token is None else self.name), hello

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
            self.ws = None

    def send(self, payload: dict[str, Any]) -> None:
        assert self.ws is not None
        try:
            self.ws.send(json.dumps(payload))
        except (OSError, ConnectionClosed) as exc:
            self.game.lost(self, f"send failed: {exc!r}")

    def recv(self) -> dict[str, Any]:
        assert self.ws is not None
        try:
            raw = self.ws.recv(timeout=RECV_TIMEOUT_S)
        except ConnectionClosed as exc:
            self.game.lost(self, f"closed: code {exc.rcvd and exc.rcvd.code} {exc.rcvd}")
        except TimeoutError:
            self.game.lost(self, f"no message in {RECV_TIMEOUT_S} s")
        except OSError as exc:
            self.game.lost(self, f"socket error {exc!r}")
        assert isinstance(raw, str), f"{self.name}: a binary message"
        message: dict[str, Any] = json.loads(raw)
        self.game.secrets.check(self.name, message, raw)
        self.game.figures.messages += 1
        kind = message.get("type")
        if kind == "state":
            if message["rev"] > self.rev:
                self.rev = message["rev"]
                self.state = message["state"]
        elif kind in ("ack", "error") and isinstance(message.get("ref"), int):
            self.answers[message["ref"]] = message
        elif kind == "error":
            raise AssertionError(f"{self.game.where()}: {self.name} got an error {message}")
        return message

    def drain_to(self, rev: int) -> None:
        while self.rev < rev:
            self.recv()

    def answer(self, ref: int) -> dict[str, Any]:
        while ref not in self.answers:
            self.recv()
        return self.answers.pop(ref)


class GamePlay:
    """One game of a plan, start to finish, on a running server."""

    def __init__(
        self,
        plan: plans.Plan,
        server: Server,
        rng: random.Random,
        kills: int,
        workdir: Path,
        seed: int = 0,
    ) -> None:
        self.plan = plan
        self.seed = seed
        self.spec: GameSpec = plans.spec_of(plan.game)
        self.server = server
        self.rng = rng
        self.workdir = workdir
        self.figures = Figures(labels=[plan.label])
        self.options = self.spec.options_from_json(dict(plan.options))
        self.mirror: GameState = self.spec.new_state(self.options)
        self.names = list(self.mirror.seat_names())
        self.secrets = Secrets(self.spec, self.plan, self.mirror)
        self.dealer = plan.mode == "dealer"
        self.conns: dict[str, Conn] = {}
        self.game_id = 0
        self.sent: list[tuple[str, str, bool]] = []  # (actor, text, acknowledged)
        self.step = 0
        self.synced = False  # every client holds the state of the last acknowledged action
        self.before: dict[str, dict[str, Any]] = {}  # each client's state at the last sync
        self.ack_rev = -1
        self.timer: threading.Timer | None = None
        # the steps at which a kill is armed: spread over a game of about this length
        length = estimated_length(self.spec, self.options, rng)
        self.kill_at = sorted(rng.sample(range(1, length), min(kills, length - 1)))
        self.kill_next_send = False
        self.client = httpx.Client(base_url=server.base, timeout=RECV_TIMEOUT_S)

    # ------------------------------------------------------------------ failures
    def where(self) -> str:
        return f"{self.plan.label} (seed {self.seed}, game {self.game_id}, step {self.step})"

    def lost(self, conn: Conn, detail: str) -> Any:
        """A socket failed: the kill we made, else a dropped socket (a failure)."""
        if self.server.killed.is_set():
            raise Killed()
        time.sleep(0.3)  # the server's last words
        raise AssertionError(
            f"{self.where()}: the server dropped {conn.name}'s socket while alive: {detail}"
            + "".join(f"\nthe server printed: {t}" for t in self.server.tracebacks()[-1:])
        )

    def http(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """One request (Killed when the server was killed meanwhile); a 5xx fails."""
        try:
            answer = self.client.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            if self.server.killed.is_set():
                raise Killed() from exc
            time.sleep(0.5)
            proc = self.server.proc
            raise AssertionError(
                f"{self.where()}: {method} {path} failed: {exc!r}; the server "
                f"(exit code {proc and proc.poll()}) printed last:\n"
                + "".join(self.server.output[-40:])
            ) from exc
        assert answer.status_code < 500, (
            f"{self.where()}: {method} {path} answered {answer.status_code}: {answer.text[:2000]}"
        )
        return answer

    # ------------------------------------------------------------------ the game
    def play(self) -> Figures:
        started = time.monotonic()
        answer = self.http("POST", "/api/games", json=self.plan.body(self.spec))
        assert answer.status_code == 200, (
            f"{self.plan.label}: POST /api/games {self.plan.body(self.spec)} -> "
            f"{answer.status_code}: {answer.text}"
        )
        created = answer.json()
        self.game_id = created["id"]
        tokens = {seat["colour"]: seat["token"] for seat in created["seats"]}
        # every player has a seat link (a game's non-player seat, El Grande's 2-player dummy,
        # has none: its steps are chance steps)
        assert set(tokens) <= set(self.names) and len(tokens) == self.plan.players, created
        self.secrets.tokens = tokens
        self.conns = {c: Conn(self, c, tokens[c]) for c in self.names if c in tokens}
        self.conns["table"] = Conn(self, "table", None)
        self.connect_all()
        self.sync(-1)
        self.check_views()
        while not self.mirror.is_terminal():
            assert self.step < MAX_STEPS, f"{self.where()}: the game did not finish"
            try:
                self.arm_kill()
                self.one_action()
            except Killed:
                self.recover()
        self.cancel_timer()
        if self.kill_at:  # the game ended before a kill point: the finished game is killed
            self.kill_at.clear()
            if self.server.kill():
                self.figures.kills += 1
            self.recover()
        while True:
            try:
                self.finish()
                break
            except Killed:  # a kill just after the last action
                self.recover()
        self.figures.games = {self.plan.game: 1}
        self.figures.seconds = time.monotonic() - started
        return self.figures

    def connect_all(self) -> None:
        """Seats first (each page claims its seat as it connects), then the table."""
        for conn in self.conns.values():
            conn.open()

    def close_all(self) -> None:
        for conn in self.conns.values():
            conn.close()
        self.client.close()
        self.client = httpx.Client(base_url=self.server.base, timeout=RECV_TIMEOUT_S)

    def sync(self, rev: int) -> None:
        """Every client holds a state at least as new as `rev` (and at least one state)."""
        for conn in self.conns.values():
            conn.drain_to(max(rev, 0))
        self.synced = True
        self.before = {name: comparable(conn.state) for name, conn in self.conns.items()}

    def viewer(self, name: str) -> int | None:
        return None if name == "table" else self.names.index(name)

    def check_views(self) -> None:
        mirror = self.mirror
        for name, conn in self.conns.items():
            viewer = self.viewer(name)
            wanted = normal(mirror.view(viewer))
            got = conn.state.get("game")
            if got != wanted:
                raise AssertionError(
                    f"{self.where()}: {name}'s state.game is not the engine's view:\n"
                    + _diff(wanted, got)
                )
            assert conn.state.get("game_id") == self.game_id, conn.state.get("game_id")
            if viewer is not None and not self.seat_chance(name):
                actors = mirror.current_players()
                legal = [str(a) for a in mirror.legal_actions(viewer)] if viewer in actors else []
                assert conn.state["legal"] == legal, (
                    f"{self.where()}: {name} is offered {conn.state['legal']}, "
                    f"the engine allows {legal}"
                )
        self.secrets.check_position(self.conns["table"].state, mirror)
        states = {name: conn.state for name, conn in self.conns.items()}
        check_log_lines(self.spec, states, self.where())

    def seat_chance(self, name: str) -> bool:
        """The seat enters a chance step on its own page now (El Grande's Power Shift deal)."""
        return self.mirror.current_players() == (CHANCE,) and bool(self.conns[name].state["legal"])

    # ------------------------------------------------------------------ acting
    def choices(self) -> list[tuple[str, list[str]]]:
        mirror = self.mirror
        out: list[tuple[str, list[str]]] = []
        chance = (
            [str(a) for a in mirror.legal_actions(CHANCE)]
            if CHANCE in (mirror.current_players())
            else []
        )
        for name, conn in self.conns.items():
            legal = list(conn.state.get("legal") or [])
            if not legal:
                continue
            if name == "table":
                if conn.state.get("acting_as") != "chance":
                    continue  # the seat acts on its own page
                assert set(legal) <= set(chance), f"{self.where()}: table offered {legal}"
            elif self.seat_chance(name):
                # every card the seat might have been dealt is offered (so that the offer tells
                # nothing); the player enters the one in their hand: one still in the deck
                offered = legal
                legal = [a for a in offered if a in chance]
                assert legal, f"{self.where()}: {name} is offered {offered}, none of {chance}"
            out.append((name, legal))
        return out

    def one_action(self) -> None:
        choices = self.choices()
        assert choices, (
            f"{self.where()}: nobody is offered an action; the engine waits for "
            f"{self.mirror.current_players()}"
        )
        name, legal = self.rng.choice(choices)
        text = self.rng.choice(legal)
        conn = self.conns[name]
        actor = "chance" if name == "table" or self.seat_chance(name) else name
        player = CHANCE if actor == "chance" else self.names.index(name)
        self.step += 1
        kill_now = self.kill_next_send
        self.kill_next_send = False
        self.sent.append((actor, text, False))
        self.secrets.hold()
        if self.rng.random() < HTTP_SHARE:
            rev = self.act_http(conn, text, kill_now)
        else:
            rev = self.act_ws(conn, text, kill_now)
        self.sent[-1] = (actor, text, True)
        self.figures.acked += 1
        self.mirror.apply(self.mirror.parse(text), player)
        self.secrets.acted(actor, text, self.mirror)
        self.secrets.release()
        self.synced = False
        self.ack_rev = rev
        self.sync(rev)
        self.check_views()

    def _kill_in_flight(self) -> None:
        time.sleep(self.rng.choice([0.0, 0.0005, 0.002, 0.005, 0.02]))
        if self.server.kill():
            self.figures.kills += 1
            self.figures.kills_in_flight += 1

    def act_ws(self, conn: Conn, text: str, kill_now: bool) -> int:
        ref = self.rng.randrange(1, 2**31)
        conn.send({"type": "action", "text": text, "id": ref})
        if kill_now:
            self._kill_in_flight()
        answer = conn.answer(ref)
        assert answer["type"] == "ack", f"{self.where()}: {conn.name} '{text}' -> {answer}"
        rev: int = answer["rev"]
        return rev

    def act_http(self, conn: Conn, text: str, kill_now: bool) -> int:
        self.figures.http_actions += 1
        path = f"/api/seat/{conn.token}/action" if conn.token else "/api/action"
        body = {"text": text} if conn.token else {"text": text, "as": "chance"}
        if kill_now:
            self.timer = threading.Timer(0.0, self._kill_in_flight)
            self.timer.start()
        answer = self.http("POST", path, json=body)
        assert answer.status_code == 200, f"{self.where()}: {path} '{text}' -> {answer.text}"
        rev: int = answer.json()["rev"]
        return rev

    # ------------------------------------------------------------------ kills
    def arm_kill(self) -> None:
        """At a kill step: either the next action is sent and the server killed before its
        answer, or a timer kills it at a random moment of what follows."""
        if not self.kill_at or self.step < self.kill_at[0] or self.timer is not None:
            return
        self.kill_at.pop(0)
        if self.rng.random() < 0.5:
            self.kill_next_send = True
            return
        self.timer = threading.Timer(self.rng.uniform(0.0, 0.3), self._timer_kill)
        self.timer.start()

    def _timer_kill(self) -> None:
        if self.server.kill():
            self.figures.kills += 1

    def cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer.join()
            self.timer = None

    def recover(self) -> None:
        """After a kill: start the server on the same data, reconnect every page, and check
        that the game is the one before the kill (and the unanswered action there once)."""
        self.cancel_timer()
        self.kill_next_send = False
        before = dict(self.before) if self.synced else {}
        seen = list(self.secrets.held)  # what the pages got while the action was on its way
        self.close_all()
        self.server.restart()
        info = self.http("GET", "/api/info")
        assert info.json()["active_game"] == self.game_id, (
            f"{self.where()}: after a restart the active game is {info.json()['active_game']}"
        )
        self.connect_all()
        self.sync(-1)
        actor, text, acknowledged = self.sent[-1] if self.sent else ("", "", True)
        stored = False
        if not acknowledged:
            self.figures.unanswered += 1
            stored = self._changed()
            if stored:
                self.figures.unanswered_stored += 1
                player = CHANCE if actor == "chance" else self.names.index(actor)
                self.mirror.apply(self.mirror.parse(text), player)
                self.secrets.acted(actor, text, self.mirror)
                self.sent[-1] = (actor, text, True)
            else:
                self.sent.pop()
                self._nothing_shown_of(text, seen)
        self.secrets.release()
        self.check_views()
        if before and not stored:
            self.figures.restarts_compared += 1
            for name, conn in self.conns.items():
                now = comparable(conn.state)
                if now != before[name]:
                    raise AssertionError(
                        f"{self.where()}: {name}'s state changed across a restart:\n"
                        + _diff(before[name], now)
                    )

    def _nothing_shown_of(self, text: str, seen: list[tuple[str, dict[str, Any], str]]) -> None:
        """An action the restart shows was not stored: no page was shown its outcome."""
        for name, message, _ in seen:
            if message.get("type") != "state":
                continue
            wanted = normal(self.mirror.view(self.viewer(name)))
            if message["state"].get("game") != wanted:
                raise AssertionError(
                    f"{self.where()}: {name} was shown the outcome of '{text}', which the "
                    "restart lost (a state sent before the action was durable):\n"
                    + _diff(wanted, message["state"].get("game"))
                )

    def _changed(self) -> bool:
        """Whether the restored game moved on from the mirror's position (an unanswered
        action was stored)."""
        for name, conn in self.conns.items():
            if conn.state.get("game") != normal(self.mirror.view(self.viewer(name))):
                return True
        return False

    # ------------------------------------------------------------------ the end
    def finish(self) -> None:
        answer = self.http("GET", "/api/games")
        listed = next(g for g in answer.json()["games"] if g["id"] == self.game_id)
        assert listed["finished"], f"{self.where()}: the saved game is not finished: {listed}"
        answer = self.http("GET", f"/api/games/{self.game_id}/record")
        assert answer.status_code == 200, f"{self.where()}: the record: {answer.text}"
        record = answer.json()
        # every action the pages sent is in the record once, in order (the dealer's draws
        # aside); an unanswered action that was not stored is not
        sent = [(actor, text) for actor, text, _ in self.sent]
        recorded = [
            (actor, text)
            for actor, text in record["actions"]
            if not (self.dealer and actor == "chance")
        ]
        if recorded != sent:
            at = next(
                (
                    i
                    for i, pair in enumerate(zip(recorded, sent, strict=False))
                    if pair[0] != pair[1]
                ),
                min(len(recorded), len(sent)),
            )
            raise AssertionError(
                f"{self.where()}: the record differs from the actions sent at {at}: recorded "
                f"{recorded[at : at + 3]}, sent {sent[at : at + 3]} "
                f"({len(recorded)} recorded, {len(sent)} sent)"
            )
        assert [list(map(str, a)) for a in record["actions"]] == [
            [self.actor_name(p), str(a)] for p, a in self.mirror.history
        ], f"{self.where()}: the record is not the engine's history"
        scores = dict(zip(self.names, self.mirror.returns(), strict=True))
        players = {c: scores[c] for c in self.secrets.tokens}  # the seats with a player
        assert listed["scores"] == players, (
            f"{self.where()}: saved scores {listed['scores']}, engine {scores}"
        )
        path = self.workdir / f"record-{self.plan.label}-{self.game_id}.json"
        path.write_text(json.dumps(record))
        replay = subprocess.run(
            [*CLI, "replay", str(path), "--json"],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert replay.returncode == 0, f"{self.where()}: castillo replay: {replay.stderr}"
        replayed = json.loads(replay.stdout)
        assert replayed["finished"] is True, replayed
        assert replayed["scores"] in (scores, players), (
            f"{self.where()}: castillo replay scores {replayed['scores']}, engine {scores}"
        )
        # each scoring's log line is of the round it scored (the table may be in the next);
        # the log keeps the latest lines: they are the latest scorings'
        scorings = adapter_for(self.spec).scorings(self.mirror)
        log = self.conns["table"].state.get("log") or []
        lines = [line for line in log if line["kind"] == "scoring"]
        assert len(lines) <= len(scorings), f"{self.where()}: {len(lines)} scoring lines logged"
        for line, scoring in zip(lines, scorings[len(scorings) - len(lines) :], strict=True):
            if "round" in scoring:
                assert line.get("round") == scoring["round"], f"{self.where()}: {line} {scoring}"
        for name, conn in self.conns.items():
            prompt = conn.state.get("prompt") or {}
            assert not conn.state.get("legal"), f"{self.where()}: {name} offered after the end"
            if name == "table":
                assert prompt.get("key") == "over", f"{self.where()}: the table's prompt {prompt}"

    def actor_name(self, player: int) -> str:
        return "chance" if player == CHANCE else self.names[player]


def _diff(wanted: Any, got: Any, path: str = "", out: list[str] | None = None) -> str:
    """The first few places two JSON values differ."""
    lines = [] if out is None else out
    if len(lines) >= 8:
        return "\n".join(lines)
    if isinstance(wanted, dict) and isinstance(got, dict):
        for key in sorted(set(wanted) | set(got)):
            if wanted.get(key, "<absent>") != got.get(key, "<absent>"):
                _diff(wanted.get(key, "<absent>"), got.get(key, "<absent>"), f"{path}.{key}", lines)
    elif isinstance(wanted, list) and isinstance(got, list) and len(wanted) == len(got):
        for i, (a, b) in enumerate(zip(wanted, got, strict=True)):
            if a != b:
                _diff(a, b, f"{path}[{i}]", lines)
    else:
        lines.append(
            f"  {path or '.'}: wanted {json.dumps(wanted)[:300]}, got {json.dumps(got)[:300]}"
        )
    return "\n".join(lines)


def estimated_length(spec: GameSpec, options: Any, rng: random.Random) -> int:
    """The number of actions of a random game with these options, played on the engine."""
    state = spec.new_state(options)
    while not state.is_terminal() and len(state.history) < MAX_STEPS:
        player = rng.choice(state.current_players())
        state.apply(rng.choice(state.legal_actions(player)), player)
    return max(2, len(state.history))


def play_plans(chosen: list[plans.Plan], workdir: Path, seed: int, kills_per_game: int) -> Figures:
    """Play the plans one after another on one server (one data directory); each game a new
    active game, as the lobby starts one."""
    rng = random.Random(seed)
    server = Server(workdir / "data")
    total = Figures()
    started = time.monotonic()
    server.start()
    try:
        for plan in chosen:
            game = GamePlay(plan, server, rng, kills_per_game, workdir, seed)
            try:
                figures = game.play()
            finally:
                game.close_all()
            total.add(figures)
            assert not server.tracebacks(), (
                f"{plan.label} (seed {seed}): the server printed a traceback:\n"
                + "\n".join(server.tracebacks())
            )
    finally:
        server.stop()
    total.kills = server.kills
    total.refused_after_listening = server.refused_after_listening
    total.seconds = time.monotonic() - started
    return total
