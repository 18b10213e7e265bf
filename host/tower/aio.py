"""asyncio bridge for a `TowerLink` (whose I/O runs on its own thread).

async for message in async_events(link):   # events and status changes, in order
    ...
hello = await asyncio.to_thread(link.hello)  # commands block: run them in a worker thread
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from host.tower.link import LinkMessage, TowerLink


async def async_events(link: TowerLink) -> AsyncIterator[LinkMessage]:
    """Every event and status change of `link` from now on, delivered on the running loop
    (the link thread hands each over with `call_soon_threadsafe`; nothing polls)."""
    loop = asyncio.get_running_loop()
    messages: asyncio.Queue[LinkMessage] = asyncio.Queue()

    def hand_over(message: LinkMessage) -> None:
        loop.call_soon_threadsafe(messages.put_nowait, message)

    link.add_listener(hand_over)
    try:
        while True:
            yield await messages.get()
    finally:
        link.remove_listener(hand_over)
