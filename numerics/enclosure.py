"""One enclosure type for every quantity known only to lie in an interval.

A Monte Carlo estimate with its Hoeffding radius, the objective of an optimizer at a concrete
point (an upper bracket of an infimum) and an interval computed with outward rounding are all
an :class:`Enclosure` ``[lo, hi]``; ``alpha`` is the probability that the true value lies
outside (0 for a certain enclosure). A comparison against an enclosure is decided only when it
holds for every point of it (python-flint's arb balls follow the same rule).
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Enclosure:
    """The value lies in ``[lo, hi]`` (with probability >= 1 - ``alpha``); ``how`` says why."""

    lo: float
    hi: float
    alpha: float = 0.0
    how: str = ""

    def __post_init__(self) -> None:
        if not (self.lo <= self.hi):  # also rejects NaN ends
            raise ValueError(f"Enclosure needs lo <= hi, got [{self.lo}, {self.hi}]")
        if not 0.0 <= self.alpha < 1.0:
            raise ValueError(f"Enclosure alpha = {self.alpha}: must be in [0, 1)")

    @classmethod
    def around(cls, centre: float, radius: float, alpha: float = 0.0, how: str = "") -> "Enclosure":
        """[centre - radius, centre + radius]."""
        return cls(centre - radius, centre + radius, alpha, how)

    @property
    def mid(self) -> float:
        return (self.lo + self.hi) / 2

    @property
    def radius(self) -> float:
        return (self.hi - self.lo) / 2

    @property
    def certain(self) -> bool:
        return self.alpha == 0.0

    def contains(self, x: float) -> bool:
        return self.lo <= x <= self.hi

    def __str__(self) -> str:
        tail = "" if self.certain else f" (P(outside) <= {self.alpha:g})"
        return f"[{self.lo:.6g}, {self.hi:.6g}]{tail}"

    @property
    def finite(self) -> bool:
        return math.isfinite(self.lo) and math.isfinite(self.hi)
