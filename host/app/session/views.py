"""Each client's view: the `state` object (docs/table-api.md) with only what its role may see,
its own prompt and the moves it may make.

Each role's game view is computed once per revision (`ViewCache`): a broadcast after a change
builds the table's and each seat's view once, however many clients (and `GET` requests) ask for
it. Every caller gets a fresh top-level dict (the tower status and the revision are added fresh
to it); the values inside are shared with the cache, so no caller may mutate them (the routes
copy what they edit).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.protocol import CHANCE
from host.app.session.capabilities import capabilities, no_checks
from host.app.session.computers import computer_view
from host.app.session.model import ActiveGame, Role
from host.app.session.seats import seats_view

if TYPE_CHECKING:
    from host.app.session.hub import Session


class ViewCache:
    """The game views of the current revision, one per (role, seat, language, game): a new
    revision (every change, `Session._changed`) drops them all."""

    def __init__(self) -> None:
        self._rev: int | None = None
        self._views: dict[tuple[Any, ...], dict[str, Any]] = {}

    def get(self, session: Session, active: ActiveGame, role: Role) -> dict[str, Any]:
        if self._rev != session.rev:
            self._rev, self._views = session.rev, {}
        lang = session.table_lang
        seat = active.seats.get(role.colour) if role.colour else None
        key = (role.kind, role.colour, seat.lang if seat else None, lang, id(active), active.id)
        view = self._views.get(key)
        if view is None:
            view = self._views[key] = _game_view(active, role, lang)
        return view


def state_for(session: Session, role: Role) -> dict[str, Any]:
    """The `state` object for one client (docs/table-api.md): only what it may see (a fresh
    top-level dict; what it holds is shared and must not be mutated)."""
    with session.lock:
        tower = session.tower
        base: dict[str, Any] = {
            "role": role.kind,
            "seat": role.colour,
            "rev": session.rev,
            "sim": bool(tower is not None and tower.simulated),
            "tower": session.tower_status(),
        }
        active = session.active
        if active is None:
            base.update(game_id=None, game=None, lang=session.table_lang, prompt=None)
            base.update(highlights=[], legal=[], acting_as=None, can_undo=False, seats=[])
            base.update(checks=None, checklist=None)
            return base
        base.update(session.views.get(session, active, role))
        return base


def table_prompt(session: Session) -> dict[str, Any]:
    """The table's prompt and highlights alone (as in its `state`), without the rest."""
    with session.lock:
        active = session.active
        if active is None:
            return {"prompt": None, "highlights": []}
        prompt = active.adapter.prompt(active.game, active.checks)
        return {"prompt": prompt.to_json(), "highlights": [h.to_json() for h in prompt.highlights]}


def _game_view(active: ActiveGame, role: Role, table_lang: str) -> dict[str, Any]:
    game, adapter = active.game, active.adapter
    viewer = active.player(role.colour) if role.kind == "seat" and role.colour else None
    lang = table_lang
    if viewer is not None and role.colour in active.seats:
        lang = active.seats[role.colour].lang
    prompt = adapter.prompt(game, active.checks)
    legal, acting_as, can_undo = _controls(active, role, viewer)
    own = adapter.seat_prompt(game, viewer, legal) if viewer is not None else None
    view = {
        "game_id": active.id,
        "game_type": active.spec.id,
        "lang": lang,
        "game": game.view(viewer),
        "prompt": (own or prompt).to_json(),
        "highlights": [h.to_json() for h in prompt.highlights],
        "legal": legal,
        "acting_as": acting_as,
        "can_undo": can_undo,
        "checks": no_checks(),
        "log": active.public_log(role.colour if role.kind == "seat" else None),
        "seats": seats_view(active, role),
        "options": adapter.options_view(game),
        "checklist": adapter.setup_checklist(game) if role.kind == "table" else None,
        "computer": computer_view(active),
    }
    for capability in capabilities(active):  # the tower adds its throw checks
        view.update(capability.view(active, role))
    return view


def _controls(
    active: ActiveGame, role: Role, viewer: int | None
) -> tuple[list[str], str | None, bool]:
    """The moves this client may enter now, for whom, and whether it may undo."""
    game, adapter = active.game, active.adapter
    actors = game.current_players()
    if viewer is not None:
        colour = active.names[viewer]
        chance = adapter.seat_chance(game, colour)
        if chance is not None:
            return chance, colour, False
        legal = [str(a) for a in game.legal_actions(viewer)] if viewer in actors else []
        return legal, (colour if legal else None), game.can_undo(viewer)
    if len(actors) != 1:
        return [], None, False
    player = actors[0]
    legal = [str(a) for a in game.legal_actions(player) if not adapter.not_at_table(a)]
    name = active.name_of(player)
    last = game.history[-1][0] if game.history else CHANCE
    return legal, name, last >= 0 and game.can_undo(last)
