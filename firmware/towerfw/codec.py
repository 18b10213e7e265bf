"""The tower link codec, shared by the firmware (MicroPython) and the host (CPython).

A frame is one ASCII line: ``<compact json object>*<crc32 as 8 lower-case hex>\\n``
(see docs/protocol.md). The decoder is fed raw bytes in any chunking, yields the
objects of valid frames, counts the invalid ones and never raises on garbage.

Written in the subset both interpreters accept: no typing imports at run time
(MicroPython ignores annotations), no f-string tricks, no ``match``.
"""

import json

try:  # once, at import: an import inside crc32 searched the filesystem on every frame (2.7 ms)
    import binascii

    _crc32_builtin = getattr(binascii, "crc32", None)
except ImportError:  # a build without binascii
    _crc32_builtin = None

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any

PROTOCOL_VERSION = 1
MAX_LINE = 480  # bytes per frame including the final newline (the Pico's input buffer is 512)
_HEX = b"0123456789abcdef"
CTRL_C = 3  # never part of a frame: on the Pico it stops the firmware (the REPL takes over)


def _crc32_soft(data: bytes) -> int:
    """Bitwise CRC-32 (zlib polynomial) for builds that lack ``binascii.crc32``."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


# crc32(data): CRC-32 of ``data`` as an unsigned 32-bit integer (the built-in is unsigned in
# CPython 3 and MicroPython); bound once, so a frame costs no Python call in between
crc32 = _crc32_builtin if _crc32_builtin is not None else _crc32_soft


def _hex8(value: int) -> bytes:
    """``value`` (0 <= value < 2**32) as 8 lower-case hex digits (bytes); one C call (bytes, not
    str: MicroPython checks every new str against the interned ones, ~0.1 ms on the Pico)."""
    return b"%08x" % value


def hex8(value: int) -> str:
    """``value`` as 8 lower-case hex digits."""
    return _hex8(value).decode()


def _dumps(obj: "Any") -> str:
    try:
        return json.dumps(obj, separators=(",", ":"))
    except TypeError:  # an old MicroPython json without separators
        return json.dumps(obj)


def encode(obj: "dict[str, Any]") -> bytes:
    """Encode one message as a complete frame. Raises ValueError if it would be too long."""
    return frame(_dumps(obj).encode())


def frame(body: bytes) -> bytes:
    """The complete frame of a compact JSON ``body``. Raises ValueError if it would be too long."""
    out = body + b"*%08x\n" % crc32(body)
    if len(out) > MAX_LINE:
        raise ValueError("frame too long")
    return out


def decode_line(line: bytes) -> "dict[str, Any] | None":
    """Decode one line (without its newline; a trailing CR is allowed). None if invalid."""
    if line and line[-1] == 13:
        line = line[:-1]
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 9:
        return None
    body = line[:star]
    crc_text = line[star + 1 :]
    for byte in crc_text:
        if byte not in _HEX:
            return None
    if _hex8(crc32(body)) != crc_text:
        return None
    try:
        obj = json.loads(body.decode())
    except Exception:  # any decode failure is just a bad frame
        return None
    if not isinstance(obj, dict):
        return None
    return obj


class FrameDecoder:
    """Streaming decoder: ``feed(bytes)`` returns the messages completed by those bytes.

    Lines longer than ``max_line`` are discarded up to the next newline and counted once.
    Blank lines are ignored (a newline is a harmless way to resynchronise).
    """

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self.bad_frames = 0
        self.good_frames = 0
        self._buf = bytearray()
        self._discarding = False

    def reset(self) -> None:
        """Forget any partial line (e.g. after a Ctrl-C cleared the input)."""
        self._buf = bytearray()
        self._discarding = False

    def feed(self, data: bytes) -> "list[dict[str, Any]]":
        out: list[dict[str, Any]] = []
        start = 0
        n = len(data)
        while start < n:
            nl = data.find(b"\n", start)
            end = n if nl < 0 else nl
            if not self._discarding:
                self._buf.extend(data[start:end])
                # max_line counts the newline, so the body may be one byte shorter
                if len(self._buf) >= self.max_line:
                    self._discarding = True
                    self._buf = bytearray()
            if nl < 0:
                break
            if self._discarding:
                self.bad_frames += 1
                self._discarding = False
            elif self._buf and bytes(self._buf) != b"\r":
                obj = decode_line(bytes(self._buf))
                if obj is None:
                    self.bad_frames += 1
                else:
                    self.good_frames += 1
                    out.append(obj)
            self._buf = bytearray()
            start = nl + 1
        return out
