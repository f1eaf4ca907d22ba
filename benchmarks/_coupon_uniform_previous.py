"""The uniform-rho coupon-collector tails as computed before issue 13 (for benchmarks/run.py only).

``chebyshev_lhs_grid_previous(n, betas)`` is theorems.papers.merad.coupon.chebyshev_lhs_grid as it was: E[T]
summed as n Fractions (once per beta), the distribution of T by two ``scipy.signal.lfilter``
calls per stage (2 n calls), the lower tails by ``math.fsum`` over each prefix. The current
version computes the same floats for P(T = t) and the lower tails (bit for bit) and P(T > t)
to within rounding (tests/test_coupon.py), in one filter cascade each.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Sequence

import numpy as np


def _mean_previous(n: int) -> Fraction:
    return sum((Fraction(n, n - i + 1) for i in range(1, n + 1)), Fraction(0))


def _pmf_sf_previous(n: int, t_max: int) -> tuple[np.ndarray, np.ndarray]:
    from scipy import signal  # imported on use: ~1 s, paid by every test run that collects test_bench.py

    pmf = np.zeros(t_max + 1)
    pmf[0] = 1.0
    sf = np.zeros(t_max + 1)
    for i in range(1, n + 1):
        p = (n - i + 1) / n
        q = (i - 1) / n
        sf = sf + signal.lfilter([1.0], [1.0, -q], pmf)
        pmf = signal.lfilter([0.0, p], [1.0, -q], pmf)
    return pmf, sf


def chebyshev_lhs_grid_previous(n: int, betas: Sequence[float]) -> np.ndarray:
    thr = []
    for beta in betas:
        m = _mean_previous(n)
        thr.append((math.floor(m - Fraction(beta) * n), math.ceil(m + Fraction(beta) * n)))
    t_max = max(max(a, b - 1, 0) for a, b in thr)
    pmf, sf = _pmf_sf_previous(n, t_max)
    out = []
    for a, b in thr:
        lower = math.fsum(pmf[: a + 1].tolist()) if a >= 0 else 0.0
        upper = float(sf[b - 1]) if b >= 1 else 1.0
        out.append(lower + upper)
    return np.array(out)
