"""The base game of El Caballero as a state on the game platform (docs/elcaballero-rules.md).

Setup (chance): the start card, then the market of 5. Each of the 7 rounds: the power cards,
played face up one by one clockwise (EC-34), then the turns from the highest card down; after
the last turn the market is refilled (chance). Scorings after rounds 4 and 7. In table mode the
players enter the chance steps (`start CARD`, `reveal CARD`: a description or a catalogue id);
in dealer mode the engine deals from the catalogue (seeded for tests).

>>> game = Game(Options(players=("red", "blue"), mode="dealer", seed=3, catalogue="synthetic"))
>>> game.current_players(), game.state.phase
((0,), 'power')
>>> game.apply("power 13"); game.apply("power 9", 1); game.current_players()
(0,)
"""

from __future__ import annotations

from typing import Any

from engine.core.actions import Action
from engine.core.chance import fresh_seed
from engine.core.errors import IllegalAction, NotationError, NotYourTurn, UndoError
from engine.core.protocol import CHANCE
from engine.elcaballero import checks, rounds
from engine.elcaballero.board import cell_name
from engine.elcaballero.cards import CardError, card_from_text
from engine.elcaballero.catalogue import Catalogue, load_synthetic
from engine.elcaballero.legal import DONE, REINFORCE, turn_actions
from engine.elcaballero.notation import parse_cell, parse_spot, spot_name
from engine.elcaballero.options import Options
from engine.elcaballero.refusals import Refusal
from engine.elcaballero.rounds import CHANCE_PHASES, auto_chance, auto_reinforce, chance_actions
from engine.elcaballero.rules import load_rules
from engine.elcaballero.scoring import map_points
from engine.elcaballero.state import Saved, State
from engine.elcaballero.steps import EXTENDED_VERBS, do
from engine.elcaballero.verbs import VERBS
from engine.elcaballero.views import public_view

__all__ = [
    "CHANCE_PHASES",
    "DONE",
    "EXTENDED_VERBS",
    "REINFORCE",
    "Game",
    "parse_cell",
    "parse_spot",
    "spot_name",
]


def _illegal(action: Action, refused: Refusal) -> IllegalAction:
    return IllegalAction(str(action), refused.reason, refused.key, refused.params)


