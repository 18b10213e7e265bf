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

Fixes keep the physical castillo true (docs/table-api.md, "Throw-check fixes"): each one says
what to do with the pieces. A fix may make the tower's count win (`tower_wins`): the game then
records a castillo correction (`corrections`, entered by the session through the game's
adapter); or send the table to lift the castillo and take a cube out (`take_out`). After every
fix the checks compare the tower's per-colour count with the game's castillo and keep the
`disagree` warning while they differ.

Secrecy: `totals` (the tower's per-colour counts) and `adjust` stay inside this object; `public()`
shows only the cubes of the throws in question, and the scoring check reports totals only.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

ARRIVE_S = 5.0  # an announced cube may reach the sensor this long after the action
EARLY_S = 5.0  # a cube thrown before the tap may wait this long for its announcement
RETHROW_S = 15.0  # after "rethrow": time to throw the missing cubes again
RECOUNT_S = 120.0  # after the castillo was lifted (Revelation, emptied): time to throw them back
ANNOUNCE_S = 60.0  # after "announce": time for the player to announce the cube already thrown
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
    # colours a player could announce into the castillo now (None: unknown, always offered);
    # "announce" is offered only for cubes of these colours
    can_announce: frozenset[str] | None = None


@dataclass
class Cube:
    colour: str
    until: float


@dataclass
class Issue:
    id: int
    # missing, extra, wrong_colour, undone, take_out, confirm, grande, count, emptied, empty,
    # recount, interrupted
    kind: str
    text: str
    at: float
    # the cubes in question: missing the announced ones, extra and undone the ones in the
    # tower, wrong_colour the announced ones, take_out the ones to take out
    colours: dict[str, int] = field(default_factory=dict)
    cubes: int = 0  # confirm: how many cubes the tower saw in the passage
    best: str = ""  # confirm: the sensor's nearest colour
    thrown: dict[str, int] = field(default_factory=dict)  # wrong_colour: what fell in instead
    rethrow: dict[str, int] = field(default_factory=dict)  # take_out: to throw in afterwards
    grande: bool = False  # take_out: a Grande to take out
    # interrupted: when the tower was not counting (the link's wall-clock seconds, from, to)
    span: tuple[float, float] | None = None
    # "announce" withheld: nothing in the game can announce these cubes now (their player's
    # last placement is made), so the issue would only come back
    no_announce: bool = False
    # confirm: one beam saw a pulse of one cube of `best` or two touching; "one_cube" answers
    # one (the colour confirm names two)
    one_or_two: bool = False

    @property
    def options(self) -> list[str]:
        out = [o for o in OPTIONS[self.kind] if not (o == "announce" and self.no_announce)]
        if self.one_or_two and self.best:
            out.insert(0, "one_cube")
        return out

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "text": self.text}
        out["options"] = self.options
        if self.colours:
            out["colours"] = dict(self.colours)
        if self.kind == "confirm":
            out["cubes"] = self.cubes
            out["best"] = self.best or None
            if self.one_or_two:
                out["one_or_two"] = True
        if self.thrown:
            out["thrown"] = dict(self.thrown)
        if self.span is not None:
            out["from"], out["to"] = self.span
        if self.rethrow:
            out["rethrow"] = dict(self.rethrow)
        if self.grande:
            out["grande"] = True
        return out


# What each fix does with the pieces (the UI words them: check.how.<option>):
#   rethrow      throw the announced cube(s) into the tower now
#   accept_game  missing: the cube is in, the tower missed it; extra: no cube went in, the
#                tower miscounted; grande: no Grande went in
#   misread      wrong_colour: the sensor misread, the cube was the announced colour
#   tower_wins   the cube(s) in the tower stay: the game records a castillo correction
#   take_out     lift the castillo, take the cube(s) (or the Grande) out, throw the rest back
#   announce     the player announces the cube already thrown (play goes on for ANNOUNCE_S)
#   done         take_out: done without lifting (the tower did not see the castillo lifted)
#   one_cube     confirm (one beam, "1 or 2"): it was one cube, of the colour the tower saw
OPTIONS: dict[str, tuple[str, ...]] = {
    "missing": ("rethrow", "accept_game"),
    "extra": ("announce", "tower_wins", "take_out", "accept_game"),
    "wrong_colour": ("misread", "tower_wins", "take_out"),
    "undone": ("take_out", "tower_wins", "announce"),
    "take_out": ("done",),
    "confirm": ("not_a_cube",),  # or the `confirm` message with the colours
    "grande": ("take_out", "accept_game"),
    "count": ("accept_game",),
    "emptied": ("rethrow", "accept_game"),
    "empty": ("done",),
    "recount": ("skip",),
    "interrupted": ("accept_game",),
}


