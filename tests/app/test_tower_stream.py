"""The whole path of issue 9's report: a device (a protocol-level fake on a pty) sends one
CRC-valid event with `"est": "x"`, through the real serial link into the app's SQLite sink.

Before: the throw checks raised after the commit, the link never acked, the device replayed
the event again and again (32 replays in 8 s), each replay was logged again (49 duplicate
rows in 12 s) and later cubes were never counted. Now the frame costs one frame.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from host.app.session import Session
from host.app.store import Store
from host.app.towers import TowerRuntime
from host.tower.serial_link import SerialTowerLink
from tests.app.conftest import PLAYERS
from tests.link.conftest import FakeTower, wait_for


def test_one_odd_event_costs_one_event_not_the_game(tmp_path: Path) -> None:
    tower = FakeTower(tmp_path, heartbeat_s=0.2)
    store = Store(tmp_path / "castillo.db")
    session = Session(store)
    link = SerialTowerLink(str(tower.path), sink=session.sink)
    session.attach_tower(TowerRuntime("real", link))
    link.start()
    try:
        link.wait_connected(5.0)
        session.new_game({"players": PLAYERS, "mode": "table", "short_game": True})
        odd = tower.event("merged", pulse_us=30000, est="x")
        first, second = tower.drop("purple"), tower.drop("green")
        assert wait_for(lambda: bool(tower.acks) and tower.acks[-1] == second, 5.0)
        time.sleep(1.0)  # replays, if any, would come now
        replays = [c for c in tower.commands if c.get("c") == "replay"]
        assert len(replays) == 1  # the one of the handshake
        active = session.active
        assert active is not None
        assert sorted(c.colour for c in active.checks.seen) == ["green", "purple"]
        with sqlite3.connect(tmp_path / "castillo.db") as raw:
            ledger = [row[0] for row in raw.execute("SELECT entry FROM ledger")]
            tower_rows = raw.execute("SELECT COUNT(*) FROM log WHERE kind = 'tower'").fetchone()
        for seq in (odd, first, second):
            assert sum(f'"seq":{seq},' in entry for entry in ledger) == 1, seq
        assert tower_rows[0] == 4  # the baseline, the skipped event and the two drops
        status = session.tower_status()
        assert status["invalid_frames"] == 1 and status["warning_key"] == "tower.warn.invalid_frame"
    finally:
        session.close()
        store.close()
        tower.close()
