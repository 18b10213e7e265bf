"""`castillo doctor`: a self-test of the tower, printed as a pass/fail report.

Checks what the firmware lets the host check: the link and protocol, the colour sensor (its ID
register, read when the doctor asks, and any fault the firmware reports), the raw sensor stream,
the break-beam and the gate inputs, the LED chain (each segment lit in turn) and the dark /
white calibration baselines. Steps that need a person (drop a cube, open the gate, look at the LEDs)
run only with --interactive (the default on a terminal); otherwise they are reported as SKIP,
never as PASS. The doctor never acks events, so it cannot make the device forget any.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from towerfw.tcs34725 import PARTS

from engine.core import userfiles
from host.commands.tower import add_port_arguments, connected_link, run_guarded
from host.paths import firmware_dir, hardware_dir
from host.tower.events import Gate, TowerEvent
from host.tower.link import CommandFailed, DiagSample, TowerLink

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"
Ask = Callable[[str], str]


@dataclass(frozen=True)
class Check:
    name: str
    status: str
    detail: str


def load_json(path: Any) -> dict[str, Any]:
    """A build-pack or firmware file (their folders may be the user's: CASTILLO_HARDWARE,
    CASTILLO_FIRMWARE), read by the rules for users' files; UnreadableFile says what is wrong."""
    data = userfiles.load_json(path)
    return data if isinstance(data, dict) else {}


def collect_diag(link: TowerLink, seconds: float) -> list[DiagSample]:
    samples: list[DiagSample] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        sample = link.next_diag(timeout=0.05)
        if sample is not None:
            samples.append(sample)
    return samples


def drain(link: TowerLink) -> None:
    while link.next_event(timeout=0) is not None:
        pass


