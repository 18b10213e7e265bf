"""A game's verb table: every fact about each verb, in one place.

Notation (arity, which arguments name a seat or an area), secrecy (which arguments stay hidden
from the other players and in the public log), undo barriers, chance steps, the verbs a player
enters only on their own device, and the groups prompts and the UI sort verbs into are all
derived from it; nothing else in a game lists verbs.

>>> table = VerbTable([Verb("deal", ("seat", "card"), chance=True, secret_from=1),
...                    Verb("take", ("number",), group="turn")])
>>> table.parse("  take   3 ")
Action(kind='take', arg='3', arg2='')
>>> table.redact(table.parse("deal purple sun"))
'deal purple ?'
>>> table.line(table.parse("deal purple sun"))
{'key': 'deal', 'params': {'seat': 'purple', 'card': None}}
>>> table.text(table.line(table.parse("deal purple sun"), shown=True))
'deal purple sun'
>>> table.notation(table.parse("deal purple sun"))  # the same text, without the line
'deal purple ?'
>>> sorted(table.chance)
['deal']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.core.actions import Action
from engine.core.errors import NotationError

HIDDEN = "?"  # what the public sees of a secret argument


@dataclass(frozen=True)
class Verb:
    """One verb. `args`: the kind of each argument ("seat", "area", "card", "number", "deck",
    … : a game's own words; "seat" and "area" arguments are canonicalised by the game)."""

    name: str
    args: tuple[str, ...] = ()
    help: str = ""
    chance: bool = False  # a chance outcome: entered at the table or drawn by the dealer
    secret_from: int | None = None  # arguments from this index on are hidden from the others
    undo_barrier: bool = False  # commits something public or reveals something: never undone
    seat_only: bool = False  # entered on the player's own device, never at the shared screen
    group: str = ""  # the prompt/UI group ("chance" for chance verbs)
    steps: tuple[str, ...] = ()  # the pending steps (frames) this verb answers
    tags: frozenset[str] = frozenset()  # game-specific facts (rules read them by name)
    names: tuple[str, ...] = ()  # the arguments' names in a log line (default: their kinds)

    @property
    def arity(self) -> int:
        return len(self.args)

    @property
    def params(self) -> tuple[str, ...]:
        """Each argument's name in a log line's `params`: `names`, else its kind (a "-" as
        "_": `card-or-modifier` is `card_or_modifier`)."""
        return self.names or tuple(kind.replace("-", "_") for kind in self.args)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "args": list(self.args),
            "params": list(self.params),
            "help": self.help,
            "chance": self.chance,
            "secret_from": self.secret_from,
            "undo_barrier": self.undo_barrier,
            "seat_only": self.seat_only,
            "group": self.group,
            "steps": list(self.steps),
            "tags": sorted(self.tags),
        }


class VerbTable:
    """The verbs of one game and everything derived from them (read-only)."""

    def __init__(self, verbs: Iterable[Verb]) -> None:
        self.verbs: dict[str, Verb] = {}
        for verb in verbs:
            if verb.name in self.verbs:
                raise ValueError(f"verb {verb.name!r} is listed twice")
            if verb.secret_from is not None and not 0 <= verb.secret_from < verb.arity:
                raise ValueError(f"verb {verb.name!r}: secret_from outside its arguments")
            if len(set(verb.params)) != verb.arity:
                raise ValueError(f"verb {verb.name!r}: its arguments need distinct names")
            self.verbs[verb.name] = verb
        listed = self.verbs.values()
        self.arity: dict[str, int] = {v.name: v.arity for v in listed}
        self.chance = frozenset(v.name for v in listed if v.chance)
        self.secret = frozenset(v.name for v in listed if v.secret_from is not None)
        self.undo_barriers = frozenset(v.name for v in listed if v.undo_barrier)
        self.seat_only = frozenset(v.name for v in listed if v.seat_only)
        self._secret_from = {v.name: v.secret_from for v in listed if v.secret_from is not None}
        # each verb's argument names, worked out once: every log line of every view reads them
        self._params: dict[str, tuple[str, ...]] = {v.name: v.params for v in listed}

    def __contains__(self, name: object) -> bool:
        return name in self.verbs

    def __iter__(self) -> Any:
        return iter(self.verbs.values())

    def __getitem__(self, name: str) -> Verb:
        return self.verbs[name]

    def group(self, name: str) -> tuple[str, ...]:
        """The verbs of one group, in table order."""
        return tuple(v.name for v in self.verbs.values() if v.group == name)

    def tagged(self, tag: str) -> tuple[str, ...]:
        return tuple(v.name for v in self.verbs.values() if tag in v.tags)

    def by_step(self) -> dict[str, tuple[str, ...]]:
        """Pending step -> the verbs that answer it, in table order."""
        out: dict[str, list[str]] = {}
        for verb in self.verbs.values():
            for step in verb.steps:
                out.setdefault(step, []).append(verb.name)
        return {step: tuple(names) for step, names in out.items()}

    def arg_positions(self, kind: str, chance: bool | None = None) -> dict[str, int]:
        """Verb -> the index of its first argument of that kind (optionally only chance or only
        decision verbs)."""
        out: dict[str, int] = {}
        for verb in self.verbs.values():
            if chance is not None and verb.chance != chance:
                continue
            if kind in verb.args:
                out[verb.name] = verb.args.index(kind)
        return out

    def parse(self, text: str) -> Action:
        """The notation to an action; arguments are checked by the game, not here."""
        words = text.split()
        if not words:
            raise NotationError("empty action")
        kind = words[0].lower()
        arity = self.arity.get(kind)
        if arity is None:
            raise NotationError(f"unknown action {kind!r}")
        if len(words) - 1 != arity:
            raise NotationError(
                f"'{kind}' takes {arity} argument(s), got {len(words) - 1}: {text!r}"
            )
        return Action(kind, *words[1:])

    def redact(self, action: Action) -> str:
        """The action as the other players may see it: secret arguments shown as "?"."""
        return self.notation(action)

    def notation(self, action: Action, shown: bool = False) -> str:
        """`text(line(action, shown))` without making the line when nothing of it is hidden
        (then it is the action's own notation): the views' logs say every step this way."""
        if shown or action.kind not in self._secret_from:
            return str(action)
        return self.text(self.line(action))

    def line(self, action: Action, shown: bool = False) -> dict[str, Any]:
        """The action as a log line (docs/table-api.md, `state.log`): `key` its verb, `params`
        each argument by its name (`Verb.params`), a secret argument (`secret_from` on) None
        unless `shown` (the game says who may see it: engine.core.log)."""
        kind = action.kind
        names = self._params[kind]
        start = None if shown else self._secret_from.get(kind)
        params: dict[str, str | None]
        if start is None:
            params = dict(zip(names, action[1:], strict=False))
        else:
            params = {
                name: None if i >= start else value
                for i, (name, value) in enumerate(zip(names, action[1:], strict=False))
            }
        return {"key": kind, "params": params}

    def text(self, line: dict[str, Any]) -> str:
        """A log line's notation: the verb, the arguments shown, one "?" for those hidden
        (`deal purple ?`); the line of an action shown whole gives its own notation."""
        params = line["params"]
        words = [line["key"]]
        hidden = False
        for name in self._params[line["key"]]:
            value = params.get(name)
            if value is None:
                hidden = True
            elif value:
                words.append(value)
        if hidden:
            words.append(HIDDEN)
        return " ".join(words)

    def to_json(self) -> list[dict[str, Any]]:
        return [verb.to_json() for verb in self.verbs.values()]
