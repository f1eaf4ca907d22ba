"""Expectations over n independent draws from a finite distribution: ``over_draws``.

Many losses average over n i.i.d. draws -- N negatives in L^N_un (6), N draws in the coupon collector --
from a finite distribution p on M outcomes. Such an average depends on the draws only through their
multiset (the count vector c, sum c = n), so it is the finite sum

    E g(c) = sum over the C(n + M - 1, M - 1) multisets of  n!/(c_1! ... c_M!) * p_1^c_1 ... p_M^c_M * g(c),

written once against the backend: exact in mpmath (the multinomial coefficients are exact integers),
differentiable in torch. Beyond ``max_multisets`` terms it is a Monte Carlo estimate with a Hoeffding
bracket (``bounds`` on g required): an :class:`~numerics.enclosure.Enclosure` in float64, and no
high-precision value at all (:class:`~numerics.errors.PrecisionUnavailable`) -- a violation must then
hold over the whole bracket.

The field's shared library, for outsiders too (an outside plugin such as examples/infonce may use it), not
one paper's own code.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from numerics.contrastive import compositions, n_compositions
from numerics.enclosure import Enclosure
from numerics.errors import AssumptionError, PrecisionUnavailable

MAX_MULTISETS = 20_000


def multinomial(counts: np.ndarray) -> int:
    """n! / (c_1! ... c_M!) as an exact integer."""
    out = math.factorial(int(np.sum(counts)))
    for c in counts:
        out //= math.factorial(int(c))
    return out


def over_draws(xp: Any, p: Any, n: int, g: Callable[[np.ndarray], Any], max_multisets: int = MAX_MULTISETS,
               bounds: tuple[float, float] | None = None, samples: int = 100_000, seed: int = 0,
               alpha: float = 1e-6) -> Any:
    """E over n i.i.d. draws from ``p`` (a backend vector of M masses) of ``g(counts)``, where ``counts`` is
    the draws' count vector (numpy ints) and ``g`` returns a backend scalar. Exact up to ``max_multisets``
    multisets; beyond, the Monte Carlo bracket described in the module docstring."""
    if isinstance(n, bool) or int(n) != n or n < 0:
        raise AssumptionError(f"n = {n!r}: the number of draws is an integer >= 0")
    n = int(n)
    M = int(np.shape(p)[0])
    if n_compositions(n, M) <= max_multisets:
        total = xp.asarray(0.0)
        for counts in compositions(n, M):
            mass = xp.asarray(multinomial(counts))
            for i in np.flatnonzero(counts):
                mass = mass * p[int(i)] ** int(counts[i])
            total = total + mass * g(counts)
        return total
    if xp.name != "float64" or bounds is None:
        raise PrecisionUnavailable(f"{n_compositions(n, M)} multisets of {n} draws over {M} outcomes: only a "
                                   "float64 Monte Carlo bracket (with bounds on g) is available")
    rng = np.random.default_rng(seed)
    probs = np.asarray(p, dtype=float)
    draws = rng.multinomial(n, probs / probs.sum(), size=samples)
    values = np.array([float(g(c)) for c in draws])
    lo, hi = bounds
    radius = (hi - lo) * math.sqrt(math.log(2 / alpha) / (2 * samples))  # Hoeffding
    return Enclosure.around(float(values.mean()), radius, alpha, how=f"Monte Carlo over {samples} draws of {n}")
