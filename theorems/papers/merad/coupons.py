"""Discrete subjects: the coupon collector (Section 3.1), tau^+_N, and the k-subset rearrangement.

Three composed families (:class:`theorems.subjects.Family`), their quantities declared once against the
backend:

* :func:`coupon_collector` -- ``N_C`` coupons drawn uniformly (an ``Integer`` part) and, for the Chebyshev
  claim, a deviation scale ``beta`` (a ``Scalar``); ``E_T``, ``Var_T``, ``P_dev``. Every ``N_C`` up to
  ``exhaustive_n`` is listed as well (times a grid of beta), thinner at the quick profile;
* :func:`class_draws` -- a class distribution ``rho`` on ``N_C`` classes and ``N`` draws; ``P_all_same`` is an
  expectation over the N + 1 i.i.d. draws (:func:`numerics.draws.over_draws`), never the closed form;
* :func:`k_subsets` -- ``N_C`` classes, a class ``c``, ``k`` and values ``v`` per class (the rearrangement reads
  them on C minus {c}); the subset counts and averages are enumerated.

Values that are exact rationals are computed as :class:`fractions.Fraction` and handed to the backend
without rounding (the mpmath twin divides the numerator by the denominator at working precision).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import lru_cache
from typing import Any, Iterable

import mpmath
import numpy as np

from theorems.papers.merad import coupon
from numerics.backend import Backend
from numerics.draws import over_draws
from numerics.errors import PrecisionUnavailable
from theorems import quantity
from theorems.subjects.compose import Family, Subject
from theorems.subjects.parts import Distribution, Given, Integer, Scalar, Vector

BETA_GRID = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 6.0, 10.0)


def _frac(value: Fraction, xp: Backend) -> Any:
    if xp.name == "mpmath":
        return mpmath.mpf(value.numerator) / value.denominator
    return xp.asarray(float(value))


# -- the sizes the statements name (each family has a part or size of that name) ------------------------
N_C = quantity("N_C", lambda s, xp: xp.asarray(s.N_C), integer=True, range=(1, None),
               doc="number of latent classes (coupons)")
N = quantity("N", lambda s, xp: xp.asarray(s.N), integer=True, range=(1, None), doc="number of negatives in (6)")
k = quantity("k", lambda s, xp: xp.asarray(s.k), integer=True, range=(1, None), doc="(k+1)-way tasks, (9)-(10)")


# -- the coupon collector (Section 3.1) ------------------------------------------------------------------
@quantity(range=(0, None))
def E_T(s: Any, xp: Backend) -> Any:
    """E[T], exact"""
    return _frac(coupon.coupon_mean_exact(s.N_C), xp)


@quantity(range=(0, None))
def Var_T(s: Any, xp: Backend) -> Any:
    """Var(T), exact"""
    return _frac(coupon.coupon_variance_exact(s.N_C), xp)


beta = quantity("beta", lambda s, xp: xp.asarray(s.beta), range=(0, None),
                doc="the deviation scale of the Chebyshev bound")


@quantity(range=(0, 1), differentiable=False)  # a step function of beta: no gradient for the adversary
def P_dev(s: Any, xp: Backend) -> Any:
    """P(|T - N_C H_{N_C}| >= beta N_C), exact"""
    n, b = int(s.N_C), float(s.beta)
    if xp.name == "mpmath":
        return _deviation_mp(n, b, getattr(xp, "dps", 60))
    if b in BETA_GRID:
        return xp.asarray(_deviation_grid(n)[BETA_GRID.index(b)])
    return xp.asarray(coupon.chebyshev_lhs(n, b))


@lru_cache(maxsize=64)
def _deviation_grid(n: int) -> tuple[float, ...]:
    """P(|T - n H_n| >= beta n) for every beta of BETA_GRID: one distribution of T per n."""
    return tuple(coupon.chebyshev_lhs_grid(n, BETA_GRID))


def _deviation_mp(n: int, beta: float, dps: int) -> Any:
    """High-precision twin: P(T <= a) + 1 - P(T <= b - 1) with exact Stirling-number p_cc."""
    if n > 40:
        raise PrecisionUnavailable("the high-precision deviation probability is computed for N_C <= 40")
    a, b = coupon._cheb_thresholds(n, beta)
    uniform = [Fraction(1, n)] * n
    with mpmath.workdps(dps):
        lower = coupon.p_cc_mp(uniform, a, dps=dps) if a >= n else mpmath.mpf(0)
        upper = 1 - coupon.p_cc_mp(uniform, b - 1, dps=dps) if b - 1 >= n else mpmath.mpf(1)
        return lower + upper


def coupon_sizes(exhaustive_n: int, quick: bool) -> list[int]:
    """The listed N_C: every N_C <= exhaustive_n (quick: N_C <= 40 and every 100th up to exhaustive_n)."""
    if quick:
        return sorted(set(range(1, min(40, exhaustive_n) + 1)) | set(range(100, exhaustive_n + 1, 100)))
    return list(range(1, exhaustive_n + 1))


def coupon_collector(max_n: int = 1000, exhaustive_n: int = 1000, beta_grid: tuple[float, ...] = ()) -> Family:
    """The uniform coupon collector with N_C = 1..``max_n`` coupons; with ``beta_grid``, a deviation scale
    beta in [0.05, 20] too (the Chebyshev claim). Besides random draws, every N_C <= ``exhaustive_n`` is
    listed (with each beta of the grid)."""
    if not 1 <= exhaustive_n <= max_n:
        raise ValueError(f"exhaustive_n = {exhaustive_n} must lie in [1, max_n = {max_n}]")
    parts: dict[str, Any] = {"N_C": Integer(1, max_n)}
    quantities = [E_T, Var_T, N_C]
    if beta_grid:
        b_lo, b_hi = min(0.05, *beta_grid), max(20.0, *beta_grid)
        parts["beta"] = Scalar(b_lo, b_hi)
        quantities += [P_dev, beta]

    def listing(quick: bool) -> Iterable[Subject]:
        for n in coupon_sizes(exhaustive_n, quick):
            for b in beta_grid or (None,):
                yield Subject({}, {"N_C": n} if b is None else {"N_C": n, "beta": float(b)})

    return Family("coupon collector (uniform rho)", dims={}, parts=parts, quantities=quantities, examples=listing)


# -- tau^+_N (after Proposition 1) --------------------------------------------------------------------
def _rho(s: Any, xp: Backend) -> Any:
    return s.rho / xp.sum(s.rho)


@quantity(range=(0, 1))
def P_all_same(s: Any, xp: Backend) -> Any:
    """P(c_i = c for all i), c, c_1..c_N i.i.d. from rho: the probability that the N + 1 draws are all
    one class, as an expectation over the multisets of N + 1 draws (exact multinomial masses)"""
    one, zero, draws = xp.asarray(1.0), xp.asarray(0.0), s.N + 1
    return over_draws(xp, _rho(s, xp), draws, lambda counts: one if int(counts.max()) == draws else zero)


@quantity(range=(0, 1))
def sum_rho_pow(s: Any, xp: Backend) -> Any:
    """sum_c rho(c)^(N+1)"""
    return xp.sum(_rho(s, xp) ** (s.N + 1))


def uniform_rho(s: Any) -> bool:
    """Whether the subject's rho is exactly uniform (where tau^+_N = N_C^(-N) applies)."""
    return len(set(np.asarray(s.rho, dtype=float).tolist())) == 1


