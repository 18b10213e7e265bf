"""The simulated tower as a `TowerLink`: a `SimTower` (the real firmware in the real MicroPython
unix port, behind a pty) driven through exactly the pyserial path a real Pico uses."""

from __future__ import annotations

from host.tower.ledger import EventSink
from host.tower.serial_link import SerialTowerLink
from host.tower.sim.launcher import SimTower


class SimTowerLink(SerialTowerLink):
    """A link to a simulated tower. With no `sim` given it starts one (with `speed`) and stops
    it on `close()`; `sim` gives tests and the table app the virtual chute, gate and LEDs."""

    def __init__(
        self,
        sim: SimTower | None = None,
        *,
        sink: EventSink | None = None,
        speed: float | None = None,
    ) -> None:
        self._owns_sim = sim is None
        self.sim = sim if sim is not None else SimTower.start(speed=speed)
        super().__init__(self.sim.port, sink=sink)

    def power_cycle(self) -> None:
        """Cut and restore the simulated tower's power: a new boot, counts back to zero."""
        self.sim.reset_device("power")

    def close(self) -> None:
        super().close()
        if self._owns_sim:
            self.sim.stop()
