"""Firmware building blocks under CPython: classifier, burst picking, counts, ring, LEDs."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st
from towerfw.calibration import features
from towerfw.classifier import Classifier
from towerfw.counter import Counts, EventRing, FrameQueue
from towerfw.leds import CurrentLimiter, Scene
from towerfw.sampler import Burst

CENTROIDS = {
    "red": (0.6, 0.2, 0.2, math.log(0.4)),
    "orange": (0.55, 0.3, 0.15, math.log(0.6)),
    "blue": (0.18, 0.32, 0.5, math.log(0.3)),
}


def make() -> Classifier:
    return Classifier(dict(CENTROIDS), 0.03, 0.35, 4.0, 0.55)


def diff(a: int, b: int) -> int:
    return a - b


def test_features_subtract_the_base_and_normalise() -> None:
    f = features((70, 30, 30, 110), (10, 10, 10, 10), 250.0)
    assert f is not None
    assert f[:3] == (0.6, 0.2, 0.2)
    assert math.isclose(f[3], math.log(100 / 250))
    assert features((5, 5, 5, 8), (10, 10, 10, 10), 250.0) is None


def test_clear_colour_is_classified() -> None:
    assert make().classify((0.59, 0.21, 0.2, math.log(0.42)))[0] == "red"


def test_halfway_between_two_colours_is_rejected() -> None:
    mid = tuple((a + b) / 2 for a, b in zip(CENTROIDS["red"], CENTROIDS["orange"], strict=True))
    colour, best, _ = make().classify(mid)
    assert colour is None and best in ("red", "orange")


def test_far_from_every_colour_is_rejected() -> None:
    colour, _, d = make().classify((0.33, 0.33, 0.33, 0.0))
    assert colour is None and d > 4.0


@given(st.tuples(*[st.floats(0, 1)] * 3), st.floats(-3, 1))
def test_a_guess_is_never_ambiguous(chroma: tuple[float, float, float], lb: float) -> None:
    c = make()
    f = (*chroma, lb)
    colour, _, d1 = c.classify(f)
    if colour is not None:
        others = [c.distance(f, v) for k, v in CENTROIDS.items() if k != colour]
        assert d1 <= 4.0 and all(d1 <= 0.55 * d for d in others)


def test_burst_picks_brightest_samples_inside_the_window() -> None:
    b = Burst(capacity=8)
    for t, c in ((0, 900), (1000, 100), (2000, 300), (3000, 280), (9000, 50)):
        b.add(t, (c // 3, c // 3, c // 3, c))
    mean, used = b.best(2, 500, 5000, diff)
    assert used == 2 and mean[3] == 290.0  # 900 is outside the window
    mean, used = b.best(2, 100_000, 200_000, diff)  # empty window: all samples count
    assert used == 2 and mean[3] == 600.0


def test_burst_keeps_the_newest_when_full() -> None:
    b = Burst(capacity=4)
    for t in range(10):
        b.add(t, (t, t, t, t))
    assert b.count == 4 and b.total == 10
    assert sorted(b.sample(i)[3] for i in range(4)) == [6, 7, 8, 9]


def test_counts_vector_is_complete_and_resets() -> None:
    n = Counts(["a", "b"])
    n.add("a")
    n.add("grande:b")
    n.add("uncertain", 2)
    assert n.vector() == {"a": 1, "b": 0, "uncertain": 2, "grande:b": 1}
    assert n.total() == 4
    n.reset()
    assert n.vector() == {"a": 0, "b": 0, "uncertain": 0}


def test_ring_acks_replays_and_overflows() -> None:
    ring = EventRing(3)
    for s in range(1, 6):
        ring.push(s, b"%d" % s)
    assert ring.dropped == 2 and ring.after(0) == [b"3", b"4", b"5"]
    ring.ack(4)
    assert len(ring) == 1 and ring.oldest() == 5
    assert ring.after(5) == []


@given(st.lists(st.binary(max_size=4), max_size=20), st.integers(1, 6))
def test_frame_queue_keeps_the_newest_in_order(frames: list[bytes], size: int) -> None:
    q = FrameQueue(size)
    for f in frames:
        q.push(f)
    assert len(q) == min(size, len(frames)) and q.dropped == max(0, len(frames) - size)
    out = []
    while len(q):
        out.append(q.pop())
    assert out == frames[-size:] if frames else out == []
    assert q.pop() is None


@given(st.lists(st.integers(0, 255), min_size=30, max_size=30), st.integers(10, 300))
def test_limiter_never_exceeds_the_budget(values: list[int], budget: int) -> None:
    lim = CurrentLimiter(10, 20, 1, budget)
    frame = bytearray(values)
    before = lim.estimate(frame)
    after = lim.limit(frame)
    assert after <= max(budget, 10) + 1e-9
    assert after == lim.estimate(frame)
    if before <= budget:
        assert list(frame) == values


def test_scene_renders_segments_and_animations() -> None:
    scene = Scene({"a": (0, 2), "b": (2, 3)}, 5)
    assert scene.set({"a": [255, 0, 0], "b": [0, 0, 200]}, {"b": "blink"}, True) is None
    frame = bytearray(15)
    scene.render(0, frame)
    assert frame[0:3] == b"\xff\x00\x00" and frame[6:9] == b"\x00\x00\xc8"
    scene.render(600, frame)  # blink is off in the second half second
    assert frame[6:9] == b"\x00\x00\x00" and frame[3:6] == b"\xff\x00\x00"
    assert scene.animated()
    assert scene.set({"a": [1, 2]}, {}, True) is not None
    assert scene.set({}, {"a": "disco"}, True) is not None


TWO_PATH_CENTROIDS = {
    "red": (0.6, 0.2, 0.2, math.log(0.4)),
    "orange": (0.55, 0.3, 0.15, math.log(0.6)),
    "blue": (0.18, 0.32, 0.5, math.log(0.3)),
    "white": (0.33, 0.33, 0.33, 0.0),
}


@st.composite
def cube_samples(draw: st.DrawFn) -> list[tuple[int, int, int, int]]:
    """A cube's burst near one colour: its brightness around the colour's (white 250 counts),
    some samples dim (the edges), chromaticity jittered by up to ~2 noise units."""
    centre = draw(st.sampled_from(sorted(TWO_PATH_CENTROIDS.values())))
    jitter = st.floats(-0.06, 0.06)
    out = []
    for _ in range(draw(st.integers(1, 10))):
        c = min(1023, round(250 * math.exp(centre[3]) * draw(st.floats(0.1, 1.4))))
        r, g, b = (max(0, min(c, round((centre[k] + draw(jitter)) * c))) for k in range(3))
        out.append((r, g, b, c))
    return out


@given(cube_samples(), st.tuples(*[st.floats(0, 12)] * 4))
def test_the_integer_colour_path_agrees_with_the_exact_one(
    samples: list[tuple[int, int, int, int]], base: tuple[float, float, float, float]
) -> None:
    """pieces.colour_in_steps (integer sums and steps) answers only when the exact path
    (Burst.pick, features, Classifier.classify) gives the same colour, at a distance within
    the steps' rounding (4/256 of a noise unit)."""
    from types import SimpleNamespace

    from towerfw import pieces

    burst = Burst(capacity=16)
    for i, s in enumerate(samples):
        burst.add(1000 * (i + 1), s)
    tower = SimpleNamespace(
        burst=burst,
        best_samples=2,
        hal=SimpleNamespace(ticks_diff=diff),
        base=list(base),
        min_signal=8.0,
        white_c=250.0,
        classifier=Classifier(dict(TWO_PATH_CENTROIDS), 0.03, 0.35, 4.0, 0.55),
    )
    fast = pieces.colour_in_steps(tower, 500, 1000 * (len(samples) + 1))
    if fast is None:
        return
    mean, lit = burst.pick(2, 500, 1000 * (len(samples) + 1), diff, base[3], pieces.LIT_SHARE)
    assert mean is not None and mean[3] - base[3] >= tower.min_signal
    colour, best, d = tower.classifier.classify(pieces.features(tower, mean, lit))
    assert fast[0] == fast[1] == colour == best
    assert abs(fast[2] - d) <= 4 / 256 + 1e-9


def test_a_reading_near_a_threshold_is_left_to_the_exact_path() -> None:
    c = make()
    mid = tuple((a + b) / 2 for a, b in zip(CENTROIDS["red"], CENTROIDS["orange"], strict=True))
    assert c.in_steps(mid[0], mid[1], mid[2], 1.0, mid[3]) is None
    red = CENTROIDS["red"]
    assert c.in_steps(red[0], red[1], red[2], 1.0, red[3])[:2] == ("red", "red")
