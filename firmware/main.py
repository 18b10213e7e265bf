"""Device entry point: the castillo tower firmware on a Raspberry Pi Pico.

``make flash`` copies this file, the ``towerfw`` package and the JSON data files (config,
palette, pin map, LED map) to the Pico's root. Ctrl-C (what mpremote sends) or the ``repl``
command leave the main loop for the REPL (on the Pico, Ctrl-C is trapped while the loop runs and
handled between two passes, so it never lands in the middle of counting a cube); the watchdog
(which cannot be stopped) is then fed from a timer so the REPL stays usable.

``resume()`` at the REPL (this module's globals are the REPL's) goes back into the main loop
with the same boot: counts, unacknowledged events and sequence numbers are kept, so a stray
Ctrl-C costs no count. The host link types it when it finds the firmware in the REPL; where
the tower was never built it soft-resets instead.
"""

import sys

import towerfw

tower = None


def forget_boot_code():
    """Drop the modules only boot uses (the tower's construction, the calibration record's
    parsing, the HAL's setup): their code leaves the heap. The ``cal`` steps import calibration
    again."""
    for name in ("start", "pico_start", "calibration"):
        sys.modules.pop("towerfw." + name, None)
        if hasattr(towerfw, name):
            delattr(towerfw, name)


def resume(boot=False):
    """Count: the main loop until Ctrl-C or ``repl``, then the REPL with the watchdog fed.
    From the REPL: count again with the same boot (a soft reset where there is no tower)."""
    if tower is None:
        import machine

        machine.soft_reset()
        return
    hal = tower.hal
    if getattr(hal, "_timer", None) is not None:
        hal._timer.deinit()  # the main loop feeds the watchdog again
    hal.trap_ctrl_c(True)
    try:
        tower.run(boot)
    except KeyboardInterrupt:
        pass
    finally:
        hal.trap_ctrl_c(False)
    hal.keep_watchdog_fed()
    print("castillo: main loop stopped; REPL")


def build():
    global tower
    from towerfw import pico_start  # boot-only code: dropped below

    _, tower = pico_start.build()
    pico_start = None


build()
forget_boot_code()
del build, forget_boot_code  # boot-only: their code leaves the heap too
resume(True)
