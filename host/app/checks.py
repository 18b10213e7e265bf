"""Throw checks: what the players announced into the castillo against what the tower saw.

A pure, deterministic state machine. Its inputs are the game's facts after every engine change
(`sync_game`), tower ledger entries (`tower`), clock ticks (`tick`) and the table's answers
(`confirm`, `resolve`), each with the time it happened. The session writes every input to the
game log before feeding it here, so replaying the log rebuilds the exact same state (no input
reads the clock by itself).

Matching: announced and seen cubes of one colour cancel out in whatever order they come. An
announced cube may wait `ARRIVE_S` for the tower, a seen cube `EARLY_S` for its announcement
(a player may throw before tapping). Whatever is left when its window runs out becomes an
*issue*; any open issue blocks play until the table resolves it (docs/table-api.md).

Secrecy: `totals` (the tower's per-colour counts) and `adjust` stay inside this object; `public()`
shows only the cubes of the throws in question, and the scoring check reports totals only.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

ARRIVE_S = 5.0  # an announced cube may reach the sensor this long after the action
EARLY_S = 5.0  # a cube thrown before the tap may wait this long for its announcement
RETHROW_S = 15.0  # after "rethrow": time to throw the missing cubes again
RECOUNT_S = 120.0  # after the castillo was lifted (Revelation, emptied): time to throw them back
RECENT = 8  # tower events kept for the status line
MAX_ESTIMATE = 1000  # cubes in one merged pulse (docs/protocol.md)

CUBE_EVENTS = ("drop", "uncertain", "merged", "grande")


@dataclass(frozen=True)
class GameFacts:
    """What the checks need from the engine after each change (all public but `castillo`)."""

    colours: tuple[str, ...]
    phase: str
    round_index: int
    throws: Mapping[str, int]  # announced cubes per colour, whole game so far
    castillo: Mapping[str, int]  # the engine's castillo contents (secret)
    scorings: int  # how many scorings so far
    last_scoring: str  # kind of the latest scoring ("general", a card id)
    recount_cards: frozenset[str] = frozenset()  # cards that lift and refill the castillo
    grandes: int = 0  # Grandes the engine put into the castillo (New Regency's Tournament)


@dataclass
class Cube:
    colour: str
    until: float


@dataclass
class Issue:
    id: int
    kind: str  # missing, extra, confirm, grande, count, emptied, empty, recount
    text: str
    at: float
    colours: dict[str, int] = field(default_factory=dict)
    cubes: int = 0  # confirm: how many cubes the tower saw in the passage
    best: str = ""  # confirm: the sensor's nearest colour

    @property
    def options(self) -> list[str]:
        return list(OPTIONS[self.kind])

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "text": self.text}
        out["options"] = self.options
        if self.colours:
            out["colours"] = dict(self.colours)
        if self.kind == "confirm":
            out["cubes"] = self.cubes
            out["best"] = self.best or None
        return out


OPTIONS: dict[str, tuple[str, ...]] = {
    "missing": ("rethrow", "accept_game"),
    "extra": ("accept_game",),
    "confirm": ("not_a_cube",),  # or the `confirm` message with the colours
    "grande": ("accept_game",),
    "count": ("accept_game",),
    "emptied": ("rethrow", "accept_game"),
    "empty": ("done",),
    "recount": ("skip",),
}


class CheckError(Exception):
    """A confirm/resolve that does not fit the open issues; `reason` says why."""


class Checks:
    """The throw checks of one game (see the module docstring)."""

    def __init__(self, colours: Sequence[str], enabled: bool = True) -> None:
        self.colours = tuple(colours)
        self.enabled = enabled
        self.expected: list[Cube] = []
        self.seen: list[Cube] = []
        self.matched: Counter[str] = Counter()
        self.issues: list[Issue] = []
        self.totals: dict[str, int] = {}  # the tower's reconciled counts (secret)
        self.adjust: Counter[str] = Counter()  # logged corrections to the tower side (secret)
        self.warnings: dict[str, str] = {}
        self.gate_open: bool | None = None
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT)
        self._facts: GameFacts | None = None
        self._throws: Counter[str] = Counter()
        self._scorings = 0
        self._scoring_checked = -1  # round index whose general scoring count was checked
        self._ids = 0

    # ------------------------------------------------------------------ queries
    @property
    def blocked(self) -> bool:
        return bool(self.issues)

    def waiting_for_scoring_check(self) -> bool:
        """At a general scoring the discs wait until the castillo count has been checked."""
        facts = self._facts
        return (
            self.enabled
            and facts is not None
            and facts.phase == "scoring"
            and self._scoring_checked != facts.round_index
        )

    def next_deadline(self) -> float | None:
        times = [c.until for c in self.expected] + [c.until for c in self.seen]
        return min(times) if times else None

    def effective(self) -> dict[str, int]:
        """The tower's counts with the logged corrections, per game colour (secret)."""
        return {c: self.totals.get(c, 0) + self.adjust.get(c, 0) for c in self.colours}

    def public(self) -> dict[str, Any]:
        """What every client may see: open throws and issues, never counts or totals."""
        open_: list[dict[str, Any]] = []
        for colour in self.colours:
            expected = [c.until for c in self.expected if c.colour == colour]
            seen = [c.until for c in self.seen if c.colour == colour]
            if expected or seen:
                open_.append(
                    {
                        "colour": colour,
                        "waiting": len(expected),
                        "unannounced": len(seen),
                        "until": min(expected + seen),
                    }
                )
        return {
            "enabled": self.enabled,
            "blocked": self.blocked,
            "scoring_check": self.waiting_for_scoring_check(),
            "open": open_,
            "issues": [issue.public() for issue in self.issues],
            "warnings": dict(self.warnings),
            "gate_open": self.gate_open,
        }

    # ------------------------------------------------------------------ inputs
    def sync_game(self, facts: GameFacts, at: float) -> None:
        """After every engine change: new announcements, undone ones, scorings."""
        previous = self._facts
        self._facts = facts
        throws = Counter({c: n for c, n in facts.throws.items() if n})
        if previous is None:
            # the game as it was loaded (an imported record): its throws are history
            self.matched = Counter({c: n for c, n in facts.castillo.items() if n})
            self._throws = throws
            self._scorings = facts.scorings
            return
        if not self.enabled:
            self._throws = throws
            self._scorings = facts.scorings
            return
        for colour in self.colours:
            delta = throws.get(colour, 0) - self._throws.get(colour, 0)
            if delta > 0:
                self._announce(colour, delta, at)
            elif delta < 0:
                self._unannounce(colour, -delta, at)
        self._throws = throws
        if facts.scorings > self._scorings:
            self._after_scoring(facts, at)
        self._scorings = facts.scorings
        self._settle(at)

    def tower(
        self, kind: str, fields: Mapping[str, Any], totals: Mapping[str, int], at: float
    ) -> None:
        """A tower event (`kind` as in docs/protocol.md, `fields` its frame) or a snapshot
        adoption (`kind` "snapshot", `fields` the count deltas); `totals` the ledger's totals
        after it."""
        before = dict(self.totals)
        self.totals = {k: v for k, v in totals.items() if v}
        self.recent.append({"kind": kind, "at": at})
        if not self.enabled:
            return
        if kind == "drop":
            self._saw(_name(fields.get("c")), at)
        elif kind in ("uncertain", "merged"):
            cubes = _estimate(fields.get("est")) if kind == "merged" else 1
            best = _name(fields.get("best")) if kind == "uncertain" else ""
            what = f"{cubes} cubes touching" if kind == "merged" else "a cube"
            self._raise(
                "confirm", f"The tower saw {what} but could not tell the colour: which?", at,
                cubes=cubes, best=best if best in self.colours else "",
            )  # fmt: skip
        elif kind == "grande" and not self._grande_expected():
            self._raise("grande", "A Grande fell into the castillo: take it out", at)
        elif kind == "stuck":
            self.warnings["stuck"] = "A cube is stuck in the chute: tap the tower"
        elif kind == "unstuck":
            self.warnings.pop("stuck", None)
        elif kind == "sensor":
            why = _name(fields.get("why")) or "?"
            self.warnings["sensor"] = f"The colour sensor reports a fault ({why})"
        elif kind == "gate":
            self.gate_open = fields.get("open") is True
        elif kind == "reset":
            self._counts_reset(at)
        elif kind == "snapshot":
            self._snapshot(before, at)
        elif kind == "baseline" and fields.get("fresh") and sum(self.effective().values()) > 0:
            self._raise("empty", "Lift the castillo to empty it before the game", at)
        self._settle(at)

    def tick(self, at: float) -> bool:
        """Windows that ran out become issues. True when something changed."""
        changed = False
        for name, pending in (("missing", self.expected), ("extra", self.seen)):
            late = [c for c in pending if c.until <= at]
            if not late:
                continue
            changed = True
            pending[:] = [c for c in pending if c.until > at]
            colours = Counter(c.colour for c in late)
            for colour, count in colours.items():
                self._raise(name, _issue_text(name, colour, count), at, colours={colour: count})
        if changed:
            self._settle(at)
        return changed

    def confirm(self, issue_id: int, colours: Sequence[str], at: float) -> None:
        """The table names the colour(s) of an uncertain or merged passage."""
        issue = self._issue(issue_id)
        if issue.kind != "confirm":
            raise CheckError(f"issue {issue_id} is not a colour to confirm")
        if not colours:
            raise CheckError("name at least one colour (or resolve with not_a_cube)")
        unknown = [c for c in colours if c not in self.colours]
        if unknown:
            raise CheckError(f"{', '.join(unknown)} is not a colour in this game")
        self.issues.remove(issue)
        for colour in colours:
            self.adjust[colour] += 1  # the tower counted it under "uncertain"
            self._saw(colour, at)
        self._settle(at)

    def resolve(self, issue_id: int, how: str, at: float) -> None:
        issue = self._issue(issue_id)
        if how not in OPTIONS[issue.kind]:
            raise CheckError(
                f"{how!r} does not resolve a {issue.kind} issue (options: "
                f"{', '.join(OPTIONS[issue.kind])})"
            )
        self.issues.remove(issue)
        castillo = dict(self._facts.castillo) if self._facts else {}
        kind = issue.kind
        if kind == "missing" and how == "rethrow":
            for colour, count in issue.colours.items():
                self.expected.extend(Cube(colour, at + RETHROW_S) for _ in range(count))
        elif kind == "missing":
            for colour, count in issue.colours.items():
                self.adjust[colour] += count
                self.matched[colour] += count
        elif kind == "extra":
            for colour, count in issue.colours.items():
                self.adjust[colour] -= count
        elif kind == "count":
            self._trust_game(castillo)
            if self._facts is not None and self._facts.phase == "scoring":
                self._scoring_checked = self._facts.round_index
        elif kind == "emptied" and how == "rethrow":
            self._expect_refill(castillo, at)
        elif kind == "emptied":
            self._trust_game(castillo)
        elif kind == "empty":
            self._trust_game({})
        # confirm/not_a_cube, grande, recount/skip: nothing to count
        self._settle(at)

    # ------------------------------------------------------------------ internals
    def _grande_expected(self) -> bool:
        """A Tournament put Grandes into the castillo: the tower may count that many."""
        counted = sum(n for key, n in self.totals.items() if key.startswith("grande:"))
        return self._facts is not None and counted <= self._facts.grandes

    def _issue(self, issue_id: int) -> Issue:
        for issue in self.issues:
            if issue.id == issue_id:
                return issue
        raise CheckError(f"no open issue {issue_id}")

    def _raise(self, kind: str, text: str, at: float, **extra: Any) -> Issue:
        self._ids += 1
        issue = Issue(self._ids, kind, text, at, **extra)
        self.issues.append(issue)
        return issue

    def _announce(self, colour: str, count: int, at: float) -> None:
        for _ in range(count):
            if self._take(self.seen, colour) or self._take_issue("extra", colour):
                self.matched[colour] += 1
            else:
                self.expected.append(Cube(colour, at + ARRIVE_S))

    def _unannounce(self, colour: str, count: int, at: float) -> None:
        """An undo took announcements back; cubes already seen become unannounced again."""
        for _ in range(count):
            if self._take(self.expected, colour) or self._take_issue("missing", colour):
                continue
            if self.matched[colour] > 0:
                self.matched[colour] -= 1
                self.seen.append(Cube(colour, at + EARLY_S))

    def _saw(self, colour: str, at: float) -> None:
        if self._take(self.expected, colour) or self._take_issue("missing", colour):
            self.matched[colour] += 1
        else:
            self.seen.append(Cube(colour, at + EARLY_S))

    @staticmethod
    def _take(pending: list[Cube], colour: str) -> bool:
        for i, cube in enumerate(pending):
            if cube.colour == colour:
                del pending[i]
                return True
        return False

    def _take_issue(self, kind: str, colour: str) -> bool:
        for issue in self.issues:
            if issue.kind == kind and issue.colours.get(colour, 0) > 0:
                issue.colours[colour] -= 1
                if issue.colours[colour] == 0:
                    del issue.colours[colour]
                if not issue.colours:
                    self.issues.remove(issue)
                else:
                    issue.text = _issue_text(kind, colour, issue.colours[colour])
                return True
        return False

    def _trust_game(self, castillo: Mapping[str, int]) -> None:
        """A logged correction: the tower side is made to agree with the game."""
        for colour in self.colours:
            self.adjust[colour] = castillo.get(colour, 0) - self.totals.get(colour, 0)

    def _expect_refill(self, castillo: Mapping[str, int], at: float) -> None:
        for colour, count in castillo.items():
            self.expected.extend(Cube(colour, at + RECOUNT_S) for _ in range(count))

    def _counts_reset(self, at: float) -> None:
        """The castillo was lifted (gate) or the counts were zeroed."""
        self.adjust = Counter()
        self.seen = []
        castillo = dict(self._facts.castillo) if self._facts else {}
        empty = [i for i in self.issues if i.kind in ("empty", "recount", "emptied")]
        for issue in empty:
            self.issues.remove(issue)
        recount = any(i.kind == "recount" for i in empty)
        if recount:
            self._expect_refill(castillo, at)
        elif sum(castillo.values()) > 0 and not any(i.kind == "empty" for i in empty):
            # the game says the castillo holds caballeros: they must go back in
            self.matched = Counter()
            self.expected = []
            self._raise(
                "emptied",
                f"The castillo was emptied, but it should hold {sum(castillo.values())} "
                "caballeros: throw them back in",
                at,
            )

    def _snapshot(self, before: Mapping[str, int], at: float) -> None:
        """Counts adopted without their events (lost from the tower's ring): the cubes behind
        the increase are treated as seen (uncertain ones need confirming)."""
        for key, value in self.totals.items():
            delta = value - before.get(key, 0)
            if delta <= 0:
                continue
            if key in self.colours:
                for _ in range(delta):
                    self._saw(key, at)
            elif key == "uncertain":
                self._raise(
                    "confirm", "The tower counted cubes it could not tell the colour of: which?",
                    at, cubes=delta,
                )  # fmt: skip

    def _after_scoring(self, facts: GameFacts, at: float) -> None:
        held = sum(self.effective().values())
        if facts.last_scoring == "general" and held > 0:
            self._raise("empty", "Lift the castillo to empty it", at)
        elif facts.last_scoring in facts.recount_cards and held > 0:
            self._raise(
                "recount",
                "Revelation: lift the castillo, then throw its caballeros back into the tower",
                at,
            )

    def _settle(self, at: float) -> None:
        """At a general scoring, once every throw is matched, check the castillo count."""
        facts = self._facts
        if not self.waiting_for_scoring_check() or facts is None:
            return
        if self.expected or self.seen or self.issues:
            return
        game_total = sum(facts.castillo.values())
        tower = self.effective()
        if all(tower.get(c, 0) == facts.castillo.get(c, 0) for c in self.colours):
            self._scoring_checked = facts.round_index
            return
        self._raise(
            "count",
            f"The tower counts {sum(tower.values())} caballeros in the castillo, the game "
            f"{game_total}",
            at,
        )


def _estimate(value: Any) -> int:
    """A merged pulse's cube estimate; the link validates it, but a row an older version
    stored may hold anything: 2 (the least a merged pulse is) stands in for nonsense."""
    if type(value) is int and 1 <= value <= MAX_ESTIMATE:
        return value
    return 2


def _name(value: Any) -> str:
    """A colour or reason from a tower frame; '' unless it is short printable text."""
    if isinstance(value, str) and len(value) <= 32 and value.isprintable() and value.isascii():
        return value
    return ""


def _issue_text(kind: str, colour: str, count: int) -> str:
    cubes = "cube" if count == 1 else "cubes"
    if kind == "missing":
        return f"{count} {colour} {cubes} announced but not seen by the tower"
    return f"{count} {colour} {cubes} fell into the castillo without an announcement"
