"""Matching announced cubes against the cubes the tower saw, one colour at a time: the open
windows (`Cube`), the issues left when a window runs out (`Issue`) and the fixes each kind of
issue offers (`OPTIONS`). `CubeMatcher` is that bookkeeping; `host.tower.checks.Checks` builds on
it with the game's facts, the tower's events and the table's answers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TowerWords:
    """A game's words in the checks' English texts (the pages translate an issue by its kind
    and parameters; a few show this text): what the tower counts into, the pieces, the special
    piece the tower tells apart, the card that lifts and refills the container. The game's
    adapter supplies them with its facts (El Grande: host/games/elgrande/tower_words.py)."""

    container: str = "container"
    pieces: str = "pieces"
    special: str = "special piece"
    recount: str = "Recount"


ARRIVE_S = 5.0  # an announced cube may reach the sensor this long after the action
EARLY_S = 5.0  # a cube thrown before the tap may wait this long for its announcement


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
    # take_out: the special piece to take out (El Grande's Grande; `grande` is the key of the
    # API, docs/table-api.md, as the issue kind is the tower's event kind, docs/protocol.md)
    grande: bool = False
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


class CubeMatcher:
    """Announced and seen cubes of one colour cancel out in whatever order they come; what is
    left waits in `expected` (announced, not seen) or `seen` (seen, not announced) until its
    window runs out, then becomes an issue in `issues`."""

    def __init__(self, colours: Sequence[str]) -> None:
        self.colours = tuple(colours)
        self.expected: list[Cube] = []
        self.seen: list[Cube] = []
        self.matched: Counter[str] = Counter()
        self.issues: list[Issue] = []
        self.words = TowerWords()  # the game's (its facts bring them)
        self._ids = 0

    def _issues_changed(self) -> None:
        """A new issue was raised (a subclass adjusts what the issues offer)."""

    def _undone(self, colour: str, at: float) -> None:
        """An undo took back a throw the tower had counted."""
        for issue in self.issues:
            if issue.kind == "undone" and colour in issue.colours:
                issue.colours[colour] += 1
                issue.text = undone_text(colour, issue.colours[colour], self.words)
                return
        self._raise("undone", undone_text(colour, 1, self.words), at, colours={colour: 1})

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
                    _retext(issue, self.words)
                else:
                    self.issues.remove(issue)
            self._raise(
                "wrong_colour",
                f"{announced} was announced, but a {thrown} cube fell into the "
                f"{self.words.container}",
                at,
                colours={announced: 1},
                thrown={thrown: 1},
            )

    def _raise(self, kind: str, text: str, at: float, **extra: Any) -> Issue:
        self._ids += 1
        issue = Issue(self._ids, kind, text, at, **extra)
        self.issues.append(issue)
        self._issues_changed()
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
                    _retext(issue, self.words)
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
                text = issue_text(kind, other, count, self.words)
                self._raise(kind, text, at, colours={other: count})
                return True
        return False


def cubes_text(cubes: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {c} {'cube' if n == 1 else 'cubes'}" for c, n in cubes.items())


def _retext(issue: Issue, words: TowerWords) -> None:
    """The text of a missing/extra/undone issue after some of its cubes were settled."""
    colour, count = next(iter(issue.colours.items()))
    if issue.kind == "undone":
        issue.text = undone_text(colour, count, words)
    else:
        issue.text = issue_text(issue.kind, colour, count, words)


def undone_text(colour: str, count: int, words: TowerWords) -> str:
    cubes = cubes_text({colour: count})
    return f"Undone, but {cubes} already fell into the {words.container}"


def issue_text(kind: str, colour: str, count: int, words: TowerWords) -> str:
    cubes = "cube" if count == 1 else "cubes"
    if kind == "missing":
        return f"{count} {colour} {cubes} announced but not seen by the tower"
    return f"{count} {colour} {cubes} fell into the {words.container} without an announcement"
