"""A scripted player for the browser test: it plays a whole game by tapping the UI.

Decisions are read from the app's public state (`GET /api/state`), but every decision is made by
tapping the button the UI shows for it: power cards and secret discs on the seat pages (phones),
everything else on the table page. Policy: the first legal choice, except that the most
caballeros are taken to the court and each player throws one caballero into the castillo between
two general scorings; every throw is followed by dropping the cube through the dropper panel so
that the simulated tower counts it.

Games played through the API instead (no taps), to bring a table to a moment before a page is
looked at: `ec_dealer_game` and `ec_step` / `ec_play_until` (El Caballero), `kd_play`
(Kingdomino).
"""

from __future__ import annotations

import contextlib
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.app.ui_browser import get_json, post_json

STALL_S = 30.0  # no progress for this long: the test fails with the state it was stuck in
CLICK_TIMEOUT_MS = 20_000  # generous: CI machines may be busy


class Stalled(AssertionError):
    pass


@dataclass
class Driver:
    base: str
    table: Any  # the table page
    seats: dict[str, Any]  # colour -> seat page
    taps: Counter[str] = field(default_factory=Counter)  # where: table, seat, dropper, …
    announced: int = 0  # caballeros announced into the castillo (`place castillo` taps)
    heard: list[tuple[int, str]] = field(default_factory=list)  # (round, colour) per announcement
    dropped: int = 0  # cubes dropped into the simulated tower (re-throws included)
    issues: Counter[str] = field(default_factory=Counter)
    scorings_seen: int = 0
    thrown: set[tuple[int, str]] = field(default_factory=set)  # (scoring period, colour)
    issue_log: list[dict[str, Any]] = field(default_factory=list)
    undone: list[str] = field(default_factory=list)  # steps taken back with the Undo button
    verbs: Counter[str] = field(default_factory=Counter)  # the notation verbs tapped
    late: int = 0  # cubes the tower saw only after their window (they still count)
    last_drop: str = ""  # the colour of the cubes dropped last (to confirm an unclear one)
    until: Callable[[dict[str, Any]], bool] | None = None  # stop early once this state is seen
    # how the state is read when the test cannot reach `base` itself (the app in a network
    # namespace): e.g. a fetch by the table page, which can
    fetch: Callable[[], dict[str, Any]] | None = None

    # ------------------------------------------------------------------ state
    def state(self) -> dict[str, Any]:
        if self.fetch is not None:
            return dict(self.fetch())
        return dict(get_json(self.base + "/api/state"))

    def _rev(self, page: Any) -> str:
        return str(page.evaluate("document.body.dataset.rev || ''"))

    def _tap(self, page: Any, selector: str, where: str) -> None:
        """Tap a control and wait until the page shows a newer state."""
        before = self._rev(self.table)
        page.bring_to_front()
        page.locator(selector).first.click(timeout=CLICK_TIMEOUT_MS)
        self.taps[where] += 1
        self.table.wait_for_function(
            f"document.body.dataset.rev !== {before!r}", polling=20, timeout=CLICK_TIMEOUT_MS
        )

    # ------------------------------------------------------------------ policy
    def choose(self, legal: list[str], state: dict[str, Any]) -> str:
        game = state["game"]
        actor = state.get("acting_as") or ""
        # one throw per player between two general scorings: each castillo scoring has cubes
        period = sum(1 for s in game["scorings"] if s["kind"] == "general")
        key = (period, actor)
        if "place castillo" in legal and key not in self.thrown:
            self.thrown.add(key)
            return "place castillo"
        takes = [a for a in legal if a.startswith("take ")]
        if takes:
            return max(takes, key=lambda a: int(a.split()[1]))
        return legal[0]

    # ------------------------------------------------------------------ one step
    def step(self) -> bool:
        """Do the next thing the game waits for; False when the game is over."""
        state = self.state()
        game = state["game"]
        if self.until is not None and self.until(state):
            return False
        self.close_scoring_dialog()
        checks = state.get("checks") or {}
        if checks.get("issues"):  # even after the game: the castillo is emptied at the end
            self.settle_issue(checks["issues"][0])
            return True
        if game["phase"] == "over":
            return False
        step = game.get("step") or {}
        if step.get("step") == "disc":
            for colour in step.get("waiting_for", []):
                self._tap(self.seats[colour], '#choices button[data-action^="disc "]', "seat:disc")
                self.verbs["disc"] += 1
            return True
        for colour, page in self.seats.items():
            # power cards (the hand) and powerback are played on the player's own page
            if game["phase"] == "power" and game["acting"] == [colour]:
                self._tap(page, "#hand button[data-action]:not([disabled])", "seat:power")
                self.verbs["power"] += 1
                return True
            if step.get("step") == "powerback" and step.get("actor") == colour:
                self._tap(page, '#choices button[data-action^="powerback "]', "seat:powerback")
                self.verbs["powerback"] += 1
                return True
        legal = state.get("legal") or []
        if legal:
            action = self.choose(legal, state)
            self._tap(self.table, f'#choices button[data-action="{action}"]', "table")
            self.verbs[action.split()[0]] += 1
            if action == "place castillo":
                self.announced += 1
                self.heard.append((int(state["game"]["round"]), str(state["acting_as"])))
                self.drop(state["acting_as"])
            elif action.startswith("place ") and not self.undone:
                # once: take the placement back with the Undo button (it is placed again next)
                self._tap(self.table, "#undo-row button[data-undo]", "undo")
                last = self.state()["log"][-1]
                assert (last["kind"], last["text"]) == ("undo", action), last
                self.undone.append(action)
            return True
        return self.wait_for_change(state)

    def wait_for_change(self, state: dict[str, Any]) -> bool:
        """Nothing to tap (a check runs, the tower is busy): wait for the state to move on."""
        deadline = time.monotonic() + STALL_S
        while time.monotonic() < deadline:
            time.sleep(0.1)
            now = self.state()
            if now.get("rev") != state.get("rev"):
                return True
        raise Stalled(f"nothing to do and nothing changed for {STALL_S} s: {state}")

    # ------------------------------------------------------------------ the castillo
    def open_dropper(self) -> None:
        self.table.bring_to_front()
        if not self.table.locator("#dropper").count():
            self.table.locator('button[data-tab="dropper"]').click()
            self.taps["dropper"] += 1

    def drop(self, colour: str, count: int = 1) -> None:
        """Throw `count` cubes of `colour` through the dropper panel; wait until the tower saw
        them."""
        self.open_dropper()
        for control in (f'[data-drop-colour="{colour}"]', '[data-drop-how="single"]'):
            button = self.table.locator(f"#dropper button{control}")
            if button.get_attribute("aria-checked") != "true":
                button.click()
                self.taps["dropper"] += 1
        shown = self.table.locator("#dropper [data-drop-count]")
        while int(shown.inner_text()) != count:
            more = int(shown.inner_text()) < count
            self.table.locator(f"#dropper button[data-drop-{'more' if more else 'less'}]").click()
            self.taps["dropper"] += 1
        self.table.locator("#drop-btn").click()
        self.taps["dropper"] += 1
        self.dropped += count
        self.last_drop = colour
        self._until(
            lambda s: (
                s["checks"].get("issues")  # step() settles it (and counts it)
                or not any(o["colour"] == colour for o in s["checks"].get("open", []))
            ),
            f"the tower to see {count} {colour} cube(s)",
            timeout_s=15,
        )

    def lift_castillo(self) -> None:
        """Lift the castillo (the gate opens), then put it back: the tower resets its counts."""
        self.open_dropper()
        for want, button in ((True, "open"), (False, "close")):
            for attempt in range(5):  # a busy machine may be slow to report the gate: tap again
                self.table.locator(f'#dropper button[data-gate="{button}"]').click()
                self.taps["dropper"] += 1
                try:
                    self._until(
                        lambda s, want=want: s["checks"].get("gate_open") is want,
                        f"the gate to {button}",
                        timeout_s=4,
                    )
                    break
                except Stalled:
                    if attempt == 4:
                        raise

    def _until(self, ready: Any, what: str, timeout_s: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            state = self.state()
            if ready(state):
                return state
            time.sleep(0.03)
        raise Stalled(f"waited {timeout_s} s for {what}")

    def castillo_contents(self, game: dict[str, Any]) -> Counter[str]:
        """What the castillo holds, from the throw announcements the table heard since the last
        general scoring emptied it (the per-colour contents are secret, and the public view
        keeps only the current turn's throws: the table remembers the rest)."""
        emptied = max(
            (int(s["round"]) for s in game["scorings"] if s["kind"] == "general"), default=0
        )
        return Counter(colour for round_, colour in self.heard if round_ > emptied)

    def settle_issue(self, issue: dict[str, Any]) -> None:
        kind = issue["kind"]
        if kind == "missing":
            # on a loaded machine the cube may reach the tower after the 5 s window: a late cube
            # still settles the issue by itself (the app matches it); only a lost one counts
            with contextlib.suppress(Stalled):
                self._until(
                    lambda s: all(i["id"] != issue["id"] for i in s["checks"]["issues"]),
                    "a late cube",
                )
                self.late += 1
                return
        self.issues[kind] += 1
        self.issue_log.append(issue)
        if kind in ("empty", "recount"):
            self.lift_castillo()
            state = self._until(
                lambda s: all(i["id"] != issue["id"] for i in s["checks"]["issues"]),
                f"the {kind} issue to clear after lifting the castillo",
            )
            if kind == "recount":  # Revelation: the castillo's caballeros go back in
                for colour, count in self.castillo_contents(state["game"]).items():
                    self.drop(colour, count)
            return
        if kind == "confirm":
            colour = self.last_drop or issue.get("best")
            for _ in range(int(issue.get("cubes") or 1)):
                self.table.locator(f'button[data-confirm-colour="{colour}"]').first.click()
            self._tap(self.table, f'button[data-confirm="{issue["id"]}"]', "check")
            return
        how = "accept_game" if "accept_game" in issue["options"] else issue["options"][0]
        self._tap(self.table, f'button[data-resolve="{how}"][data-issue="{issue["id"]}"]', "check")

    def close_scoring_dialog(self) -> None:
        close = self.table.locator("#overlay:not([hidden]) button[data-close]")
        if close.count():
            self.scorings_seen += 1
            close.first.click()
            self.taps["dialog"] += 1

    def play(self, max_steps: int = 3000) -> None:
        """Play until the game is over (or `until` says stop)."""
        for _ in range(max_steps):
            if not self.step():
                self.close_scoring_dialog()
                return
        raise Stalled(f"the game did not end within {max_steps} steps")


# ---------------------------------------------------------------------- games played by the API
# an El Caballero seat's steps, most wanted first: a full map (area cards, caballero cards) rather
# than "done"
EC_PREFER = ("reinforce", "area", "knight", "ship", "castillo", "raise")


def ec_dealer_game(base: str) -> dict[str, str]:
    """A new 4-player El Caballero dealer game (the synthetic catalogue, seed 3: the browser
    tests' and the screenshots' game); its seat tokens by colour."""
    created = post_json(
        base + "/api/games",
        {
            "game": "elcaballero",
            "players": ["red", "blue", "green", "yellow"],
            "mode": "dealer",
            "catalogue": "synthetic",
            "seed": 3,
        },
    )
    return {seat["colour"]: seat["token"] for seat in created["seats"]}


def ec_pick(legal: list[str], rng: random.Random) -> str:
    for kind in EC_PREFER:
        options = [t for t in legal if t == kind or t.startswith(kind + " ")]
        if options and not (kind in ("ship", "castillo", "raise") and rng.random() < 0.5):
            return rng.choice(options)
    return rng.choice(legal)


def ec_step(base: str, tokens: dict[str, str], rng: random.Random) -> str | None:
    """One step of whichever El Caballero seat may act, through its seat route: its colour
    (None: none may)."""
    for colour, token in tokens.items():
        legal = get_json(f"{base}/api/seat/{token}/state")["legal"]
        if legal:
            post_json(f"{base}/api/seat/{token}/action", {"text": ec_pick(legal, rng)})
            return colour
    return None


def ec_play_until(
    base: str,
    tokens: dict[str, str],
    rng: random.Random,
    done: Callable[[dict[str, Any]], bool],
) -> dict[str, Any]:
    """`ec_step` until the table's state (`/api/state`) is `done`; that state. Fails when no seat
    may act before."""
    while True:
        state: dict[str, Any] = get_json(base + "/api/state")
        if done(state):
            return state
        assert ec_step(base, tokens, rng), f"nobody may act: {state['prompt']}"


def kd_play(base: str, tokens: dict[str, str], moves: int, rng: random.Random) -> None:
    """Kingdomino moves made through the API: each acting seat (or the table's draw) picks a
    legal move."""
    for _ in range(moves):
        state = get_json(base + "/api/state")
        game = state["game"]
        if game["step"] == "over":
            return
        actor = game["acting"][0]
        if actor == "chance":
            post_json(base + "/api/action", {"text": rng.choice(state["legal"])})
            continue
        mine = get_json(f"{base}/api/seat/{tokens[actor]}/state")
        post_json(f"{base}/api/seat/{tokens[actor]}/action", {"text": rng.choice(mine["legal"])})
