"""Reading a file a user names: the one set of rules every reader of user files follows
(`castillo score`, `castillo replay`, `--override` data files, El Caballero's catalogue).

A file is read only when it is a regular file (a FIFO would block, /dev/zero never ends, a
directory is no document), at most MAX_JSON_BYTES (JSON) or MAX_TOML_BYTES (TOML) long, UTF-8
text, and nested at most MAX_DEPTH levels deep. A refusal is `UnreadableFile`: one line that
names the file and what is wrong with it; each caller re-raises it as its own error.

The engine imports nothing from the host: the table app's own JSON rules (host/api/json_input.py)
take their depth limit from here.

>>> parse_json('{"a": [1, 2]}', "inline")
{'a': [1, 2]}
>>> parse_json("[" * 40 + "]" * 40, "deep.json")
Traceback (most recent call last):
...
engine.core.userfiles.UnreadableFile: deep.json: nested deeper than 32 levels
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import stat
import tomllib
from pathlib import Path
from typing import Any

MAX_DEPTH = 32  # the deepest real document (a game record, a position) nests 5 levels
MAX_JSON_BYTES = 8 << 20  # a long game's record is some tens of kB; the app imports up to 8 MiB
MAX_TOML_BYTES = 1 << 20  # a whole card catalogue or data override is a few kB
# A TOML key of more dotted parts than this is refused before parsing (tomllib's time grows
# with the square of a key's parts: 20,000 of them took 6 s).
MAX_KEY_PARTS = MAX_DEPTH

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)
# Where a TOML string or comment starts, and where each kind of string ends (the patterns never
# need the closing quote, so they do not backtrack: the scan stays linear in the text).
_TOML_OPENING = re.compile(r'"""|\'\'\'|["\'#]')
_BASIC_BODY = re.compile(r'[^"\\\n]*(?:\\.[^"\\\n]*)*')
_MULTILINE_BODY = re.compile(r'[^"\\]*(?:(?:\\[\s\S]|"(?!""))[^"\\]*)*')
_TOML_DOTTED = re.compile(r'(?<![\w-])(?:[\w-]+|"")(?:[ \t]*\.[ \t]*(?:[\w-]+|""))+')
_BRACKETS = re.compile(r"[\[\]{}]")


class UnreadableFile(ValueError):
    """A user's file refused before or while it is parsed; the message names it and says why,
    `kind` which rule refused it (a caller words it in its own terms: "unreadable",
    "not_regular", "too_big", "not_utf8", "too_deep", "key_parts", "not_toml")."""

    def __init__(self, message: str, kind: str = "unreadable") -> None:
        super().__init__(message)
        self.kind = kind


def _kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit} bytes"


