"""Where the sharp constants of Huang et al.'s bounds are attained or approached (``Sharp.attained``): subjects
of the claims' own families that the search probes, climbs from and, in `clcheck mutate`, probes on every
mutant of the part. They are ordinary subjects: a claim is decided by its search and certificates alone.

* Theorem 4 over encoders (c = 3/4, :mod:`theorems.papers.huang.sharp_constants`): d = 1, K = 2, class k's views
  all embedded at sqrt(3/(4 p_k)). Then tau = 0, L_2 = (3/2 - 1)^2 and mu_1 mu_2 = (3/4)/sqrt(p_1 p_2): the ratio
  to the printed bound is sqrt(3/8) whatever the masses, so the class masses are free -- here either one down to 1e-50, the
  region where a bound with another power of p_k p_l fails.
* Theorem 2's first step, ||f(x1) - f(y1)|| <= L delta + 2 eps (constant 2): sphere encoders f(x') = x'/||x'||
  (W = I, r = 1) on inputs of the unit circle at the angles 0, a, a + b, 2a + b (x's views, then y's), so L = 1,
  eps = chord(a), delta = chord(b) and the spread is chord(2a + b): the ratio to L delta + 2 eps tends to 1 as
  the arcs shrink (a chain of chords is straight in the limit). A far sample of a second class makes K = 2.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from theorems.subjects import Family as SubjectFamily
from theorems.papers.huang.augmentation import AugmentedData
from theorems.papers.huang.subjects import make_subject

# the two classes' masses before normalizing: either one small, down to 1e-50 (a power of p_k p_l moved by 1 % fails
# only below about 1e-43)
THEOREM4_MASSES = tuple((m, 1.0) for m in (1.0, 0.1, 1e-2, 1e-4, 1e-9, 1e-20, 1e-50)) + tuple(
    (1.0, m) for m in (1e-4, 1e-9, 1e-20, 1e-50))
SLACK = 1e-12  # the relative room left above eps and delta (the ratio moves by about as much)
MAIN_CLOSE_ARCS = ((0.5, 0.0), (0.2, 0.0), (0.05, 0.0), (0.2, 0.1), (0.05, 0.02), (0.01, 0.005))  # (a, b), radians


def theorem4_encoder_extremal(family: SubjectFamily) -> Sequence[tuple[SubjectFamily, Any]]:
    """Table encoders of ``family`` (d = 1, K = 2, |A| = 2) at class k's value sqrt(3/(4 p_k)), for each pair of
    masses of THEOREM4_MASSES."""
    out = []
    for pair in THEOREM4_MASSES:
        mass = np.array(pair)
        inputs = np.array([[[0.0], [0.5]], [[1.0], [1.5]]])
        data = AugmentedData.create(np.array([0, 1]), mass, inputs, 2)
        value = np.sqrt(0.75 / data.class_mass)
        table = np.repeat(value[:, None, None], 2, axis=1)  # (n, |A|, d): both views of class k at one point
        out.append((family, make_subject("table", "none", data, table, source="equality case: Theorem 4, c = 3/4")))
    return out


def _chord(angle: float) -> float:
    return 2.0 * math.sin(angle / 2.0)


def main_close_chain(family: SubjectFamily) -> Sequence[tuple[SubjectFamily, Any]]:
    """Sphere encoders of ``family`` (r = 1, W = I, m = d = 2, |A| = 2) on unit-circle inputs at the angles
    0, a, a + b, 2a + b (two samples of class 0) and one far sample of class 1, for each (a, b) of
    MAIN_CLOSE_ARCS; eps = chord(a), delta = chord(b) (each times 1 + SLACK)."""
    out = []
    for a, b in MAIN_CLOSE_ARCS:
        angles = np.array([[0.0, a], [a + b, 2 * a + b], [math.pi, math.pi]])
        inputs = np.stack([np.cos(angles), np.sin(angles)], axis=-1)  # (3, 2, 2)
        data = AugmentedData.create(np.array([0, 0, 1]), np.ones(3), inputs, 2)
        # eps and delta a hair above the chords: the checker recomputes both from the floats, and a rounding above
        # eps would put x outside S_eps
        out.append((family, make_subject("linear", "sphere", data, np.eye(2), eps=_chord(a) * (1 + SLACK),
                                         delta=_chord(b) * (1 + SLACK),
                                         source="equality case: Theorem 2's first step, constant 2")))
    return out
