"""`make lint`'s ESLint (tools/jslint) checks every folder of the UI's JavaScript: the shell's and
each game plugin's (the games read from host/games/, so a new one is probed too). A file its
`files` patterns missed would be skipped without a word; here a probe with an undefined name,
an unused import and `==` must be refused in each folder.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "tools" / "jslint"
ESLINT = TOOLS / "node_modules" / ".bin" / "eslint"
GAMES = sorted(p.parent.name for p in (ROOT / "host" / "games").glob("*/static"))
FOLDERS = ["host/app/static/js", *(f"host/games/{game}/static" for game in GAMES)]

PROBE = 'import { h } from "/static/js/dom.js";\nif (nowhere == 1) console.log("x");\n'


def _eslint(source: str, filename: str) -> tuple[int, str]:
    assert ESLINT.is_file(), "ESLint is not installed: `make lint` (npm ci in tools/jslint)"
    done = subprocess.run(
        [
            str(ESLINT),
            "-c",
            str(TOOLS / "eslint.config.mjs"),
            "--stdin",
            "--stdin-filename",
            filename,
        ],
        input=source,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stdout + done.stderr


def test_every_game_has_ui_folder_probed() -> None:
    assert {"elgrande", "kingdomino", "elcaballero"} <= set(GAMES)


@pytest.mark.parametrize("folder", FOLDERS)
def test_eslint_refuses_a_faulty_file_in_every_ui_folder(folder: str) -> None:
    rc, out = _eslint(PROBE, f"{folder}/lint_probe.js")
    assert rc == 1, out
    for rule in ("no-undef", "no-unused-vars", "eqeqeq"):
        assert rule in out, out


@pytest.mark.parametrize("folder", FOLDERS)
def test_eslint_passes_a_clean_module(folder: str) -> None:
    source = (
        'import { h } from "/static/js/dom.js";\nexport const probe = () => h("p", {}, "ok");\n'
    )
    rc, out = _eslint(source, f"{folder}/lint_probe.js")
    assert rc == 0, out
