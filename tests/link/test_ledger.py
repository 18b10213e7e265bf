"""The ledger reconciles counts across device boots: nothing lost, nothing doubled."""

from __future__ import annotations

import argparse
import os
import random
import stat
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from host.commands.tower import run_guarded
from host.tower.ledger import JsonLinesSink, Ledger, LedgerEntry, LedgerFileError, MemorySink


def ev(seq: int, counts: dict[str, int], kind: str = "drop") -> dict[str, object]:
    return {"t": "ev", "seq": seq, "k": kind, "ms": seq * 10, "n": counts}


def test_duplicates_are_rejected_by_sequence_number() -> None:
    ledger = Ledger(MemorySink())
    ledger.adopt_boot("b1", 0)
    assert ledger.accept("b1", ev(1, {"red": 1})) is not None
    assert ledger.accept("b1", ev(1, {"red": 1})) is None
    assert ledger.accept("b1", ev(2, {"red": 2})) is not None
    assert ledger.accept("b1", ev(2, {"red": 2})) is None
    assert ledger.totals() == {"red": 2}


def test_events_of_another_boot_are_rejected() -> None:
    ledger = Ledger(MemorySink())
    ledger.adopt_boot("b1", 0)
    assert ledger.accept("b0", ev(5, {"red": 9})) is None
    assert ledger.totals() == {}


def test_new_boot_carries_the_old_counts_over() -> None:
    ledger = Ledger(MemorySink())
    assert ledger.adopt_boot("b1", 0) is False  # the first boot is not a reset
    ledger.accept("b1", ev(1, {"red": 1}))
    ledger.accept("b1", ev(2, {"red": 1, "blue": 1}))
    assert ledger.adopt_boot("b2", 0) is True
    assert ledger.totals() == {"red": 1, "blue": 1}
    ledger.accept("b2", ev(1, {"red": 1}))
    assert ledger.totals() == {"red": 2, "blue": 1}
    assert ledger.adopt_boot("b2", 1) is False  # same boot again (reconnect) changes nothing
    assert ledger.totals() == {"red": 2, "blue": 1}


def test_same_boot_with_a_lower_sequence_is_a_reset() -> None:
    ledger = Ledger(MemorySink())
    ledger.adopt_boot("b1", 0)
    ledger.accept("b1", ev(3, {"red": 3}))
    assert ledger.adopt_boot("b1", 0) is True
    assert ledger.totals() == {"red": 3}


def test_reset_event_restarts_the_totals() -> None:
    ledger = Ledger(MemorySink())
    ledger.adopt_boot("b1", 0)
    ledger.accept("b1", ev(1, {"red": 1}))
    ledger.adopt_boot("b2", 0)
    ledger.accept("b2", ev(1, {"red": 1}))
    accepted = ledger.accept("b2", ev(2, {}, kind="reset"))
    assert accepted is not None
    assert accepted.totals_before == {"red": 2}
    assert ledger.totals() == {}


def test_snapshot_adopted_only_when_newer_and_different() -> None:
    ledger = Ledger(MemorySink())
    ledger.adopt_boot("b1", 0)
    ledger.accept("b1", ev(2, {"red": 2}))
    assert ledger.adopt_snapshot("b1", 2, {"red": 2}) is False
    assert ledger.adopt_snapshot("b1", 1, {"red": 1}) is False
    assert ledger.adopt_snapshot("b1", 9, {"red": 5}) is True
    assert ledger.seq == 9
    assert ledger.totals() == {"red": 5}
    assert ledger.accept("b1", ev(9, {"red": 5})) is None


def test_snapshot_with_a_lower_count_means_a_lost_reset() -> None:
    ledger = Ledger(MemorySink())
    ledger.adopt_boot("b1", 0)
    ledger.accept("b1", ev(1, {"red": 1}))
    ledger.adopt_boot("b2", 0)
    ledger.accept("b2", ev(1, {"red": 3}))
    ledger.adopt_snapshot("b2", 5, {"red": 1})
    assert ledger.totals() == {"red": 1}


