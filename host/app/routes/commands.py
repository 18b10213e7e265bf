"""One client command, the same over HTTP and the WebSocket: an action in notation, undo, a
hint, the language; for the table also confirming a check, resolving an issue, and the
simulated tower's chute and gate. Returns the answer fields of its ack."""

from __future__ import annotations

from typing import Any

from host.app.api_bodies import RESOLUTIONS
from host.app.routes.common import run
from host.app.session import LANGUAGES, ActionError, Role, Session
from host.app.towers import BadDrop, check_drop


async def command(session: Session, role: Role, raw: dict[str, Any]) -> dict[str, Any]:
    """One client command (HTTP or WebSocket); the answer fields of its ack."""
    kind = raw.get("type")
    as_colour = raw.get("as")
    if as_colour is not None and not isinstance(as_colour, str):
        raise ActionError("bad_message", "'as' must be a colour")
    if kind == "action":
        text = raw.get("text")
        if not isinstance(text, str) or not text.strip():
            raise ActionError("bad_message", "an action needs its 'text' in notation")
        return {"rev": await run(session.act, role, text, as_colour)}
    if kind == "undo":
        undone, rev = await run(session.undo, role, as_colour)
        return {"rev": rev, "undone": undone}
    if kind == "hint":
        return {"hint": await run(session.hint, role)}
    if kind == "language":
        lang = raw.get("lang")
        if not isinstance(lang, str) or lang not in LANGUAGES:
            raise ActionError("bad_message", f"'lang' must be one of {', '.join(LANGUAGES)}")
        await run(session.set_language, role, lang)
        return {"rev": session.rev}
    if role.kind != "table":
        raise ActionError("forbidden", f"'{kind}' is for the table")
    return await _table_command(session, kind, raw)


async def _table_command(session: Session, kind: Any, raw: dict[str, Any]) -> dict[str, Any]:
    """A command only the table may send."""
    if kind == "confirm":
        colours = raw.get("colours")
        if not isinstance(colours, list) or not all(isinstance(c, str) for c in colours):
            raise ActionError("bad_message", "'colours' must be a list of colours")
        return {"rev": await run(session.confirm, whole_id(raw.get("check"), "check"), colours)}
    if kind == "resolve":
        issue, how = whole_id(raw.get("issue"), "issue"), raw.get("how")
        if not isinstance(how, str) or how not in RESOLUTIONS:
            raise ActionError("bad_message", f"'how' must be one of {', '.join(RESOLUTIONS)}")
        note = raw.get("note", "")
        if not isinstance(note, str):
            raise ActionError("bad_message", "'note' must be text")
        return {"rev": await run(session.resolve, issue, how, note)}
    if kind == "drop":  # checked here: a bad request is 400 with or without a tower
        try:
            cubes, how = check_drop(raw.get("cubes"), raw.get("how", "single"))
        except BadDrop as exc:
            raise ActionError("bad_message", str(exc)) from None
        await run(session.drop, cubes, how)
        return {}
    if kind == "gate":
        is_open = raw.get("open")
        if not isinstance(is_open, bool):
            raise ActionError("bad_message", "'open' must be true or false")
        await run(session.set_gate, is_open)
        return {}
    raise ActionError("bad_message", f"unknown message type {kind!r}")


def whole_id(value: Any, field: str) -> int:
    """An issue or check id: a whole number (a digit string is accepted too)."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**63:
        raise ActionError("bad_message", f"'{field}' must be a whole number (an id)")
    return value
