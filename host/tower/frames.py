"""One session of a serial tower link on the I/O thread: every decoded frame is checked
against its schema (`host.tower.schema`) and handed to what reads it. Nothing before a fresh
HELLO counts; a HELLO (re)starts the resync (replay from the ledger's last sequence number,
then the snapshot); events go to the ledger (durably, then acked) and the listeners;
heartbeats reveal a reset device, unseen events and lost acks; answers complete commands.

A broken frame costs that frame only: it is counted and warned about, an event's sequence
number is passed over in the ledger (durably, then acked) so the stream goes on.

Counts are secret: this module logs them only at DEBUG level.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import time
from typing import Any

from host.tower.events import LinkState, event_from_frame
from host.tower.link import DiagSample, Hello
from host.tower.link_core import LinkCore, LinkLost
from host.tower.link_health import LinkHealth
from host.tower.pending import PendingCommands
from host.tower.restart_window import RestartWindow
from host.tower.schema import COUNT_SEQ, frame_problem, is_counts, valid_seq

log = logging.getLogger("host.tower.link")

RESYNC_TIMEOUT = 0.5  # s for replay + snapshot to be answered before asking again
# Replays without progress before a gap is blamed on ring overflow (then adopt the snapshot);
# replays that make progress go on up to the maximum.
RESYNC_ATTEMPTS = 3
RESYNC_MAX_ATTEMPTS = 50


class FrameHandler:
    """Reads the frames of the link's current session (I/O thread only)."""

    def __init__(
        self,
        link: LinkCore,
        *,
        acks: bool,
        health: LinkHealth,
        window: RestartWindow,
        pending: PendingCommands,
        diag: queue.Queue[DiagSample],
    ) -> None:
        self._link = link
        self._acks = acks
        self._health = health
        self._window = window
        self._pending = pending
        self._diag = diag
        self.last_hello: Hello | None = None
        self.uid = ""  # the board's serial number, learnt from its HELLO
        self.grande_possible = False  # re-sent after every resync: a reset device forgets it
        self.begin()

    def begin(self) -> None:
        """A new session (the port was just opened): nothing heard yet."""
        self.boot = ""  # the boot whose HELLO this session got ("": none yet)
        self.resync_deadline: float | None = None
        self.resync_attempt = 0
        self._resync_from = 0
        self._last_up_ms = -1
        self.probe_sent = False

    def handle(self, frame: dict[str, Any], now: float) -> None:
        kind = frame.get("t")
        if not self.boot and kind != "hello":
            return  # everything before a fresh HELLO is stale
        self.probe_sent = False
        problem = frame_problem(frame)
        if kind == "ev":
            self._on_event(frame, problem)
        elif problem is not None:
            self.skip_invalid(problem)
        elif kind == "hello":
            self._on_hello(Hello.from_frame(frame), now)
        elif kind == "hb":
            self._on_heartbeat(frame)
        elif kind == "diag":
            self._on_diag(frame)
        elif kind in ("ok", "err"):
            self._pending.answer(frame)
        else:
            log.debug("ignored frame %s", frame)

    def skip_invalid(self, problem: str) -> None:
        self._health.invalid_frames += 1
        self._link._warn("invalid_frame", f"skipped a frame that breaks the protocol ({problem})")

    def _on_hello(self, hello: Hello, now: float) -> None:
        ledger = self._link.ledger
        self.last_hello = hello
        self._last_up_ms = hello.up_ms
        self._window.hello(hello.boot)
        if not self._window.open and hello.boot == self.boot and hello.seq >= ledger.seq:
            return
        log.info(
            "tower hello: fw %s uid %s boot %s (%s)", hello.fw, hello.uid, hello.boot, hello.reset
        )
        if not self.uid and hello.uid:
            self.uid = hello.uid  # find this board again if it re-enumerates
        self.boot = hello.boot
        if ledger.adopt_boot(hello.boot, hello.seq):
            self._link._set_state(
                LinkState.DEVICE_RESET, hello.boot, f"new boot, reset cause {hello.reset}"
            )
        elif self._link.state is LinkState.CONNECTED:
            self._link._set_state(LinkState.RECONNECTING, hello.boot, "resync")
        self.resync(now)

    def resync(self, now: float) -> None:
        """Replay every event after the ledger's last one, then adopt the snapshot if events
        were lost from the device ring. One resync at a time."""
        self.resync_deadline = now + RESYNC_TIMEOUT
        self.resync_attempt += 1
        self._resync_from = self._link.ledger.seq
        self._link._send("replay", self._on_replay_answer, **{"from": self._link.ledger.seq})
        self._link._send("snap", self._on_snap_answer)

    def resync_overdue(self, now: float) -> None:
        """Ask again when the resync's answers are late (lost in transit); give up after
        `RESYNC_ATTEMPTS`."""
        if self.resync_deadline is not None and now > self.resync_deadline:
            if self.resync_attempt >= RESYNC_ATTEMPTS:
                raise LinkLost("resync not answered")
            self.resync(now)

    def _on_replay_answer(self, frame: dict[str, Any]) -> None:
        if frame.get("t") != "ok":
            raise LinkLost(f"replay refused: {frame.get('why')}")

    def _on_snap_answer(self, frame: dict[str, Any]) -> None:
        if frame.get("t") != "ok":
            raise LinkLost(f"snapshot refused: {frame.get('why')}")
        seq = frame.get("seq")
        counts = frame.get("n")
        if not COUNT_SEQ.check(seq) or not is_counts(counts):
            self.skip_invalid("snap answer: `seq` or `n` is malformed")
            return  # the resync deadline asks again
        assert isinstance(seq, int) and isinstance(counts, dict)
        ledger = self._link.ledger
        progress = ledger.seq > self._resync_from
        if seq > ledger.seq and (
            self.resync_attempt < RESYNC_ATTEMPTS
            or (progress and self.resync_attempt < RESYNC_MAX_ATTEMPTS)
        ):
            # events are still missing (lost again in transit?): replay once more
            self.resync(time.monotonic())
            return
        if ledger.adopt_snapshot(self.boot, seq, counts):
            # the device ring overflowed: those events are gone, their counts are not
            log.info("tower counts adopted from snapshot (events missed) at seq %d", seq)
        self.resync_deadline = None
        self.resync_attempt = 0
        self._resync_from = 0
        self._link._send("grande", None, on=self.grande_possible)
        self._window.counting_again()
        self._link._set_state(LinkState.CONNECTED, self.boot)

    def _ack(self) -> None:
        if self._acks and self._link.ledger.seq > 0:
            self._link._send("ack", None, seq=self._link.ledger.seq)

    def _on_event(self, frame: dict[str, Any], problem: str | None) -> None:
        ledger = self._link.ledger
        seq = frame.get("seq")
        if not valid_seq(seq):
            self.skip_invalid(problem or "ev frame: `seq` is not usable")
            return  # no sequence number to pass over: the device's next events carry on
        assert isinstance(seq, int)
        if seq > ledger.seq + 1:
            # a frame was lost (line noise): fetch it again rather than skip it
            if self.resync_deadline is None:
                log.info("tower event gap before seq %d: resync", seq)
                self.resync(time.monotonic())
            return
        if problem is not None:
            # its sequence number is used up durably, then acked: never asked for again;
            # the counts are not touched (the next event's full vector carries them)
            if ledger.skip(self.boot, seq, problem) is not None:
                self.skip_invalid(f"{problem}, seq {seq}")
            self._ack()
            return
        accepted = ledger.accept(self.boot, frame)  # durable when it returns
        if accepted is None:
            log.debug("duplicate event %s", frame.get("seq"))
        self._ack()
        if accepted is None:
            return
        event = event_from_frame(frame, self.boot, accepted.entry.totals, accepted.totals_before)
        log.info("tower event %s seq %d", event.kind, event.seq)
        log.debug("tower event %s totals %s", frame, accepted.entry.totals)
        self._link._deliver(event)

    def _on_heartbeat(self, frame: dict[str, Any]) -> None:
        ledger = self._link.ledger
        up_ms, seq, unacked = frame.get("up_ms"), frame.get("seq"), frame.get("unacked")
        went_back = isinstance(up_ms, int) and up_ms < self._last_up_ms
        lost_seq = isinstance(seq, int) and seq < ledger.seq
        if isinstance(up_ms, int):
            self._last_up_ms = up_ms
        if went_back or lost_seq:
            log.info("tower heartbeat says the device restarted: asking for HELLO")
            self._link._send("hello", None)
            return
        if isinstance(seq, int) and seq > ledger.seq and self.resync_deadline is None:
            log.info("tower heartbeat shows unseen events: resync")
            self.resync(time.monotonic())
            return
        if (
            self._acks
            and self._link.state is LinkState.CONNECTED
            and isinstance(unacked, int)
            and unacked > 0
            and isinstance(seq, int)
            and seq <= ledger.seq
        ):
            self._link._send("ack", None, seq=seq)  # an ack got lost: the ledger holds these

    def _on_diag(self, frame: dict[str, Any]) -> None:
        def number(key: str) -> int:
            value = frame.get(key, 0)
            return value if isinstance(value, int) else 0

        sample = DiagSample(
            us=number("us"),
            r=number("r"),
            g=number("g"),
            b=number("b"),
            c=number("c"),
            beam=bool(frame.get("beam", False)),
        )
        while True:
            try:
                self._diag.put_nowait(sample)
                return
            except queue.Full:
                with contextlib.suppress(queue.Empty):
                    self._diag.get_nowait()  # keep the newest samples
