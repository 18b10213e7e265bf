"""Which tower the table app talks to: the real one (a Pico found by USB id, or a given port),
the simulated one (the real firmware in MicroPython behind a pty) with its virtual dropper, or
none (throw checks off)."""

from __future__ import annotations

import functools
import itertools
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from host.tower.autodetect import PORT_ENV, find_towers
from host.tower.ledger import EventSink
from host.tower.link import TowerLink
from host.tower.serial_link import SerialTowerLink

log = logging.getLogger("host.app.towers")

HOW = ("single", "handful", "merged", "grande", "stuck")
MAX_CUBES = 30  # one dropper request; a handful is at most a few


class DropperError(Exception):
    """The dropper cannot do that (not simulated, bad request)."""


class BadDrop(DropperError):
    """A request to the simulated tower that no tower could do: its reason names the field."""


@functools.cache
def sim_colours() -> tuple[str, ...]:
    """The cube colours the simulated sensor can show (host/tower/sim/spectra.json)."""
    from host.tower.sim.sensor_model import load_spectra

    colours = load_spectra()["colours"]
    assert isinstance(colours, dict)
    return tuple(colours)


def check_drop(cubes: object, how: object) -> tuple[list[str], str]:
    """A dropper request's `cubes` and `how`, checked (BadDrop names the bad field): 1 to
    MAX_CUBES colour names the simulated sensor knows, and one of HOW."""
    if not isinstance(how, str) or how not in HOW:
        raise BadDrop(f"'how' must be one of {', '.join(HOW)}")
    if not isinstance(cubes, list | tuple) or not all(isinstance(c, str) for c in cubes):
        raise BadDrop("'cubes' must be a list of colour names")
    if not 1 <= len(cubes) <= MAX_CUBES:
        raise BadDrop(f"'cubes' must list 1 to {MAX_CUBES} cubes, not {len(cubes)}")
    known = sim_colours()
    unknown = sorted({c for c in cubes if c not in known})
    if unknown:
        shown = ", ".join(repr(c[:20]) for c in unknown[:3])
        raise BadDrop(f"'cubes': no such colour {shown} (known: {', '.join(known)})")
    return list(cubes), how


@dataclass
class TowerRuntime:
    mode: str  # "real", "sim" or "none"
    link: TowerLink | None = None
    sim: Any = None  # host.tower.sim.launcher.SimTower (imported lazily: tests without sim)

    def __post_init__(self) -> None:
        self._seeds = itertools.count(1)
        self._drop_lock = threading.Lock()

    @property
    def simulated(self) -> bool:
        return self.mode == "sim" and self.sim is not None

    def status(self) -> dict[str, Any]:
        link = self.link
        status: dict[str, Any] = {
            "mode": self.mode,
            "state": link.state.value if link is not None else "none",
            "port": link.port if link is not None else "",
        }
        if link is not None:
            health = link.health()
            status["invalid_frames"] = health["invalid_frames"]
            status["firmware_restarts"] = health["firmware_restarts"]
            if health["warning"]:
                status["warning"] = health["warning"]
                status["warning_key"] = f"tower.warn.{health['warning_kind']}"
                if health.get("warning_params"):  # e.g. an interruption's from/to (epoch s)
                    status["warning_params"] = dict(health["warning_params"])
        return status

    def interruptions(self) -> list[tuple[float, float]]:
        """The intervals (wall-clock seconds, from, to) the tower's firmware was not counting,
        as the link reported them since it started (a few of the latest)."""
        if self.link is None:
            return []
        gaps = self.link.health().get("interruptions") or []
        return [(float(gap[0]), float(gap[1])) for gap in gaps]

    def drop(self, cubes: Sequence[str], how: str = "single") -> None:
        """Throw virtual cubes through the simulated chute (the firmware senses them); a bad
        request is refused (BadDrop) before the tower is asked. `grande` and `stuck` throw the
        first cube."""
        cubes, how = check_drop(cubes, how)
        if not self.simulated:
            raise DropperError("the dropper needs the simulated tower (castillo run --sim)")
        from host.tower.sim.dropper import Dropper, render
        from host.tower.sim.sensor_model import SensorModel

        with self._drop_lock:
            seed = next(self._seeds)
        dropper = Dropper(seed=seed)
        if how == "single":
            for colour in cubes:
                dropper.single(colour, gap_us=250_000)
        elif how == "handful":
            dropper.singles(len(cubes), 12.0, list(cubes))
        elif how == "merged":
            dropper.merged(list(cubes))
        elif how == "grande":
            dropper.grande(cubes[0])
        else:
            dropper.stuck(cubes[0])
        rows = render(dropper.passages, SensorModel(seed=seed))
        self.sim.play([row.raw() for row in rows])

    def set_gate(self, is_open: bool) -> None:
        if not isinstance(is_open, bool):
            raise BadDrop("'open' must be true or false")
        if not self.simulated:
            raise DropperError("the gate switch can be set only on the simulated tower")
        self.sim.set_gate(is_open)

    def close(self) -> None:
        if self.link is not None:
            self.link.close()


def open_tower(choice: str, sink: EventSink) -> TowerRuntime:
    """`choice`: "auto" (a plugged-in tower, else the simulation when MicroPython is there, else
    none), "sim", "none", or a port /
    pyserial URL. The link starts connecting in the background."""
    import os

    if choice == "none":
        return TowerRuntime("none")
    auto = choice == "auto"
    if auto:
        choice = "real" if os.environ.get(PORT_ENV) or find_towers() else "sim"
    if choice == "sim":
        from host.tower.sim.launcher import micropython_path
        from host.tower.sim_link import SimTowerLink

        if auto:
            try:
                micropython_path()
            except FileNotFoundError as exc:
                # an installed kit (a Raspberry Pi) has no simulator: play without a tower
                # until one is plugged in and the app restarted, rather than not at all
                log.warning("no tower plugged in and no simulator (%s): throw checks off", exc)
                return TowerRuntime("none")
        sim_link = SimTowerLink(sink=sink)
        sim_link.start()
        return TowerRuntime("sim", sim_link, sim_link.sim)
    port = None if choice == "real" else choice
    link = SerialTowerLink(port, sink=sink)
    link.start()
    return TowerRuntime("real", link)
