"""The fake hardware's report channel survives the simulated Ctrl-C.

The launcher emulates the Pico's Ctrl-C with a SIGINT, which can land between any two
statements of the interpreter, the fakes included. A report written in two pieces (header,
then pixels) and cut in between made the launcher read the next report, a watchdog bite, as
the rest of a NeoPixel frame: the bite was lost and the board never restarted
(test_sim_tower.py::test_a_starved_watchdog_resets_the_board, about 1 run in 8 under load).
"""

from __future__ import annotations

import subprocess

from host.tower.sim.launcher import FAKES_DIR, REPORT_HEAD, micropython_path

SCRIPT = """
import time
import _simhw

class Out:
    def __init__(self):
        self.writes = []

    def write(self, data):
        self.writes.append(bytes(data))

hw = _simhw.hw()
hw._out = Out()
hw.now = 1234
hw.report_frame(bytearray([7, 8, 9] * 72))
hw.report("W 5678")
for w in hw._out.writes:
    print(w.hex())
"""


def test_every_report_is_one_write_of_a_whole_record() -> None:
    out = subprocess.run(
        [micropython_path(), "-c", SCRIPT],
        env={"MICROPYPATH": str(FAKES_DIR)},
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    writes = [bytes.fromhex(line) for line in out.stdout.split()]
    assert len(writes) == 2  # one write per report: a signal cannot cut a record in two
    for data, kind in zip(writes, "NW", strict=True):
        head, size = REPORT_HEAD.unpack_from(data)
        assert chr(head) == kind and len(data) == REPORT_HEAD.size + size
    frame = writes[0][REPORT_HEAD.size :]
    assert int.from_bytes(frame[:8], "little") == 1234 and frame[8:] == bytes([7, 8, 9] * 72)
    assert writes[1][REPORT_HEAD.size :] == b"5678"