class Game:
    """One game (engine.core.protocol.GameState): the game protocol over one `State`
    (`self.state`, engine.elcaballero.state); the rules are functions over that state, in the
    modules of each part (`rounds`, `steps`, `checks`, `extended`, `legal`, `views`)."""

    state: State  # everything the game's steps change (its own: a clone holds a copy)

    def __init__(
        self, options: Options, catalogue: Catalogue | None = None, source: Game | None = None
    ) -> None:
        """A new game; given `source`, a copy of it (`clone`)."""
        if source is not None:
            # a copy of the source's state (`State.copy_from`); a dealer game's copy deals from
            # a fresh unpredictable seed
            held = source.state
            self.state = State(held.options, held.rules, held.catalogue, held, fresh_seed())
            return
        options.check()
        if catalogue is None and options.catalogue == "synthetic":
            catalogue = load_synthetic()
        if options.mode == "dealer" and catalogue is None:
            raise ValueError(
                "dealer mode deals from a catalogue: choose the synthetic one (not the real "
                "cards) or supply your own"
            )
        self.state = State(options, load_rules(), catalogue)
        auto_chance(self.state)

    @property
    def history(self) -> list[tuple[int, Action]]:
        """The (player, action) pairs taken so far (the state's)."""
        return self.state.history

    @property
    def options(self) -> Options:
        """The game's options (the state's)."""
        return self.state.options

    def clone(self) -> Game:
        """An independent copy (the game protocol's `clone`: a new game over a copy of the
        state, `State.copy_from`). A dealer game's clone deals from a fresh unpredictable
        seed: never the real game's future cards."""
        return Game(self.state.options, self.state.catalogue, self)

    def is_legal(self, player: int, action: Action | str) -> bool:
        """Whether `player` may take `action` now (the actions `legal_actions` lists, in any
        form `apply` accepts; never raises). Without a catalogue, a chance step accepts any
        valid card description, as `apply` does."""
        state = self.state
        try:
            if isinstance(action, str):
                action = self.parse(action)
            if player not in self.current_players():
                return False
            if state.phase in CHANCE_PHASES and state.catalogue is None:
                if action.kind != state.phase:
                    return False
                card = card_from_text(action.arg)
                if state.phase == "start":
                    return rounds.start_ok(state, card)
                return state.pile_left > 0
            return canonical(state, action) in self.legal_actions(player)
        except (NotationError, CardError, ValueError):
            return False

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance step, each card with the probability the dealer draws it with (uniform
        by copy among the cards the step may turn up); `[]` when chance does not act now.
        Without a catalogue the deck is unknown: the plain shapes `legal_actions` lists, each
        as likely (a stand-in for search, not the real deck)."""
        state = self.state
        if state.phase not in CHANCE_PHASES:
            return []
        if state.catalogue is None:
            shapes = chance_actions(state)
            return [(action, 1 / len(shapes)) for action in shapes]
        pool = rounds.pool(state)
        counts: dict[str, int] = {}
        for card_id in pool:
            counts[card_id] = counts.get(card_id, 0) + 1
        verb = state.phase
        return [(Action(verb, card_id), counts[card_id] / len(pool)) for card_id in sorted(counts)]

    def projected_scores(self) -> list[int]:
        """Each seat's score if the game ended now: the points so far plus what the map would
        score at the next scoring (none once the game is over). Changes nothing: the computer
        players' one-ply measure."""
        state = self.state
        if state.phase == "over":
            return list(state.scores)
        now = map_points(
            state.board,
            state.rules.layout,
            state.n,
            checks.totals(state),
            state.options.two_player_tie,
        )
        return [state.scores[p] + now[p] for p in range(state.n)]

    def area_actions(self, player: int) -> list[Action]:
        """The area card steps `player` may take now ([] when none is due or none fits): the
        `area` actions of `legal_actions`, without listing the rest (for computer players)."""
        state = self.state
        if (
            state.phase != "turn"
            or player not in self.current_players()
            or not checks.area_open(state)
        ):
            return []
        checks.area_spots(state, player)
        return list(state.cache.spot_actions)

    def determinize(self, seat: int, seed: int) -> Game:
        """A copy for a computer player of `seat` to search: everything that seat cannot know
        is redrawn. In El Caballero that is the order of the cards still face down (the power
        cards are played face up, so every hand is known): the copy deals from the cards not
        yet seen, as the public history tells them, with a dealer of its own seeded by `seed`,
        never the real game's. Without a catalogue (a table game) the copy does not deal: its
        chance steps are the searcher's (`chance_outcomes`). `seat` is unused: every seat sees
        the same."""
        copy = self.clone()
        copy.state.dealer_seed = seed
        copy.state.dealing = self.state.catalogue is not None
        auto_chance(copy.state)
        return copy

    # ---------------------------------------------------------------- the protocol
    def seat_names(self) -> list[str]:
        return list(self.state.options.players)

    def is_terminal(self) -> bool:
        return self.state.phase == "over"

    def returns(self) -> list[int]:
        return list(self.state.scores)

    def current_players(self) -> tuple[int, ...]:
        state = self.state
        phase = state.phase
        if phase in CHANCE_PHASES:
            return (CHANCE,)
        if phase == "power":
            return ((state.power_starter + state.power_turn) % state.n,)
        if phase == "turn":
            return (state.order[state.turn_index],)
        return ()

    def parse(self, text: str) -> Action:
        return parse_action(text)

    def apply(self, action: Action | str, player: int | None = None) -> None:
        state = self.state
        if isinstance(action, str):
            action = parse_action(action)
        actors = self.current_players()
        if not actors:
            raise _illegal(action, Refusal("over"))
        if player is None:
            player = actors[0]
        if player not in actors:
            who = "chance" if actors[0] == CHANCE else state.options.players[actors[0]]
            refused = Refusal("not_your_turn", {"who": who})
            raise NotYourTurn(str(action), refused.reason, refused.key, refused.params)
        if action.kind not in VERBS:
            raise _illegal(action, Refusal("unknown", {"verb": action.kind}))
        action = canonical(state, action)
        undoable = player >= 0 and state.phase == "turn" and action.kind != "done"
        if undoable and state.turn_saved is None:
            state.turn_saved = Saved(state)
        try:
            do(state, player, action)
        except (Refusal, ValueError) as error:  # ValueError: an Action built by hand, malformed
            if undoable:  # the checks come before the changes; this makes sure of it
                _rewind(state, len(state.history))
            if isinstance(error, Refusal):
                raise _illegal(action, error) from None
            raise
        _record(state, player, action)
        if not undoable:
            state.turn_saved = None
        auto_chance(state)

    def legal_actions(self, player: int | None = None) -> list[Action]:
        actors = self.current_players()
        if not actors:
            return []
        if player is None:
            player = actors[0]
        if player not in actors:
            return []
        state = self.state
        if state.phase in CHANCE_PHASES:
            return chance_actions(state)
        if state.phase == "power":
            taken = set(state.played)
            return [Action("power", str(v)) for v in state.hands[player] if v not in taken]
        return turn_actions(state, player)

    def can_undo(self, player: int) -> bool:
        state = self.state
        return (
            _undo_depth(state) > 0
            and state.phase == "turn"
            and player in self.current_players()
            and state.history[-1][0] == player
        )

    def undo(self, player: int) -> Action:
        """Take back the acting seat's last step of this turn (never past a power card, the end
        of a turn or a chance step)."""
        if not self.can_undo(player):
            raise UndoError("nothing to undo: a card was revealed or the turn passed")
        state = self.state
        undone = state.history[-1][1]
        _rewind(state, len(state.history) - 1)
        return undone

    def resume_as(self, options: Options) -> None:
        state = self.state
        state.options = options
        state.dealing = options.mode == "dealer"
        state.dealer_seed = options.seed
        auto_chance(state)

    # ---------------------------------------------------------------- views
    def view(self, viewer: int | None = None) -> dict[str, Any]:
        state = self.state
        out = public_view(state, self.current_players())
        if viewer is not None and 0 <= viewer < state.n:
            out["hand"] = list(state.hands[viewer])
            out["legal"] = [str(a) for a in self.legal_actions(viewer)]
            out["can_undo"] = self.can_undo(viewer)
        return out

    def snapshot(self) -> dict[str, Any]:
        state = self.state
        out = self.view(None)
        out["hands"] = [list(h) for h in state.hands]
        out["pile_cards"] = list(state.pile)
        out["turn_raw"] = list(state.turn)
        out["placed_now"] = sorted(state.placed_now)
        out["undo_depth"] = _undo_depth(state)
        return out


