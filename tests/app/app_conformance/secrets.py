"""What no viewer may see of another seat, checked on every message every client gets.

Every game (from its spec and the engine's views, nothing written per game):
- another seat's link token (the table's state lists a token only while its seat is unclaimed);
- a seat's private view fields (those its own view has and the public view lacks: El Grande's
  `hand`, El Caballero's `hand`, ...) anywhere in the table's `state.game`, or anywhere but the
  top of a seat's own view;
- at the table: a `seat_only` verb offered, or a seat's secret verb with its hidden arguments
  (`VerbTable` `secret_from`); in any client's log: another actor's secret arguments.

El Grande's own secrets, with the helpers of tests/app/test_no_leak.py: keys no client may get
(`contents` of the castillo unless `open_castillo`, the decks, other hands), a seat's own keys
only in its own view, each seat's undisclosed disc (from the engine's disc step), and with the
castillo closed no castillo step of an earlier turn on the table's log.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from engine.core.protocol import GameState
from engine.core.spec import GameSpec
from tests.app.test_no_leak import NEVER_KEYS, OWN_KEYS, OWN_STEP_KEYS, walk, without_legal

KEY = re.compile(r'"((?:[^"\\]|\\.)*)"\s*:')  # a JSON object's key: a string before a colon


def _top_keys(view: dict[str, Any]) -> set[str]:
    return set(view)


class Secrets:
    def __init__(self, spec: GameSpec, plan: Any, mirror: GameState) -> None:
        self.spec = spec
        self.options = dict(plan.options)
        self.tokens: dict[str, str] = {}
        self.names = list(mirror.seat_names())
        self.private: set[str] = set()
        self.made: Counter[tuple[str, str]] = Counter()
        self.undisclosed: dict[str, str] = {}  # colour -> its disc region, not yet revealed
        self.elgrande = spec.id == "elgrande"
        self.never = set(NEVER_KEYS) if self.elgrande else set()
        if self.options.get("open_castillo"):
            self.never.discard("contents")
        # a table option that makes a secret verb public (El Grande's open discard piles)
        self.public_verbs = {"powerback"} if self.options.get("open_power_cards") else set()
        self.checked = 0
        # messages that came while an action was on its way: they may show the position after
        # it, so they are checked once the engine copy has it (or knows it was not stored)
        self.holding = False
        self.held: list[tuple[str, dict[str, Any], str]] = []
        self.learn(mirror)

    def learn(self, mirror: GameState) -> None:
        """The private view fields: in a seat's view and never in the public one."""
        public = _top_keys(mirror.view(None))
        for seat in range(len(self.names)):
            self.private |= _top_keys(mirror.view(seat)) - public
        self.private -= public

    def hold(self) -> None:
        self.holding = True

    def release(self) -> None:
        self.holding = False
        held, self.held = self.held, []
        for receiver, message, text in held:
            self.check(receiver, message, text)

    def acted(self, actor: str, text: str, mirror: GameState) -> None:
        self.made[(actor, text)] += 1
        self.learn(mirror)
        if self.elgrande:
            from engine.elgrande.frames import DiscFrame

            game: Any = mirror
            self.undisclosed.clear()
            board = game.state
            if isinstance(board.frame, DiscFrame):
                self.undisclosed.update(
                    {board.colours[p]: board.tok[r] for p, r in board.frame.chosen.items()}
                )

    # ------------------------------------------------------------------ every message
    def check(self, receiver: str, message: dict[str, Any], text: str) -> None:
        """One message (`text`: as it came) to `receiver` ("table" or a colour)."""
        if self.holding:
            self.held.append((receiver, message, text))
            return
        self.checked += 1
        state = message.get("state") if message.get("type") == "state" else None
        for colour, token in self.tokens.items():
            if colour != receiver and token in text:
                # the table's state lists the seats' links while unclaimed (for the QR codes)
                assert receiver == "table" and state is not None, f"{colour}'s link to {receiver}"
                rest = json.dumps({k: v for k, v in state.items() if k != "seats"})
                assert token not in rest, f"{colour}'s link reached the table"
        self.check_keys(receiver, message, text)
        if state is None:
            return
        verbs = self.spec.verbs
        if receiver == "table":
            for action in state.get("legal") or []:
                verb = action.split()[0]
                assert verb not in verbs.seat_only, f"the table is offered {action!r}"
                # a seat's secret choice is never a button at the table (a chance step's
                # secret is nobody's: El Grande's card set aside may be named or `?`)
                if verb in verbs.secret and verb not in verbs.chance:
                    assert action == verbs.redact(verbs.parse(action)), (
                        f"the table is offered {action!r}: its secret is shown"
                    )
        for line in state.get("log") or []:
            words = str(line.get("text", "")).split()
            if line.get("kind") not in ("action", "undo") or not words:
                continue
            if line.get("actor") == receiver or words[0] not in verbs.secret:
                continue
            if words[0] in self.public_verbs:
                continue
            start = 1 + verbs._secret_from[words[0]]
            assert all(w == "?" for w in words[start:]), (
                f"{line} (another actor's secret) reached {receiver}"
            )
        if self.elgrande:
            self.check_discs(receiver, message)

    def check_keys(self, receiver: str, message: dict[str, Any], text: str) -> None:
        """Where the watched keys are: a seat's own fields at the top of its own view only
        (and the message's and the state's own fields of the same name, e.g. `legal`), El
        Grande's step fields in the seat's own step only, the never-sent keys nowhere.

        Counted in the text (a key is a string followed by a colon), so a message is not
        walked unless a key is where it must not be (then `walk` says where)."""
        counts = Counter(KEY.findall(text))
        state = message.get("state") if message.get("type") == "state" else None
        game = (state or {}).get("game") or {}
        seat = receiver != "table"
        for key in self.watched & set(counts):
            allowed = int(key in message)
            if state is not None:
                allowed += int(key in state)
                if seat and key in game and (key in self.private or key in OWN_KEYS):
                    allowed += 1
                if seat and key in OWN_STEP_KEYS and key in (game.get("step") or {}):
                    allowed += 1
            if key in self.never:
                allowed = 0
            if counts[key] > allowed:  # more than the usual places: where, exactly?
                bad = [p for p, k in walk(message) if k == key and not self.fits(key, p, seat)]
                assert not bad, f"{key!r} reached {receiver} at {bad}"

    def fits(self, key: str, path: tuple[str, ...], seat: bool) -> bool:
        """A watched key may be at this place of a message to a seat (else the table)."""
        if key in self.never:
            return False
        if self.elgrande and key in OWN_STEP_KEYS:
            return seat and path == ("state", "game", "step")
        if self.elgrande and key in OWN_KEYS:
            return seat and path == ("state", "game")
        # a seat's private view field: anywhere outside the views (e.g. a setup checklist's
        # `province` count), in a view only at the top of the seat's own
        return path[:2] != ("state", "game") or (seat and path == ("state", "game"))

    @property
    def watched(self) -> set[str]:
        out = self.private | self.never
        if self.elgrande:
            out |= OWN_KEYS | OWN_STEP_KEYS
        return out

    def check_discs(self, receiver: str, message: dict[str, Any]) -> None:
        """El Grande: another seat's undisclosed disc (tests/app/test_no_leak.py's rule)."""
        others = {c: r for c, r in self.undisclosed.items() if c != receiver}
        if not others:
            return
        public = json.dumps(without_legal(message))
        for colour, region in others.items():
            # revealed discs are public (the log names them): the same choice made earlier may
            # be shown, the undisclosed one may not
            line = json.dumps([colour, f"disc {region}"])
            made = self.made[(colour, f"disc {region}")]
            assert public.count(line) < made, f"{colour}'s undisclosed disc reached {receiver}"

    # ------------------------------------------------------------------ at each position
    def check_position(self, table_state: dict[str, Any], mirror: GameState) -> None:
        """El Grande, castillo closed: the table's log holds no more castillo steps than the
        current turn threw (docs/castillo-secrecy.md)."""
        if not self.elgrande or self.options.get("open_castillo"):
            return
        from engine.elgrande.views import turn_start

        game: Any = mirror
        this_turn = [str(a) for _, a in game.history[turn_start(game.state) :]]
        steps = ("place castillo", "to castillo")
        allowed = sum(1 for text in this_turn if text in steps)
        shown = [
            line
            for line in table_state.get("log") or []
            if line.get("kind") == "action" and line.get("text") in steps
        ]
        assert len(shown) <= allowed, (
            f"the table's log shows {len(shown)} castillo steps, this turn made {allowed}"
        )
