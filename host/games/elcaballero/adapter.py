"""El Caballero's host adapter: the card catalogue a game is played with (none, the SYNTHETIC
set, or a catalogue file of the host's, catalogues.py: its cards are read into the options, so
the record replays without the file; a refused file is named on the lobby's field with its line),
a dealer game without a catalogue refused on its field, the scorings, the facts the log's
sentences need (which island or sea a move was at, by the names the map shows), and what the UI
plugin draws with: the printed numbers (GET /api/elcaballero/rules) and the cards of the SYNTHETIC
catalogue (GET /api/elcaballero/catalogue; a file's cards come with the game's options)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from engine.core.actions import Action
from engine.core.errors import OptionsError
from engine.core.protocol import GameState
from engine.elcaballero.board import Map, xy_of
from engine.elcaballero.cards import LAND
from engine.elcaballero.catalogue import CatalogueError, load_synthetic, to_entries
from engine.elcaballero.game import Game
from engine.elcaballero.notation import parse_cell, parse_spot
from engine.elcaballero.options import CATALOGUES
from engine.elcaballero.rules import load_rules
from engine.elcaballero.state import State
from host.api.errors import ActionError
from host.games import GameAdapter, Route
from host.games.elcaballero import catalogues

log = logging.getLogger("host.games.elcaballero")
# set from the catalogue file the lobby names, never by a client
FROM_THE_FILE = ("catalogue_label", "catalogue_cards")
# shown beside Start while the form's values match `when` (host/app/static/js/lobby.js)
WARNINGS = (
    {"when": {"mode": "table", "catalogue": "synthetic"}, "key": "ec.lobby.synthetic_table"},
)


def _game(state: GameState) -> Game:
    assert isinstance(state, Game)
    return state


async def rules_json() -> dict[str, Any]:
    """What a phone shows of the rules: caballeros per power card, the card that places two
    area cards, the numbers on a caballero card (front and back, clockwise from north)."""
    rules = load_rules()
    return {
        "power_caballeros": list(rules.power_caballeros),
        "two_area_cards": rules.two_area_cards,
        "caballero_card": {"front": list(rules.layout[0]), "back": list(rules.layout[1])},
        "court_per_card": rules.court_per_card,
    }


async def catalogue_json() -> dict[str, Any]:
    """The card catalogue this host deals from (the shipped SYNTHETIC set, not the real cards):
    each card's id and description, so that a tablet draws the card a player picks."""
    catalogue = load_synthetic()
    return {
        "label": catalogue.label,
        "synthetic": catalogue.synthetic,
        "cards": [
            {"id": card.id, "text": card.text, "count": card.count}
            for card in catalogue.cards.values()
        ],
    }


def _letters(i: int) -> str:
    """0 -> "A", 25 -> "Z", 26 -> "AA" (static/labels.js, letters)."""
    out = ""
    n = i + 1
    while n > 0:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


def region_labels(board: Map) -> dict[int, str]:
    """Each region's name on the map (root -> label), by the rule of static/labels.js: islands
    lettered A, B, ... and seas numbered 1, 2, ..., each kind in reading order of its top-left
    card (the northmost row first, then from the west), ties by treasure, then size."""
    labels: dict[int, str] = {}
    for land in (True, False):
        rows = []
        for root in board.roots():
            if (board.kind[root] == LAND) != land:
                continue
            cells = board.root_cells[root]
            first = min((xy_of(k)[1], xy_of(k)[0]) for k in cells)
            rows.append((first, board.root_treasure[root], len(cells), root))
        rows.sort()
        for n, row in enumerate(rows):
            labels[row[3]] = _letters(n) if land else str(n + 1)
    return labels


def _around(board: Map, key: int, labels: dict[int, str]) -> dict[str, list[str]]:
    """The islands a cell faces (each once, in the order of the sides N E S W); the seas only
    when it faces no island (a caballero card is named by its island)."""
    out: dict[str, list[str]] = {"islands": [], "seas": []}
    for side in range(4):
        kind, root = board.facing(key, side)
        if kind < 0:
            continue
        where = out["islands" if kind == LAND else "seas"]
        if labels[root] not in where:
            where.append(labels[root])
    if out["islands"]:
        out["seas"] = []
    return out


def _sea_at(board: Map, spot: str, labels: dict[int, str]) -> str:
    """The sea a caballero card's edge faces ("" when none)."""
    key, side = parse_spot(spot)
    kind, root = board.facing(key, side)
    return labels[root] if kind >= 0 and kind != LAND else ""


