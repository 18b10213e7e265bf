"""A lean copy of a Kingdomino game for the computer players' playouts.

`Sim` holds only what a playout needs (the kingdoms, the lines, the dominoes not seen yet) and
deals from its own small generator (xorshift32), never the real game's dealer: a copy made
from a game knows what its seat could see and nothing more (the dominoes still to be drawn are
drawn at random from those not seen). A turn of a king is one call: `turn_move(placement, claim)`.
The rules are the engine's (engine.kingdomino.rounds over a `State`): tests play both side by
side and compare the legal moves and the final scores.

Policies for the playouts, per seat: RANDOM (a uniform placement, a uniform claim), GREEDY
(the placement that scores most now, the claim whose best placement scores most now), and
LOOKAHEAD (the placement and claim together: the pair whose placement plus the claimed domino's
best next placement scores most, as the "full greedy" player of Gedda, Lagerkvist and Butler,
IEEE CIG 2018). Scores are kept incrementally (Kingdom.points, Kingdom.gain): no playout step
copies a kingdom or floods a territory.
"""

from __future__ import annotations

from typing import Final

from engine.kingdomino.data import GameData
from engine.kingdomino.kingdom import Kingdom
from engine.kingdomino.scoring import HARMONY_BONUS, MIDDLE_KINGDOM_BONUS
from engine.kingdomino.state import State
from engine.kingdomino.steps import CLAIM, DISCARD, DRAW, KING, OVER, PLACE

RANDOM: Final = 0
GREEDY: Final = 1
LOOKAHEAD: Final = 2
NO_CLAIM: Final = 0  # a turn without a claim (the last round)
_MASK: Final = 0xFFFFFFFF


