"""Device entry point: the castillo tower firmware on a Raspberry Pi Pico.

``make flash`` copies this file, the ``towerfw`` package and the JSON data files (config,
palette, pin map, LED map) to the Pico's root. Ctrl-C (what mpremote sends) or the ``repl``
command leave the main loop for the REPL (on the Pico, Ctrl-C is trapped while the loop runs and
handled between two passes, so it never lands in the middle of counting a cube); the watchdog
(which cannot be stopped) is then fed from a timer so the REPL stays usable.
"""

import sys

import towerfw


def forget_boot_code():
    """Drop the modules only boot uses (the tower's construction, the calibration record's
    parsing, the HAL's setup): their code leaves the heap. The ``cal`` steps import calibration
    again."""
    for name in ("start", "pico_start", "calibration"):
        sys.modules.pop("towerfw." + name, None)
        if hasattr(towerfw, name):
            delattr(towerfw, name)


def main():
    from towerfw import pico_start  # boot-only code: dropped below

    hal, tower = pico_start.build()
    pico_start = None
    forget_boot_code()
    hal.trap_ctrl_c(True)
    try:
        tower.run()
    except KeyboardInterrupt:
        pass
    finally:
        hal.trap_ctrl_c(False)
    hal.keep_watchdog_fed()
    print("castillo: main loop stopped; REPL")


main()
