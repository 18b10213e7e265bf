"""The asyncio bridge delivers link events on the event loop."""

from __future__ import annotations

import asyncio

from host.tower.aio import async_events
from host.tower.events import TowerEvent
from host.tower.serial_link import SerialTowerLink
from tests.link.conftest import FakeTower, RecordingSink


def test_async_events_yield_events_in_order(fake_tower: FakeTower) -> None:
    async def scenario() -> list[int]:
        with SerialTowerLink(str(fake_tower.path), sink=RecordingSink()) as link:
            await asyncio.to_thread(link.wait_connected, 3.0)
            seqs: list[int] = []
            stream = async_events(link)
            first = asyncio.ensure_future(anext(stream))
            await asyncio.sleep(0.05)  # the listener is registered once the generator runs
            for colour in ("red", "blue", "red"):
                fake_tower.drop(colour)
            message = await asyncio.wait_for(first, 3.0)
            while True:
                if isinstance(message, TowerEvent):
                    seqs.append(message.seq)
                if len(seqs) == 3:
                    break
                message = await asyncio.wait_for(anext(stream), 3.0)
            await stream.aclose()
            assert link._listeners == []
            return seqs

    assert asyncio.run(scenario()) == [1, 2, 3]
