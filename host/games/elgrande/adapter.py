"""El Grande's host adapter: its options, summaries, prompts, Power Shift dealing on the seats'
pages, the castillo tower's facts and the region lights (host/games/__init__.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.actions import Action
from engine.core.protocol import CHANCE, GameState
from engine.elgrande.castillo_fix import FIX_VERB, read_fix
from engine.elgrande.game import Game
from engine.elgrande.verbs import CASTILLO_COUNT_WAITS, SEAT_CHANCE, VERBS
from host.games import GameAdapter, PromptView, Route
from host.games.elgrande.checklist import setup_checklist
from host.games.elgrande.gamedata import game_data
from host.games.elgrande.grande import grande_possible, grandes_in_castillo
from host.games.elgrande.prompts import SECRET_KINDS, prompt_for, seat_prompt
from host.games.elgrande.secrecy import public_log_lines, step_fields
from host.games.elgrande.tower_words import TOWER_WORDS
from host.tower.checks import Checks, GameFacts
from host.tower.lights import LightsState, sweep_of

# Choices the table's buttons never list (the verb table's `seat_only`): secret steps, and a power
# card with a modifier (the choices would show the player's secret modifier hand; the player plays
# it from their page).
NOT_AT_TABLE = VERBS.seat_only


def announceable(game: Game) -> frozenset[str]:
    """The colours a player could still announce into the castillo now: the acting player's
    own (a `place castillo` is legal), and any colour a legal `pick` could move there (a move
    may end in the castillo: over-counted rather than missed, so "announce" is never withheld
    while it could work)."""
    out: set[str] = set()
    for player in game.current_players():
        if player < 0:
            continue
        for action in game.legal_actions(player):
            if action.kind == "place" and action.arg == "castillo":
                out.add(game.state.colours[player])
            elif action.kind == "pick":
                out.add(action.arg)
            elif action.kind == "to" and action.arg == "castillo":
                out.update(game.state.colours)
    return frozenset(out)


def _game(state: GameState) -> Game:
    assert isinstance(state, Game)
    return state


def seat_indices(game: Game) -> list[int]:
    """The colours that are players (a 2-player game's dummy is not a seat)."""
    return list(game.state.seats)


def options_view(game: Game) -> dict[str, Any]:
    """The game's options as every client may see them (never the dealer's seed): with
    2 players the dummy's colour and the merged decks 2+3 as the engine set them."""
    options = game.options
    board = game.state
    dummy = board.dummy
    return {
        "edition": board.data.edition,
        "mode": options.mode,
        "players": [board.colours[p] for p in seat_indices(game)],
        "short_game": options.short_game,
        "open_castillo": options.open_castillo,
        "open_power_cards": options.open_power_cards,
        "merge_decks_2_3": options.merge_decks_2_3 or dummy >= 0,
        "new_regency": options.new_regency,
        "power_shift": options.power_shift,
        "alternatives": list(options.alternatives),
        "dummy": board.colours[dummy] if dummy >= 0 else None,
    }


def dealing_to(game: Game) -> str | None:
    """Power Shift in table mode: the colour whose modifier cards are entered now. The cards
    are that player's secret hand, so only that player's own page enters them."""
    if game.state.phase != "setup_deal" or game.current_players() != (CHANCE,):
        return None
    chance = game.legal_actions(CHANCE)
    return chance[0].arg if chance else None


def _recount_cards(game_data: Any) -> frozenset[str]:
    """Cards whose effect scores the castillo (Revelation): the castillo is lifted and its
    caballeros thrown back in."""
    return frozenset(
        card.id
        for card in game_data.cards.values()
        if any(op.get("op") == "score" and op.get("select") == "castillo" for op in card.effect)
    )


class Adapter(GameAdapter):
    """El Grande (see the module docstring)."""

    tower = True
    lights = True

    def seats(self, state: GameState) -> list[int]:
        return seat_indices(_game(state))

    def seat_of(self, state: GameState, name: str) -> int:
        return _game(state).state.colour(name)

    def options_view(self, state: GameState) -> dict[str, Any]:
        return options_view(_game(state))

    def summary(self, state: GameState) -> dict[str, Any]:
        game = _game(state)
        board = game.state
        seats = seat_indices(game)
        return {
            "edition": board.data.edition,
            "players": [board.colours[p] for p in seats],
            "options": options_view(game),
            "mode": game.options.mode,
            "phase": board.phase,
            "round": board.round_number,
            "finished": game.is_terminal(),
            "scores": {board.colours[p]: board.scores[p] for p in seats},
            "actions": len(game.history),
        }

    def log_fields(self, state: GameState) -> dict[str, Any]:
        return {"round": _game(state).state.round_number}

    def public_log(self, state: GameState, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return public_log_lines(_game(state), lines)

    def step_fields(self, action: Action, state: GameState) -> dict[str, Any]:
        return step_fields(action)

    def secret(self, action: Action) -> bool:
        return action.kind in SECRET_KINDS

    def not_at_table(self, action: Action) -> bool:
        return action.kind in NOT_AT_TABLE

    def prompt(self, state: GameState, checks: Checks | None) -> PromptView:
        return prompt_for(_game(state), checks)

    def seat_prompt(self, state: GameState, viewer: int, legal: Sequence[str]) -> PromptView | None:
        return seat_prompt(_game(state), viewer, legal)

    def setup_checklist(self, state: GameState) -> list[dict[str, Any]] | None:
        return setup_checklist(_game(state))

    def scorings(self, state: GameState) -> list[dict[str, Any]]:
        return _game(state).state.scorings

    def scoring_label(self, scoring: Mapping[str, Any]) -> str:
        return str(scoring["kind"])  # round, general (final), or a card's special scoring

    def reveals(self, state: GameState) -> list[dict[str, Any]]:
        return _game(state).state.disc_reveals

    # Power Shift in table mode: each player enters their own modifier cards
    def seat_enters(self, action: Action) -> bool:
        return action.kind in SEAT_CHANCE

    def seat_chance(self, state: GameState, colour: str) -> list[str] | None:
        """The deal steps a dealt player's page offers: every modifier card of the edition, not
        only those left in the deck (which would tell what the others were dealt)."""
        game = _game(state)
        if dealing_to(game) != colour:
            return None
        return [f"deal {colour} {card}" for card in game.state.data.grey_cards]

    def seat_chance_refusal(
        self, state: GameState, colour: str, action: Action, as_colour: str | None
    ) -> tuple[str, str] | None:
        if as_colour not in (None, colour, "chance") or action.arg != colour:
            return ("forbidden", "a seat enters only the modifier cards dealt to itself")
        dealing = dealing_to(_game(state))
        if dealing is None:
            return ("not_your_turn", "no modifier cards are being dealt now")
        if dealing != colour:
            return ("not_your_turn", f"{dealing}'s modifier cards are being dealt now")
        return None

    # the castillo tower
    def tower_facts(self, state: GameState) -> GameFacts:
        game = _game(state)
        board = game.state
        throws: dict[str, int] = {}
        for throw in board.throws:
            colour = board.colours[throw.colour]
            throws[colour] = throws.get(colour, 0) + throw.count
        castillo = {board.colours[p]: n for p, n in enumerate(board.pieces[board.CASTILLO]) if n}
        scorings = board.scorings
        return GameFacts(
            specials=grandes_in_castillo(game),
            colours=tuple(board.colours),
            phase=board.phase,
            round_index=board.round_index,
            throws=throws,
            contents=castillo,
            scorings=len(scorings),
            last_scoring=str(scorings[-1]["kind"]) if scorings else "",
            recount_cards=_recount_cards(board.data),
            can_announce=announceable(game),
            words=TOWER_WORDS,
        )

    def castillo_correction(self, state: GameState, colour: str, delta: int, why: str) -> str:
        """`castillo-fix` (engine.elgrande.castillo_fix), checked against the game now."""
        game = _game(state)
        action = Action(FIX_VERB, f"{colour}{delta:+d}", why)
        return str(read_fix(game.state, action)[2])

    def waits_for_scoring_check(self, action: Action) -> bool:
        return action.kind in CASTILLO_COUNT_WAITS

    def grande_possible(self, state: GameState, totals: Mapping[str, int]) -> bool:
        return grande_possible(_game(state), totals)

    # the region lights: the King, the acting player's targets, the castillo ring, sweeps
    def lights_state(
        self,
        state: GameState,
        checks: Checks,
        prompt: PromptView,
        sweep: tuple[tuple[str, tuple[str, ...]], ...],
        flash: int,
    ) -> LightsState:
        board = _game(state).state
        return LightsState(
            king=board.tok[board.king] if board.king >= 0 else None,
            highlights=tuple((h.area, h.colour) for h in prompt.highlights),
            waiting_throw=bool(checks.expected),
            blocked=checks.blocked,
            sweep=sweep,
            flash=flash,
        )

    def sweep(self, state: GameState, scoring: Mapping[str, Any]) -> tuple[Any, ...]:
        area_by_name = {r.name: r.ascii for r in _game(state).state.regions}
        area_by_name["castillo"] = "castillo"
        return sweep_of(scoring, area_by_name)

    def routes(self) -> list[Route]:
        return [("/api/gamedata", game_data)]