def class_draws(max_classes: int = 5, max_n: int = 4) -> Family:
    """rho over N_C <= ``max_classes`` classes (uniform or not; every mass > 0) and N <= ``max_n`` draws."""
    return Family("class distributions with N draws", dims={"N_C": (1, max_classes)},
                  parts={"rho": Distribution("N_C"), "N": Integer(1, max_n)},
                  quantities=(P_all_same, sum_rho_pow, N_C, N))


# -- the rearrangement of the proof of Proposition 3.3 ----------------------------------------------
def _others(s: Any) -> list[int]:
    """The classes c- of C minus {c}."""
    return [i for i in range(s.N_C) if i != s.c]


@lru_cache(maxsize=None)
def _containing_counts(n_classes: int, c: int, k_: int) -> tuple[int, ...]:
    """For each c- in C minus {c}: how many k-subsets of C minus {c} contain it (by enumeration)."""
    others = [i for i in range(n_classes) if i != c]
    counts = dict.fromkeys(others, 0)
    for subset in itertools.combinations(others, k_):
        for member in subset:
            counts[member] += 1
    return tuple(counts[i] for i in others)


@quantity(integer=True, range=(0, None))
def count_min(s: Any, xp: Backend) -> Any:
    """min over c- of #k-subsets containing c-"""
    return xp.asarray(min(_containing_counts(s.N_C, s.c, s.k)))


@quantity(integer=True, range=(0, None))
def count_max(s: Any, xp: Backend) -> Any:
    """max over c- of the same"""
    return xp.asarray(max(_containing_counts(s.N_C, s.c, s.k)))


@quantity
def subset_average(s: Any, xp: Backend) -> Any:
    """average over k-subsets of sum_i v_{c_i}"""
    others = _others(s)
    total = xp.asarray(0.0)
    for subset in itertools.combinations(others, s.k):
        for member in subset:
            total = total + s.v[member]
    return total / math.comb(len(others), s.k)


@quantity
def sum_values(s: Any, xp: Backend) -> Any:
    """sum over c- in C \\ {c} of v_{c-}"""
    total = xp.asarray(0.0)
    for member in _others(s):
        total = total + s.v[member]
    return total


def k_subsets(max_classes: int = 10) -> Family:
    """2 <= N_C <= ``max_classes`` classes, a class c, 1 <= k <= N_C - 1 and real values v per class in
    [-100, 100] (the quantities read v on C minus {c} only: v_c is drawn and never used)."""
    return Family("k-subsets of C minus {c}", dims={"N_C": (2, max_classes)},
                  parts={"c": Given(lambda x: Integer(0, x["N_C"] - 1)),
                         "k": Given(lambda x: Integer(1, x["N_C"] - 1)),
                         "v": Vector("N_C", scales=(1.0, 0.1, 10.0, 100.0))},
                  quantities=(count_min, count_max, subset_average, sum_values, N_C, k))
