"""Throw cubes into the simulated tower's restart window and sort every one into counted, warned
(an interruption the link reported covers its throw) or lost (neither). Shared by the regression
tests (tests/sim/test_restart_window.py) and usable alone: ``python -m tests.sim.restart_window``.

A try: the link is connected and idle; a trigger reaches the device (a stray Ctrl-C, Ctrl-C then
Ctrl-D at the REPL, a board soft reset, a forged `repl` command); ``delay`` seconds later one cube
is thrown; once the link is connected again and quiet, the cube is counted when the ledger's
total grew by one, warned when one of the link's reported interruptions covers the throw time.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from towerfw.codec import encode

from host.tower.events import LinkState, LinkStatus
from host.tower.link import LinkMessage
from host.tower.sim.launcher import SimTower
from host.tower.sim_link import SimTowerLink

TRIGGERS = ("ctrl_c", "ctrl_c_ctrl_d", "soft_reset", "forged_repl")
SETTLE_S = 1.5  # connected and no status change for this long: the try is over
TRY_TIMEOUT_S = 20.0


@dataclass
class Outcome:
    trigger: str
    delay: float
    counted: bool
    warned: bool
    left_connected: bool  # a status other than `connected` was reported after the trigger
    states: list[str] = field(default_factory=list)

    @property
    def lost(self) -> bool:
        return not self.counted and not self.warned


def trigger(sim: SimTower, link: SimTowerLink, kind: str) -> None:
    if kind == "ctrl_c":
        sim.inject(b"\x03")
    elif kind == "ctrl_c_ctrl_d":
        sim.inject(b"\x03\x04")  # a terminal user: stop the firmware, then soft-reset it
    elif kind == "soft_reset":  # the board resets (it is gone `reboot_s`): do not wait for it
        threading.Thread(target=sim.reset_device, args=("soft",), daemon=True).start()
    elif kind == "forged_repl":
        sim.inject(encode({"t": "cmd", "c": "repl", "id": 7}))
    else:
        raise ValueError(kind)


def _interruptions(link: SimTowerLink) -> list[tuple[float, float]]:
    health: dict[str, Any] = link.health()
    return [(float(a), float(b)) for a, b in health.get("interruptions", [])]


def one_try(sim: SimTower, link: SimTowerLink, kind: str, delay: float) -> Outcome:
    link.wait_connected(TRY_TIMEOUT_S)
    states: list[str] = []
    last_change = [time.monotonic()]
    lock = threading.Lock()

    def listen(message: LinkMessage) -> None:
        if isinstance(message, LinkStatus):
            with lock:
                states.append(message.state.value)
                last_change[0] = time.monotonic()

    before = sum(v for k, v in link.totals().items() if k == "red")
    link.add_listener(listen)
    try:
        trigger(sim, link, kind)
        time.sleep(delay)
        thrown_at = time.time()
        sim.drop("red")
        deadline = time.monotonic() + TRY_TIMEOUT_S
        while time.monotonic() < deadline:
            time.sleep(0.05)
            with lock:
                quiet = time.monotonic() - last_change[0] > SETTLE_S
            if quiet and link.state is LinkState.CONNECTED:
                break
        else:
            raise TimeoutError(f"{kind} +{delay:.2f} s: the link did not settle")
    finally:
        link.remove_listener(listen)
    after = link.totals().get("red", 0)
    warned = any(a <= thrown_at <= b for a, b in _interruptions(link))
    return Outcome(
        kind,
        delay,
        counted=after == before + 1,
        warned=warned,
        left_connected=any(s != "connected" for s in states),
        states=states,
    )


def run(kind: str, delays: list[float], reboot_s: float = 0.6) -> list[Outcome]:
    outcomes = []
    sim = SimTower.start(reboot_s=reboot_s)
    try:
        with SimTowerLink(sim) as link:
            link.wait_connected(TRY_TIMEOUT_S)
            for delay in delays:
                outcomes.append(one_try(sim, link, kind, delay))
    finally:
        sim.stop()
    return outcomes


def spread(n: int, span: float = 1.0) -> list[float]:
    return [round(span * i / (n - 1), 3) for i in range(n)]


if __name__ == "__main__":
    import os
    import sys

    kinds = sys.argv[1:] or list(TRIGGERS)
    for kind in kinds:
        results = run(kind, spread(int(os.environ.get("TRIES", "11"))))
        for o in results:
            print(kind, o.delay, "counted" if o.counted else "", "warned" if o.warned else "",
                  "LOST" if o.lost else "", o.states)  # fmt: skip
        print(
            f"{kind}: {len(results)} tries, counted {sum(o.counted for o in results)}, "
            f"warned {sum(o.warned and not o.counted for o in results)}, "
            f"lost {sum(o.lost for o in results)}"
        )
