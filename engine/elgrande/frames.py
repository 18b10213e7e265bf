"""Pending decisions inside a turn: one frame per step of a card's special action.

A frame says who acts, lists the legal actions and applies one. `apply` returns True when the
frame is finished (a one-choice step and a Veto are then resolved by the rules driver,
engine.elgrande.driver). Frames work on the board model (`engine.elgrande.board.Board`) and
change it only through its mutation helpers (place, move, escort, recall, return a caballero),
so the bookkeeping (throws into the castillo, the supplies) lives in one place.
"""

from __future__ import annotations

import copy
from typing import Any, Final

from engine.core.actions import Action
from engine.elgrande.board import Board, Frame
from engine.elgrande.rules import enterable, move_destinations

DONE: Final = Action("done")
VETO: Final = Action("veto")
ALLOW: Final = Action("allow")
UNLIMITED: Final = 1_000


__all__ = ["DONE", "UNLIMITED", "Frame"]  # and the frame classes below

# Plain classes with an explicit __init__, not dataclasses: compiled with mypyc, a dataclass
# would see the base class's attributes as fields with defaults (their descriptors).


class PlaceFrame(Frame):
    """Place caballeros from the court (Militia, Delegation) or, for some Power Shift cards,
    from the province."""

    def __init__(self, actor: int, left: int, to: str, source: str = "court") -> None:
        self.kind = "place"
        self.actor = actor
        self.left = left
        self.to = to  # "regions" (any region but the King's) or "anywhere" (also the castillo)
        self.source = source

    def __deepcopy__(self, memo: dict[int, Any]) -> PlaceFrame:
        return self.copy()

    def copy(self) -> PlaceFrame:
        return PlaceFrame(self.actor, self.left, self.to, self.source)

    def supply(self, g: Board) -> int:
        """The caballeros the step places from (the court, or the province)."""
        return g.province[self.actor] if self.source == "province" else g.court[self.actor]

    def may_place(self, g: Board) -> bool:
        """One more caballero may be placed: the card allows it and the supply has one."""
        return self.left != 0 and self.supply(g) != 0

    def areas(self, g: Board) -> list[int]:
        """Where the caballeros go: the regions, with some cards the castillo too."""
        return g.movable_regions() + ([g.CASTILLO] if self.to == "anywhere" else [])

    def legal(self, g: Board, player: int) -> list[Action]:
        if not self.may_place(g):
            return [DONE]
        return [g.place_actions[a] for a in self.areas(g) if enterable(g, a)] + [DONE]

    def apply(self, g: Board, player: int, action: Action) -> bool:
        if action.kind == "done":
            return True
        g.place_piece(self.actor, g.area(action.arg), self.source)
        self.left -= 1
        return not self.may_place(g)

    def describe(self, g: Board, viewer: int | None) -> dict[str, Any]:
        out = {**super().describe(g, viewer), "left": self.left, "to": self.to}
        return {**out, "from": self.source}


class EscortFrame(Frame):
    """Escort: caballeros of any colours go with the King from its old region to the new one."""

    def __init__(self, actor: int, source: int, target: int, left: int) -> None:
        self.kind = "escort"
        self.actor = actor
        self.source = source
        self.target = target
        self.left = left

    def __deepcopy__(self, memo: dict[int, Any]) -> EscortFrame:
        return self.copy()

    def copy(self) -> EscortFrame:
        return EscortFrame(self.actor, self.source, self.target, self.left)

    def legal(self, g: Board, player: int) -> list[Action]:
        row = g.pieces[self.source]
        return [g.pick_actions[c][self.source] for c in range(g.n) if row[c]]

    def apply(self, g: Board, player: int, action: Action) -> bool:
        colour = g.colour(action.arg)
        g.escort_piece(colour, self.source, self.target)
        self.left -= 1
        return self.left == 0 or not self.legal(g, player)

    def describe(self, g: Board, viewer: int | None) -> dict[str, Any]:
        out = super().describe(g, viewer)
        return {**out, "from": g.tok[self.source], "to": g.tok[self.target], "left": self.left}


