"""Colour classification by chromaticity (R/C, G/C, B/C) and brightness.

Each colour has a calibrated centroid. A sample's distance to a centroid is measured in
typical-noise units: chromaticity differences divided by ``chroma_scale`` and the log of the
brightness ratio divided by ``bright_scale``. A cube is reported as a colour only if its
nearest centroid is within ``reject_distance`` and clearly nearer than the second nearest
(``d1 <= ambiguity_ratio * d2``); otherwise it is uncertain, never guessed.

Speed (the Pico has no FPU and MicroPython boxes every float): the centroids are kept as small
integers in 1/UNIT noise units, so ranking them is integer maths; only the nearest two get the
exact float distance the verdict uses.
"""

import math

from towerfw import const

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any

UNIT = const(256)  # integer steps per noise unit: ranking error <= 1/128 of a unit, far below noise


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

    def classify(self, f: "Any") -> "tuple[Any, Any, float]":
        """(colour or None, nearest colour, distance to it)."""
        table = self._table
        if not table:
            return None, None, 1e9
        kc = self._kc
        r = int(f[0] * kc)
        g = int(f[1] * kc)
        b = int(f[2] * kc)
        lum = int(f[3] * self._kb)
        # rank by squared integer distance (small ints: no allocation)
        i1 = -1
        s1 = s2 = 1 << 29
        for i in range(len(table)):
            m = table[i][2]
            dr = r - m[0]
            dg = g - m[1]
            db = b - m[2]
            dl = lum - m[3]
            s = dr * dr + dg * dg + db * db + dl * dl
            if s < s1:
                s2 = s1
                s1 = s
                i1 = i
            elif s < s2:
                s2 = s
        name, centroid, _ = table[i1]
        # distance(f, centroid), inline: one call less for every cube
        cs = self.chroma_scale
        dr = (f[0] - centroid[0]) / cs
        dg = (f[1] - centroid[1]) / cs
        db = (f[2] - centroid[2]) / cs
        dl = (f[3] - centroid[3]) / self.bright_scale
        d1 = math.sqrt(dr * dr + dg * dg + db * db + dl * dl)
        if d1 > self.reject_distance or len(table) < 2:
            return (None if d1 > self.reject_distance else name), name, d1
        # truncation moves each component of an integer difference < 2 steps, so every other
        # colour is more than (sqrt(s2) - 4) steps away: if that clears d1 / ambiguity_ratio
        # the verdict needs no second exact distance (the common, clear case)
        clear = 4 + UNIT * d1 / self.ambiguity_ratio
        if s2 >= clear * clear:
            return name, name, d1
        # the exact second distance, from every colour the integer ranking cannot tell from it
        # (truncation moves each component < 2 steps: twice that error in s, with room)
        near = s2 + (s2 >> 5) + 16 * UNIT
        d2 = 1e9
        for i in range(len(table)):
            if i == i1:
                continue
            m = table[i][2]
            dr = r - m[0]
            dg = g - m[1]
            db = b - m[2]
            dl = lum - m[3]
            if dr * dr + dg * dg + db * db + dl * dl <= near:
                d2 = min(d2, self.distance(f, table[i][1]))
        if d1 > self.ambiguity_ratio * d2:
            return None, name, d1
        return name, name, d1