def read_bytes(path: Path | str, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; UnreadableFile otherwise. The file
    is opened without blocking (a FIFO with no writer does not hang) and checked before any
    byte is read; at most `limit` + 1 bytes are ever read (a file that grows is refused)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as cannot_open:
        reason = cannot_open.strerror or errno.errorcode.get(cannot_open.errno or 0, "error")
        raise UnreadableFile(f"cannot read {path}: {reason}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile(
                f"{path} is {_kind(info.st_mode)}, not a regular file", "not_regular"
            )
        if info.st_size > limit:
            raise UnreadableFile(f"{path} is larger than {_size(limit)}", "too_big")
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as cannot_read:
        raise UnreadableFile(f"cannot read {path}: {cannot_read.strerror}") from None
    finally:
        os.close(fd)
    if total > limit:
        raise UnreadableFile(f"{path} is larger than {_size(limit)}", "too_big")
    return b"".join(chunks)


def decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableFile(f"{name} is not UTF-8 text", "not_utf8") from None


def read_text(path: Path | str, limit: int = MAX_JSON_BYTES) -> str:
    return decode(read_bytes(path, limit), str(path))


def check_depth(value: Any, name: str, limit: int = MAX_DEPTH) -> None:
    """Refuse lists and objects nested deeper than `limit` (without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            inner_items: list[Any] = list(item.values())
        elif isinstance(item, list):
            inner_items = item
        else:
            continue
        if depth > limit:
            raise UnreadableFile(f"{name}: nested deeper than {limit} levels", "too_deep")
        stack.extend((inner, depth + 1) for inner in inner_items)


def _no_constant(constant: str) -> Any:
    raise UnreadableFile(f"{constant} is not a number: write finite numbers")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise UnreadableFile(f"{text[:20]} is out of range: write finite numbers")
    return value


def parse_json(text: str, name: str) -> Any:
    """A JSON document: finite numbers only, nested at most MAX_DEPTH levels."""
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except UnreadableFile as bad_number:
        raise UnreadableFile(f"{name}: {bad_number}") from None
    except json.JSONDecodeError as not_json:
        where = f"line {not_json.lineno}, column {not_json.colno}"
        raise UnreadableFile(f"{name} is not JSON: {not_json.msg} ({where})") from None
    except RecursionError:
        raise UnreadableFile(f"{name}: nested deeper than {MAX_DEPTH} levels", "too_deep") from None
    except ValueError as too_long:  # an integer of more than 4300 digits
        raise UnreadableFile(f"{name} is not usable JSON: {too_long}") from None
    check_depth(value, name)
    return value


def load_json(path: Path | str) -> Any:
    """A user's JSON file, read and parsed by the rules above."""
    return parse_json(read_text(path, MAX_JSON_BYTES), str(path))


def _bare_toml(text: str) -> str:
    """The text with each string replaced by "" and each comment left out (an unterminated
    string ends at its line's end: tomllib refuses it anyway)."""
    parts: list[str] = []
    pos = 0
    end_of_text = len(text)
    while pos < end_of_text:
        opening = _TOML_OPENING.search(text, pos)
        if opening is None:
            parts.append(text[pos:])
            break
        parts.append(text[pos : opening.start()])
        token = opening.group()
        start = opening.end()
        if token == "#":
            close = text.find("\n", start)
            pos = end_of_text if close < 0 else close
            continue
        parts.append('""')
        if token == '"""':
            body = _MULTILINE_BODY.match(text, start)
            pos = min(end_of_text, (body.end() if body else start) + 3)
        elif token == "'''":
            close = text.find("'''", start)
            pos = end_of_text if close < 0 else close + 3
        elif token == '"':
            body = _BASIC_BODY.match(text, start)
            pos = (body.end() if body else start) + 1
        else:
            quote, line_end = text.find("'", start), text.find("\n", start)
            if quote < 0 or 0 <= line_end < quote:
                pos = end_of_text if line_end < 0 else line_end
            else:
                pos = quote + 1
    return "".join(parts)


def _check_toml_shape(text: str, name: str) -> None:
    """Before tomllib sees the text: no bracket nesting deeper than MAX_DEPTH (tomllib recurses
    on it) and no key of more than MAX_KEY_PARTS dotted parts (its time is quadratic in them).
    Strings and comments are left out, so their brackets and dots do not count."""
    bare = _bare_toml(text)
    depth = 0
    for bracket in _BRACKETS.finditer(bare):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > MAX_DEPTH:
            raise UnreadableFile(f"{name}: nested deeper than {MAX_DEPTH} levels", "too_deep")
    for key in _TOML_DOTTED.finditer(bare):
        if key.group().count(".") >= MAX_KEY_PARTS:
            raise UnreadableFile(
                f"{name}: a key of more than {MAX_KEY_PARTS} dotted parts", "key_parts"
            )


def parse_toml(text: str, name: str) -> dict[str, Any]:
    """A TOML document, nested at most MAX_DEPTH levels."""
    _check_toml_shape(text, name)
    try:
        value = tomllib.loads(text)
    except tomllib.TOMLDecodeError as not_toml:
        raise UnreadableFile(f"{name} is not TOML: {not_toml}", "not_toml") from None
    except RecursionError:
        raise UnreadableFile(f"{name}: nested deeper than {MAX_DEPTH} levels", "too_deep") from None
    check_depth(value, name)
    return value


def load_toml(path: Path | str) -> dict[str, Any]:
    """A user's TOML file (a data override, a card catalogue), read and parsed by the rules."""
    return parse_toml(read_text(path, MAX_TOML_BYTES), str(path))
