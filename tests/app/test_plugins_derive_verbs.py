"""The UI keeps no verb list of its own (issue 22): the shell and each game's plugin read the
engine's verb table (`GET /api/games/<id>/verbs`, host/app/static/js/verbs.js) for which verbs
are chance steps, a verb's group, tags, steps and argument kinds, and never restate them.

Scanned in every JavaScript file of the shell and of a game's plugin folder: each array (or
Set) literal of strings, and each chain `verb === "a" || verb === "b"` (the variable holding a
verb: `verb` or `kind`, as the plugins name it). Such a list with two or more of a game's verb
names is refused when it names a chance verb, or when its verbs are exactly a set the table
says (its chance verbs, one group, one tag, the verbs answering one step, the verbs whose
argument at some place is of one kind, its seat-only, secret or undo-barrier verbs). A verb's
own wording (a `switch` of labels) or the panel's look of a verb (a map keyed by verb) is the
UI's and stays in the plugin. Likewise no list of parameter names of one kind (a game's
declared kinds of its prompts' and refusals' parameters): the page types them by those kinds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import registry
from engine.core.verbs import VerbTable
from host.games import adapter_for

REPO = Path(__file__).resolve().parents[2]
SHELL = REPO / "host" / "app" / "static" / "js"
GAMES = REPO / "host" / "games"

STRING = r"""(?:"[^"\\\n]*"|'[^'\\\n]*')"""
ARRAY = re.compile(r"\[\s*(" + STRING + r"(?:\s*,\s*" + STRING + r")*)\s*,?\s*\]")
VERB_VAR = r"((?:[\w$]+\.)*(?:verb|kind))"
CHAIN = re.compile(VERB_VAR + r"\s*===\s*" + STRING + r"(?:\s*\|\|\s*\1\s*===\s*" + STRING + r")+")
LITERAL = re.compile(STRING)


def literal_lists(source: str) -> Iterator[tuple[int, list[str]]]:
    """(line, the strings) of each array literal of strings and each `verb ===` chain."""
    for pattern, group in ((ARRAY, 1), (CHAIN, 0)):
        for match in pattern.finditer(source):
            words = [text[1:-1] for text in LITERAL.findall(match.group(group))]
            yield source.count("\n", 0, match.start()) + 1, words


def table_sets(table: VerbTable) -> list[frozenset[str]]:
    """Every set of verbs the table says (see the module docstring)."""
    verbs = list(table)
    sets = [table.chance, table.seat_only, table.secret, table.undo_barriers]
    sets += [frozenset(table.group(group)) for group in {v.group for v in verbs} if group]
    sets += [frozenset(table.tagged(tag)) for tag in {t for v in verbs for t in v.tags}]
    sets += [frozenset(names) for names in table.by_step().values()]
    kinds = {(i, kind) for v in verbs for i, kind in enumerate(v.args)}
    sets += [frozenset(v.name for v in verbs if v.args[i : i + 1] == (kind,)) for i, kind in kinds]
    sets += [frozenset(v.name for v in verbs if kind in v.args) for _i, kind in kinds]
    return [s for s in sets if len(s) >= 2]


def restated(words: list[str], table: VerbTable) -> str | None:
    """Why a list restates the table, or None."""
    named = frozenset(w for w in words if w in table)
    if len(named) < 2:
        return None
    if named & table.chance:
        return f"names chance verbs {sorted(named & table.chance)}"
    if named in table_sets(table):
        return f"is a set of the verb table: {sorted(named)}"
    return None


def _files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.js"))


def _problems(path: Path, tables: list[VerbTable]) -> list[str]:
    out = []
    for line, words in literal_lists(path.read_text("utf-8")):
        for table in tables:
            why = restated(words, table)
            if why:
                out.append(f"{path.relative_to(REPO)}:{line} {why}")
    return out


TABLES = {spec.id: spec.verbs for spec in registry.specs()}


def param_kinds(game: str) -> dict[str, str]:
    """Parameter name -> kind, over every family the game declares (a name of two kinds: none)."""
    kinds: dict[str, set[str]] = {}
    for names in adapter_for(registry.get(game)).vocabulary()["param_kinds"].values():
        for name, kind in names.items():
            kinds.setdefault(name, set()).add(kind)
    return {name: next(iter(k)) for name, k in kinds.items() if len(k) == 1}


