"""What to play of each registered game: its spec's test options for every player count, in both
table modes (`"table"`: the table enters the chance steps; `"dealer"`: the app deals), and every
option with a non-default value at least once.

Boolean options the test options leave at their default are flipped in one more game; any other
option needs a value here (`EXTRA_VALUES`), else `uncovered()` names it and the suite fails.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import registry
from engine.core.spec import GameSpec
from tests.engine.platform import nim

MODES = ("dealer", "table")
SEED_OF_TABLE_GAMES = None  # a table game draws nothing: no seed


def _elgrande_dummy(players: list[str]) -> str | None:
    """A 2-player El Grande game's dummy: the last colour of the palette nobody plays."""
    from engine.elgrande import data as gamedata

    if len(players) != 2:
        return None
    free = [c for c in gamedata.load("2023").colours if c not in players]
    return free[-1]


# Non-boolean options no test option sets: a value for a game of these players (None: not with
# this many players).
EXTRA_VALUES: dict[str, dict[str, Callable[[list[str]], Any]]] = {
    "elgrande": {"dummy": _elgrande_dummy},
}
# Options a game's lobby does not offer (the record reader sets them: El Grande's card set of an
# upgraded record; the host reads them from a file: El Caballero's catalogue file's cards).
NOT_LOBBY = {"elgrande": {"card_set"}, "elcaballero": {"catalogue_label", "catalogue_cards"}}
NOT_OPTIONS = {"players", "seed", "mode"}
# The quick plan's games (`make test`) are shortened where the game has a shorter form: El
# Grande's short game (6 rounds rather than 9). The full plan (`make soak`) plays them as given.
QUICK_OPTIONS: dict[str, dict[str, Any]] = {"elgrande": {"short_game": True}}


@dataclass(frozen=True)
class Plan:
    """One game to play: the body of POST /api/games."""

    game: str
    players: int
    mode: str  # "dealer", "table", or "" for a game without modes
    options: tuple[tuple[str, Any], ...]  # the options' JSON, "game" excluded
    label: str

    def body(self, spec: GameSpec) -> dict[str, Any]:
        """POST /api/games: the players, mode and seed, and the options not at their default
        (a form leaves the others out; some fields, e.g. El Grande's `card_set`, are the
        record reader's only and refused from a client)."""
        raw = dict(self.options)
        changed = self.non_default(spec) | (NOT_OPTIONS & set(raw))
        return {"game": self.game, **{k: v for k, v in raw.items() if k in changed}}

    def non_default(self, spec: GameSpec) -> set[str]:
        defaults = {o["name"]: o["default"] for o in spec.options_schema()}
        raw = dict(self.options)
        return {name for name, value in raw.items() if name in defaults and value != defaults[name]}


def specs() -> list[GameSpec]:
    """Every registered game, and the test-only Nim (registered by the suite's server)."""
    found = {spec.id: spec for spec in registry.specs()}
    found.setdefault(nim.SPEC.id, nim.SPEC)
    return [found[k] for k in sorted(found)]


def spec_of(game_id: str) -> GameSpec:
    return next(spec for spec in specs() if spec.id == game_id)


def _with_mode(spec: GameSpec, raw: dict[str, Any], mode: str) -> dict[str, Any]:
    if "mode" not in raw:
        return raw
    out = {**raw, "mode": mode}
    if mode == "table":
        out["seed"] = SEED_OF_TABLE_GAMES
    elif out.get("seed") is None:
        out["seed"] = len(raw["players"])
    return out


def candidates(spec: GameSpec) -> list[Plan]:
    """Every test option of every player count in every mode."""
    has_modes = any(o["name"] == "mode" for o in spec.options_schema())
    out: list[Plan] = []
    for players in spec.player_counts:
        for index, variant in enumerate(spec.test_options(players)):
            raw = spec.options_to_json(variant)
            for mode in MODES if has_modes else ("",):
                options = _with_mode(spec, raw, mode) if mode else raw
                label = f"{spec.id}-{players}p-{index}" + (f"-{mode}" if mode else "")
                out.append(Plan(spec.id, players, mode, tuple(options.items()), label))
    return out


def extras(spec: GameSpec, base: list[Plan]) -> list[Plan]:
    """One more game for the options no test option sets: the booleans flipped, the other
    fields from EXTRA_VALUES, on the fewest players' first test option (table mode if any)."""
    covered: set[str] = set()
    for plan in base:
        covered |= plan.non_default(spec)
    schema = {o["name"]: o for o in spec.options_schema()}
    skip = NOT_OPTIONS | NOT_LOBBY.get(spec.id, set())
    missing = [n for n in schema if n not in covered and n not in skip]
    if not missing:
        return []
    first = min(base, key=lambda p: (p.players, p.mode != "table"))
    raw = dict(first.options)
    values = EXTRA_VALUES.get(spec.id, {})
    for name in missing:
        if schema[name]["kind"] == "bool":
            raw[name] = not schema[name]["default"]
        elif name in values:
            value = values[name](list(raw["players"]))
            if value is not None:
                raw[name] = value
    label = f"{first.label}-extra"
    return [Plan(spec.id, first.players, first.mode, tuple(raw.items()), label)]


def uncovered(spec: GameSpec, plans: list[Plan]) -> list[str]:
    """Options (beyond players, seed, mode) no plan sets to a non-default value."""
    covered: set[str] = set()
    for plan in plans:
        covered |= plan.non_default(spec)
    names = [o["name"] for o in spec.options_schema()]
    skip = NOT_OPTIONS | NOT_LOBBY.get(spec.id, set())
    return [n for n in names if n not in covered and n not in skip]


def full_plan(spec: GameSpec) -> list[Plan]:
    """Every test option of every player count in both modes, and the extra options."""
    base = candidates(spec)
    return base + extras(spec, base)


def quick_plan(spec: GameSpec) -> list[Plan]:
    """The fewest games that still play every player count in both modes and every option
    with a non-default value (greedy: each next game adds the most uncovered options)."""
    everything = full_plan(spec)
    chosen: list[Plan] = []
    covered: set[str] = set()
    for players in spec.player_counts:
        for mode in sorted({p.mode for p in everything}):
            pool = [p for p in everything if p.players == players and p.mode == mode]
            pick = max(pool, key=lambda p: len(p.non_default(spec) - covered))
            chosen.append(pick)
            covered |= pick.non_default(spec)
    wanted = set().union(*(p.non_default(spec) for p in everything)) - {"players"}
    while wanted - covered:
        pick = max(everything, key=lambda p: len(p.non_default(spec) & (wanted - covered)))
        chosen.append(pick)
        covered |= pick.non_default(spec)
    shorter = QUICK_OPTIONS.get(spec.id, {})
    return [
        Plan(p.game, p.players, p.mode, tuple({**dict(p.options), **shorter}.items()), p.label)
        for p in chosen
    ]
