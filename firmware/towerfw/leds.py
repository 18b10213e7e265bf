"""LED scenes from the host: per-segment colours, animations and the current limiter.

A frame is a bytearray of r, g, b per pixel (logical order; the driver converts to GRB).
A scene arrives as ``segs``/``anim`` (segment names) or packed as ``leds`` (docs/protocol.md):
7 characters per segment in LED map order, ``rrggbb`` in hex and one animation letter
(``-`` off), so every scene has the same small size whatever its colours.
The current estimate is ``idle_milliamps_per_pixel`` per pixel plus
``milliamps_per_channel`` x value / 255 per channel; frames above the budget are scaled down.
"""

import math

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any

ANIMS = ("solid", "pulse", "blink", "sweep")
ANIM_LETTERS = "spbw"  # the packed scene's letter for each of ANIMS, in the same order
OFF_LETTER = "-"
PACKED_WIDTH = 7  # characters per segment in a packed scene
# Budget when the LED map names none: the LED share of USB power (hardware/power.json, the build
# pack's budget_profiles.usb). Never assume the external 5 V supply is wired.
USB_BUDGET_MA = 140  # the two-beam build; a one-beam tower has 160 (usb_one_beam)
PULSE_MS = 1600
BLINK_MS = 1000
SWEEP_MS = 1200


class CurrentLimiter:
    def __init__(
        self, pixels: int, ma_per_channel: float, idle_ma: float, budget_ma: float
    ) -> None:
        self.pixels = pixels
        self.ma_per_channel = ma_per_channel
        self.idle_ma = idle_ma
        self.budget_ma = budget_ma

    def estimate(self, frame: "Any") -> float:
        total = 0
        for v in frame:
            total += v
        return self.pixels * self.idle_ma + total * self.ma_per_channel / 255

    def limit(self, frame: "Any") -> float:
        """Scale ``frame`` in place so the estimate fits the budget; returns the new estimate."""
        est = self.estimate(frame)
        if est <= self.budget_ma:
            return est
        idle = self.pixels * self.idle_ma
        room = self.budget_ma - idle
        if room <= 0:
            for i in range(len(frame)):
                frame[i] = 0
            return idle
        scale = room / (est - idle)
        for i in range(len(frame)):
            frame[i] = int(frame[i] * scale)
        return self.estimate(frame)


class Scene:
    """Segment colours and animations; ``render(ms, frame)`` fills a frame for that time."""

    def __init__(
        self, segments: "dict[str, Any]", pixels: int, ledmap_segments: "Any" = None
    ) -> None:
        self.segments = segments  # name -> (start, count)
        # the LED map's order, for packed scenes (a MicroPython dict keeps no order)
        self.order = [s["name"] for s in ledmap_segments or ()] or list(segments)
        self.pixels = pixels
        self.colours: dict[str, Any] = {}
        self.anims: dict[str, str] = {}
        self.animating = False  # animated(), kept up to date by set(): the idle loop reads it

    def set(self, segs: "dict[str, Any]", anim: dict[str, str], clear: bool) -> "Any":
        """Apply a scene command. Returns an error text or None."""
        for name in segs:
            if name not in self.segments:
                return "unknown segment " + str(name)
            rgb = segs[name]
            if not isinstance(rgb, list) or len(rgb) != 3:
                return "bad colour for " + name
            for v in rgb:
                if not isinstance(v, int) or v < 0 or v > 255:
                    return "bad colour for " + name
        for name in anim:
            if anim[name] not in ANIMS:
                return "unknown animation " + str(anim[name])
            if name not in self.segments:
                return "unknown segment " + str(name)
        if clear:
            self.colours = {}
            self.anims = {}
        for name in segs:
            self.colours[name] = segs[name]
        for name in anim:
            self.anims[name] = anim[name]
        self.animating = self.animated()
        return None

    def apply(self, msg: "dict[str, Any]") -> "Any":
        """The scene command, packed (``leds``) or named. Returns an error text or None."""
        leds = msg.get("leds")
        if leds is not None:
            return self.set_packed(leds)
        return self.set(msg.get("segs") or {}, msg.get("anim") or {}, msg.get("clear", True))

    def set_packed(self, leds: "Any") -> "Any":
        """Apply a packed scene (it replaces the whole scene). Returns an error text or None."""
        order = self.order
        if not isinstance(leds, str) or len(leds) != PACKED_WIDTH * len(order):
            return "leds: " + str(PACKED_WIDTH * len(order)) + " characters expected"
        for k in range(len(order)):
            j = PACKED_WIDTH * k
            if leds[j + 6] != OFF_LETTER and leds[j + 6] not in ANIM_LETTERS:
                return "leds: unknown animation letter " + leds[j + 6]
            for i in range(j, j + 6):
                if _hex_digit(leds, i) < 0:
                    return "leds: bad colour for " + order[k]
        self.colours = {}
        self.anims = {}
        for k in range(len(order)):
            j = PACKED_WIDTH * k
            letter = leds[j + 6]
            if letter == OFF_LETTER:
                continue
            name = order[k]
            self.colours[name] = [
                _hex_byte(leds, j),
                _hex_byte(leds, j + 2),
                _hex_byte(leds, j + 4),
            ]
            self.anims[name] = ANIMS[ANIM_LETTERS.index(letter)]
        self.animating = self.animated()
        return None

    def animated(self) -> bool:
        return any(self.anims[n] != "solid" and n in self.colours for n in self.anims)

    def render(self, ms: int, frame: "Any") -> None:
        for i in range(len(frame)):
            frame[i] = 0
        for name in self.colours:
            start, count = self.segments[name]
            r, g, b = self.colours[name]
            kind = self.anims.get(name, "solid")
            for i in range(count):
                k = _level(kind, ms, i, count)
                j = 3 * (start + i)
                frame[j] = int(r * k)
                frame[j + 1] = int(g * k)
                frame[j + 2] = int(b * k)


def _hex_digit(text: str, i: int) -> int:
    """The value of one hex digit (0-9, a-f, A-F) of ``text``, -1 if it is none (no slicing)."""
    c = ord(text[i])
    if 48 <= c <= 57:
        return c - 48
    c |= 32
    if 97 <= c <= 102:
        return c - 87
    return -1


def _hex_byte(text: str, i: int) -> int:
    return 16 * _hex_digit(text, i) + _hex_digit(text, i + 1)


def _level(kind: str, ms: int, i: int, count: int) -> float:
    if kind == "pulse":
        return 0.55 + 0.45 * math.cos(2 * math.pi * (ms % PULSE_MS) / PULSE_MS)
    if kind == "blink":
        return 1.0 if (ms % BLINK_MS) < BLINK_MS // 2 else 0.0
    if kind == "sweep":
        head = (ms % SWEEP_MS) * count // SWEEP_MS
        dist = (head - i) % count
        return 1.0 if dist == 0 else (0.35 if dist == 1 else 0.0)
    return 1.0
