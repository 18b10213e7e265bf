"""Find the tower's serial port: a Raspberry Pi Pico (USB 2E8A:0005) running MicroPython.

The Pico's USB serial number is its unique board id, so a known tower can be found again after
it re-enumerates under another device name (/dev/ttyACM0 -> /dev/ttyACM1).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo

from host.paths import hardware_dir

# Set by `castillo tower-sim` users (or tests) to point every command at a port or pyserial URL.
PORT_ENV = "CASTILLO_TOWER_PORT"


class TowerNotFound(Exception):
    """No tower port was found (or several were and none was chosen)."""


@dataclass(frozen=True)
class Candidate:
    device: str
    serial_number: str
    description: str


def tower_usb_id() -> tuple[int, int]:
    """The tower's USB VID:PID, from hardware/pinmap.json."""
    text = json.loads((hardware_dir() / "pinmap.json").read_text())["usb_vid_pid"]
    vid, pid = str(text).split(":")
    return int(vid, 16), int(pid, 16)


def find_towers(
    serial_number: str | None = None,
    comports: Callable[[], Sequence[ListPortInfo]] = list_ports.comports,
) -> list[Candidate]:
    """Every port that looks like a tower (matching `serial_number` when given)."""
    vid, pid = tower_usb_id()
    found = []
    for info in comports():
        if info.vid != vid or info.pid != pid:
            continue
        number = info.serial_number or ""
        if serial_number and number.lower() != serial_number.lower():
            continue
        found.append(Candidate(info.device, number, info.description or ""))
    return sorted(found, key=lambda c: c.device)


def resolve_port(
    port: str | None,
    serial_number: str | None = None,
    comports: Callable[[], Sequence[ListPortInfo]] = list_ports.comports,
) -> str:
    """The port to open: `port` if given, else $CASTILLO_TOWER_PORT, else the one tower found."""
    if port:
        return port
    from_env = os.environ.get(PORT_ENV, "")
    if from_env:
        return from_env
    towers = find_towers(serial_number, comports)
    if not towers:
        wanted = f" with serial number {serial_number}" if serial_number else ""
        raise TowerNotFound(
            f"no tower found (no USB serial device 2E8A:0005{wanted}). Plug the tower in, "
            f"pass --port (a path or pyserial URL), or start a simulated tower with "
            f"`castillo tower-sim` and use the port it prints."
        )
    if len(towers) > 1:
        listing = ", ".join(f"{t.device} (serial {t.serial_number})" for t in towers)
        raise TowerNotFound(f"several towers found: {listing}; choose one with --port")
    return towers[0].device
