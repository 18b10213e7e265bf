"""Generated blocks inside hand-written Markdown: the prose stays, the tables follow the data."""

from __future__ import annotations

import re

BEGIN = (
    "<!-- BEGIN GENERATED {name}: edit the data files and run `make hardware`, not this block -->"
)
END = "<!-- END GENERATED {name} -->"


def replace_block(text: str, name: str, content: str) -> str:
    """Text with the block called `name` replaced by `content` (the block must already exist)."""
    pattern = re.compile(
        re.escape(BEGIN.format(name=name)) + r"\n.*?" + re.escape(END.format(name=name)),
        flags=re.DOTALL,
    )
    if not pattern.search(text):
        raise ValueError(f"no generated block {name!r}")
    body = BEGIN.format(name=name) + "\n" + content.rstrip("\n") + "\n" + END.format(name=name)
    return pattern.sub(lambda _match: body, text, count=1)


def block_names(text: str) -> list[str]:
    """The names of every generated block in a text, in order."""
    return re.findall(r"<!-- BEGIN GENERATED (\S+):", text)


def table(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table; pipes inside cells are escaped."""

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    out = [line(header), "|" + "|".join("---" for _ in header) + "|"]
    out += [line(row) for row in rows]
    return "\n".join(out) + "\n"
