"""The log lines every client holds (docs/table-api.md, `state.log`): each step's line (an
`action` or `undo` line) says the step as the engine does, `key` its verb and `params` each
argument by the verb table's name; the table's are the public's (its `text` their notation);
a seat's are the same lines, numbered alike, and differ only where the public's hide a secret
argument of that seat's own step (a step it took, or a card dealt to it)."""

from __future__ import annotations

from typing import Any

from engine.core.spec import GameSpec

STEP_LINES = ("action", "undo")


def check_log_lines(spec: GameSpec, states: dict[str, dict[str, Any]], where: str) -> None:
    """`states`: each client's state by name ("table" and each seat's colour)."""
    verbs = spec.verbs
    public = states["table"].get("log") or []
    for line in public:
        if line["kind"] not in STEP_LINES:
            assert "key" not in line and "params" not in line, f"{where}: {line}"
            continue
        verb = verbs[line["key"]]
        assert list(line["params"]) == list(verb.params), f"{where}: {line}"
        assert verbs.text(line) == line["text"], f"{where}: the text is not the line's: {line}"
    for name, state in states.items():
        if name == "table":
            continue
        log = state.get("log") or []
        assert [_but_params(line) for line in log] == [_but_params(line) for line in public], (
            f"{where}: {name}'s log is not the table's"
        )
        for mine, theirs in zip(log, public, strict=True):
            if mine.get("params") == theirs.get("params"):
                continue
            own = mine["actor"] == name or name in mine["params"].values()
            assert own, f"{where}: {name} is shown another's secret: {mine}"
            for key, value in mine["params"].items():
                assert theirs["params"][key] in (value, None), f"{where}: {mine} {theirs}"


def _but_params(line: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in line.items() if k != "params"}