def parse_action(text: str) -> Action:
    """An action's text as an Action, its cells and numbers in their one written form
    (NotationError when it is not one)."""
    action = VERBS.parse(text)
    kind = action.kind
    if kind in ("start", "reveal"):
        return action
    if kind == "power":
        if not action.arg.isdigit():
            raise NotationError(f"a power card is a number 1 to 13: {text!r}")
        return Action(kind, str(int(action.arg)))
    if kind == "area":
        if not action.arg.isdigit():
            raise NotationError(f"a market slot is a number: {text!r}")
        key, side = parse_spot(action.arg2)
        return Action(kind, str(int(action.arg)), spot_name(key, side))
    if kind in ("knight", "raise", "knightgrande"):
        key, side = parse_spot(action.arg)
        if not action.arg2.isdigit():
            raise NotationError(f"a caballero number is 1 to 8: {text!r}")
        return Action(kind, spot_name(key, side), str(int(action.arg2)))
    if kind in ("ship", "reship", "shipback"):
        key, side = parse_spot(action.arg)
        return Action(kind, spot_name(key, side))
    if kind == "moveship":
        a, b = parse_spot(action.arg), parse_spot(action.arg2)
        return Action(kind, spot_name(*a), spot_name(*b))
    if kind in ("castillo", "withdraw", "grande"):
        return Action(kind, cell_name(parse_cell(action.arg)))
    if kind in ("governor", "lakeship"):
        if not action.arg2.isdigit():
            raise NotationError(f"a region is its index on the card, 0, 1, ...: {text!r}")
        return Action(kind, cell_name(parse_cell(action.arg)), str(int(action.arg2)))
    if kind in ("movecastillo", "movegrande"):
        a_key, b_key = parse_cell(action.arg), parse_cell(action.arg2)
        return Action(kind, cell_name(a_key), cell_name(b_key))
    return action


def canonical(state: State, action: Action) -> Action:
    """A caballero card next to sea only may be entered turned any way: it is recorded with
    the number facing north (the same card on the map)."""
    if action.kind != "knight" or state.phase != "turn":
        return action
    try:
        key, side = parse_spot(action.arg)
    except NotationError:
        return action
    if side == 0 or state.board.land_sides(key) or not action.arg2.isdigit():
        return action
    number = int(action.arg2)
    front = state.rules.layout[0]
    if number not in front:
        return action
    rotation = (side - front.index(number)) % 4
    return Action("knight", spot_name(key, 0), str(front[(0 - rotation) % 4]))


def _record(state: State, player: int, action: Action) -> None:
    state.history.append((player, action))
    if state.options.automatic_reinforcements and state.phase == "turn":
        auto_reinforce(state)


def _rewind(state: State, upto: int) -> None:
    """Back to the start of the turn, then the turn's steps again up to history[upto]."""
    saved = state.turn_saved
    assert saved is not None
    steps = state.history[saved.history_length : upto]
    saved.restore(state)
    for player, action in steps:
        do(state, player, action)
        _record(state, player, action)


def _undo_depth(state: State) -> int:
    """The steps of this turn that can be taken back."""
    saved = state.turn_saved
    return 0 if saved is None else len(state.history) - saved.history_length
