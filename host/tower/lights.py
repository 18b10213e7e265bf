"""Board lights: a pure function from the table's state to LED scenes, and the worker that
sends them to the tower.

`program(state)` returns an intro (played once: the warning flash) and a loop (one frame, or
several alternating ones: tied winners of a scoring sweep share a segment by taking turns).
Segment names come from hardware/ledmap.json; colours from host/tower/data/lights.json.

What shows:
- the King's region in warm white;
- the regions the acting player may place in (or move to, ...): that player's colour, pulsing;
- the castillo ring: dim, in the player's colour when it is a legal target, blinking white while
  a throw waits for the tower, red while a throw issue blocks play;
- after a scoring: a sweep showing each scored area's winner(s) in their colours;
- a red flash over everything when an action is refused.

Scenes travel packed (docs/protocol.md, "scene"): 7 characters per LED map segment whatever the
colours, so every scene fits the link's frame limit (checked once against the LED map).
The worker survives any failure: it logs it, keeps it as `problem` for the tower warning
(`tower.warn.lights`) and goes on with the next program.
"""

from __future__ import annotations

import functools
import json
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from towerfw import codec

from host.paths import hardware_dir
from host.tower.link import CommandFailed, Rgb, TowerError, TowerLink

log = logging.getLogger("host.tower.lights")
SEND_TIMEOUT_S = 1.0

DATA_FILE = Path(__file__).resolve().parent / "data" / "lights.json"


@dataclass(frozen=True)
class Palette:
    players: Mapping[str, Rgb]
    king: Rgb
    castillo_idle: Rgb
    check_waiting: Rgb
    warning: Rgb
    flash_seconds: float
    tie_seconds: float


def _rgb(raw: Any) -> Rgb:
    r, g, b = (max(0, min(255, int(v))) for v in raw)
    return (r, g, b)


@functools.cache
def palette() -> Palette:
    raw = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    return Palette(
        players={str(k): _rgb(v) for k, v in raw["players"].items()},
        king=_rgb(raw["king"]),
        castillo_idle=_rgb(raw["castillo_idle"]),
        check_waiting=_rgb(raw["check_waiting"]),
        warning=_rgb(raw["warning"]),
        flash_seconds=float(raw["flash_seconds"]),
        tie_seconds=float(raw["tie_seconds"]),
    )


@functools.cache
def ledmap_order() -> tuple[str, ...]:
    """The LED map's segment names in its order (the packed scene's order)."""
    ledmap = json.loads((hardware_dir() / "ledmap.json").read_text(encoding="utf-8"))
    return tuple(str(segment["name"]) for segment in ledmap.get("segments", []))


@functools.cache
def ledmap_segments() -> frozenset[str]:
    return frozenset(ledmap_order())


@dataclass(frozen=True)
class LightsState:
    """Everything the lights depend on (public facts only)."""

    king: str | None = None
    highlights: tuple[tuple[str, str], ...] = ()  # (area, colour)
    waiting_throw: bool = False  # a throw waits for the tower
    blocked: bool = False  # a throw issue stops play
    sweep: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (area, winners) of the last scoring
    flash: int = 0  # bumped for every refused action: plays the warning flash once


@dataclass(frozen=True)
class Frame:
    segs: dict[str, Rgb]
    anim: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    def key(self) -> tuple[Any, ...]:
        return (tuple(sorted(self.segs.items())), tuple(sorted(self.anim.items())))


@dataclass(frozen=True)
class Program:
    intro: tuple[Frame, ...]
    loop: tuple[Frame, ...]


# the packed scene's animation letters (firmware/towerfw/leds.py: ANIMS, ANIM_LETTERS)
ANIM_LETTERS = {"solid": "s", "pulse": "p", "blink": "b", "sweep": "w"}
OFF_LETTER = "-"
PACKED_WIDTH = 7
LARGEST_ID = 2**31 - 1  # the command id the packed scene's size is checked with


def pack(frame: Frame, order: Sequence[str]) -> str:
    """`frame` as the scene command's `leds` field: rrggbb and a letter per segment of `order`."""
    out = []
    for name in order:
        rgb = frame.segs.get(name)
        if rgb is None:
            out.append("000000" + OFF_LETTER)
        else:
            letter = ANIM_LETTERS[frame.anim.get(name, "solid")]
            out.append("".join(f"{max(0, min(255, int(v))):02x}" for v in rgb) + letter)
    return "".join(out)


def packed_frame_bytes(segments: int) -> int:
    """The link frame of the largest packed scene for that many segments (any colours);
    ValueError when it would not fit the link's frame limit (`codec.MAX_LINE`)."""
    leds = "f" * (PACKED_WIDTH * segments)  # fixed width: the colours do not change the size
    message = {"t": "cmd", "c": "scene", "id": LARGEST_ID, "leds": leds}
    try:
        return len(codec.encode(message))
    except ValueError as exc:
        raise ValueError(
            f"{segments} LED segments: a packed scene does not fit the link's "
            f"{codec.MAX_LINE}-byte frame"
        ) from exc


def check_fits(order: Sequence[str]) -> None:
    """Refuse an LED map whose packed scenes could not fit one link frame."""
    packed_frame_bytes(len(order))


def program(
    state: LightsState,
    segments: frozenset[str] | None = None,
    colours: Palette | None = None,
    flash: bool = False,
) -> Program:
    """The scenes for `state` (a pure function; `flash` adds the warning flash intro)."""
    names = segments if segments is not None else ledmap_segments()
    pal = colours or palette()
    base = _base_frame(state, names, pal)
    loop: tuple[Frame, ...] = (base,)
    if state.sweep:
        loop = _sweep_frames(state, names, pal, base)
    intro: tuple[Frame, ...] = ()
    if flash:
        intro = (
            Frame(
                {name: pal.warning for name in sorted(names)},
                {name: "blink" for name in sorted(names)},
                pal.flash_seconds,
            ),
        )
    return Program(intro, loop)


