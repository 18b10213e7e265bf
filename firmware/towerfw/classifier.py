"""Colour classification by chromaticity (R/C, G/C, B/C) and brightness.

Each colour has a calibrated centroid. A sample's distance to a centroid is measured in
typical-noise units: chromaticity differences divided by ``chroma_scale`` and the log of the
brightness ratio divided by ``bright_scale``. A cube is reported as a colour only if its
nearest centroid is within ``reject_distance`` and clearly nearer than the second nearest
(``d1 <= ambiguity_ratio * d2``); otherwise it is uncertain, never guessed.
"""

import math

TYPE_CHECKING = False
if TYPE_CHECKING:  # MicroPython has no typing module and never evaluates annotations
    from typing import Any


def features(sample: "Any", base: "Any", white_c: float) -> "Any":
    """(r/c, g/c, b/c, ln(c/white)) of a raw sample minus the empty-chute ``base``; None if dark."""
    c = sample[3] - base[3]
    if c <= 0:
        return None
    r = max(sample[0] - base[0], 0.0)
    g = max(sample[1] - base[1], 0.0)
    b = max(sample[2] - base[2], 0.0)
    return (r / c, g / c, b / c, math.log(c / white_c))


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

    def distance(self, f: "Any", centroid: "Any") -> float:
        cs = self.chroma_scale
        dr = (f[0] - centroid[0]) / cs
        dg = (f[1] - centroid[1]) / cs
        db = (f[2] - centroid[2]) / cs
        dl = (f[3] - centroid[3]) / self.bright_scale
        return math.sqrt(dr * dr + dg * dg + db * db + dl * dl)

    def classify(self, f: "Any") -> "tuple[Any, Any, float]":
        """(colour or None, nearest colour, distance to it)."""
        best = None
        d1 = 1e9
        d2 = 1e9
        for name in self.centroids:
            d = self.distance(f, self.centroids[name])
            if d < d1:
                d2 = d1
                d1 = d
                best = name
            elif d < d2:
                d2 = d
        if best is None:
            return None, None, d1
        if d1 > self.reject_distance or d1 > self.ambiguity_ratio * d2:
            return None, best, d1
        return best, best, d1
