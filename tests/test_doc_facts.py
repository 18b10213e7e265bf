"""The numbers and paths the docs quote are true: a count of verbs, a file or a test folder that
moved or grew fails here, not in a reader's hands.

- "N verbs" (with "…: a, b and c groups" after it) on a line that names `engine/<game>/verbs.py`
  must equal that game's verb table; a count that names no verb table is refused.
- Every repository path in backticks in README.md and docs/*.md exists; a path with a `<game>`
  or `<id>` placeholder exists for at least one registered game, one with `<lang>` (or any
  other placeholder, or a glob) for at least one value.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import registry
from engine.core.verbs import VerbTable

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# folders of the checkout a doc may point into
TOP = ("engine", "host", "tests", "bench", "firmware", "hardware", "docs", "tools")
# written by a test or a command, not committed
GENERATED = ("tests/app/artifacts/",)

COUNT = re.compile(r"\b(\d+) verbs\b(?::\s*([a-z ,]+?) groups)?")
VERB_TABLE = re.compile(r"engine/(\w+)/verbs\.py")
PATH = re.compile(r"`((?:" + "|".join(TOP) + r")/[^`\s]*)`")
GAME = re.compile(r"<(?:game|id)>|\{(?:game|id)\}")  # stands for every registered game
PLACEHOLDER = re.compile(r"<\w+>|\{\w+\}")  # any other: <lang>, {lang}


def _lines() -> list[tuple[str, int, str]]:
    return [
        (doc.relative_to(ROOT).as_posix(), number, line)
        for doc in DOCS
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1)
    ]


def _groups(table: VerbTable) -> set[str]:
    """The groups a reader sees: a chance verb with no group of its own is in "chance"."""
    return {verb.group or ("chance" if verb.chance else "") for verb in table} - {""}


def _named(words: str) -> set[str]:
    return {w for w in re.split(r",\s*|\s+and\s+", words.strip()) if w}


def _verb_counts() -> list[tuple[str, re.Match[str], str]]:
    return [
        (f"{doc}:{number}", match, line)
        for doc, number, line in _lines()
        for match in COUNT.finditer(line)
    ]


def test_the_docs_quote_a_verb_count() -> None:
    """The check below has something to check (docs/game-protocol.md's El Grande row)."""
    assert any(where.startswith("docs/game-protocol.md") for where, _, _ in VERB_COUNTS)


VERB_COUNTS = _verb_counts()


@pytest.mark.parametrize(("where", "match", "line"), VERB_COUNTS, ids=[c[0] for c in VERB_COUNTS])
def test_verb_counts_in_the_docs_are_the_verb_tables(
    where: str, match: re.Match[str], line: str
) -> None:
    tables = VERB_TABLE.findall(line)
    assert len(tables) == 1, f"{where}: say whose verbs these are (`engine/<game>/verbs.py`)"
    table = registry.get(tables[0]).verbs
    assert int(match.group(1)) == len(table.verbs), (
        f"{where}: {match.group(0)!r}, but engine/{tables[0]}/verbs.py has {len(table.verbs)}"
    )
    if match.group(2):
        named, groups = sorted(_named(match.group(2))), sorted(_groups(table))
        assert named == groups, f"{where}: groups {named}, the table's {groups}"


def _paths() -> list[tuple[str, str]]:
    return [
        (f"{doc}:{number}", path.rstrip(".,:;"))
        for doc, number, line in _lines()
        for path in PATH.findall(line)
        if not path.startswith(GENERATED)
    ]


def _exists(path: str) -> bool:
    """Whether the path exists, a placeholder standing for any value (a game for <game>)."""
    path = path.split("::")[0].rstrip("/")  # a test's node id; a folder
    for game in registry.ids() if GAME.search(path) else [""]:
        pattern = PLACEHOLDER.sub("*", GAME.sub(game, path))
        if any(c in pattern for c in "*?["):
            if any(ROOT.glob(pattern)):
                return True
        elif (ROOT / pattern).exists():
            return True
    return False


def test_paths_in_the_docs_exist() -> None:
    missing = [f"{where}: {path}" for where, path in _paths() if not _exists(path)]
    assert not missing, "paths the docs name that do not exist:\n" + "\n".join(missing)


def test_the_path_check_reads_the_docs() -> None:
    paths = {path for _, path in _paths()}
    assert "tests/engine/platform/test_conformance.py" in paths
    assert any(GAME.search(p) for p in paths)
    assert not _exists("tests/<game>/") and not _exists("engine/elgrande/nothing.py")
    assert _exists("tests/engine/<game>/") and _exists("docs/*.md")
