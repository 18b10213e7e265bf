"""Throw checks: what the players announced into the tower's container (El Grande: the
castillo) against what the tower saw. The game's words for its pieces come with its facts
(`GameFacts.words`, supplied by the game's adapter): nothing here names a game's pieces.

A pure, deterministic state machine. Its inputs are the game's facts after every engine change
(`sync_game`), tower ledger entries (`tower`), clock ticks (`tick`) and the table's answers
(`confirm`, `resolve`), each with the time it happened. The session writes every input to the
game log before feeding it here, so replaying the log rebuilds the exact same state (no input
reads the clock by itself).

Matching (host/tower/matching.py): announced and seen cubes of one colour cancel out in whatever
order they come. An announced cube may wait `ARRIVE_S` for the tower, a seen cube `EARLY_S` for
its announcement (a player may throw before tapping). Whatever is left when its window runs out
becomes an *issue*; any open issue blocks play until the table resolves it (docs/table-api.md).

Fixes keep the physical container true (docs/table-api.md, "Throw-check fixes"): each one says
what to do with the pieces. A fix may make the tower's count win (`tower_wins`): the game then
records a correction of the container (`corrections`, entered by the session through the game's
adapter); or send the table to lift the container and take a cube out (`take_out`). After every
fix the checks compare the tower's per-colour count with what the game says it holds and keep the
`disagree` warning while they differ.

Secrecy: `totals` (the tower's per-colour counts) and `adjust` stay inside this object; `public()`
shows only the cubes of the throws in question, and the scoring check reports totals only.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from host.tower.matching import ARRIVE_S as ARRIVE_S
from host.tower.matching import EARLY_S as EARLY_S
from host.tower.matching import OPTIONS as OPTIONS
from host.tower.matching import Cube as Cube
from host.tower.matching import CubeMatcher, cubes_text, issue_text
from host.tower.matching import Issue as Issue
from host.tower.matching import TowerWords as TowerWords

RETHROW_S = 15.0  # after "rethrow": time to throw the missing cubes again
RECOUNT_S = 120.0  # the container lifted (a recount card, emptied): time to throw them back
ANNOUNCE_S = 60.0  # after "announce": time for the player to announce the cube already thrown
RECENT = 8  # tower events kept for the status line
MAX_ESTIMATE = 1000  # cubes in one merged pulse (docs/protocol.md)

PLAIN_WORDS = TowerWords()  # a game that names none

CUBE_EVENTS = ("drop", "uncertain", "merged", "grande")


@dataclass(frozen=True)
class GameFacts:
    """What the checks need from the engine after each change (all public but `contents`)."""

    colours: tuple[str, ...]
    phase: str
    round_index: int
    throws: Mapping[str, int]  # announced cubes per colour, whole game so far
    # what the engine says the tower's container holds, per colour (secret; El Grande: the
    # castillo)
    contents: Mapping[str, int]
    scorings: int  # how many scorings so far
    last_scoring: str  # kind of the latest scoring ("general", a card id)
    recount_cards: frozenset[str] = frozenset()  # cards that lift and refill the container
    # special pieces the engine put into the container, which the tower reports as `grande`
    # events (El Grande: the Grandes of New Regency's Tournament)
    specials: int = 0
    # colours a player could announce into the container now (None: unknown, always offered);
    # "announce" is offered only for cubes of these colours
    can_announce: frozenset[str] | None = None
    words: TowerWords = PLAIN_WORDS  # the game's words in the issues' texts


# Why the tower's count wins, per issue kind (the reason the game's correction records)
CORRECTION_REASONS = {"wrong_colour": "wrong-colour", "extra": "too-many", "undone": "undo"}


class CheckError(Exception):
    """A confirm/resolve that does not fit the open issues; `reason` says why."""


class Checks(CubeMatcher):
    """The throw checks of one game (see the module docstring)."""

    def __init__(self, colours: Sequence[str], enabled: bool = True) -> None:
        super().__init__(colours)
        self.enabled = enabled
        self.totals: dict[str, int] = {}  # the tower's reconciled counts (secret)
        self.adjust: Counter[str] = Counter()  # logged corrections to the tower side (secret)
        self.warnings: dict[str, str] = {}
        self.gate_open: bool | None = None
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT)
        self._facts: GameFacts | None = None
        self._throws: Counter[str] = Counter()
        self._scorings = 0
        self._scoring_checked = -1  # round index whose general scoring count was checked

    # ------------------------------------------------------------------ queries
    @property
    def blocked(self) -> bool:
        return bool(self.issues)

    def waiting_for_scoring_check(self) -> bool:
        """At a general scoring the discs wait until the container's count has been checked."""
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

    def _issues_changed(self) -> None:
        self._withhold_announce()

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
        self.words = facts.words
        self._withhold_announce()
        throws = Counter({c: n for c, n in facts.throws.items() if n})
        if previous is None:
            # the game as it was loaded (an imported record): its throws are history
            self.matched = Counter({c: n for c, n in facts.contents.items() if n})
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
        elif kind == "grande" and not self._special_expected():
            words = self.words
            self._raise(
                "grande", f"A {words.special} fell into the {words.container}: take it out", at
            )
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
                f"from its count. Check that the {self.words.container} holds what the game says",
                at, span=span,
            )  # fmt: skip
        elif kind == "baseline" and fields.get("fresh") and sum(self.effective().values()) > 0:
            self._raise("empty", f"Lift the {self.words.container} to empty it before the game", at)
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
                text = issue_text(name, colour, count, self.words)
                self._raise(name, text, at, colours={colour: count})
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
        """The corrections the game records before `resolve(issue_id, how)`: (colour,
        signed pieces into the container, why). Only `tower_wins` has any."""
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
        contents = dict(self._facts.contents) if self._facts else {}
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
        elif kind == "take_out":  # done: taken out without the tower seeing the container lifted
            for colour, count in issue.colours.items():
                self.adjust[colour] -= count
            for colour, count in issue.rethrow.items():
                self.expected.extend(Cube(colour, at + RETHROW_S) for _ in range(count))
        elif kind == "extra":
            for colour, count in issue.colours.items():
                self.adjust[colour] -= count
        elif kind == "count":
            self._trust_game(contents)
            if self._facts is not None and self._facts.phase == "scoring":
                self._scoring_checked = self._facts.round_index
        elif kind == "emptied" and how == "rethrow":
            self._expect_refill(contents, at)
        elif kind in ("emptied", "interrupted"):  # checked: the container is as the game says
            self._trust_game(contents)
        elif kind == "empty":
            self._trust_game({})
        elif how == "one_cube":  # confirm (one beam): one cube of the colour the tower saw
            self.adjust[issue.best] += 1  # the tower counted it under "uncertain"
            self._saw(issue.best, at)
        # confirm/not_a_cube, grande/accept_game, recount/skip: nothing to count
        self._settle(at)
        self._check_agreement()

    # ------------------------------------------------------------------ internals
    def _issue(self, issue_id: int) -> Issue:
        for issue in self.issues:
            if issue.id == issue_id:
                return issue
        raise CheckError(f"no open issue {issue_id}")

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
        """The table lifts the container to take cubes (or a special piece) out: once the tower
        sees it lifted, what the game says it holds is thrown back in (`_counts_reset`)."""
        words = self.words
        what = f"the {words.special}" if grande else cubes_text(cubes)
        text = (
            f"Lift the {words.container}, take out {what}, and throw the rest back into the tower"
        )
        issue = self._raise("take_out", text, at, colours=dict(cubes), grande=grande)
        issue.rethrow = dict(rethrow)

    def _check_agreement(self) -> None:
        """After a fix: the tower's per-colour count against the game's container (a warning,
        not an issue: it names no count)."""
        facts = self._facts
        if facts is None or not self.enabled or self.expected or self.seen or self.issues:
            return
        tower = self.effective()
        if all(tower[c] == facts.contents.get(c, 0) for c in self.colours):
            self.warnings.pop("disagree", None)
        else:
            container = self.words.container
            self.warnings["disagree"] = (
                f"The tower's count and the game's {container} still disagree: check the "
                f"{container} at the next general scoring"
            )

    def _special_expected(self) -> bool:
        """The game put special pieces into the container: the tower may count that many."""
        counted = sum(n for key, n in self.totals.items() if key.startswith("grande:"))
        return self._facts is not None and counted <= self._facts.specials

    def _trust_game(self, contents: Mapping[str, int]) -> None:
        """A logged correction: the tower side is made to agree with the game."""
        for colour in self.colours:
            self.adjust[colour] = contents.get(colour, 0) - self.totals.get(colour, 0)

    def _expect_refill(self, contents: Mapping[str, int], at: float) -> None:
        for colour, count in contents.items():
            self.expected.extend(Cube(colour, at + RECOUNT_S) for _ in range(count))

    def _counts_reset(self, at: float) -> None:
        """The container was lifted (gate) or the counts were zeroed."""
        self.adjust = Counter()
        self.seen = []
        contents = dict(self._facts.contents) if self._facts else {}
        empty = [i for i in self.issues if i.kind in ("empty", "recount", "emptied", "take_out")]
        for issue in empty:
            self.issues.remove(issue)
        # lifted to take a cube out: what the game's container holds goes back in
        recount = any(i.kind in ("recount", "take_out") for i in empty)
        if recount:
            self._expect_refill(contents, at)
        elif sum(contents.values()) > 0 and not any(i.kind == "empty" for i in empty):
            # the game says the container holds pieces: they must go back in
            self.matched = Counter()
            self.expected = []
            self._raise(
                "emptied",
                f"The {self.words.container} was emptied, but it should hold "
                f"{sum(contents.values())} {self.words.pieces}: throw them back in",
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
        words = self.words
        held = sum(self.effective().values())
        if facts.last_scoring == "general" and held > 0:
            self._raise("empty", f"Lift the {words.container} to empty it", at)
        elif facts.last_scoring in facts.recount_cards and held > 0:
            self._raise(
                "recount",
                f"{words.recount}: lift the {words.container}, then throw its {words.pieces} "
                "back into the tower",
                at,
            )

    def _settle(self, at: float) -> None:
        """At a general scoring, once every throw is matched, check the container's count."""
        facts = self._facts
        if not self.waiting_for_scoring_check() or facts is None:
            return
        if self.expected or self.seen or self.issues:
            return
        game_total = sum(facts.contents.values())
        tower = self.effective()
        if all(tower.get(c, 0) == facts.contents.get(c, 0) for c in self.colours):
            self._scoring_checked = facts.round_index
            return
        self._raise(
            "count",
            f"The tower counts {sum(tower.values())} {self.words.pieces} in the "
            f"{self.words.container}, the game {game_total}",
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
