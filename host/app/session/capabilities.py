"""The capabilities a game declares on its adapter (`tower`, `lights`), as the session uses them:
each one a few hooks the pieces call, and nothing for a game without it.

- `react(active, event, at)`: an engine change's events (host/app/session/events.py);
- `refusal(active, action)`: an action blocked until a check is settled, (code, reason);
- `view(active, role)`: what the capability adds to a client's `state`.
"""

from __future__ import annotations

from typing import Any

from engine.core.actions import Action
from host.app.session.model import CHANGED, ActiveGame, Event, Role
from host.tower.checks import CheckError, Checks


class Capability:
    """A capability's hooks; each does nothing unless the capability says otherwise."""

    def react(self, active: ActiveGame, event: Event, at: float) -> None:
        return None

    def refusal(self, active: ActiveGame, action: Action) -> tuple[str, str] | None:
        return None

    def view(self, active: ActiveGame, role: Role) -> dict[str, Any]:
        return {}


def throw_checks(active: ActiveGame) -> Checks:
    """The active game's throw checks (only a game that declares the tower has them)."""
    if active.checks is None:
        raise CheckError("this game has no throw checks")
    return active.checks


class ThrowChecks(Capability):
    """The tower: its throw checks take the game's facts after every change, and an open
    issue (or a scoring's castillo count not checked yet) blocks play until it is settled."""

    def react(self, active: ActiveGame, event: Event, at: float) -> None:
        if event.kind == CHANGED:
            throw_checks(active).sync_game(active.adapter.tower_facts(active.game), at)

    def refusal(self, active: ActiveGame, action: Action) -> tuple[str, str] | None:
        checks = throw_checks(active)
        if checks.blocked:
            return "blocked", f"resolve first: {checks.issues[0].text}"
        waits = active.adapter.waits_for_scoring_check(action)
        if waits and checks.waiting_for_scoring_check():
            container = checks.words.container  # the game's word (El Grande: the castillo)
            reason = (
                f"the {container} count is being checked against the tower: try again in a moment"
            )
            return "blocked", reason
        return None

    def view(self, active: ActiveGame, role: Role) -> dict[str, Any]:
        """The open throws and issues every client sees (never a count)."""
        return {"checks": throw_checks(active).public()}


class BoardLights(Capability):
    """The board's region lights: what they show comes from the game's adapter
    (`lights_state`), sent by the session's tower port after every change."""


def no_checks() -> dict[str, Any]:
    """What a game without the throw checks shows of them: disabled, nothing open (the shape
    of `Checks.public()`, without building any)."""
    return {
        "enabled": False,
        "blocked": False,
        "scoring_check": False,
        "open": [],
        "issues": [],
        "warnings": {},
        "gate_open": None,
    }


THROW_CHECKS = ThrowChecks()
BOARD_LIGHTS = BoardLights()


def capabilities(active: ActiveGame) -> tuple[Capability, ...]:
    """The capabilities the active game's adapter declares."""
    adapter = active.adapter
    declared: list[Capability] = []
    if adapter.tower:
        declared.append(THROW_CHECKS)
    if adapter.lights:
        declared.append(BOARD_LIGHTS)
    return tuple(declared)
