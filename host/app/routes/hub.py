"""The connected WebSocket clients: session changes (from any thread) fan out on the event
loop; each client gets its messages in order from one sender task, and a fresh `state` (its own
view) after every change. Also the timer that turns run-out throw windows into issues."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import WebSocket

from host.app.routes.common import SERVER_FAILED, error_message, log
from host.app.session import Role, Session

FORBIDDEN_CLOSE = 4403
DEADLINE_POLL_S = 0.5  # the throw-window timer wakes at least this often


class Client:
    """One WebSocket: messages go out in order from one sender task."""

    def __init__(
        self, socket: WebSocket, role: Role, token: str = "", game_id: int | None = None
    ) -> None:
        self.socket = socket
        self.role = role
        self.token = token  # a seat's token: checked again before every message (reissue)
        self.game_id = game_id  # a seat's link belongs to this game only
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.sent_rev = -1

    def push(self, message: dict[str, Any] | None) -> None:
        """A message, or None for "send the current state"."""
        self.queue.put_nowait(message)


class Hub:
    """The connected clients; session changes (from any thread) fan out on the event loop."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.clients: set[Client] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.last_prompt: dict[str, Any] | None = None

    def on_change(self, messages: list[dict[str, Any]]) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop is shutting down
            loop.call_soon_threadsafe(self._fanout, messages)

    def _fanout(self, messages: list[dict[str, Any]]) -> None:
        try:
            prompt = self._prompt_message()
        except Exception:  # each client's own state still goes out (and reports the failure)
            log.exception("the table's prompt could not be built")
            prompt = None
        for client in list(self.clients):
            for message in messages:
                if message.get("type") in ("scoring", "tower", "network"):
                    client.push(message)
            if prompt is not None:
                client.push(prompt)
            client.push(None)

    def _prompt_message(self) -> dict[str, Any] | None:
        prompt = self.session.table_prompt()  # not the whole table state
        if prompt == self.last_prompt:
            return None
        self.last_prompt = prompt
        return {"type": "prompt", **prompt}

    async def run_client(self, client: Client) -> None:
        """Send the client's queue until it disconnects. A seat whose link was reissued, or
        whose game is no longer the active one, gets nothing more: its socket is closed with
        4403 and the reason (`replaced`, `game_changed`) the page shows."""
        session = self.session
        while True:
            message = await client.queue.get()
            if message is None and not client.queue.empty() and None in client.queue._queue:  # type: ignore[attr-defined]
                continue  # a newer state is queued behind: send that one
            try:
                with session.lock:  # the check and the view together: no reissue in between
                    revoked = None
                    if client.role.colour:
                        revoked = session.seat_link_problem(client.token, client.game_id)
                    wanted = message is None and not revoked
                    state = session.state_for(client.role) if wanted else None
            except Exception:  # a view that fails is a server error, not a silent socket
                log.exception("the state for a %s could not be built", client.role.kind)
                await client.socket.send_json(error_message(SERVER_FAILED))
                continue
            if revoked:
                await client.socket.close(FORBIDDEN_CLOSE, revoked)
                return
            if state is not None:
                if state["rev"] == client.sent_rev:
                    continue
                client.sent_rev = state["rev"]
                message = {"type": "state", "rev": state["rev"], "state": state}
            await client.socket.send_json(message)


async def deadline_loop(session: Session) -> None:
    """Throw windows that run out become issues: wake at the next deadline."""
    while True:
        deadline = session.next_deadline()
        wait = DEADLINE_POLL_S
        if deadline is not None:
            wait = min(wait, max(0.0, deadline - session.clock()) + 0.01)
        await asyncio.sleep(wait)
        if deadline is not None and deadline <= session.clock():
            await asyncio.to_thread(session.run_due)
