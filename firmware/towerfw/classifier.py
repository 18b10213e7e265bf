"""Colour classification by chromaticity (R/C, G/C, B/C) and brightness.

Each colour has a calibrated centroid. A sample's distance to a centroid is measured in
typical-noise units: chromaticity differences divided by ``chroma_scale`` and the log of the
brightness ratio divided by ``bright_scale``. A cube is reported as a colour only if its
nearest centroid is within ``reject_distance`` and clearly nearer than the second nearest
(``d1 <= ambiguity_ratio * d2``); otherwise it is uncertain, never guessed.

Speed (the Pico has no FPU and MicroPython boxes every float): the centroids are kept as small
integers in 1/UNIT noise units, so ranking them is integer maths. When the distances in those
steps settle the verdict with room to spare for their rounding (the common, clear cube), that
is the answer, with the steps' distance; otherwise the exact float distances decide.
"""

import math

from towerfw import const

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any

UNIT = const(256)  # integer steps per noise unit: ranking error <= 1/128 of a unit, far below noise
# truncation moves each component of a step difference by < 2 steps, so a distance in steps
# is within this many steps of the exact one (times UNIT)
SLACK = const(4)


class Classifier:
    def __init__(
        self,
        centroids: "dict[str, Any]",
        chroma_scale: float,
        bright_scale: float,
        reject_distance: float,
        ambiguity_ratio: float,
    ) -> None:
        self.centroids = centroids  # colour -> features tuple
        self.chroma_scale = chroma_scale
        self.bright_scale = bright_scale
        self.reject_distance = reject_distance
        self.ambiguity_ratio = ambiguity_ratio
        self._kc = UNIT / chroma_scale  # integer steps per unit of chromaticity
        self._kb = UNIT / bright_scale  # and of log brightness
        self._reject_steps = UNIT * reject_distance
        # per colour: (name, centroid, its features in integer steps)
        self._table = [(name, centroids[name], self._steps(centroids[name])) for name in centroids]

    def _steps(self, f: "Any") -> "tuple[int, int, int, int]":
        kc = self._kc
        return (int(f[0] * kc), int(f[1] * kc), int(f[2] * kc), int(f[3] * self._kb))

    def distance(self, f: "Any", centroid: "Any") -> float:
        cs = self.chroma_scale
        dr = (f[0] - centroid[0]) / cs
        dg = (f[1] - centroid[1]) / cs
        db = (f[2] - centroid[2]) / cs
        dl = (f[3] - centroid[3]) / self.bright_scale
        return math.sqrt(dr * dr + dg * dg + db * db + dl * dl)

    def in_steps(self, r: float, g: float, b: float, c: float, lum: float) -> "Any":
        """``classify((r / c, g / c, b / c, lum))`` when its answer is a colour the integer
        steps settle alone (the common case): (colour, colour, distance in steps); else None.
        A ratio of a component <= 0 counts as 0, as ``pieces.features`` makes it. No tuple of
        features and no exact distance: on the Pico each float result is an allocation."""
        table = self._table
        if len(table) < 2:
            return None
        q = self._kc / c
        r1 = int(r * q) if r > 0 else 0
        g1 = int(g * q) if g > 0 else 0
        b1 = int(b * q) if b > 0 else 0
        lum1 = int(lum * self._kb)
        # rank by squared distance in steps (small ints: no allocation)
        i1 = -1
        s1 = s2 = 1 << 29
        for i in range(len(table)):
            m = table[i][2]
            dr = r1 - m[0]
            dg = g1 - m[1]
            db = b1 - m[2]
            dl = lum1 - m[3]
            s = dr * dr + dg * dg + db * db + dl * dl
            if s < s1:
                s2 = s1
                s1 = s
                i1 = i
            elif s < s2:
                s2 = s
        # the exact distances lie within SLACK of the steps': a colour with that much room to
        # spare on both tests is the exact verdict's colour too
        q1 = math.sqrt(s1) + SLACK
        if q1 > self._reject_steps or q1 > self.ambiguity_ratio * (math.sqrt(s2) - SLACK):
            return None
        name = table[i1][0]
        return name, name, (q1 - SLACK) / UNIT

    def classify(self, f: "Any") -> "tuple[Any, Any, float]":
        """(colour or None, nearest colour, distance to it)."""
        if f[0] >= 0 and f[1] >= 0 and f[2] >= 0:
            verdict = self.in_steps(f[0], f[1], f[2], 1.0, f[3])
            if verdict is not None:
                return verdict
        # near a threshold, far from every colour, or fewer than two colours: exact distances
        name = None
        d1 = d2 = 1e9
        for entry in self._table:
            d = self.distance(f, entry[1])
            if d < d1:
                d2 = d1
                d1 = d
                name = entry[0]
            elif d < d2:
                d2 = d
        if d1 > self.reject_distance or d1 > self.ambiguity_ratio * d2:
            return None, name, d1
        return name, name, d1
