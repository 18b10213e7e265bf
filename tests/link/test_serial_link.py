"""The pyserial TowerLink against the in-process fake tower (a pty test double)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator

import pytest
import serial

from host.tower.events import Drop, LinkState, LinkStatus, TowerEvent
from host.tower.ledger import LedgerEntry
from host.tower.link import CommandFailed, LinkTimeout
from host.tower.serial_link import SerialTowerLink
from tests.link.conftest import FakeTower, RecordingSink, wait_for


@pytest.fixture
def sink() -> RecordingSink:
    return RecordingSink()


@pytest.fixture
def link(fake_tower: FakeTower, sink: RecordingSink) -> Iterator[SerialTowerLink]:
    with SerialTowerLink(str(fake_tower.path), sink=sink) as tower_link:
        tower_link.wait_connected(3.0)
        while tower_link.next_event(0) is not None:
            pass  # the start-up statuses
        yield tower_link


def events(link: SerialTowerLink, count: int, timeout: float = 3.0) -> list[TowerEvent]:
    out: list[TowerEvent] = []
    while len(out) < count:
        message = link.next_event(timeout)
        assert message is not None, f"only {len(out)} of {count} events arrived"
        if isinstance(message, TowerEvent):
            out.append(message)
    return out


def statuses_until(
    link: SerialTowerLink, state: LinkState, timeout: float = 4.0
) -> list[LinkState]:
    seen: list[LinkState] = []
    while state not in seen:
        message = link.next_event(timeout)
        assert message is not None, f"no {state} status; saw {seen}"
        if isinstance(message, LinkStatus):
            seen.append(message.state)
    return seen


def test_events_arrive_typed_in_order_and_are_acked(
    fake_tower: FakeTower, link: SerialTowerLink
) -> None:
    for colour in ("red", "blue", "red"):
        fake_tower.drop(colour)
    got = events(link, 3)
    assert [e.seq for e in got] == [1, 2, 3]
    assert all(isinstance(e, Drop) for e in got)
    assert got[-1].totals == {"red": 2, "blue": 1}
    assert wait_for(lambda: fake_tower.acks[-1:] == [3])
    assert link.totals() == {"red": 2, "blue": 1}


def test_every_ack_follows_the_durable_write(fake_tower: FakeTower, sink: RecordingSink) -> None:
    violations: list[int] = []
    fake_tower.on_ack = lambda seq: None if seq in sink.event_seqs() else violations.append(seq)
    with SerialTowerLink(str(fake_tower.path), sink=sink) as link:
        link.wait_connected(3.0)
        for _ in range(20):
            fake_tower.drop("green")
        events(link, 20)
        assert wait_for(lambda: 20 in fake_tower.acks)
    assert violations == []


def test_observer_link_never_acks(fake_tower: FakeTower) -> None:
    with SerialTowerLink(str(fake_tower.path)) as link:
        link.wait_connected(3.0)
        fake_tower.drop("red")
        events(link, 1)
        link.ping()
    assert fake_tower.acks == []


def test_commands_answer_and_errors_raise(fake_tower: FakeTower, link: SerialTowerLink) -> None:
    assert link.ping() >= 0
    hello = link.hello()
    assert hello.boot == fake_tower.boot and hello.uid == fake_tower.uid
    fake_tower.drop("red")
    events(link, 1)
    snap = link.snapshot()
    assert (snap.counts, snap.seq, snap.gate) == ({"red": 1}, 1, "closed")
    assert link.scene({"Toledo": (255, 0, 255)}, {"Toledo": "pulse"}) == 42
    sent = [c for c in fake_tower.commands if c["c"] == "scene"][-1]
    assert sent["segs"] == {"Toledo": [255, 0, 255]} and sent["anim"] == {"Toledo": "pulse"}
    assert link.calibrate("sample", "red")["step"] == "sample"
    with pytest.raises(CommandFailed, match="unknown step"):
        link.calibrate("bogus")
    link.diagnostics(True)
    assert link.reset_counts() == {}
    reset = events(link, 1)[0]
    assert reset.kind == "reset" and link.totals() == {}


def test_a_command_times_out_when_the_device_hangs(
    fake_tower: FakeTower, link: SerialTowerLink
) -> None:
    fake_tower.silent = True
    with pytest.raises(LinkTimeout):
        link.ping(timeout=0.3)


def test_commands_from_many_threads_get_their_own_answers(link: SerialTowerLink) -> None:
    results: list[int] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            for _ in range(10):
                results.append(link.ping())
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and len(results) == 40


def test_device_reset_is_noticed_and_counts_reconciled(
    fake_tower: FakeTower, link: SerialTowerLink
) -> None:
    fake_tower.drop("red")
    fake_tower.drop("blue")
    events(link, 2)
    fake_tower.reboot()
    assert LinkState.DEVICE_RESET in statuses_until(link, LinkState.CONNECTED)
    fake_tower.drop("red")
    assert events(link, 1)[0].totals == {"red": 2, "blue": 1}


def test_reset_without_hello_is_caught_by_the_heartbeat(
    fake_tower: FakeTower, link: SerialTowerLink
) -> None:
    fake_tower.drop("red")
    events(link, 1)
    fake_tower.hello_on_boot = False  # the boot HELLO got lost
    fake_tower.reboot()
    # heartbeats are 0.5 s apart here; the uptime going backwards triggers a HELLO
    assert LinkState.DEVICE_RESET in statuses_until(link, LinkState.CONNECTED, timeout=5.0)
    fake_tower.drop("blue")
    assert events(link, 1)[0].totals == {"red": 1, "blue": 1}


def test_replug_replays_missed_events_exactly_once(
    fake_tower: FakeTower, sink: RecordingSink, link: SerialTowerLink
) -> None:
    fake_tower.drop("red")
    events(link, 1)
    fake_tower.replug(reboot=False)
    fake_tower.drop("blue", send=False)  # happened while unplugged: only in the device ring
    fake_tower.drop("blue", send=False)
    statuses_until(link, LinkState.CONNECTED)
    assert [e.seq for e in events(link, 0)] == []
    assert sink.event_seqs() == [1, 2, 3]
    assert link.totals() == {"red": 1, "blue": 2}


def test_power_loss_while_unplugged_loses_nothing_the_host_holds(
    fake_tower: FakeTower, link: SerialTowerLink
) -> None:
    for colour in ("red", "red", "yellow"):
        fake_tower.drop(colour)
    events(link, 3)
    fake_tower.replug(reboot=True)
    assert LinkState.DEVICE_RESET in statuses_until(link, LinkState.CONNECTED)
    fake_tower.drop("yellow")
    assert events(link, 1)[0].totals == {"red": 2, "yellow": 2}


@pytest.mark.parametrize("ring_size", [2, 0])
def test_events_lost_from_the_ring_still_count(
    fake_tower: FakeTower, sink: RecordingSink, link: SerialTowerLink, ring_size: int
) -> None:
    fake_tower.ring_size = ring_size
    fake_tower.replug(reboot=False)
    for _ in range(5):
        fake_tower.drop("white", send=False)  # the ring keeps only the last `ring_size`
    statuses_until(link, LinkState.CONNECTED)
    # the events the ring dropped are gone, but their counts come back with the snapshot
    assert link.totals() == {"white": 5}
    assert sink.entries[-1].kind == "snapshot"
    assert link.ledger.seq == 5
    fake_tower.drop("white")
    assert [e.seq for e in events(link, 1)] == [6]


def test_a_hung_device_is_reopened(fake_tower: FakeTower, link: SerialTowerLink) -> None:
    fake_tower.silent = True
    assert LinkState.RECONNECTING in statuses_until(link, LinkState.RECONNECTING, timeout=5.0)
    fake_tower.silent = False
    statuses_until(link, LinkState.CONNECTED)


def test_garbage_modem_probes_and_ctrl_c_do_not_disturb(
    fake_tower: FakeTower, link: SerialTowerLink
) -> None:
    fake_tower.raw(b"AT\r\nATE0\r\nAT+CGMI\r\n\x03\x00\xff garbage *12345678\n")
    fake_tower.drop("red")
    fake_tower.raw(b'{"t":"ev","seq":99}*00000000\n')  # bad CRC: must not count
    fake_tower.drop("blue")
    assert [e.seq for e in events(link, 2)] == [1, 2]
    assert link.totals() == {"red": 1, "blue": 1}
    assert link.bad_frames >= 3


def test_port_is_opened_exclusively(fake_tower: FakeTower, link: SerialTowerLink) -> None:
    with pytest.raises(serial.SerialException):
        serial.Serial(str(fake_tower.path), exclusive=True)


def test_unreachable_port_reports_why() -> None:
    link = SerialTowerLink("/nonexistent/tower")
    link.start()
    try:
        with pytest.raises(LinkTimeout, match="nonexistent"):
            link.wait_connected(0.3)
    finally:
        link.close()
    assert link.state is LinkState.CLOSED


def test_info_logs_never_show_counts_or_colours(
    fake_tower: FakeTower, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="host.tower.link")
    with SerialTowerLink(str(fake_tower.path), sink=RecordingSink()) as link:
        link.wait_connected(3.0)
        for colour in ("purple", "orange", "purple"):
            fake_tower.drop(colour)
        events(link, 3)
        fake_tower.reboot()
        statuses_until(link, LinkState.CONNECTED)
    info = " ".join(r.getMessage() for r in caplog.records if r.levelno >= logging.INFO)
    assert "tower event drop seq 3" in info  # events are logged ...
    assert "purple" not in info and "orange" not in info  # ... but not what they were
    caplog.clear()
    caplog.set_level(logging.DEBUG, logger="host.tower.link")
    with SerialTowerLink(str(fake_tower.path), sink=RecordingSink()) as link:
        link.wait_connected(3.0)
        fake_tower.drop("purple")
        events(link, 1)
    assert "purple" in caplog.text  # DEBUG shows everything, on purpose


def test_any_pyserial_url_is_accepted_as_port() -> None:
    # loop:// echoes our own `hello` command back: a frame, but never a HELLO
    link = SerialTowerLink("loop://")
    link.start()
    try:
        with pytest.raises(LinkTimeout):
            link.wait_connected(0.5)
        assert link.port == "loop://"
        assert link.state in (LinkState.CONNECTING, LinkState.RECONNECTING)
    finally:
        link.close()


class FlakySink(RecordingSink):
    """Fails once on its third write, as a full disk or a locked database would."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = 0

    def append(self, entry: LedgerEntry) -> None:
        self.writes += 1
        if self.writes == 3:
            raise RuntimeError("database is locked")
        super().append(entry)


def test_a_failing_sink_means_no_ack_and_a_retry(fake_tower: FakeTower) -> None:
    sink = FlakySink()
    with SerialTowerLink(str(fake_tower.path), sink=sink) as link:
        link.wait_connected(3.0)  # write 1: the boot entry
        fake_tower.drop("red")  # write 2
        fake_tower.drop("blue")  # write 3 fails: not acked, the session restarts
        got = events(link, 2, timeout=5.0)
        assert [e.seq for e in got] == [1, 2]
        assert sink.event_seqs() == [1, 2]
        assert wait_for(lambda: fake_tower.acks[-1:] == [2])
        assert link.totals() == {"red": 1, "blue": 1}


def test_a_reset_that_re_enumerates_is_noticed(
    fake_tower: FakeTower, link: SerialTowerLink
) -> None:
    fake_tower.drop("red")
    events(link, 1)
    fake_tower.unplug()
    time.sleep(1.5)  # a Pico takes about this long to boot and re-enumerate
    fake_tower.plug(reboot=True)
    statuses_until(link, LinkState.DEVICE_RESET, timeout=5.0)
    assert link.totals() == {"red": 1}