# the kinds a page words (a name, a swatch); a number or a text is shown as it is
WORDED = frozenset({"colour", "colours", "area", "card", "modifier"})


def typed_by_name(words: list[str], kinds: dict[str, str]) -> str | None:
    """Why a list naming two or more parameters of one worded kind restates the declared
    kinds, or None."""
    named = [w for w in words if kinds.get(w) in WORDED]
    if len(named) >= 2 and len({kinds[w] for w in named}) == 1:
        return f"lists the {kinds[named[0]]!r} parameters {named}"
    return None


@pytest.mark.parametrize("game", sorted(TABLES))
def test_no_plugin_types_parameters_by_a_list_of_their_names(game: str) -> None:
    folder = GAMES / game / "static"
    kinds = param_kinds(game)
    if not folder.is_dir() or not kinds:
        pytest.skip(f"{game} declares no parameter kinds")
    problems = [
        f"{path.relative_to(REPO)}:{line} {why}"
        for path in _files(folder)
        for line, words in literal_lists(path.read_text("utf-8"))
        if (why := typed_by_name(words, kinds))
    ]
    assert not problems, "\n".join(problems)


def test_the_scan_refuses_the_parameter_lists_el_grande_kept() -> None:
    kinds = param_kinds("elgrande")
    for source in (
        'const COLOUR_PARAMS = new Set(["colour", "against"]);',
        'const COLOUR_LISTS = new Set(["actor", "waiting_for", "who"]);',
        'const AREA_PARAMS = new Set(["from", "area", "region", "king"]);',
    ):
        assert any(typed_by_name(words, kinds) for _line, words in literal_lists(source)), source
    assert not typed_by_name(["region", "castillo"], kinds)  # board.js: an area, a count


@pytest.mark.parametrize("game", sorted(TABLES))
def test_no_plugin_lists_its_games_verbs_by_hand(game: str) -> None:
    folder = GAMES / game / "static"
    if not folder.is_dir():
        pytest.skip(f"{game} has no plugin folder")
    problems = [p for path in _files(folder) for p in _problems(path, [TABLES[game]])]
    assert not problems, "\n".join(problems)


def test_the_shell_lists_no_games_verbs() -> None:
    problems = [p for path in _files(SHELL) for p in _problems(path, list(TABLES.values()))]
    assert not problems


# The lists the plugins kept before the verb table was served (commit f5c1314): each is refused.
OLD_LISTS = [
    (
        "elgrande",
        'if (["first", "kingcard", "home", "reveal", "remove", "deal", "dummycard", '
        '"dummypower"].includes(verb)) {',
    ),
    ("elgrande", 'if (["veto", "allow"].includes(verb)) return "veto";'),
    (
        "elgrande",
        'const colour = ["pick", "return", "home", "first", "deal", "movegrande", '
        '"viceroy"].includes(verb) ? args[0] : null;',
    ),
    (
        "elgrande",
        'if (["place", "to", "pick", "return", "recall", "grande", "movegrande", '
        '"tile"].includes(verb) && area === king) {',
    ),
    ("elcaballero", 'else if (kind === "start" || kind === "reveal") out.chance.push(text);'),
    ("kingdomino", 'if (["claim", "place", "discard"].includes(verb)) return 1;'),
    ("kingdomino", 'if (verb === "place" || verb === "discard") {'),
    ("kingdomino", "const CHANCE = new Set(['draw', 'king']);"),
]


@pytest.mark.parametrize(("game", "source"), OLD_LISTS)
def test_the_scan_refuses_each_list_the_plugins_kept(game: str, source: str) -> None:
    found = [restated(words, TABLES[game]) for _line, words in literal_lists(source)]
    assert any(found), source


def test_the_scan_lets_the_uis_own_words_be() -> None:
    """Lists that are not the table's: page parts, a phase compared, wording per verb."""
    allowed = [
        'export const tableParts = ["prompt", "choices", "board", "cards"];',
        'if (game.phase === "start" || game.phase === "reveal") {',
        'if (["done", "skip", "allow"].includes(verb)) quiet = true;',
        'const PANEL = { veto: { heading: "veto" }, allow: { heading: "veto" } };',
        'switch (verb) { case "first": case "home": return 1; }',
    ]
    for source in allowed:
        found = [restated(words, TABLES["elgrande"]) for _l, words in literal_lists(source)]
        found += [restated(words, TABLES["elcaballero"]) for _l, words in literal_lists(source)]
        assert not any(found), source
