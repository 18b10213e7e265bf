"""Calibration: steps over the protocol, flash only on `save`, round trip through a reboot."""

from __future__ import annotations

from functools import partial

from towerfw import calibration

from host.tower.sim.dropper import Dropper
from tests.firmware.conftest import Rig


def test_canonical_form_and_hash_are_order_independent() -> None:
    a = {"v": 1, "dark": [1.0, 2, 3, 4], "colours": {"x": {"n": 1, "raw": [1, 2, 3, 4]}}}
    b = {"colours": {"x": {"raw": [1, 2, 3, 4], "n": 1}}, "dark": [1.0, 2, 3, 4], "v": 1}
    assert calibration.canonical(a) == calibration.canonical(b)
    assert calibration.cal_hash(a) == calibration.cal_hash(b)
    assert calibration.from_json("not json") is None
    assert calibration.from_json('{"v": 99}') is None


def test_calibrate_save_and_reload_after_reboot() -> None:
    rig = Rig()
    assert rig.cmd("cal", step="dark")["t"] == "ok"
    for colour in ("purple", "green"):
        assert rig.cmd("cal", step="sample", colour=colour)["t"] == "ok"
        rig.drop(partial(Dropper.singles, n=3, rate_hz=4.0, colours=[colour]))
        assert rig.cmd("cal", step="end")["t"] == "ok"
    cal_events = [e for e in rig.events() if e["k"] == "cal"]
    assert [e["got"] for e in cal_events] == [1, 2, 3, 1, 2, 3]
    assert all(e["n"]["purple"] == 0 for e in cal_events)  # calibration cubes are not counted
    assert rig.hal.files == {}  # nothing written before `save`
    assert rig.cmd("cal", step="save")["t"] == "err"  # a cube passed less than 0.5 s ago
    rig.run_us(600_000)
    saved = rig.cmd("cal", step="save")
    assert saved["t"] == "ok"
    text = rig.hal.files["cal.json"]
    shown = rig.cmd("cal", step="show")
    assert shown["hash"] == saved["hash"] and shown["cal"]["colours"]["green"]["n"] == 3

    again = Rig(cal_text=text)
    assert again.read()[0]["cal"] == saved["hash"]
    again.drop(lambda d: d.singles(5, 5.0, ["green"]))
    assert [e.get("c") for e in again.events()] == ["green"] * 5


def test_save_is_refused_while_the_chute_is_busy() -> None:
    rig = Rig()
    rig.hal.add_rows([(0, 300, 200, 100, 600, 1)])
    rig.run_us(5000)
    answer = rig.cmd("cal", step="save")
    assert answer["t"] == "err" and "busy" in answer["why"]
    assert rig.hal.files == {}


def test_unknown_colour_and_step_are_errors() -> None:
    rig = Rig()
    assert rig.cmd("cal", step="sample", colour="chartreuse")["t"] == "err"
    assert rig.cmd("cal", step="bake")["t"] == "err"