class MoveFrame(Frame):
    """Move caballeros on the board: pick one, then say where it goes; `done` stops."""

    def __init__(
        self,
        actor: int,
        own: int,
        foreign: int,
        any: int,
        from_one: bool,
        source: int = -1,
        picked: tuple[int, int] | None = None,
    ) -> None:
        self.kind = "move"
        self.actor = actor
        self.own = own
        self.foreign = foreign
        self.any = any
        self.from_one = from_one
        self.source = source  # fixed once the first caballero leaves (from_one cards)
        self.picked = picked  # (colour, region)

    def __deepcopy__(self, memo: dict[int, Any]) -> MoveFrame:
        return self.copy()

    def copy(self) -> MoveFrame:
        return MoveFrame(
            self.actor, self.own, self.foreign, self.any, self.from_one, self.source, self.picked
        )

    def moves_left(self, own: bool) -> bool:
        """The card lets the actor move one more of their own caballeros (`own`), or one more
        of an opponent's."""
        return (self.own if own else self.foreign) + self.any > 0

    def sources(self, g: Board) -> list[int]:
        """The regions caballeros are picked from: any but the King's; with a card that moves
        them out of one region only, that of the first one moved (do not mutate)."""
        regions = g.movable_regions()
        if self.from_one and self.source >= 0:
            return [self.source] if self.source in regions else []
        return regions

    def legal(self, g: Board, player: int) -> list[Action]:
        if self.picked is not None:
            colour, src = self.picked
            return [g.to_actions[a] for a in move_destinations(g, src)]
        acts: list[Action] = []
        me = self.actor
        own_left = self.moves_left(True)
        foreign_left = self.moves_left(False)
        picks = g.pick_actions
        for region in self.sources(g):
            row = g.pieces[region]
            for colour in range(g.n):
                if row[colour] and (own_left if colour == me else foreign_left):
                    acts.append(picks[colour][region])
        acts.append(DONE)
        return acts

    def apply(self, g: Board, player: int, action: Action) -> bool:
        if action.kind == "done":
            return True
        if action.kind == "pick":
            self.picked = (g.colour(action.arg), g.area(action.arg2))
            return False
        assert self.picked is not None
        colour, src = self.picked
        self.picked = None
        g.move_piece(colour, src, g.area(action.arg), self.actor)
        if colour == self.actor and self.own:
            self.own -= 1
        elif colour != self.actor and self.foreign:
            self.foreign -= 1
        else:
            self.any -= 1
        if self.from_one:
            self.source = src
        return self.own + self.foreign + self.any == 0 or not any(
            a.kind == "pick" for a in self.legal(g, player)
        )

    def describe(self, g: Board, viewer: int | None) -> dict[str, Any]:
        out = super().describe(g, viewer)
        left = {k: v for k, v in (("own", self.own), ("foreign", self.foreign), ("any", self.any))}
        out["left"] = {k: (None if v >= UNLIMITED else v) for k, v in left.items() if v}
        if self.from_one and self.source >= 0:
            out["from"] = g.tok[self.source]
        if self.picked is not None:
            out["picked"] = [g.colours[self.picked[0]], g.tok[self.picked[1]]]
        return out


class ReturnFrame(Frame):
    """Return `left` caballeros of colour `target` to the province, chosen by `actor`."""

    def __init__(
        self, actor: int, target: int, left: int, from_court: bool, from_regions: bool
    ) -> None:
        self.kind = "return"
        self.actor = actor
        self.target = target
        self.left = left
        self.from_court = from_court
        self.from_regions = from_regions

    def __deepcopy__(self, memo: dict[int, Any]) -> ReturnFrame:
        return self.copy()

    def copy(self) -> ReturnFrame:
        return ReturnFrame(self.actor, self.target, self.left, self.from_court, self.from_regions)

    def may_return(self, g: Board, area: int) -> bool:
        """A caballero of the target colour may go back from `area` (the court, or a region but
        the King's): the card allows that source and one stands there."""
        if area == g.COURT:
            return self.from_court and g.court[self.target] != 0
        return self.from_regions and g.pieces[area][self.target] != 0

    def legal(self, g: Board, player: int) -> list[Action]:
        actions = g.return_actions[self.target]
        acts: list[Action] = []
        if self.may_return(g, g.COURT):
            acts.append(actions[g.COURT])
        if self.from_regions:
            pieces = g.pieces
            target = self.target
            for region in g.movable_regions():
                if pieces[region][target]:  # may_return, the regions' case
                    acts.append(actions[region])
        return acts

    def apply(self, g: Board, player: int, action: Action) -> bool:
        g.return_piece(self.target, g.area(action.arg2))
        self.left -= 1
        return self.left == 0 or not self.legal(g, player)

    def describe(self, g: Board, viewer: int | None) -> dict[str, Any]:
        return {**super().describe(g, viewer), "colour": g.colours[self.target], "left": self.left}


class RecallFrame(Frame):
    """The province is short: bring own caballeros from regions to the court instead."""

    def __init__(self, actor: int, left: int) -> None:
        self.kind = "recall"
        self.actor = actor
        self.left = left

    def __deepcopy__(self, memo: dict[int, Any]) -> RecallFrame:
        return self.copy()

    def copy(self) -> RecallFrame:
        return RecallFrame(self.actor, self.left)

    def legal(self, g: Board, player: int) -> list[Action]:
        return [g.recall_actions[r] for r in g.movable_regions() if g.pieces[r][self.actor]]

    def apply(self, g: Board, player: int, action: Action) -> bool:
        region = g.area(action.arg)
        g.recall_piece(self.actor, region)
        self.left -= 1
        return self.left == 0 or not self.legal(g, player)

    def describe(self, g: Board, viewer: int | None) -> dict[str, Any]:
        return {**super().describe(g, viewer), "left": self.left}