class Sim:
    """One game from the acting king's turn on (see the module docstring)."""

    data: GameData
    seat_of_king: list[int]
    line_size: int
    dominoes: int
    middle_kingdom: bool
    harmony: bool
    base: list[int]
    kingdoms: list[Kingdom]
    discarded: list[int]
    pool: list[int]
    drawn: int
    line: list[int]
    line_next: list[int]
    next_kings: list[int]
    order: list[int]
    kings_left: list[int]
    turn: int
    step: int
    state: int

    def __init__(self, game: State | None, seed: int, source: Sim | None = None) -> None:
        """A copy of the game state `game` (a Game's `state`) as it stands, dealing from `seed`
        (any integer); or, without a game, a copy of the Sim `source` (see `copy`)."""
        self.state = (seed & _MASK) or 0x9E3779B9
        if game is None:
            assert source is not None
            self._copy(source)
            return
        setup = game.setup
        self.data = game.data
        self.seat_of_king = setup.seat_of_king
        self.line_size = setup.line
        self.dominoes = setup.dominoes
        self.middle_kingdom = game.options.middle_kingdom
        self.harmony = game.options.harmony
        players = setup.players
        self.base = [sum(past[seat] for past in game.past) for seat in range(players)]
        self.kingdoms = [kingdom.copy() for kingdom in game.kingdoms]
        self.discarded = game.discarded[:]
        self.pool = game.unseen[:]
        self.drawn = game.drawn
        self.line = game.line[:]
        self.line_next = game.line_next[:]
        self.next_kings = game.next_kings[:]
        self.order = game.order[:]
        self.kings_left = game.kings_left()
        self.turn = game.turn
        self.step = game.step
        if self.step == DRAW or self.step == KING:
            self._chance()

    def copy(self, seed: int) -> Sim:
        """An independent copy that deals from `seed`."""
        return Sim(None, seed, self)

    def _copy(self, source: Sim) -> None:
        self.data = source.data
        self.seat_of_king = source.seat_of_king
        self.line_size = source.line_size
        self.dominoes = source.dominoes
        self.middle_kingdom = source.middle_kingdom
        self.harmony = source.harmony
        self.base = source.base
        self.kingdoms = [kingdom.copy() for kingdom in source.kingdoms]
        self.discarded = source.discarded[:]
        self.pool = source.pool[:]
        self.drawn = source.drawn
        self.line = source.line[:]
        self.line_next = source.line_next[:]
        self.next_kings = source.next_kings[:]
        self.order = source.order[:]
        self.kings_left = source.kings_left[:]
        self.turn = source.turn
        self.step = source.step

    # ------------------------------------------------------------------ the generator
    def below(self, count: int) -> int:
        """A uniform-enough draw in 0..count-1 (xorshift32; count is small)."""
        x = self.state
        x ^= (x << 13) & _MASK
        x ^= x >> 17
        x ^= (x << 5) & _MASK
        self.state = x
        return x % count

    # ------------------------------------------------------------------ who acts, what is legal
    def seat(self) -> int:
        """The seat of the acting king (-1 when the game is over)."""
        if self.step == OVER:
            return -1
        return self.seat_of_king[self.order[self.turn]]

    def domino(self) -> int:
        """The domino the acting king places now (0 in the set-up round: none)."""
        return self.line[self.turn] if self.step == PLACE else 0

    def placements(self) -> list[int]:
        """The acting king's legal placements ([DISCARD] when its domino fits nowhere; [] in
        the set-up round, which has no placement)."""
        if self.step != PLACE:
            return []
        number = self.line[self.turn]
        data = self.data
        found = self.kingdoms[self.seat_of_king[self.order[self.turn]]].placements(
            data.terrain_a[number],
            data.crowns_a[number],
            data.terrain_b[number],
            data.crowns_b[number],
        )
        return found if found else [DISCARD]

    def claims(self) -> list[int]:
        """The dominoes of the next line nobody has claimed yet ([] in the last round)."""
        return [n for slot, n in enumerate(self.line_next) if self.next_kings[slot] < 0]

    # ------------------------------------------------------------------ playing
    def turn_move(self, placement: int, claim: int) -> None:
        """The acting king's whole turn: its placement (ignored in the set-up round) and its
        claim (NO_CLAIM in the last round). Legal moves only: nothing is checked."""
        if self.step == PLACE:
            seat = self.seat_of_king[self.order[self.turn]]
            if placement == DISCARD:
                self.discarded[seat] += 1
            else:
                number, data = self.line[self.turn], self.data
                self.kingdoms[seat].place(
                    placement,
                    data.terrain_a[number],
                    data.crowns_a[number],
                    data.terrain_b[number],
                    data.crowns_b[number],
                )
        if claim != NO_CLAIM:
            next_kings = self.next_kings
            line_next = self.line_next
            for slot in range(len(line_next)):
                if line_next[slot] == claim:
                    next_kings[slot] = self.order[self.turn]
                    break
        self._advance()

    def _advance(self) -> None:
        self.turn += 1
        if not self.line and self.kings_left:
            self.step = KING
            self._chance()
            return
        if self.turn < len(self.order):
            self.step = PLACE if self.line else CLAIM
            return
        line: list[int] = []
        order: list[int] = []
        for slot in range(len(self.line_next)):
            king = self.next_kings[slot]
            if king >= 0:
                line.append(self.line_next[slot])
                order.append(king)
        self.line = line
        self.order = order
        self.line_next = []
        self.next_kings = []
        self.turn = 0
        if not line:
            self.step = OVER
        elif self.drawn < self.dominoes:
            self.step = DRAW
            self._chance()
        else:
            self.step = PLACE

    def _chance(self) -> None:
        """Draw the next line (sorted) and, in the set-up round, the next king."""
        if self.step == DRAW:
            pool = self.pool
            while len(self.line_next) < self.line_size:
                index = self.below(len(pool))
                self.line_next.append(pool[index])
                pool[index] = pool[-1]
                pool.pop()
                self.drawn += 1
            self.line_next.sort()
            self.next_kings = [-1] * len(self.line_next)
            if self.line:
                self.step = PLACE
                return
            self.step = KING
        left = self.kings_left
        index = self.below(len(left))
        king = left[index]
        left.pop(index)
        self.order.append(king)
        self.turn = len(self.order) - 1
        self.step = CLAIM

    # ------------------------------------------------------------------ scores
    def totals(self) -> list[int]:
        """Each seat's score now (final when the game is over): the kingdom, the bonuses of
        the variants played, and a Dynasty's earlier games."""
        out: list[int] = []
        for seat in range(len(self.kingdoms)):
            kingdom = self.kingdoms[seat]
            total = self.base[seat] + kingdom.points
            if self.middle_kingdom and kingdom.centred():
                total += MIDDLE_KINGDOM_BONUS
            if self.harmony and self.discarded[seat] == 0:
                total += HARMONY_BONUS
            out.append(total)
        return out

    def margin(self, seat: int) -> int:
        """The seat's score minus the best other score."""
        totals = self.totals()
        best = -1
        for other in range(len(totals)):
            if other != seat and totals[other] > best:
                best = totals[other]
        return totals[seat] - best

    # ------------------------------------------------------------------ playouts
    def play_out(self, policies: list[int]) -> None:
        """Every king plays by its seat's policy to the end of the game."""
        while self.step != OVER:
            seat = self.seat_of_king[self.order[self.turn]]
            policy = policies[seat]
            if policy == RANDOM:
                self.random_turn()
            elif policy == GREEDY:
                self.greedy_turn()
            else:
                self.lookahead_turn()

    def random_turn(self) -> None:
        placement = DISCARD
        if self.step == PLACE:
            moves = self.placements()
            placement = moves[self.below(len(moves))]
        self.turn_move(placement, self._random_claim())

    def _random_claim(self) -> int:
        line_next, next_kings = self.line_next, self.next_kings
        free = 0
        for king in next_kings:
            if king < 0:
                free += 1
        if free == 0:
            return NO_CLAIM
        pick = self.below(free)
        for slot in range(len(line_next)):
            if next_kings[slot] < 0:
                if pick == 0:
                    return line_next[slot]
                pick -= 1
        return NO_CLAIM

    def best_placement(self, kingdom: Kingdom, number: int) -> tuple[int, int]:
        """(gain, placement) of the placement of `number` that adds most to `kingdom`'s score
        now (ties: the first found after a random start); (0, DISCARD) when it fits nowhere."""
        data = self.data
        ta, ca = data.terrain_a[number], data.crowns_a[number]
        tb, cb = data.terrain_b[number], data.crowns_b[number]
        moves = kingdom.placements(ta, ca, tb, cb)
        count = len(moves)
        if count == 0:
            return 0, DISCARD
        start = self.below(count)
        best, chosen = -1, DISCARD
        for index in range(count):
            move = moves[(start + index) % count]
            value = kingdom.gain(move, ta, ca, tb, cb)
            if value > best:
                best, chosen = value, move
        return best, chosen

    def greedy_turn(self) -> None:
        """The placement scoring most now; then the claim whose best placement in the kingdom
        so far scores most (ties: the lowest number, the king's earliest pick next round)."""
        seat = self.seat_of_king[self.order[self.turn]]
        kingdom = self.kingdoms[seat]
        placement = DISCARD
        if self.step == PLACE:
            placement = self.best_placement(kingdom, self.line[self.turn])[1]
            if placement != DISCARD:
                number, data = self.line[self.turn], self.data
                kingdom.place(
                    placement,
                    data.terrain_a[number],
                    data.crowns_a[number],
                    data.terrain_b[number],
                    data.crowns_b[number],
                )
        claim = NO_CLAIM
        best = -1
        for slot in range(len(self.line_next)):
            if self.next_kings[slot] < 0:
                number = self.line_next[slot]
                value = self.best_placement(kingdom, number)[0]
                if value > best:
                    best, claim = value, number
        self._finish_turn(placement, claim)

    def lookahead_turn(self) -> None:
        """Placement and claim together: the pair whose placement now plus the claimed
        domino's best placement after it adds most (ties at random); the set-up round's claim:
        the domino with the most crowns on one square."""
        seat = self.seat_of_king[self.order[self.turn]]
        kingdom = self.kingdoms[seat]
        data = self.data
        free = self.claims()
        if self.step != PLACE:
            best, claim, ties = -1, NO_CLAIM, 0
            for number in free:
                value = max(data.crowns_a[number], data.crowns_b[number])
                if value > best:
                    best, claim, ties = value, number, 1
                elif value == best:
                    ties += 1
                    if self.below(ties) == 0:
                        claim = number
            self.turn_move(DISCARD, claim)
            return
        number = self.line[self.turn]
        ta, ca = data.terrain_a[number], data.crowns_a[number]
        tb, cb = data.terrain_b[number], data.crowns_b[number]
        moves = kingdom.placements(ta, ca, tb, cb)
        if not moves:
            self.turn_move(DISCARD, self._claim_after(kingdom, free))
            return
        best, chosen, claim, ties = -1, moves[0], NO_CLAIM, 0
        for move in moves:
            now = kingdom.gain(move, ta, ca, tb, cb)
            trial = kingdom.copy() if free else kingdom
            if free:
                trial.place(move, ta, ca, tb, cb)
            for pick in free if free else [NO_CLAIM]:
                value = now
                if pick != NO_CLAIM:
                    value += self.best_placement(trial, pick)[0]
                if value > best:
                    best, chosen, claim, ties = value, move, pick, 1
                elif value == best:
                    ties += 1
                    if self.below(ties) == 0:
                        chosen, claim = move, pick
        self.turn_move(chosen, claim)

    def _claim_after(self, kingdom: Kingdom, free: list[int]) -> int:
        best, claim = -1, NO_CLAIM
        for number in free:
            value = self.best_placement(kingdom, number)[0]
            if value > best:
                best, claim = value, number
        return claim

    def _finish_turn(self, placed: int, claim: int) -> None:
        """turn_move for a turn whose placement is laid already (greedy_turn lays it to weigh
        the claims on the kingdom as it will be)."""
        if self.step == PLACE and placed == DISCARD:
            self.discarded[self.seat_of_king[self.order[self.turn]]] += 1
        if claim != NO_CLAIM:
            for slot in range(len(self.line_next)):
                if self.line_next[slot] == claim:
                    self.next_kings[slot] = self.order[self.turn]
                    break
        self._advance()