def _player(pal: Palette, colour: str) -> Rgb:
    return pal.players.get(colour, (255, 255, 255))


def _base_frame(state: LightsState, names: frozenset[str], pal: Palette) -> Frame:
    segs: dict[str, Rgb] = {}
    anim: dict[str, str] = {}
    if "castillo" in names:
        segs["castillo"] = pal.castillo_idle
    for area, colour in state.highlights:
        if area in names:
            segs[area] = _player(pal, colour)
            anim[area] = "pulse"
    if state.king in names:
        assert state.king is not None
        segs[state.king] = pal.king
        anim.pop(state.king, None)
    if "castillo" in names and state.blocked:
        segs["castillo"] = pal.warning
        anim["castillo"] = "blink"
    elif "castillo" in names and state.waiting_throw:
        segs["castillo"] = pal.check_waiting
        anim["castillo"] = "blink"
    return Frame(segs, anim)


def _sweep_frames(
    state: LightsState, names: frozenset[str], pal: Palette, base: Frame
) -> tuple[Frame, ...]:
    longest = max(len(winners) for _, winners in state.sweep) or 1
    frames = []
    for i in range(longest):
        segs = dict(base.segs)
        anim = dict(base.anim)
        for area, winners in state.sweep:
            if area not in names:
                continue
            if winners:
                segs[area] = _player(pal, winners[i % len(winners)])
                anim[area] = "sweep"
            else:
                segs.pop(area, None)
                anim.pop(area, None)
        frames.append(Frame(segs, anim, pal.tie_seconds if longest > 1 else 0.0))
    return tuple(frames)


def sweep_of(
    scoring: Mapping[str, Any], area_tokens: Mapping[str, str]
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(area token, first-place colours) for each area of one scoring breakdown."""
    out = []
    for area in scoring.get("areas", []):
        token = area_tokens.get(str(area.get("area")), str(area.get("area")))
        ranks = area.get("ranks", {})
        winners = tuple(sorted(c for c, rank in ranks.items() if rank == 1))
        out.append((token, winners))
    return tuple(out)


class LightsWorker:
    """Plays programs on a tower link from its own thread (link commands block; the game
    must never wait for the LEDs). Only the newest program matters: older ones are dropped."""

    def __init__(
        self,
        link: TowerLink,
        on_problem: Callable[[str], None] | None = None,
        order: Sequence[str] | None = None,
    ) -> None:
        self._link = link
        self._order = tuple(order) if order is not None else ledmap_order()
        check_fits(self._order)
        # told from the lights thread when sending starts failing (the text) and when it works
        # again (""), so the clients can show and clear the tower warning
        self._on_problem = on_problem
        self.problem = ""  # the latest failure while it lasts (the tower warning's text)
        self._cond = threading.Condition()
        self._program: Program | None = None
        self._fresh = False
        self._stop = False
        self.sent = 0
        self.last_sent: Frame | None = None
        self._thread = threading.Thread(target=self._run, name="lights", daemon=True)
        self._thread.start()

    def show(self, new: Program) -> None:
        with self._cond:
            if not new.intro and self._program is not None and new.loop == self._program.loop:
                return
            self._program = new
            self._fresh = True
            self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        self._thread.join(timeout=3.0)

    def _send(self, frame: Frame) -> None:
        if self.last_sent is not None and frame.key() == self.last_sent.key():
            return
        try:
            leds = pack(frame, self._order)
            self._link.command("scene", SEND_TIMEOUT_S, leds=leds)
        except CommandFailed as exc:  # the tower refused the scene: a real problem
            self._failed(f"the tower refused a scene: {exc}", exc)
        except TowerError as exc:  # link down or busy: the next scene tries again
            log.debug("scene not sent: %s", exc)
            self.last_sent = None
        except Exception as exc:  # never let the lights thread die (issue 11)
            self._failed(f"a scene could not be sent: {type(exc).__name__}: {exc}", exc)
        else:
            self.last_sent = frame
            self.sent += 1
            if self.problem:
                log.info("board lights: scenes pass again")
                self._set_problem("")

    def _failed(self, text: str, exc: BaseException) -> None:
        log.error("board lights: %s", text, exc_info=exc)
        self.last_sent = None
        self._set_problem(text)

    def _set_problem(self, text: str) -> None:
        changed = bool(text) != bool(self.problem)
        self.problem = text
        if changed and self._on_problem is not None:
            try:
                self._on_problem(text)
            except Exception:
                log.exception("board lights: the problem listener failed")

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._fresh and not self._stop:
                    self._cond.wait()
                if self._stop:
                    return
                current = self._program
                self._fresh = False
            assert current is not None
            try:
                self._play(current)
            except Exception as exc:  # a broken program: report it and wait for the next one
                self._failed(f"a light program failed: {type(exc).__name__}: {exc}", exc)

    def _wait(self, seconds: float) -> bool:
        """Sleep unless a new program arrives; True when interrupted."""
        with self._cond:
            if self._fresh or self._stop:
                return True
            self._cond.wait(seconds)
            return self._fresh or self._stop

    def _play(self, current: Program) -> None:
        for frame in current.intro:
            self._send(frame)
            if self._wait(frame.seconds):
                return
        frames: Sequence[Frame] = current.loop
        if len(frames) == 1:
            self._send(frames[0])
            return
        while True:
            for frame in frames:
                self._send(frame)
                if self._wait(max(frame.seconds, 0.1)):
                    return
