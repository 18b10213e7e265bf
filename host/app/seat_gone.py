"""The page a seat link that no longer works opens (`GET /seat/{token}` with an unknown token: a
link replaced by **New link**, a link of a game no longer played, a mistyped one).

It says what happened and how to get a new link, in the reader's language: `?lang=` (the page's
own language links), else the first language of the browser's Accept-Language the app speaks,
else the table's language. The words come from the shell's bundles (static/i18n/<lang>.json,
keys `gone.*`), the names of the Seats tab and the New link button included, so the page says
what the table's screen shows. Rendered here, not by the seat page's script: a link that does
not work must not start a page that would try to connect with it.
"""

from __future__ import annotations

import functools
import html
import json
import logging
import re
from pathlib import Path

from host.app.session import LANGUAGES

log = logging.getLogger("host.app.seat_gone")

# what the page needs when a bundle cannot be read (the app's files damaged): English
FALLBACK = {
    "app.title": "Castillo",
    "gone.title": "This seat link no longer works",
    "gone.why": (
        "It was replaced by a new link for your colour, it belongs to a game that is no longer "
        "being played, or it was mistyped."
    ),
    "gone.how": (
        "Ask at the table: on the “{seats}” tab, scan the code of your colour again. If your "
        "colour shows no code, the table taps “{reissue}” for it and you scan the new code."
    ),
    "ui.language": "Language",
    "ui.seats": "Seats",
    "ui.reissue": "New link",
}
_RANGE = re.compile(r"^\s*([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*$")


def choose_language(asked: str | None, accept_language: str | None, table_lang: str) -> str:
    """`asked` (the page's own links) if the app speaks it, else the first language of the
    Accept-Language header (by its q-values) the app speaks, else the table's language."""
    if asked in LANGUAGES:
        return str(asked)
    ranked: list[tuple[float, int, str]] = []
    for i, item in enumerate((accept_language or "")[:1000].split(",")):
        tag, _, params = item.partition(";")
        match = _RANGE.match(tag)
        if match is None:
            continue  # "*", empty, or not a language range
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if weight > 0:
            ranked.append((-weight, i, match.group(1).lower()))
    for _, _, lang in sorted(ranked):
        if lang in LANGUAGES:
            return lang
    return table_lang if table_lang in LANGUAGES else "en"


@functools.lru_cache(maxsize=16)
def _strings(i18n_dir: Path, lang: str) -> dict[str, str]:
    try:
        raw = json.loads((i18n_dir / f"{lang}.json").read_text(encoding="utf-8"))
        if not isinstance(raw, dict):
            raise ValueError("not a JSON object")
    except (OSError, ValueError) as exc:
        log.error("the %s strings of the seat-link page not read: %s", lang, exc)
        raw = {}
    strings = dict(FALLBACK)
    strings.update({k: v for k, v in raw.items() if k in FALLBACK and isinstance(v, str)})
    return strings


def page(static_dir: Path, lang: str) -> str:
    """The page's HTML in `lang` (one of LANGUAGES), styled by the app's stylesheet."""
    t = _strings(static_dir / "i18n", lang)
    esc = html.escape
    how = t["gone.how"].replace("{seats}", t["ui.seats"]).replace("{reissue}", t["ui.reissue"])
    links = " ".join(
        f'<a href="?lang={code}" hreflang="{code}" lang="{code}"'
        + (' aria-current="true"' if code == lang else "")
        + f">{code.upper()}</a>"
        for code in LANGUAGES
    )
    return f"""<!doctype html>
<html lang="{lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
  <meta name="theme-color" content="#5b1a14">
  <meta name="referrer" content="no-referrer">
  <title>{esc(t["gone.title"])} — {esc(t["app.title"])}</title>
  <link rel="stylesheet" href="/static/css/app.css">
  <link rel="icon" href="data:,">
</head>
<body class="seat-page gone-page">
  <header class="topbar seat-bar">
    <h1 class="brand">{esc(t["app.title"])}</h1>
    <nav class="gone-langs" aria-label="{esc(t["ui.language"])}">{links}</nav>
  </header>
  <main class="gone" id="gone">
    <h2 id="gone-title">{esc(t["gone.title"])}</h2>
    <p id="gone-why">{esc(t["gone.why"])}</p>
    <p id="gone-how">{esc(how)}</p>
  </main>
</body>
</html>
"""
