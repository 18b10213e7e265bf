"""Sensor traces: CSV ``t_us,r,g,b,c,beam,label`` (docs/trace-format.md), and scoring.

Scoring compares the tower's cube events with the truth of each beam pulse in a trace.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

HEADER = ["t_us", "r", "g", "b", "c", "beam", "label", "beam2"]
CUBE_EVENTS = ("drop", "uncertain", "merged", "grande")


class TraceRow(NamedTuple):
    t_us: int
    r: int
    g: int
    b: int
    c: int
    beam: int
    label: str = ""
    beam2: int = 0  # the optional second beam, below the first

    def raw(self) -> tuple[int, int, int, int, int, int]:
        """(t_us, r, g, b, c, beams): bit 0 the first beam, bit 1 the second."""
        return (self.t_us, self.r, self.g, self.b, self.c, self.beam | (self.beam2 << 1))


def write_csv(rows: Iterable[TraceRow], path: Path) -> None:
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(HEADER)
        for row in rows:
            w.writerow(row)


def read_csv(path: Path) -> list[TraceRow]:
    return parse_csv(path.read_text())


def parse_csv(text: str) -> list[TraceRow]:
    reader = csv.DictReader(io.StringIO(text))
    missing = set(HEADER[:6]) - set(reader.fieldnames or [])
    if missing:
        raise ValueError(f"trace header lacks {sorted(missing)}")
    rows = []
    for rec in reader:
        rows.append(
            TraceRow(
                int(rec["t_us"]),
                int(rec["r"]),
                int(rec["g"]),
                int(rec["b"]),
                int(rec["c"]),
                int(rec["beam"]),
                (rec.get("label") or "").strip(),
                int(rec.get("beam2") or 0),
            )
        )
    return rows


@dataclass
class Pulse:
    """One interruption of the beam in a trace and what really passed."""

    t_entry_us: int
    t_exit_us: int
    label: str
    first_row: int
    last_row: int

    @property
    def duration_us(self) -> int:
        return self.t_exit_us - self.t_entry_us

    @property
    def cubes(self) -> list[str]:
        return [c for c in self.label.split("+") if c] if self.label else []


def pulses(rows: Sequence[TraceRow]) -> list[Pulse]:
    out: list[Pulse] = []
    start = -1
    label = ""
    for i, row in enumerate(rows):
        if row.beam and start < 0:
            start = i
            label = row.label
        elif row.beam and not label:
            label = row.label
        elif not row.beam and start >= 0:
            out.append(Pulse(rows[start].t_us, row.t_us, label, start, i))
            start = -1
    return out


@dataclass
class Score:
    cubes: int = 0
    correct: int = 0
    uncertain: int = 0
    wrong: int = 0
    missed: int = 0
    extra: int = 0
    details: list[str] = field(default_factory=list)
    verdicts: list[str] = field(default_factory=list)  # per pulse: correct/uncertain/wrong/missed
    matched: list[dict[str, Any] | None] = field(default_factory=list)  # per pulse: its event

    def as_dict(self) -> dict[str, int]:
        return {
            "cubes": self.cubes,
            "correct": self.correct,
            "uncertain": self.uncertain,
            "wrong": self.wrong,
            "missed": self.missed,
            "extra": self.extra,
        }

    def add(self, other: Score) -> None:
        for k in ("cubes", "correct", "uncertain", "wrong", "missed", "extra"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.details.extend(other.details)
        self.verdicts.extend(other.verdicts)
        self.matched.extend(other.matched)


def judge(truth: list[str], ev: dict[str, Any]) -> tuple[str, int]:
    """('correct' | 'uncertain' | 'wrong', cubes) for one pulse's truth and its event."""
    k = ev.get("k")
    n = len(truth)
    if k == "merged" and isinstance(ev.get("cs"), list):
        # each cube's colour (null: that cube left to the table): a wrong count or a wrong
        # colour is a silent error, whatever else is flagged
        cs = ev["cs"]
        if len(cs) != n or any(c is not None and c != t for c, t in zip(cs, truth, strict=True)):
            return "wrong", n
        return ("uncertain" if None in cs else "correct"), n
    if k == "merged" or k == "uncertain" or (k == "grande" and ev.get("c") == "uncertain"):
        return "uncertain", n
    if n != 1:
        return "wrong", n  # several cubes reported as one, silently
    if k == "drop":
        return ("correct" if truth[0] == ev.get("c") else "wrong"), 1
    if k == "grande":
        return ("correct" if truth[0] == f"grande:{ev.get('c')}" else "wrong"), 1
    return "wrong", 1


def score(
    trace_pulses: Sequence[Pulse], events: Sequence[dict[str, Any]], tol_us: int = 400
) -> Score:
    """Match cube events to pulses in order (by pulse length) and judge each."""
    evs = [e for e in events if e.get("k") in CUBE_EVENTS]
    s = Score()
    i = 0
    for p in trace_pulses:
        truth = p.cubes
        s.cubes += len(truth)
        if i < len(evs) and abs(int(evs[i].get("pulse_us", -(10**9))) - p.duration_us) <= tol_us:
            verdict, n = judge(truth, evs[i])
            i += 1
        elif (
            i + 1 < len(evs)
            and abs(int(evs[i + 1].get("pulse_us", -(10**9))) - p.duration_us) <= tol_us
        ):
            s.extra += 1
            s.details.append(f"extra event {evs[i]}")
            verdict, n = judge(truth, evs[i + 1])
            i += 2
        else:
            s.missed += len(truth)
            s.details.append(f"missed pulse at {p.t_entry_us} us: {p.label}")
            s.verdicts.append("missed")
            s.matched.append(None)
            continue
        setattr(s, verdict, getattr(s, verdict) + n)
        s.verdicts.append(verdict)
        s.matched.append(evs[i - 1])
        if verdict == "wrong":
            s.details.append(f"wrong: truth {p.label}, event {evs[i - 1]}")
    s.extra += len(evs) - i
    return s