class ChoiceFrame(Frame):
    """One choice among fixed actions (King, Grande, tile, power card back, region, option)."""

    def __init__(
        self, actor: int, choices: list[Action], kind: str, purpose: str = "", payload: Any = None
    ) -> None:
        self.kind = kind  # the verb of the choice (verbs.py: "choice"), or "grey"
        self.actor = actor
        self.choices = choices
        self.purpose = purpose
        self.payload = payload

    def __deepcopy__(self, memo: dict[int, Any]) -> ChoiceFrame:
        clone = ChoiceFrame(
            self.actor,
            list(self.choices),
            self.kind,
            self.purpose,
            copy.deepcopy(self.payload, memo),
        )
        return clone

    def copy(self) -> ChoiceFrame:
        # the choices are never changed, the payload comes from the data (immutable)
        return ChoiceFrame(self.actor, self.choices, self.kind, self.purpose, self.payload)

    def legal(self, g: Board, player: int) -> list[Action]:
        return list(self.choices)

    def apply(self, g: Board, player: int, action: Action) -> bool:
        return True  # the choice is resolved by its effect (engine.elgrande.driver.step)

    def describe(self, g: Board, viewer: int | None) -> dict[str, Any]:
        out = super().describe(g, viewer)
        if self.purpose:
            out["purpose"] = self.purpose
        if viewer == self.actor or self.kind not in ("powerback",):
            out["choices"] = [str(a) for a in self.choices]
        return out


class SecretFrame(Frame):
    """Several players choose at once, in secret; the choices are revealed when all are in.

    Subclasses say what a choice is (`_value`) and under which key a seat sees its own."""

    options: dict[int, list[Action]]  # player -> their legal actions
    chosen: dict[int, Any]  # player -> their choice (hidden until all are in)
    own_key: str  # the key under which a seat sees its own choice

    def actors(self, g: Board) -> tuple[int, ...]:
        return tuple(p for p in sorted(self.options) if p not in self.chosen)

    def legal(self, g: Board, player: int) -> list[Action]:
        return [] if player in self.chosen else list(self.options.get(player, []))

    def apply(self, g: Board, player: int, action: Action) -> bool:
        self.chosen[player] = self._value(g, action)
        return len(self.chosen) == len(self.options)

    def _value(self, g: Board, action: Action) -> Any:
        """What a choice records."""
        raise NotImplementedError

    def _shown(self, g: Board, value: Any) -> str:
        return str(value)

    def describe(self, g: Board, viewer: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "step": self.kind,
            "waiting_for": [g.colours[p] for p in self.actors(g)],
            "set": [g.colours[p] for p in sorted(self.chosen)],
        }
        if viewer is not None and viewer in self.chosen:
            out[self.own_key] = self._shown(g, self.chosen[viewer])
        return out


class DiscFrame(SecretFrame):
    """Secret discs (a region each): general scoring, Civil War, Coup, Rivalry."""

    def __init__(self, options: dict[int, list[Action]], purpose: str, payload: Any = None) -> None:
        self.kind = "disc"
        self.own_key = "my_disc"
        self.actor = -1  # several players choose at once
        self.options = options
        self.purpose = purpose
        self.payload = payload
        self.chosen = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> DiscFrame:
        clone = DiscFrame(
            copy.deepcopy(self.options, memo), self.purpose, copy.deepcopy(self.payload, memo)
        )
        clone.chosen = dict(self.chosen)
        return clone

    def copy(self) -> DiscFrame:
        # each seat's list of options is never changed; the payload is a region or a count
        clone = DiscFrame(dict(self.options), self.purpose, self.payload)
        clone.chosen = dict(self.chosen)
        return clone

    def _value(self, g: Board, action: Action) -> int:
        return g.area(action.arg)

    def _shown(self, g: Board, value: Any) -> str:
        return g.tok[int(value)]

    def describe(self, g: Board, viewer: int | None) -> dict[str, Any]:
        return {**super().describe(g, viewer), "purpose": self.purpose}


class PassFrame(SecretFrame):
    """Power Shift: every player passes one modifier card face down to the left, all at once."""

    def __init__(self, options: dict[int, list[Action]]) -> None:
        self.kind = "pass"
        self.own_key = "my_pass"
        self.actor = -1  # several players choose at once
        self.options = options
        self.chosen = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> PassFrame:
        clone = PassFrame(copy.deepcopy(self.options, memo))
        clone.chosen = dict(self.chosen)
        return clone

    def copy(self) -> PassFrame:
        clone = PassFrame(dict(self.options))  # each seat's list of options is never changed
        clone.chosen = dict(self.chosen)
        return clone

    def _value(self, g: Board, action: Action) -> str:
        return action.arg


class VetoFrame(Frame):
    """A Veto holder decides whether to cancel the special action just announced."""

    def __init__(self, actor: int, against: int) -> None:
        self.kind = "veto"
        self.actor = actor
        self.against = against

    def __deepcopy__(self, memo: dict[int, Any]) -> VetoFrame:
        return self.copy()

    def copy(self) -> VetoFrame:
        return VetoFrame(self.actor, self.against)

    def legal(self, g: Board, player: int) -> list[Action]:
        return [VETO, ALLOW]

    def apply(self, g: Board, player: int, action: Action) -> bool:
        return True  # resolved by the rules of the turn (engine.elgrande.driver.step)

    def describe(self, g: Board, viewer: int | None) -> dict[str, Any]:
        return {**super().describe(g, viewer), "against": g.colours[self.against]}
