"""Determinization: copies of an El Grande game that one seat could believe in.

A computer player must decide from what its seat may know: its own view (`Game.view(seat)`)
and the public history. `Belief(state, seat)` reads that view once and keeps a *template*: a
copy of the game in which every field that holds something the seat may not know is replaced
by a neutral value (so the template holds no secret of another seat, whatever the real state
holds). `Belief.sample(rng)` then fills those fields with values drawn consistently with the
view, and returns a dealer-mode copy dealing from a seed drawn from `rng`:

- **the undrawn action cards**: the order is redrawn by the fresh seed; a card set aside for
  an alternative card (set aside unseen) is redrawn among the deck's candidates (never an
  alternative card, which went in after the set-aside);
- **other seats' power cards**: the public log names every power card played (`power`,
  `shift`, the dummy's `dummypower`); a card taken back by Power of attorney is secret, so the
  hand is the cards never played plus, when the hand is larger, cards drawn among those played
  before (with `open_power_cards` the piles are public and taken as they are);
- **other seats' Power Shift modifiers** (hands, discards, the undealt modifiers): dealt anew
  from the modifiers no public step has shown and the seat does not hold, to the public sizes;
- **secret discs and passed modifiers not yet revealed** (a disc or pass step in progress):
  other seats' choices are forgotten, so they choose again in the copy;
- **the castillo** (closed, the default): its total is public, the seat's own share follows
  from its own province (board, courts and castillo total are public); the rest is spread over
  the other colours, each caballero of a colour not on the board or in a court as likely to be
  in the castillo as in the province, but never fewer than the current turn's heard throws.
  Earlier turns' throws keep who threw and how many (heard at the table), not the colour; the
  history keeps every step with its secret arguments masked, as the public log shows them.

Nothing is read from the real state's secret fields: every value written comes from the view,
the public tables (the box's cards, the layout) and the rng. tests/engine/test_elgrande_players.py
checks it: two states that differ only in what a seat may not know give the same samples
(same rng) and the same decisions.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from engine.core.actions import Action, shared_action
from engine.elgrande.board import Board
from engine.elgrande.frames import DiscFrame, PassFrame
from engine.elgrande.game import Game
from engine.elgrande.options import Throw
from engine.elgrande.verbs import VERBS
from engine.elgrande.views import castillo_step

__all__ = ["Belief", "determinize"]

_HIDDEN = "?"


def _redacted(action: Action) -> Action:
    """The action as the public log shows it (secret arguments masked)."""
    if action.kind not in VERBS.secret:
        return action
    return Action(*VERBS.redact(action).split())


class Belief:
    """What `seat` may know of `state` (see the module docstring); `sample(rng)` draws a copy."""

    def __init__(self, state: Game, seat: int) -> None:
        self.seat = seat
        view = state.view(seat)
        self.view = view
        template = state.clone()
        self.template = template
        g = template.state
        me = seat
        options = g.options
        log: list[list[str]] = view["log"]
        closed = not options.open_castillo
        self._forget_history(g, closed)
        shifted = self._forget_power_cards(g, log)
        self._forget_modifiers(g, shifted)
        # ---- secret steps in progress: other seats' choices forgotten
        frame = g.frame
        if isinstance(frame, (DiscFrame, PassFrame)):
            frame.chosen = {p: v for p, v in frame.chosen.items() if p == me}
        if isinstance(frame, PassFrame):  # the others' options are their (secret) hands
            frame.options = {p: frame.options[p] if p == me else [] for p in frame.options}
        self._forget_decks(g, log)
        self.castillo_open = not closed
        if closed:
            self._forget_castillo(g)
        g.dealer_seed = 0
        g.touched()

    def _forget_history(self, g: Board, closed: bool) -> None:
        """The history: the public log's masking, the castillo steps' colours hidden; the
        seat's own secret steps are its own knowledge."""
        me = self.seat
        public_history: list[tuple[int, Action]] = []
        for player, action in g.history:
            if closed and castillo_step(action):
                action = Action(action.kind, _HIDDEN) if action.kind != "castillo-fix" else action
            public_history.append((player, _redacted(action)))
        # the own secret steps are the seat's own knowledge
        for i, (player, action) in enumerate(g.history):
            if player == me and action.kind in VERBS.secret:
                public_history[i] = (player, action)
        g.history = public_history

    def _forget_power_cards(self, g: Board, log: list[list[str]]) -> list[list[str]]:
        """Power cards played, per colour, from the public log; the hands the seat cannot
        see emptied. Returns the modifiers each colour played (Power Shift)."""
        n, colours, me, options, view = g.n, g.colours, self.seat, g.options, self.view
        index = {c: i for i, c in enumerate(colours)}
        ever_played: list[list[int]] = [[] for _ in range(n)]
        shifted: list[list[str]] = [[] for _ in range(n)]
        for actor, text in log:
            parts = text.split()
            if not parts:
                continue
            if parts[0] in ("power", "shift") and actor in index:
                ever_played[index[actor]].append(int(parts[1]))
                if parts[0] == "shift" and len(parts) > 2 and parts[2] != _HIDDEN:
                    shifted[index[actor]].append(parts[2])
            elif parts[0] == "dummypower" and g.dummy >= 0:
                ever_played[g.dummy].append(int(parts[1]))
        self.ever_played = ever_played
        self.hand_sizes = [int(view["hand_sizes"].get(colours[p], 0)) for p in range(n)]
        self.played_now = [int(view["played"].get(colours[p], 0)) for p in range(n)]
        # neutral values for what the sampler fills in
        for p in range(n):
            if p == me:
                g.hands[p] = sorted(view["hand"])
                g.power_discards[p] = list(view["power_discards"])
            elif options.open_power_cards:
                g.hands[p] = sorted(view["remaining_power"][colours[p]])
                g.power_discards[p] = list(view["discarded_power"][colours[p]])
            else:
                g.hands[p] = []
                g.power_discards[p] = []
        return shifted

    def _forget_modifiers(self, g: Board, shifted: list[list[str]]) -> None:
        """Power Shift's modifiers: the hands the seat cannot see emptied, the pool of the
        unseen ones kept for the sampler."""
        n, colours, me, options, view = g.n, g.colours, self.seat, g.options, self.view
        self.modifier_sizes = [
            int(view["modifier_hand_sizes"].get(colours[p], 0)) for p in range(n)
        ]
        self.shifted = shifted
        if options.power_shift:
            pool = Counter(g.layout.grey_deck)
            pool.subtract(view["modifier_hand"])
            pool.subtract(view["modifier_discards"])
            for p in range(n):
                if p != me:
                    pool.subtract(shifted[p])
            mine_played = view["modifiers_played"].get(colours[me], "")
            if mine_played and mine_played not in view["modifier_discards"]:
                pool.subtract([mine_played])
            self.modifier_pool = sorted((+pool).elements())
            for p in range(n):
                if p == me:
                    g.grey_hands[p] = list(view["modifier_hand"])
                    g.grey_discards[p] = list(view["modifier_discards"])
                else:
                    g.grey_hands[p] = []
                    now = g.played_grey[p]  # public: modifiers_played
                    earlier = list(shifted[p])
                    if now and now in earlier:
                        earlier.remove(now)
                    g.grey_discards[p] = earlier
            g.grey_deck = []
        else:
            self.modifier_pool = []

    def _forget_decks(self, g: Board, log: list[list[str]]) -> None:
        """The decks: a deck a card was set aside from (for an alternative card, unseen) holds
        the public candidates: the box's cards of that deck, the alternatives put in, less the
        cards turned face up from it; the sampler sets the right number aside."""
        options = g.options
        self.unseen: dict[int, int] = {}
        self.alternatives = set(options.alternatives)
        set_aside = Counter(
            _deck_after_merge(g, int(parts[1]))
            for _, text in log
            if (parts := text.split()) and parts[0] == "remove"
        )
        for deck, count in set_aside.items():
            pool = Counter(g.layout.decks[deck])
            if deck == 2 and 3 not in g.slots:
                pool.update(g.layout.decks[3])
            pool.update(
                a
                for a in options.alternatives
                if _deck_after_merge(g, g.data.cards[a].deck) == deck
            )
            for _, text in log:
                parts = text.split()
                if parts and parts[0] == "reveal" and int(parts[1]) == deck:
                    pool[parts[2]] -= 1
            g.decks[deck] = sorted((+pool).elements())
            g.unseen_set_aside[deck] = 0
            self.unseen[deck] = count

    def _forget_castillo(self, g: Board) -> None:
        """A closed castillo: only the seat's own caballeros in it, the others' count in the
        province for the sampler to share out; throws heard by the thrower's colour."""
        n, colours, me, view = g.n, g.colours, self.seat, self.view
        index = {c: i for i, c in enumerate(colours)}
        castillo = g.CASTILLO
        total = int(view["castillo"]["total"])
        free = [
            g.data.caballeros_per_colour - sum(g.pieces[r][p] for r in range(g.R)) - g.court[p]
            for p in range(n)
        ]
        own_province = int(view["province"][colours[me]])
        mine = free[me] - own_province
        heard = [0] * n
        for throw in view["throws"]:
            heard[index[throw["colour"]]] += int(throw["count"])
        self.free = free
        self.castillo_total = total
        self.castillo_mine = mine
        self.heard = heard
        for p in range(n):
            g.pieces[castillo][p] = mine if p == me else 0
            g.province[p] = own_province if p == me else free[p]
        if not view["throws"]:  # the last throw's key names its colour: not heard now
            g.throw_key = ()
        first = g.turn.first_throw if g.turn is not None else len(g.throws)
        g.throws = [
            Throw(t.round, t.by, t.colour if i >= first else t.by, t.count)
            for i, t in enumerate(g.throws)
        ]

    def sample(self, rng: random.Random) -> Game:
        """A copy of the game drawn from what the seat may know (the module docstring), in
        dealer mode with a seed drawn from `rng`."""
        game = self.template.clone()
        g = game.state
        n = g.n
        me = self.seat
        options = g.options
        # undrawn cards: which were set aside unseen
        for deck, count in self.unseen.items():
            cards = g.decks[deck]
            eligible = [i for i, c in enumerate(cards) if c not in self.alternatives]
            for i in sorted(rng.sample(eligible, min(count, len(eligible))), reverse=True):
                del cards[i]
        # other seats' power cards
        if not options.open_power_cards:
            for p in range(n):
                if p == me:
                    continue
                played = set(self.ever_played[p])
                never = [v for v in range(1, 14) if v not in played]
                now = self.played_now[p]
                back = sorted(played - {now})
                extra = self.hand_sizes[p] - len(never)
                if extra > 0:
                    taken = rng.sample(back, min(extra, len(back)))
                    hand = sorted(never + taken)
                elif extra < 0:
                    hand = sorted(rng.sample(never, self.hand_sizes[p]))
                    taken = []
                else:
                    hand, taken = never, []
                g.hands[p] = hand
                g.power_discards[p] = [v for v in back if v not in taken]
        # other seats' modifiers
        if options.power_shift:
            pool = list(self.modifier_pool)
            rng.shuffle(pool)
            for p in range(n):
                if p == me or p not in g.seats:
                    continue
                size = self.modifier_sizes[p]
                g.grey_hands[p] = pool[:size]
                del pool[:size]
            g.grey_deck = pool
            frame = g.frame
            if isinstance(frame, PassFrame):
                frame.options = {
                    p: actions
                    if p == me
                    else [shared_action("pass", grey) for grey in dict.fromkeys(g.grey_hands[p])]
                    for p, actions in frame.options.items()
                }
        # the castillo
        if not self.castillo_open:
            castillo = g.pieces[g.CASTILLO]
            room = [0 if p == me else self.free[p] for p in range(n)]
            left = self.castillo_total - self.castillo_mine
            for p in range(n):
                if p != me:
                    floor = min(self.heard[p], room[p], max(left, 0))
                    castillo[p] = floor
                    room[p] -= floor
                    left -= floor
            while left > 0 and sum(room) > 0:
                pick = rng.randrange(sum(room))
                for p in range(n):
                    if pick < room[p]:
                        castillo[p] += 1
                        room[p] -= 1
                        break
                    pick -= room[p]
                left -= 1
            for p in range(n):
                if p != me:
                    g.province[p] = self.free[p] - castillo[p]
        g.touched()
        game.resume_as(dataclasses.replace(options, mode="dealer", seed=rng.getrandbits(63)))
        return game


def _deck_after_merge(g: Board, deck: int) -> int:
    """The deck a set-up card set aside from `deck` belongs to now (3 merged into 2)."""
    return 2 if deck == 3 and 3 not in g.slots else deck


def determinize(state: Game, seat: int, rng: random.Random) -> Game:
    """One copy of `state` as `seat` may believe it (`Belief(state, seat).sample(rng)`)."""
    return Belief(state, seat).sample(rng)
