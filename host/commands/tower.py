"""`castillo tower ...`: talk to the castillo tower (a Pico on USB, or any port via --port).

Commands that can make the device forget events (everything but `status`) keep a durable
ledger (JSON lines, --ledger) and ack only what it holds. These commands print counts and
colours because the user asked for them; the link itself never logs them above DEBUG.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any, TextIO

from host.tower.autodetect import PORT_ENV, TowerNotFound, resolve_port
from host.tower.events import CalibrationSample, LinkStatus, TowerEvent
from host.tower.ledger import JsonLinesSink, LedgerFileError
from host.tower.link import ANIMATIONS, TowerError, calibrate_when_quiet
from host.tower.serial_link import SerialTowerLink

TRACE_COLUMNS = ("t_us", "r", "g", "b", "c", "beam", "label")


def default_ledger() -> Path:
    """Where the CLI keeps its tower ledger ($CASTILLO_STATE_DIR, else the XDG state dir)."""
    base = os.environ.get("CASTILLO_STATE_DIR")
    if base:
        return Path(base) / "tower-ledger.jsonl"
    xdg = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(xdg) / "castillo" / "tower-ledger.jsonl"


def add_port_arguments(parser: argparse.ArgumentParser, ledger: bool = True) -> None:
    parser.add_argument(
        "--port",
        help=f"serial port or pyserial URL (default: ${PORT_ENV}, else the Pico found by USB id)",
    )
    parser.add_argument("--serial", help="USB serial number of the tower to pick")
    parser.add_argument(
        "--timeout", type=float, default=5.0, help="seconds to wait for the tower (default 5)"
    )
    if ledger:
        parser.add_argument(
            "--ledger", type=Path, help=f"durable event ledger (default {default_ledger()})"
        )


@contextmanager
def connected_link(args: argparse.Namespace, durable: bool = True) -> Iterator[SerialTowerLink]:
    """A started, connected link; raises TowerNotFound / TowerError with a clear message."""
    port: str | None = args.port
    resolve_port(port, args.serial)  # fail early and clearly when there is no tower
    sink = JsonLinesSink(args.ledger or default_ledger()) if durable else None
    link = SerialTowerLink(port, sink=sink, serial_number=args.serial)
    link.start()
    try:
        link.wait_connected(args.timeout)
        yield link
    finally:
        link.close()
        if sink is not None:
            sink.close()


def run_guarded(action: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def handler(args: argparse.Namespace) -> int:
        try:
            return action(args)
        except (TowerNotFound, LedgerFileError) as exc:
            print(f"castillo tower: {exc}", file=sys.stderr)
            return 2
        except TowerError as exc:
            print(f"castillo tower: {exc}", file=sys.stderr)
            return 1

    return handler


def event_record(message: TowerEvent | LinkStatus) -> dict[str, Any]:
    """A JSON-ready view of an event or status change (counts included: the user asked)."""
    if isinstance(message, LinkStatus):
        return {"status": message.state.value, "boot": message.boot, "detail": message.detail}
    record: dict[str, Any] = {"event": message.kind}
    for item in fields(message):
        record[item.name] = getattr(message, item.name)
    record["device_counts"] = dict(message.device_counts)
    record["totals"] = dict(message.totals)
    return record


# --- status ------------------------------------------------------------------------------
def cmd_status(args: argparse.Namespace) -> int:
    with connected_link(args, durable=False) as link:
        hello = link.hello()
        snap = link.snapshot()
        report = {
            "port": link.port,
            "hello": asdict(hello),
            "counts": dict(snap.counts),
            "seq": snap.seq,
            "gate": snap.gate,
            "unacked": snap.unacked,
            "link": link.health(),  # frames skipped, firmware restarts (see docs/tower-link.md)
        }
    print(json.dumps(report, indent=2))
    return 0


# --- watch -------------------------------------------------------------------------------
def cmd_watch(args: argparse.Namespace) -> int:
    with connected_link(args) as link:
        print(json.dumps({"status": "connected", "port": link.port}), flush=True)
        deadline = time.monotonic() + args.seconds if args.seconds else None
        seen = 0
        try:
            while deadline is None or time.monotonic() < deadline:
                message = link.next_event(timeout=0.2)
                if message is None:
                    continue
                print(json.dumps(event_record(message)), flush=True)
                if isinstance(message, TowerEvent):
                    seen += 1
                    if args.count and seen >= args.count:
                        break
        except KeyboardInterrupt:
            pass  # Ctrl-C ends watching normally
    return 0


# --- calibrate ---------------------------------------------------------------------------
def wait_samples(
    link: SerialTowerLink, colour: str, cubes: int, timeout: float, out: TextIO
) -> int:
    """Wait for `cubes` accepted calibration samples of `colour`; the number accepted."""
    accepted = 0
    deadline = time.monotonic() + timeout
    while accepted < cubes and time.monotonic() < deadline:
        message = link.next_event(timeout=0.2)
        if not isinstance(message, CalibrationSample):
            continue
        if message.ok:
            accepted += 1
            print(f"  {colour}: cube {accepted}/{cubes} ok", file=out, flush=True)
        else:
            print(f"  {colour}: cube rejected ({message.why}); throw another", file=out)
    return accepted


def cmd_calibrate(args: argparse.Namespace) -> int:
    ask: Callable[[str], str] = input
    out = sys.stdout
    with connected_link(args) as link:
        hello = link.hello()
        colours = args.colours.split(",") if args.colours else list(hello.colours)
        if not colours:
            print("castillo tower: the firmware reported no colours", file=sys.stderr)
            return 1
        ask("Empty the chute (no cube, lid closed), then press Enter: ")
        dark = calibrate_when_quiet(link, "dark")
        print(f"  dark baseline {dark.get('raw')}", file=out)
        ask("Put the white calibration card in the chute, then press Enter: ")
        white = calibrate_when_quiet(link, "white")
        print(f"  white reference {white.get('raw')}", file=out)
        ask("Take the white card out, then press Enter: ")
        for colour in colours:
            link.calibrate("sample", colour)
            print(f"Throw {args.cubes} {colour} cubes, one at a time.", file=out, flush=True)
            got = wait_samples(link, colour, args.cubes, args.sample_timeout, out)
            link.calibrate("end")
            if got < args.cubes:
                print(f"castillo tower: only {got} {colour} cubes seen; not saved", file=sys.stderr)
                return 1
        saved = calibrate_when_quiet(link, "save")
        print(f"Calibration saved on the tower (hash {saved.get('hash')}).", file=out)
    return 0


# --- record ------------------------------------------------------------------------------
class TraceClock:
    """Device `ticks_us` (they wrap every 2**30 us on a Pico) -> microseconds since the first
    sample, as docs/trace-format.md wants."""

    PERIOD = 1 << 30

    def __init__(self) -> None:
        self.last: int | None = None
        self.elapsed = 0

    def __call__(self, ticks_us: int) -> int:
        if self.last is not None:
            delta = (ticks_us - self.last) % self.PERIOD
            if delta >= self.PERIOD // 2:
                delta -= self.PERIOD  # a sample older than the previous one
            self.elapsed += delta
        self.last = ticks_us
        return self.elapsed


def record_rows(link: SerialTowerLink, seconds: float | None, label: str) -> list[list[Any]]:
    """Diagnostics samples as trace rows, in time order; the label goes on beam rows only."""
    clock = TraceClock()
    rows: list[list[Any]] = []
    deadline = time.monotonic() + seconds if seconds else None
    try:
        while deadline is None or time.monotonic() < deadline:
            sample = link.next_diag(timeout=0.2)
            if sample is None:
                continue
            beam = int(sample.beam)
            row = [clock(sample.us), sample.r, sample.g, sample.b, sample.c, beam]
            rows.append([*row, label if beam else ""])
    except KeyboardInterrupt:
        pass  # Ctrl-C ends a recording normally
    rows.sort(key=lambda row: int(row[0]))
    return rows


def cmd_record(args: argparse.Namespace) -> int:
    with connected_link(args) as link:
        link.diagnostics(True)
        try:
            rows = record_rows(link, args.seconds, args.label)
        finally:
            link.diagnostics(False)
    with args.out.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(TRACE_COLUMNS)
        writer.writerows(rows)
    print(f"{len(rows)} samples written to {args.out}", file=sys.stderr)
    return 0


# --- scene -------------------------------------------------------------------------------
def parse_assignment(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name, value


def parse_rgb(text: str) -> tuple[int, int, int]:
    parts = [int(p) for p in text.split(",")]
    if len(parts) != 3 or not all(0 <= p <= 255 for p in parts):
        raise argparse.ArgumentTypeError(f"expected R,G,B in 0..255, got {text!r}")
    return parts[0], parts[1], parts[2]


def cmd_scene(args: argparse.Namespace) -> int:
    segments = {name: parse_rgb(value) for name, value in args.segments}
    animations = dict(args.anim or [])
    for name, kind in animations.items():
        if kind not in ANIMATIONS:
            print(f"castillo tower: {name}: animation must be one of {ANIMATIONS}", file=sys.stderr)
            return 2
    with connected_link(args) as link:
        milliamps = link.scene(segments, animations, clear=not args.keep)
    print(json.dumps({"ma": milliamps}))
    return 0


# --- repl --------------------------------------------------------------------------------
def cmd_repl(args: argparse.Namespace) -> int:
    with connected_link(args) as link:
        port = link.enter_repl()
    print(f"The firmware stopped; the REPL is on {port}. Try: mpremote connect {port} resume repl")
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tower = subparsers.add_parser("tower", help="talk to the castillo tower")
    commands = tower.add_subparsers(dest="tower_command", required=True, metavar="ACTION")

    status = commands.add_parser("status", help="HELLO and counts as JSON (never acks)")
    add_port_arguments(status, ledger=False)
    status.set_defaults(handler=run_guarded(cmd_status))

    watch = commands.add_parser("watch", help="print live events as JSON lines")
    add_port_arguments(watch)
    watch.add_argument("--seconds", type=float, help="stop after this long")
    watch.add_argument("--count", type=int, help="stop after this many events")
    watch.set_defaults(handler=run_guarded(cmd_watch))

    calibrate = commands.add_parser("calibrate", help="interactive calibration walk-through")
    add_port_arguments(calibrate)
    calibrate.add_argument("--cubes", type=int, default=5, help="cubes per colour (default 5)")
    calibrate.add_argument("--colours", help="comma-separated colours (default: the tower's)")
    calibrate.add_argument(
        "--sample-timeout", type=float, default=120.0, help="seconds to wait per colour"
    )
    calibrate.set_defaults(handler=run_guarded(cmd_calibrate))

    record = commands.add_parser("record", help="write the raw sensor stream as a trace CSV")
    add_port_arguments(record)
    record.add_argument("--out", type=Path, required=True, help="CSV file to write")
    record.add_argument("--seconds", type=float, help="stop after this long (default: Ctrl-C)")
    record.add_argument(
        "--label", default="", help="what is thrown (label of the rows where the beam is broken)"
    )
    record.set_defaults(handler=run_guarded(cmd_record))

    scene = commands.add_parser("scene", help="light LED segments, e.g. Toledo=255,0,255")
    add_port_arguments(scene)
    scene.add_argument("segments", nargs="*", type=parse_assignment, metavar="SEGMENT=R,G,B")
    scene.add_argument("--anim", action="append", type=parse_assignment, metavar="SEGMENT=KIND")
    scene.add_argument("--keep", action="store_true", help="leave unnamed segments as they are")
    scene.set_defaults(handler=run_guarded(cmd_scene))

    repl = commands.add_parser("repl", help="stop the firmware and free the port for a REPL")
    add_port_arguments(repl)
    repl.set_defaults(handler=run_guarded(cmd_repl))