# Why the tower's count wins, per issue kind (the reason the castillo correction records)
CORRECTION_REASONS = {"wrong_colour": "wrong-colour", "extra": "too-many", "undone": "undo"}


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

    def _withhold_announce(self) -> None:
        """Offer "announce" only where the game can still announce the issue's cubes."""
        facts = self._facts
        can = facts.can_announce if facts is not None else None
        for issue in self.issues:
            issue.no_announce = can is not None and not set(issue.colours) <= can

    # ------------------------------------------------------------------ inputs
    def sync_game(self, facts: GameFacts, at: float) -> None:
        """After every engine change: new announcements, undone ones, scorings."""
        previous = self._facts
        self._facts = facts
        self._withhold_announce()
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
        elif kind == "merged":
            self._saw_group(fields, at)
        elif kind == "uncertain" and fields.get("why") == "one_or_two":
            best = _name(fields.get("best"))
            best = best if best in self.colours else ""
            what = f"1 or 2 {best} cubes" if best else "1 or 2 cubes"
            self._raise(
                "confirm", f"The tower saw {what} (one beam cannot tell): how many, which?",
                at, cubes=2, best=best, one_or_two=True,
            )  # fmt: skip
        elif kind == "uncertain":
            best = _name(fields.get("best"))
            self._raise(
                "confirm", "The tower saw a cube but could not tell the colour: which?", at,
                cubes=1, best=best if best in self.colours else "",
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
        elif kind == "interrupted":
            span = (_seconds(fields.get("from")), _seconds(fields.get("to")))
            self._raise(
                "interrupted",
                "The tower was not counting for a while: a cube thrown then may be missing "
                "from its count. Check that the castillo holds what the game says",
                at, span=span,
            )  # fmt: skip
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
            self._pair_wrong_colours(at)
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
        self._check_agreement()

    def option(self, issue_id: int, how: str) -> Issue:
        """The open issue `how` resolves; CheckError if there is none or `how` does not fit."""
        issue = self._issue(issue_id)
        if how not in issue.options:
            raise CheckError(
                f"{how!r} does not resolve a {issue.kind} issue (options: "
                f"{', '.join(issue.options)})"
            )
        return issue

    def corrections(self, issue_id: int, how: str) -> list[tuple[str, int, str]]:
        """The castillo corrections the game records before `resolve(issue_id, how)`: (colour,
        signed caballeros into the castillo, why). Only `tower_wins` has any."""
        issue = self.option(issue_id, how)
        if how != "tower_wins":
            return []
        why = CORRECTION_REASONS[issue.kind]
        out = [(colour, n, why) for colour, n in issue.thrown.items()]
        if issue.kind == "wrong_colour":
            out += [(colour, -n, why) for colour, n in issue.colours.items()]
        else:
            out += [(colour, n, why) for colour, n in issue.colours.items()]
        return out

    def resolve(self, issue_id: int, how: str, at: float) -> None:
        issue = self.option(issue_id, how)
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
        elif how == "misread":  # wrong_colour: it was the announced colour after all
            for colour, count in issue.thrown.items():
                self.adjust[colour] -= count
            for colour, count in issue.colours.items():
                self.adjust[colour] += count
                self.matched[colour] += count
        elif how == "tower_wins":  # the game recorded the correction: the cubes are matched
            for colour, count in (issue.thrown or issue.colours).items():
                self.matched[colour] += count
        elif how == "take_out" and kind == "wrong_colour":
            self._take_out(issue.thrown, issue.colours, at)
        elif how == "take_out":
            self._take_out(issue.colours, {}, at, grande=kind == "grande")
        elif how == "announce":  # the cubes wait for their announcement again
            for colour, count in issue.colours.items():
                self.seen.extend(Cube(colour, at + ANNOUNCE_S) for _ in range(count))
        elif kind == "take_out":  # done: taken out without the tower seeing the castillo lifted
            for colour, count in issue.colours.items():
                self.adjust[colour] -= count
            for colour, count in issue.rethrow.items():
                self.expected.extend(Cube(colour, at + RETHROW_S) for _ in range(count))
        elif kind == "extra":
            for colour, count in issue.colours.items():
                self.adjust[colour] -= count
        elif kind == "count":
            self._trust_game(castillo)
            if self._facts is not None and self._facts.phase == "scoring":
                self._scoring_checked = self._facts.round_index
        elif kind == "emptied" and how == "rethrow":
            self._expect_refill(castillo, at)
        elif kind in ("emptied", "interrupted"):  # checked: the castillo is as the game says
            self._trust_game(castillo)
        elif kind == "empty":
            self._trust_game({})
        elif how == "one_cube":  # confirm (one beam): one cube of the colour the tower saw
            self.adjust[issue.best] += 1  # the tower counted it under "uncertain"
            self._saw(issue.best, at)
        # confirm/not_a_cube, grande/accept_game, recount/skip: nothing to count
        self._settle(at)
        self._check_agreement()

    # ------------------------------------------------------------------ internals
    def _saw_group(self, fields: Mapping[str, Any], at: float) -> None:
        """Touching cubes: those the tower named (`cs`, second beam) are seen like single
        drops; the table is asked only about the rest."""
        cubes = _estimate(fields.get("est"))
        named = _group_colours(fields.get("cs"), cubes, self.colours)
        unsure = cubes - len(named)
        for colour in named:
            self._saw(colour, at)
        if unsure:
            which = "the colour" if unsure == cubes else f"the colour of {unsure} of them"
            self._raise(
                "confirm", f"The tower saw {cubes} cubes touching but could not tell {which}: "
                "which?", at,
                cubes=unsure,
            )  # fmt: skip

    def _take_out(
        self, cubes: Mapping[str, int], rethrow: Mapping[str, int], at: float, grande: bool = False
    ) -> None:
        """The table lifts the castillo to take cubes (or a Grande) out: once the tower sees it
        lifted, the game's castillo is thrown back in (`_counts_reset`)."""
        what = "the Grande" if grande else _cubes_text(cubes)
        text = f"Lift the castillo, take out {what}, and throw the rest back into the tower"
        issue = self._raise("take_out", text, at, colours=dict(cubes), grande=grande)
        issue.rethrow = dict(rethrow)

    def _undone(self, colour: str, at: float) -> None:
        """An undo took back a throw the tower had counted."""
        for issue in self.issues:
            if issue.kind == "undone" and colour in issue.colours:
                issue.colours[colour] += 1
                issue.text = _undone_text(colour, issue.colours[colour])
                return
        self._raise("undone", _undone_text(colour, 1), at, colours={colour: 1})

    def _pair_wrong_colours(self, at: float) -> None:
        """An announced cube the tower missed and a cube nobody announced: one wrong colour."""
        while True:
            missing = next((i for i in self.issues if i.kind == "missing" and i.colours), None)
            extra = next(
                (
                    i
                    for i in self.issues
                    if i.kind == "extra" and missing and set(i.colours) - set(missing.colours)
                ),
                None,
            )
            if missing is None or extra is None:
                return
            announced = next(iter(missing.colours))
            thrown = next(c for c in extra.colours if c != announced)
            for issue, colour in ((missing, announced), (extra, thrown)):
                issue.colours[colour] -= 1
                if not issue.colours[colour]:
                    del issue.colours[colour]
                if issue.colours:
                    _retext(issue)
                else:
                    self.issues.remove(issue)
            self._raise(
                "wrong_colour",
                f"{announced} was announced, but a {thrown} cube fell into the castillo",
                at,
                colours={announced: 1},
                thrown={thrown: 1},
            )

    def _check_agreement(self) -> None:
        """After a fix: the tower's per-colour count against the game's castillo (a warning,
        not an issue: it names no count)."""
        facts = self._facts
        if facts is None or not self.enabled or self.expected or self.seen or self.issues:
            return
        tower = self.effective()
        if all(tower[c] == facts.castillo.get(c, 0) for c in self.colours):
            self.warnings.pop("disagree", None)
        else:
            self.warnings["disagree"] = (
                "The tower's count and the game's castillo still disagree: check the castillo "
                "at the next general scoring"
            )

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
        self._withhold_announce()
        return issue

    def _announce(self, colour: str, count: int, at: float) -> None:
        for _ in range(count):
            if (
                self._take(self.seen, colour)
                or self._take_issue("extra", colour)
                or self._take_issue("undone", colour)
                or self._take_pair(colour, "thrown", at)
            ):
                self.matched[colour] += 1
            else:
                self.expected.append(Cube(colour, at + ARRIVE_S))

    def _unannounce(self, colour: str, count: int, at: float) -> None:
        """An undo took announcements back; cubes already seen become unannounced again."""
        for _ in range(count):
            if self._take(self.expected, colour) or self._take_issue("missing", colour):
                continue
            if self.matched[colour] > 0:  # its cube is in the tower: take it out, or keep it
                self.matched[colour] -= 1
                self._undone(colour, at)

    def _saw(self, colour: str, at: float) -> None:
        if (
            self._take(self.expected, colour)
            or self._take_issue("missing", colour)
            or self._take_pair(colour, "colours", at)
        ):
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
                    _retext(issue)
                return True
        return False

    def _take_pair(self, colour: str, side: str, at: float) -> bool:
        """A wrong_colour issue's announced cube arrived after all (`side` "colours"), or its
        thrown cube was announced after all ("thrown"): what is left is a plain extra
        (missing) issue."""
        for issue in self.issues:
            if issue.kind == "wrong_colour" and colour in getattr(issue, side):
                self.issues.remove(issue)
                left, kind = (
                    (issue.thrown, "extra") if side == "colours" else (issue.colours, "missing")
                )
                ((other, count),) = left.items()
                self._raise(kind, _issue_text(kind, other, count), at, colours={other: count})
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
        empty = [i for i in self.issues if i.kind in ("empty", "recount", "emptied", "take_out")]
        for issue in empty:
            self.issues.remove(issue)
        # lifted to take a cube out: what the game's castillo holds goes back in
        recount = any(i.kind in ("recount", "take_out") for i in empty)
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


def _group_colours(value: Any, cubes: int, colours: Sequence[str]) -> list[str]:
    """The colours a merged event names (`cs`): the game colours among them, when it names
    one entry per cube; [] for anything else (an older firmware, one beam, a stored row)."""
    if not isinstance(value, list) or len(value) != cubes:
        return []
    return [c for c in (_name(v) for v in value) if c in colours]


def _seconds(value: Any) -> float:
    """A wall-clock time from a stored row (epoch seconds); 0 for anything else."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.0
    return float(value) if math.isfinite(value) and 0 <= value < 1e11 else 0.0


def _name(value: Any) -> str:
    """A colour or reason from a tower frame; '' unless it is short printable text."""
    if isinstance(value, str) and len(value) <= 32 and value.isprintable() and value.isascii():
        return value
    return ""


def _cubes_text(cubes: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {c} {'cube' if n == 1 else 'cubes'}" for c, n in cubes.items())


def _retext(issue: Issue) -> None:
    """The text of a missing/extra/undone issue after some of its cubes were settled."""
    colour, count = next(iter(issue.colours.items()))
    if issue.kind == "undone":
        issue.text = _undone_text(colour, count)
    else:
        issue.text = _issue_text(issue.kind, colour, count)


def _undone_text(colour: str, count: int) -> str:
    return f"Undone, but {_cubes_text({colour: count})} already fell into the castillo"


def _issue_text(kind: str, colour: str, count: int) -> str:
    cubes = "cube" if count == 1 else "cubes"
    if kind == "missing":
        return f"{count} {colour} {cubes} announced but not seen by the tower"
    return f"{count} {colour} {cubes} fell into the castillo without an announcement"