def test_jsonl_sink_restores_the_ledger_and_skips_a_torn_line(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    sink = JsonLinesSink(path)
    ledger = Ledger(sink)
    ledger.adopt_boot("b1", 0)
    ledger.accept("b1", ev(1, {"red": 1}))
    ledger.adopt_boot("b2", 0)
    ledger.accept("b2", ev(1, {"blue": 1}))
    sink.close()
    with path.open("a") as f:
        f.write('{"kind": "event", "boot": "b2", "se')  # power lost mid-write
    restored = Ledger(JsonLinesSink(path))
    assert restored.boot == "b2"
    assert restored.seq == 1
    assert restored.totals() == {"red": 1, "blue": 1}
    assert restored.accept("b2", ev(1, {"blue": 1})) is None


def test_entry_round_trips_through_json() -> None:
    entry = LedgerEntry("event", "b1", 3, {"red": 1}, {"blue": 2}, ev(3, {"blue": 2}), at=1.5)
    assert LedgerEntry.from_json(entry.to_json()) == entry
    assert entry.totals == {"red": 1, "blue": 2}


class FailingSink(MemorySink):
    def __init__(self) -> None:
        super().__init__()
        self.fail = False

    def append(self, entry: LedgerEntry) -> None:
        if self.fail:
            raise OSError("disk full")
        super().append(entry)


def test_a_failed_write_leaves_the_ledger_unchanged() -> None:
    sink = FailingSink()
    ledger = Ledger(sink)
    ledger.adopt_boot("b1", 0)
    ledger.accept("b1", ev(1, {"red": 1}))
    sink.fail = True
    for action in (
        lambda: ledger.accept("b1", ev(2, {"red": 2})),
        lambda: ledger.adopt_boot("b2", 0),
        lambda: ledger.adopt_snapshot("b1", 5, {"red": 5}),
    ):
        try:
            action()
        except OSError:
            pass
        else:
            raise AssertionError("the sink error must reach the caller")
        assert (ledger.boot, ledger.seq, ledger.totals()) == ("b1", 1, {"red": 1})
    sink.fail = False
    assert ledger.accept("b1", ev(2, {"red": 2})) is not None  # the retry is accepted


@st.composite
def histories(draw: st.DrawFn) -> list[tuple[str, str]]:
    steps = st.one_of(
        st.tuples(st.just("drop"), st.sampled_from(["red", "blue", "uncertain"])),
        st.tuples(st.just("redeliver"), st.just("")),
        st.tuples(st.just("reboot"), st.just("")),
        st.tuples(st.just("reset"), st.just("")),
    )
    return draw(st.lists(steps, max_size=40))


@given(histories(), st.randoms(use_true_random=False))
def test_totals_match_the_cubes_thrown_whatever_the_link_does(
    history: list[tuple[str, str]], rng: random.Random
) -> None:
    """A device that reboots, resets and re-sends old frames: the ledger's totals always equal
    the cubes thrown since the last counts reset."""
    ledger = Ledger(MemorySink())
    truth: dict[str, int] = {}
    boot, seq = "boot0", 0
    device: dict[str, int] = {}
    sent: list[dict[str, object]] = []
    ledger.adopt_boot(boot, 0)
    for step, colour in history:
        if step == "drop":
            seq += 1
            device = {**device, colour: device.get(colour, 0) + 1}
            truth[colour] = truth.get(colour, 0) + 1
            frame = ev(seq, device)
        elif step == "reset":
            seq += 1
            device, truth = {}, {}
            frame = ev(seq, {}, kind="reset")
        elif step == "reboot":
            boot, seq, device, sent = f"boot{len(sent)}-{seq}-{rng.random()}", 0, {}, []
            ledger.adopt_boot(boot, 0)
            continue
        else:
            if not sent:
                continue
            frame = rng.choice(sent)  # a replayed or duplicated frame
        sent.append(frame)
        ledger.accept(boot, frame)
        nonzero = {k: v for k, v in ledger.totals().items() if v}
        assert nonzero == {k: v for k, v in truth.items() if v}


def test_the_ledger_is_private_and_a_regular_file(tmp_path: Path) -> None:
    """The ledger (the castillo's counts) is made 0600 in a 0700 folder; one an older version
    made 0644 is tightened (issue 21: a data folder the app uses is made or tightened to 0700)."""
    folder = tmp_path / "state" / "castillo"
    sink = JsonLinesSink(folder / "ledger.jsonl")
    sink.close()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / "ledger.jsonl").stat().st_mode) == 0o600
    old = tmp_path / "old"
    old.mkdir(mode=0o755)
    (old / "ledger.jsonl").write_text("")
    (old / "ledger.jsonl").chmod(0o644)
    old.chmod(0o755)
    JsonLinesSink(old / "ledger.jsonl").close()
    assert stat.S_IMODE(old.stat().st_mode) == 0o700
    assert stat.S_IMODE((old / "ledger.jsonl").stat().st_mode) == 0o600


def test_a_ledger_path_that_is_not_a_regular_file_is_refused_at_once(tmp_path: Path) -> None:
    """A FIFO is not waited on (opening it for writing would block until a reader came), a
    device or a folder is not written to: each is refused with a message naming the path."""
    fifo = tmp_path / "ledger.fifo"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero"), tmp_path):
        started = time.monotonic()
        with pytest.raises(LedgerFileError, match="tower ledger"):
            JsonLinesSink(path)
        assert time.monotonic() - started < 5.0


def test_the_cli_refuses_a_bad_ledger_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    def opens_a_bad_ledger(_args: argparse.Namespace) -> int:
        JsonLinesSink(Path("/dev/zero"))
        return 0

    assert run_guarded(opens_a_bad_ledger)(argparse.Namespace()) == 2
    err = capsys.readouterr().err
    assert err.startswith("castillo tower: the tower ledger /dev/zero is not a regular file")
