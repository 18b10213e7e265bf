"""Small helpers for writing deterministic SVG by hand (no drawing library needed)."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr


def fmt(value: float) -> str:
    """A coordinate with at most one decimal, so the output is stable across platforms."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def element(tag: str, text: str = "", **attrs: str | float) -> str:
    parts = [tag]
    for key, value in attrs.items():
        name = key.rstrip("_").replace("_", "-")
        shown = fmt(value) if isinstance(value, float | int) else value
        parts.append(f"{name}={quoteattr(shown)}")
    opening = "<" + " ".join(parts)
    if text:
        return f"{opening}>{escape(text)}</{tag}>"
    return opening + "/>"


def document(width: float, height: float, body: list[str], title: str) -> str:
    head = (
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'width="{fmt(width)}" height="{fmt(height)}" viewBox="0 0 {fmt(width)} {fmt(height)}" '
        'font-family="DejaVu Sans, Arial, sans-serif" font-size="12">'
    )
    lines = [
        head,
        element("title", title),
        element("rect", x=0, y=0, width=width, height=height, fill="#ffffff"),
    ]
    lines += body
    lines.append("</svg>")
    return "\n".join(lines) + "\n"
