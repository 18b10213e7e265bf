"""Device entry point: the castillo tower firmware on a Raspberry Pi Pico.

``make flash`` copies this file, the ``towerfw`` package and the JSON data files (config,
palette, pin map, LED map) to the Pico's root. Ctrl-C (what mpremote sends) or the ``repl``
command leave the main loop for the REPL (on the Pico, Ctrl-C is trapped while the loop runs and
handled between two passes, so it never lands in the middle of counting a cube); the watchdog
(which cannot be stopped) is then fed from a timer so the REPL stays usable.
"""

import json

import micropython
from towerfw import app
from towerfw.hal_pico import PicoHal


def load(name):
    for prefix in ("", "hardware/", "firmware/"):
        try:
            with open(prefix + name) as f:
                return json.load(f)
        except OSError:
            pass
    raise OSError("missing data file " + name)


def main():
    # room for the traceback of an exception raised inside the beam interrupt handler
    reserve = getattr(micropython, "alloc_emergency_exception_buf", None)
    if reserve is not None:
        reserve(100)
    ledmap = load("ledmap.json")
    hal = PicoHal(load("pinmap.json"), ledmap)  # the pin map is not kept: heap is scarce
    cal_text = hal.load_text(app.CAL_FILE)
    config = load("config.json")
    palette = load("palette.json")
    config.pop("note", None)  # the files' notes for people would stay in the heap
    palette.pop("note", None)
    tower = app.Tower(hal, config, palette, ledmap, cal_text)
    ledmap = cal_text = config = palette = None  # the tower keeps what it needs of them
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