def action_facts(state: State, player: int, action: Action) -> dict[str, Any]:
    """What the log's sentence of `action` (just made: `state` is the state after it) needs
    beyond its text: the islands and seas by the names the map shows, never coordinates; the
    card turned up in words (its description); the caballeros reinforcements brought."""
    board = state.board
    kind = action.kind
    if kind in ("start", "reveal"):
        card = state.catalogue.get(action.arg) if state.catalogue is not None else None
        return {"card": card.text if card is not None else action.arg}
    labels = region_labels(board)
    if kind == "area":
        key, _side = parse_spot(action.arg2)
        placed = board.areas.get(key)
        if placed is None:
            return {}
        roots = [board.find(node) for node in placed.nodes]
        islands = sorted({labels[r] for r in roots if board.kind[r] == LAND})
        seas = sorted({labels[r] for r in roots if board.kind[r] != LAND}, key=int)
        return {"islands": islands, "seas": seas}
    if kind in ("knight", "raise", "knightgrande"):
        return _around(board, parse_spot(action.arg)[0], labels)
    if kind in ("ship", "reship", "shipback"):
        key = parse_spot(action.arg)[0]
        return {**_around(board, key, labels), "sea": _sea_at(board, action.arg, labels)}
    if kind == "moveship":
        return {
            "sea": _sea_at(board, action.arg, labels),
            "to_sea": _sea_at(board, action.arg2, labels),
        }
    if kind in ("castillo", "withdraw", "grande", "governor", "lakeship"):
        return _around(board, parse_cell(action.arg), labels)
    if kind in ("movecastillo", "movegrande"):
        before = _around(board, parse_cell(action.arg), labels)["islands"]
        after = _around(board, parse_cell(action.arg2), labels)["islands"]
        return {"islands": before, "to_islands": after}
    if kind == "reinforce" and 0 <= player < state.n and state.played[player]:
        return {"n": state.rules.power_caballeros[state.played[player] - 1]}
    return {}


def with_catalogue_file(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A client's options with the cards of the catalogue file it names (read now: the game
    keeps them); refused, the file's problem and line are shown on the `catalogue` field, the
    problem as a translation key too (`problem_key`, `problem_params`)."""
    out = dict(raw)
    sent = [name for name in FROM_THE_FILE if name in out]
    if sent:
        why = "set from the catalogue file, not by a client"
        raise ActionError(
            "bad_options",
            f"'{sent[0]}': {why}",
            key="ec.catalogue_set_by_file",
            params={"field": sent[0]},
            errors=dict.fromkeys(sent, why),
        )
    name = out.get("catalogue")
    if not isinstance(name, str) or name in CATALOGUES:
        return out
    try:
        catalogue = catalogues.load(name)
    except KeyError:
        why = f"no catalogue file {name[:80]!r} here"
        raise ActionError(
            "bad_options",
            f"'catalogue': {why}",
            key="ec.catalogue_not_here",
            params={"field": "catalogue", "file": name[:80]},
            errors={"catalogue": why},
        ) from None
    except CatalogueError as refused:
        key = "ec.catalogue_refused" + ("_line" if refused.line else "")
        raise ActionError(
            "bad_options",
            str(refused),
            key=key,
            params={
                "field": "catalogue",
                "file": name,
                "line": refused.line,
                "problem": refused.problem,
                # the problem in the lobby's language: its key and parameters (a card's own
                # problem nested in them the same way)
                "problem_key": refused.key,
                "problem_params": refused.params,
            },
            errors={"catalogue": str(refused)},
        ) from None
    out.update(catalogue_label=catalogue.label, catalogue_cards=list(to_entries(catalogue)))
    return out


class Adapter(GameAdapter):
    """El Caballero (see the module docstring). No tower, no lights: it runs without them."""

    def new_state(self, raw: Mapping[str, Any]) -> GameState:
        options = self.spec.options_from_json(with_catalogue_file(raw))
        try:
            return self.spec.new_state(options)
        except ValueError as refused:  # dealer mode needs a catalogue to deal from
            raise OptionsError({"catalogue": str(refused)}) from None

    def describe(self) -> dict[str, Any]:
        """The lobby's entry: the catalogue a choice of none, the SYNTHETIC set and the host's
        catalogue files (`--catalogue`'s preselected); a warning beside Start for table mode
        with the SYNTHETIC set (not the real cards: a real box's cards are not among them)."""
        out = super().describe()
        shown = []
        for option in out["options"]:
            if option["name"] in FROM_THE_FILE:
                continue
            if option["name"] == "catalogue":
                option = {
                    **option,
                    "choices": [*CATALOGUES, *catalogues.names()],
                    "default": catalogues.default(),
                }
            shown.append(option)
        out["options"] = shown
        out["warnings"] = [dict(w) for w in WARNINGS]
        return out

    def summary(self, state: GameState) -> dict[str, Any]:
        """The saved game's line: its catalogue named, its cards left out."""
        out = super().summary(state)
        out["options"].pop("catalogue_cards", None)
        return out

    def scorings(self, state: GameState) -> list[dict[str, Any]]:
        return _game(state).state.scorings

    def log_fields(self, state: GameState) -> dict[str, Any]:
        """The round, and the facts of the game's last step for its sentence (static/log.js):
        `facts.about` is that step's public text, so that a line logged together with later
        steps (a turn's end and the cards the dealer turns up) takes only its own."""
        game = _game(state)
        fields: dict[str, Any] = {"round": game.state.round}
        if not game.history:
            return fields
        player, action = game.history[-1]
        try:
            facts = action_facts(game.state, player, action)
        except Exception:  # words only: they never fail the step itself
            log.warning("no log facts for %s", action, exc_info=True)
            facts = {}  # the sentence without them (it says less, never a coordinate)
        if facts:
            fields["facts"] = {"about": self.public_text(action, state), **facts}
        return fields

    def scoring_label(self, scoring: Mapping[str, Any]) -> str:
        return f"after round {scoring['round']}"  # every scoring ends a round (EC rules)

    def routes(self) -> list[Route]:
        return [
            ("/api/elcaballero/rules", rules_json),
            ("/api/elcaballero/catalogue", catalogue_json),
        ]
