"""Shared helpers for the El Grande engine tests: set up a table-mode game at a known position,
and play random games (uniform over the legal actions, chance weighted by its probabilities).

Import them directly (`from tests.engine.conftest import table_game`); pytest also loads this
file as the conftest of `tests/engine/`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.elgrande.actions import Action
from engine.elgrande.game import CHANCE, Game, Options

COLOURS: dict[str, tuple[str, ...]] = {
    "2023": ("purple", "green", "blue", "orange", "red"),
    "1995": ("yellow", "red", "green", "blue", "black"),
}
ALTERNATIVES_2023 = ("delegation", "veto", "veto-2", "rivalry")
# Home regions handed out in seat order from the first player (none is Castilla, the default
# King's region).
DEFAULT_HOMES = ("Toledo", "Aragon", "Galicia", "Sevilla", "Valencia")


def players_for(edition: str, n: int) -> tuple[str, ...]:
    return COLOURS[edition][:n]


def table_game(
    *,
    edition: str = "2023",
    players: Sequence[str] | None = None,
    first: str | None = None,
    king: str = "Castilla",
    homes: Sequence[str] = DEFAULT_HOMES,
    reveals: Sequence[str] | None = None,
    **options: Any,
) -> Game:
    """A table-mode game set up by entering the chance steps, stopped at round 1's power phase.

    `homes` are the home regions in seat order starting with the first player; `reveals` the
    card ids turned up on decks 1–4 (default: the first card listed in each deck)."""
    colours = tuple(players) if players is not None else players_for(edition, 4)
    game = Game(Options(players=colours, edition=edition, mode="table", **options))
    start = first or colours[0]
    game.apply(f"first {start}", CHANCE)
    keep = set(reveals or ())
    while (
        game.state.phase == "setup_remove"
    ):  # alternative cards: set aside a card not to be revealed
        game.apply(next(a for a in game.legal_actions(CHANCE) if a.arg2 not in keep), CHANCE)
    game.apply(f"kingcard {king}", CHANCE)
    seat = colours.index(start)
    for i in range(len(colours)):
        game.apply(f"home {colours[(seat + i) % len(colours)]} {homes[i]}", CHANCE)
    cards = reveals or [game.state.decks[d][0] for d in range(1, 5)]
    for deck, card in enumerate(cards, start=1):
        game.apply(f"reveal {deck} {card}", CHANCE)
    assert game.state.phase == "power", game.state.phase
    return game


def play_powers(game: Game, *values: int) -> None:
    """Play power cards in power order (one value per player, first player first)."""
    for value in values:
        game.apply(f"power {value}")


def chance_pick(game: Game, rng: random.Random) -> Action:
    outcomes = game.chance_outcomes()
    return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]


def random_step(game: Game, rng: random.Random) -> list[tuple[int, Action]]:
    """Choose the next step's actions without applying them: one chance outcome, one action of
    the acting player, or one action for every player of a simultaneous disc step."""
    actors = game.current_players()
    if actors == (CHANCE,):
        return [(CHANCE, chance_pick(game, rng))]
    return [(p, rng.choice(game.legal_actions(p))) for p in actors]


StepHook = Callable[[Game, int, Action], None]


def play_random(
    options: Options,
    seed: int,
    *,
    before: StepHook | None = None,
    after: StepHook | None = None,
    max_actions: int = 5_000,
) -> Game:
    """Play one random game; `before`/`after` run around every single action."""
    game = Game(options)
    rng = random.Random(seed)
    while not game.is_terminal():
        for player, action in random_step(game, rng):
            if before is not None:
                before(game, player, action)
            game.apply(action, player)
            if after is not None:
                after(game, player, action)
        assert len(game.history) < max_actions, "the game does not end"
    return game


def play_until(
    options: Options, seed: int, stop: Callable[[Game], bool], max_actions: int = 5_000
) -> Game | None:
    """Play randomly until `stop(game)` holds before an action; None if the game ended first."""
    game = Game(options)
    rng = random.Random(seed)
    while not game.is_terminal():
        if stop(game):
            return game
        for player, action in random_step(game, rng):
            game.apply(action, player)
        if len(game.history) >= max_actions:
            break
    return None


def record_text(game: Game) -> str:
    """The game's record as JSON text, for failure messages."""
    from engine.elgrande.record import to_record

    return json.dumps(to_record(game))


def castillo(game: Game) -> list[int]:
    return list(game.state.pieces[game.state.CASTILLO])


def counts(game: Game) -> Mapping[str, Any]:
    """Where every caballero is, per colour (a compact state summary for assertions)."""
    return {
        "pieces": [list(row) for row in game.state.pieces],
        "court": list(game.state.court),
        "province": list(game.state.province),
    }


def passive_action(game: Game, player: int) -> Action:
    """A quiet, always-legal choice: lowest power card, take nothing, first face-up card, no
    special action, no placement, the first disc."""
    legal = game.legal_actions(player)
    for kind in ("take", "skip", "done"):
        for action in legal:
            if action.kind == kind:
                return action
    return legal[0]


def advance(game: Game, stop: Callable[[Game], bool]) -> None:
    """Play passively (chance: the first outcome) until `stop(game)` holds."""
    while not stop(game):
        assert not game.is_terminal(), "the game ended first"
        actors = game.current_players()
        if actors == (CHANCE,):
            game.apply(game.legal_actions(CHANCE)[0], CHANCE)
            continue
        for player in actors:
            game.apply(passive_action(game, player), player)


def next_round(game: Game) -> None:
    """Play the rest of the round passively; stop at the next round's power phase."""
    index = game.state.round_index
    advance(
        game,
        lambda g: g.is_terminal() or (g.state.round_index > index and g.state.phase == "power"),
    )


def next_round_with(game: Game, reveals: Sequence[str], first_to_act: str) -> None:
    """Play the round out passively, enter the next round's cards for decks 1–4, then play
    power cards so that `first_to_act` plays 13 (acts first) and the others the lowest they
    can; stops at that player's take step."""
    advance(game, lambda g: g.state.phase == "reveal")
    for deck, card in enumerate(reveals, start=1):
        game.apply(f"reveal {deck} {card}", CHANCE)
    leader = game.state.colour(first_to_act)
    while game.state.phase == "power":
        player = game.current_player()
        legal = game.legal_actions(player)
        wanted = [a for a in legal if a.arg == "13"] if player == leader else legal[:1]
        game.apply(wanted[0], player)
    assert game.state.turn is not None and game.state.turn.player == leader
