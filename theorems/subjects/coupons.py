"""Discrete subjects: the coupon collector (Section 3.1), tau^+_N, and the k-subset rearrangement.

Values that are exact rationals are computed as :class:`fractions.Fraction`
and handed to the backend without rounding (the mpmath twin divides the
numerator by the denominator at working precision).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any, Iterable

import numpy as np
import sympy
from hypothesis import strategies as st

from numerics import coupon
from numerics import json_fields as jf
from numerics.backend import Backend
from numerics.errors import AssumptionError, PrecisionUnavailable
from numerics.mixture import check_distribution, check_negatives
from theorems.engine.family import SubjectFamily, check_fields
from theorems.engine.quantity import quantity
from theorems.subjects.mixtures import N, N_C, k

# -- the coupon collector (Section 3.1), tau^+ (after Proposition 1), the k-subset rearrangement --
E_T = quantity("E_T", range=(0, None), doc="E[T], exact")
Var_T = quantity("Var_T", range=(0, None), doc="Var(T), exact")
beta = quantity("beta", range=(0, None), doc="the deviation scale of the Chebyshev bound")
P_dev = quantity("P_dev", range=(0, 1), doc="P(|T - N_C H_{N_C}| >= beta N_C), exact")
P_all_same = quantity("P_all_same", range=(0, 1), doc="P(c_i = c for all i), enumerated")
sum_rho_pow = quantity("sum_rho_pow", range=(0, 1), doc="sum_c rho(c)^(N+1)")
count_min = quantity("count_min", integer=True, range=(0, None), doc="min over c- of #k-subsets containing c-")
count_max = quantity("count_max", integer=True, range=(0, None), doc="max over c- of the same")
subset_average = quantity("subset_average", doc="average over k-subsets of sum_i v_{c_i}")
sum_values = quantity("sum_values", doc="sum over c- in C \\ {c} of v_{c-}")


def _frac(value: Fraction, xp: Backend) -> Any:
    if xp.name == "mpmath":
        import mpmath

        return mpmath.mpf(value.numerator) / value.denominator
    return xp.asarray(float(value))


# -- coupon collector ----------------------------------------------------------------


@dataclass(frozen=True)
class CouponSubject:
    """Uniform coupon collector with N_C = n coupons, and a deviation scale beta > 0."""

    n: int
    beta: float = 1.0


BETA_GRID = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 6.0, 10.0)


class Coupons(SubjectFamily):
    """N_C from 1 to ``max_n``; the exhaustive pass covers every N_C <= ``exhaustive_n``
    (with ``beta_grid`` for the Chebyshev claim)."""

    def __init__(self, max_n: int = 1000, exhaustive_n: int = 1000,
                 beta_grid: tuple[float, ...] = ()) -> None:
        self.max_n = max_n
        self.exhaustive_n = exhaustive_n
        self.beta_grid = beta_grid
        self.name = "coupon collector (uniform rho)"

    def strategy(self) -> st.SearchStrategy[CouponSubject]:
        return st.builds(CouponSubject, st.integers(1, self.max_n),
                         st.floats(0.05, 20.0) if self.beta_grid else st.just(1.0))

    def exhaustive(self, quick: bool = False) -> Iterable[CouponSubject]:
        """Every N_C <= exhaustive_n (quick: N_C <= 40 and every 100th up to exhaustive_n)."""
        betas = self.beta_grid or (1.0,)
        sizes = range(1, self.exhaustive_n + 1)
        if quick:
            sizes = sorted(set(range(1, 41)) | set(range(100, self.exhaustive_n + 1, 100)))
        for n in sizes:
            for b in betas:
                yield CouponSubject(n, b)

    symbols = frozenset({E_T, Var_T, P_dev, N_C, beta})

    def n_bounds(self) -> tuple[int, int]:
        """N_C as drawn (1..max_n) or listed (1..exhaustive_n)."""
        return 1, max(self.max_n, self.exhaustive_n)

    def beta_bounds(self) -> tuple[float, float]:
        """beta as drawn (0.05..20), listed (the grid) or shrunk (rounded, >= 1); 1 without a grid."""
        if not self.beta_grid:
            return 1.0, 1.0
        return min(0.05, *self.beta_grid), max(20.0, *self.beta_grid)

    def validate(self, subject: CouponSubject) -> None:
        lo, hi = self.n_bounds()
        if not lo <= subject.n <= hi:
            raise AssumptionError(f"{self.name}: N_C = {subject.n} is outside [{lo}, {hi}]")
        b_lo, b_hi = self.beta_bounds()
        if not b_lo <= subject.beta <= b_hi:
            raise AssumptionError(f"{self.name}: beta = {subject.beta!r} is outside [{b_lo}, {b_hi}]")

    def quantities(self, subject: CouponSubject, symbols: Iterable[sympy.Symbol], xp: Backend,
                   params: Any = None) -> dict[sympy.Symbol, Any]:
        compute = {
            E_T: lambda: _frac(coupon.coupon_mean_exact(subject.n), xp),
            Var_T: lambda: _frac(coupon.coupon_variance_exact(subject.n), xp),
            P_dev: lambda: _deviation(subject, xp),
            N_C: lambda: xp.asarray(subject.n),
            beta: lambda: xp.asarray(subject.beta),
        }
        return {s: compute[s]() for s in symbols}

    def shrink(self, subject: CouponSubject) -> Iterable[CouponSubject]:
        for n in sorted({1, 2, subject.n // 2, subject.n - 1}):
            if 1 <= n < subject.n:
                yield replace(subject, n=n)
        if subject.beta != round(subject.beta):
            yield replace(subject, beta=float(max(1, round(subject.beta))))

    def size(self, subject: CouponSubject) -> tuple[float, ...]:
        return (subject.n, subject.beta)

    def to_json(self, subject: CouponSubject) -> dict[str, Any]:
        return {"n": subject.n, "beta": subject.beta}

    def from_json(self, data: Any) -> CouponSubject:
        check_fields(data, ("n", "beta"), (), self.name)
        return CouponSubject(jf.integer(data, "n", *self.n_bounds(), self.name),
                             jf.real(data, "beta", *self.beta_bounds(), self.name))

    def describe(self, subject: CouponSubject) -> str:
        return f"N_C={subject.n}" + (f", beta={subject.beta:g}" if self.beta_grid else "")


def _deviation(subject: CouponSubject, xp: Backend) -> Any:
    """P(|T - N_C H_{N_C}| >= beta N_C) for uniform rho."""
    if xp.name == "mpmath":
        return _deviation_mp(subject.n, subject.beta, getattr(xp, "dps", 60))
    if subject.beta in BETA_GRID:
        return xp.asarray(_deviation_grid(subject.n)[BETA_GRID.index(subject.beta)])
    return xp.asarray(coupon.chebyshev_lhs(subject.n, subject.beta))


@lru_cache(maxsize=64)
def _deviation_grid(n: int) -> tuple[float, ...]:
    """P(|T - n H_n| >= beta n) for every beta of BETA_GRID: one distribution of T per n."""
    return tuple(coupon.chebyshev_lhs_grid(n, BETA_GRID))


def _deviation_mp(n: int, beta: float, dps: int) -> Any:
    """High-precision twin: P(T <= a) + 1 - P(T <= b - 1) with exact Stirling-number p_cc."""
    import mpmath

    if n > 40:
        raise PrecisionUnavailable("the high-precision deviation probability is computed for N_C <= 40")
    a, b = coupon._cheb_thresholds(n, beta)
    uniform = [Fraction(1, n)] * n
    with mpmath.workdps(dps):
        lower = coupon.p_cc_mp(uniform, a, dps=dps) if a >= n else mpmath.mpf(0)
        upper = 1 - coupon.p_cc_mp(uniform, b - 1, dps=dps) if b - 1 >= n else mpmath.mpf(1)
        return lower + upper


# -- tau^+_N --------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ClassDrawSubject:
    """A class distribution rho (as given) and N negatives."""

    rho: tuple[float, ...]
    N: int

    @property
    def uniform(self) -> bool:
        return len(set(self.rho)) == 1


class ClassDraws(SubjectFamily):
    """rho over N_C <= ``max_classes`` classes (uniform or not) and N <= ``max_n``.

    P(c_i = c for all i) is computed by enumerating all N_C^(N+1) class tuples
    (the definition), independently of the printed closed forms.
    """

    name = "class distributions with N draws"

    def __init__(self, max_classes: int = 5, max_n: int = 4) -> None:
        self.max_classes = max_classes
        self.max_n = max_n

    def strategy(self) -> st.SearchStrategy[ClassDrawSubject]:
        return _class_draws(self)

    symbols = frozenset({P_all_same, sum_rho_pow, N_C, N})

    def validate(self, subject: ClassDrawSubject) -> None:
        if not 1 <= len(subject.rho) <= self.max_classes:
            raise AssumptionError(f"{self.name}: N_C = {len(subject.rho)} is outside [1, {self.max_classes}]")
        if not 1 <= subject.N <= self.max_n:
            raise AssumptionError(f"{self.name}: N = {subject.N} is outside [1, {self.max_n}]")
        check_distribution(subject.rho, "rho", "tau^+_N (rho(c) > 0)")

    def quantities(self, subject: ClassDrawSubject, symbols: Iterable[sympy.Symbol], xp: Backend,
                   params: Any = None) -> dict[sympy.Symbol, Any]:
        rho = xp.asarray(np.asarray(subject.rho))
        rho = rho / xp.sum(rho)
        compute = {
            P_all_same: lambda: _all_same_by_enumeration(rho, subject.N, xp),
            sum_rho_pow: lambda: xp.sum(rho ** (subject.N + 1)),
            N_C: lambda: xp.asarray(len(subject.rho)),
            N: lambda: xp.asarray(subject.N),
        }
        return {s: compute[s]() for s in symbols}

    def shrink(self, subject: ClassDrawSubject) -> Iterable[ClassDrawSubject]:
        if subject.N > 1:
            yield replace(subject, N=subject.N - 1)
        n = len(subject.rho)
        if n > 1:
            yield ClassDrawSubject(tuple([1.0 / (n - 1)] * (n - 1)), subject.N)

    def size(self, subject: ClassDrawSubject) -> tuple[float, ...]:
        return (len(subject.rho), subject.N)

    def to_json(self, subject: ClassDrawSubject) -> dict[str, Any]:
        return {"rho": list(subject.rho), "N": subject.N}

    def from_json(self, data: Any) -> ClassDrawSubject:
        where = self.name
        check_fields(data, ("rho", "N"), (), where)
        rho = jf.real_array(data["rho"], "rho", ((1, self.max_classes),), where, ("N_C (classes)",), lo=0.0)
        return ClassDrawSubject(tuple(float(r) for r in rho), jf.integer(data, "N", 1, self.max_n, where))

    def describe(self, subject: ClassDrawSubject) -> str:
        return f"N_C={len(subject.rho)}, N={subject.N}, rho={np.round(subject.rho, 4).tolist()}"


def _all_same_by_enumeration(rho: Any, N: int, xp: Backend) -> Any:
    """sum over (c, c_1..c_N) in C^(N+1) of rho(c) prod_i rho(c_i) [c_i = c for all i]."""
    n = len(rho)
    total = xp.asarray(0.0)
    for tup in itertools.product(range(n), repeat=N + 1):
        if all(t == tup[0] for t in tup):
            term = rho[tup[0]]
            for t in tup[1:]:
                term = term * rho[t]
            total = total + term
    return total


@st.composite
def _class_draws(draw: Any, family: ClassDraws) -> ClassDrawSubject:
    n = draw(st.integers(1, family.max_classes))
    N = draw(st.integers(1, family.max_n))
    if draw(st.booleans()):
        rho = np.full(n, 1.0 / n)
    else:
        raw = np.asarray(draw(st.lists(st.floats(1e-3, 1.0), min_size=n, max_size=n)))
        rho = raw / raw.sum()
    check_distribution(rho, "rho", "tau^+_N (rho(c) > 0)")
    return ClassDrawSubject(tuple(float(r) for r in rho), check_negatives(N))


# -- the rearrangement of the proof of Proposition 3.3 ----------------------------------------


@dataclass(frozen=True, eq=False)
class SubsetSubject:
    """N_C classes, k, and values v_{c-} for the N_C - 1 classes c- != c."""

    n_classes: int
    k: int
    values: tuple[float, ...]


class KSubsets(SubjectFamily):
    """2 <= N_C <= ``max_classes``, 1 <= k <= N_C - 1, real values per class."""

    name = "k-subsets of C minus {c}"

    def __init__(self, max_classes: int = 10) -> None:
        self.max_classes = max_classes

    def strategy(self) -> st.SearchStrategy[SubsetSubject]:
        return _subset_subjects(self)

    symbols = frozenset({count_min, count_max, subset_average, sum_values, N_C, k})

    def validate(self, subject: SubsetSubject) -> None:
        n = subject.n_classes
        if not 2 <= n <= self.max_classes or not 1 <= subject.k <= n - 1 or len(subject.values) != n - 1:
            raise AssumptionError(f"{self.name}: N_C = {n}, k = {subject.k}, {len(subject.values)} values: need "
                                  f"2 <= N_C <= {self.max_classes}, 1 <= k <= N_C - 1, N_C - 1 values")
        if not np.all(np.isfinite(subject.values)):
            raise AssumptionError(f"{self.name}: the values must be finite")

    def quantities(self, subject: SubsetSubject, symbols: Iterable[sympy.Symbol], xp: Backend,
                   params: Any = None) -> dict[sympy.Symbol, Any]:
        counts = _containing_counts(subject.n_classes, subject.k)
        v = xp.asarray(np.asarray(subject.values))
        compute = {
            count_min: lambda: xp.asarray(min(counts)),
            count_max: lambda: xp.asarray(max(counts)),
            subset_average: lambda: _subset_average(v, subject.k, xp),
            sum_values: lambda: xp.sum(v),
            N_C: lambda: xp.asarray(subject.n_classes),
            k: lambda: xp.asarray(subject.k),
        }
        return {s: compute[s]() for s in symbols}

    def size(self, subject: SubsetSubject) -> tuple[float, ...]:
        return (subject.n_classes, subject.k)

    def to_json(self, subject: SubsetSubject) -> dict[str, Any]:
        return {"n_classes": subject.n_classes, "k": subject.k, "values": list(subject.values)}

    def from_json(self, data: Any) -> SubsetSubject:
        where = self.name
        check_fields(data, ("n_classes", "k", "values"), (), where)
        n = jf.integer(data, "n_classes", 2, self.max_classes, where)
        k = jf.integer(data, "k", 1, n - 1, where)
        values = jf.real_array(data["values"], "values", (n - 1,), where, ("N_C - 1 (one per class c- != c)",))
        return SubsetSubject(n, k, tuple(float(v) for v in values))

    def describe(self, subject: SubsetSubject) -> str:
        return f"N_C={subject.n_classes}, k={subject.k}, v={np.round(subject.values, 3).tolist()}"


@lru_cache(maxsize=None)
def _containing_counts(n_classes: int, k: int) -> tuple[int, ...]:
    """For each c- in C \\ {c}: how many k-subsets of C \\ {c} contain it (by enumeration)."""
    others = range(n_classes - 1)
    counts = [0] * (n_classes - 1)
    for subset in itertools.combinations(others, k):
        for c in subset:
            counts[c] += 1
    return tuple(counts)


def _subset_average(v: Any, k: int, xp: Backend) -> Any:
    """Average over k-subsets {c_1..c_k} of C \\ {c} of sum_i v_{c_i} (enumerated)."""
    subsets = list(itertools.combinations(range(len(v)), k))
    total = xp.asarray(0.0)
    for subset in subsets:
        for c in subset:
            total = total + v[c]
    return total / math.comb(len(v), k)


@st.composite
def _subset_subjects(draw: Any, family: KSubsets) -> SubsetSubject:
    n = draw(st.integers(2, family.max_classes))
    k = draw(st.integers(1, n - 1))
    values = draw(st.lists(st.floats(-100.0, 100.0), min_size=n - 1, max_size=n - 1))
    return SubsetSubject(n, k, tuple(values))