def wait_event(link: TowerLink, accept: Callable[[TowerEvent], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = link.next_event(timeout=0.1)
        if isinstance(message, TowerEvent) and accept(message):
            return True
    return False


def check_link(link: TowerLink) -> list[Check]:
    hello = link.hello()
    started = time.perf_counter()
    link.ping()
    rtt_ms = (time.perf_counter() - started) * 1000
    proto_ok = hello.proto == 1
    return [
        Check(
            "link",
            PASS if proto_ok else FAIL,
            f"fw {hello.fw}, protocol {hello.proto}, board {hello.uid}, reset cause {hello.reset}",
        ),
        Check("ping", PASS, f"round trip {rtt_ms:.1f} ms"),
    ]


def check_sensor_id(diag_answer: dict[str, Any]) -> Check:
    """The ID register byte the firmware read for the `diag` command."""
    if "sensor_id" not in diag_answer:
        return Check("sensor id", SKIP, "the firmware does not report it (older firmware?)")
    ident = diag_answer["sensor_id"]
    if not isinstance(ident, int):
        return Check("sensor id", FAIL, "no answer from the sensor's ID register (I2C)")
    part = PARTS.get(ident)
    if part is None:
        return Check("sensor id", FAIL, f"ID register 0x{ident:02X}: not a TCS3472x colour sensor")
    return Check("sensor id", PASS, f"ID register 0x{ident:02X}: {part}")


def check_sensor(diag_answer: dict[str, Any], samples: list[DiagSample]) -> list[Check]:
    config = load_json(firmware_dir() / "config.json")
    saturated = int(config.get("saturated_count", 1020))
    dead = int(config.get("dead_count", 2))
    checks = [check_sensor_id(diag_answer)]
    state = diag_answer.get("sensor")
    if state is None:
        checks.append(Check("sensor state", SKIP, "the firmware does not report it"))
    elif state == "ok":
        checks.append(Check("sensor state", PASS, "no fault reported by the firmware"))
    else:
        checks.append(Check("sensor state", FAIL, f"sensor fault: {state}"))
    if not samples:
        checks.append(Check("sensor stream", FAIL, "no diagnostics samples within 1 s"))
        return checks
    clear = statistics.median(s.c for s in samples)
    if clear <= dead:
        checks.append(Check("sensor stream", FAIL, f"clear channel {clear} (dead or dark)"))
    elif clear >= saturated:
        checks.append(Check("sensor stream", FAIL, f"clear channel {clear} (saturated)"))
    else:
        checks.append(Check("sensor stream", PASS, f"{len(samples)} samples, clear {clear}"))
    return checks


def check_beam(link: TowerLink, samples: list[DiagSample], ask: Ask | None) -> list[Check]:
    if samples and all(s.beam for s in samples):
        return [Check("break-beam", FAIL, "beam blocked at rest (stuck cube or no emitter)")]
    rest = Check("break-beam at rest", PASS if samples else SKIP, "beam clear")
    if ask is None:
        return [rest, Check("break-beam edge", SKIP, "needs a cube dropped (--interactive)")]
    drain(link)
    ask("Drop one cube into the tower, then press Enter: ")
    seen = any(s.beam for s in collect_diag(link, 0.5)) or wait_event(link, lambda e: True, 3.0)
    return [
        rest,
        Check(
            "break-beam edge",
            PASS if seen else FAIL,
            "cube seen" if seen else "no beam interruption or event within 3 s",
        ),
    ]


def check_gate(link: TowerLink, ask: Ask | None) -> list[Check]:
    gate = link.snapshot().gate
    at_rest = Check(
        "gate at rest",
        PASS if gate == "closed" else FAIL,
        f"gate reads {gate}" + ("" if gate == "closed" else " (close it, or check the reed)"),
    )
    if ask is None:
        return [at_rest, Check("gate switch", SKIP, "needs the gate opened (--interactive)")]
    drain(link)
    ask("Open the castillo gate, close it again, then press Enter: ")
    opened = wait_event(link, lambda e: isinstance(e, Gate) and e.is_open, 1.0)
    return [
        at_rest,
        Check("gate switch", PASS if opened else FAIL, "opening seen" if opened else "no event"),
    ]


def check_leds(link: TowerLink, ask: Ask | None) -> list[Check]:
    segments = [str(s["name"]) for s in load_json(hardware_dir() / "ledmap.json")["segments"]]
    failed = []
    for name in segments:
        try:
            link.scene({name: (64, 64, 64)})
        except CommandFailed as exc:
            failed.append(f"{name}: {exc.why}")
        time.sleep(0.3 if ask else 0.02)
    link.scene({})
    if failed:
        return [Check("LED chain", FAIL, "; ".join(failed))]
    if ask is None:
        detail = f"{len(segments)} segments accepted by the firmware; not visually confirmed"
        return [Check("LED chain", PASS, detail)]
    seen = ask(f"Did the {len(segments)} segments light one after another? [y/N] ")
    ok = seen.strip().lower().startswith("y")
    return [Check("LED chain", PASS if ok else FAIL, "confirmed" if ok else "not seen")]


def check_baselines(link: TowerLink, diag_answer: dict[str, Any]) -> list[Check]:
    cal = link.calibrate("show").get("cal")
    if not isinstance(cal, dict):
        return [Check("calibration", SKIP, "the firmware did not return its calibration")]
    dark, white = cal.get("dark"), cal.get("white")
    checks = []
    if not (isinstance(dark, list) and isinstance(white, list) and len(dark) == len(white) == 4):
        return [Check("baselines", FAIL, "no dark/white baseline: run `castillo tower calibrate`")]
    if white[3] <= dark[3] * 2 + 16:
        checks.append(Check("baselines", FAIL, f"white clear {white[3]} vs dark {dark[3]}"))
    else:
        checks.append(Check("baselines", PASS, f"dark clear {dark[3]}, white clear {white[3]}"))
    base = diag_answer.get("base")
    if isinstance(base, list) and len(base) == 4:
        drift = abs(float(base[3]) - float(dark[3]))
        ok = drift <= max(16.0, 0.25 * float(white[3]))
        checks.append(
            Check(
                "ambient",
                PASS if ok else FAIL,
                f"empty-chute clear now {base[3]} vs calibrated dark {dark[3]}",
            )
        )
    colours = cal.get("colours")
    count = len(colours) if isinstance(colours, dict) else 0
    checks.append(Check("colours", PASS if count else FAIL, f"{count} colours calibrated"))
    return checks


def run_checks(link: TowerLink, ask: Ask | None) -> list[Check]:
    checks = check_link(link)
    diag_answer = link.command("diag", on=True)
    try:
        samples = collect_diag(link, 1.0)
        checks += check_sensor(diag_answer, samples)
        checks += check_beam(link, samples, ask)
    finally:
        link.diagnostics(False)
    checks += check_gate(link, ask)
    checks += check_leds(link, ask)
    checks += check_baselines(link, diag_answer)
    checks.append(check_frames(link, diag_answer))
    return checks


def check_frames(link: TowerLink, diag_answer: dict[str, Any]) -> Check:
    """What went wrong on the line while the doctor ran: frames the host skipped (valid CRC,
    broken fields: a firmware bug), lines lost to noise, firmware restarts from the REPL."""
    health = link.health()
    device_bad = diag_answer.get("bad_frames")
    detail = (
        f"{health['invalid_frames']} frames broke the protocol, {health['bad_frames']} lines "
        f"garbled towards the host, {device_bad if device_bad is not None else '?'} towards the "
        f"tower, {health['firmware_restarts']} firmware restarts"
    )
    if health["warning"]:
        detail += f" (last: {health['warning']})"
    return Check("frames", FAIL if health["invalid_frames"] else PASS, detail)


def print_report(checks: list[Check], as_json: bool) -> None:
    if as_json:
        print(json.dumps([asdict(c) for c in checks], indent=2))
        return
    width = max(len(c.name) for c in checks)
    for check in checks:
        print(f"{check.status}  {check.name:<{width}}  {check.detail}")
    failed = sum(c.status == FAIL for c in checks)
    skipped = sum(c.status == SKIP for c in checks)
    passed = len(checks) - failed - skipped
    print(f"{passed} passed, {failed} failed, {skipped} skipped")


def cmd_doctor(args: argparse.Namespace) -> int:
    interactive = args.interactive if args.interactive is not None else sys.stdin.isatty()
    try:
        with connected_link(args, durable=False) as link:
            checks = run_checks(link, input if interactive else None)
    except userfiles.UnreadableFile as exc:
        print(f"castillo doctor: {exc}", file=sys.stderr)
        return 2
    print_report(checks, args.json)
    return 1 if any(c.status == FAIL for c in checks) else 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    doctor = subparsers.add_parser("doctor", help="self-test the tower (pass/fail report)")
    add_port_arguments(doctor, ledger=False)
    doctor.add_argument(
        "--interactive",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="ask a person to drop a cube, open the gate, watch the LEDs (default: on a tty)",
    )
    doctor.add_argument("--json", action="store_true", help="print the report as JSON")
    doctor.set_defaults(handler=run_guarded(cmd_doctor))
