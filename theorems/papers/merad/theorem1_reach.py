"""Theorem 1's conclusion L^_un(f) <= eps against its hypotheses (issue 38): reachability and the data adversary.

**Reach (Assumption 2 granted).** With the hypotheses granted, Assumption 2 gives ||f(x)|| < C on X_data at the end of
training, so every triplet's argument t_i = f(x_i)^T (f(x_i-) - f(x_i+)) lies in [-2C^2, 2C^2] (Cauchy-Schwarz,
|t_i| <= ||f(x_i)|| (||f(x_i-)|| + ||f(x_i+)||); the closed interval contains every admissible value and its ends are
approached as ||f|| -> C with f(x_i) = f(x_i+) = -f(x_i-)). zeta = log(1 + e^.) is increasing, so one triplet's term is
>= zeta(-2C^2) = log(1 + e^{-2C^2}), and L^_un = sum of n >= 1 such terms is >= n log(1 + e^{-2C^2}) >=
log(1 + e^{-2C^2}). The Reach row declares one triplet's term (n = 1 is an admissible X_data, and the bound holds for
every n >= 1). A run reaching eps therefore needs max ||f(x)|| >= C_min(eps) with
C_min(eps)^2 = 1/2 log(1/(e^{eps/n} - 1)), which tends to +oo as eps -> 0+ (``c_min_squared``).

**Data adversary (triplet data).** The generic adversary (:mod:`numerics.data_adversary`) builds labelled lists of
reals; a list is read as a triplet data set by :func:`triplets_of` (documented there): one anchor, every (+1) point a
positive, every (-1) point a negative, one triplet per (positive, negative) pair. So the candidate
"duplicate-both-labels" [(x, -1), (x, +1)] is the one triplet (a, x, x); a point listed with both labels among others
adds such a triplet to a larger set. The samples live on the unit circle (:func:`embed`, inverse stereographic
projection: injective, unit norm; the anchor is the pole (0, 1), which no real maps to). The hypotheses are evaluated
on the triplet data set: Assumption 1 as printed (the union SET X_data unit-norm and delta-separated) or read over the
3n positions (every position a distinct sample). The infimum (:func:`triplet_infimum`) is a relaxation valid for
every encoder: each triplet's argument t_i is z_a^T (z_- - z_+); triplets with the same anchor and the same unordered
pair {x+, x-} share one free real u (t = +-u), different pairs get independent reals (dropping every constraint between
them only enlarges the set, so the infimum is a lower bound for every f, every width, every run); a triplet with
x+ = x- has t = 0 for every f: its term is zeta(0) = log 2.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

import sympy

from numerics.data_adversary import DataSpec, Hypothesis
from numerics.reach import InfimumBound, sum_infimum
from theorems import DataAdversary, Reach
from theorems.papers.merad import assumption1

#: the decision variable (one triplet's argument) and the prefix object Assumption 2's radius
t = sympy.Symbol("t", real=True)
C = sympy.Symbol("C", positive=True)
eps = sympy.Symbol("eps", positive=True)
n = sympy.Symbol("n", positive=True, integer=True)

#: one triplet's term of (11), and its exact infimum over the Cauchy-Schwarz box
TERM = sympy.log(1 + sympy.exp(t))
RADII = (0.5, 1, 2, 3)


def assumption2_box(level: str = "eps") -> Reach:
    """The Reach row: zeta(t) <= eps with t in [-2C^2, 2C^2] (Assumption 2 granted, Cauchy-Schwarz)."""
    return Reach(
        "Assumption 2 granted (with the hypotheses granted: ||f(x)|| < C on X_data at the end of training), so one "
        "triplet's argument t = f(x_i)^T(f(x_i-) - f(x_i+)) lies in [-2C^2, 2C^2] (Cauchy-Schwarz; the ends are "
        "approached); L^_un is a sum of n >= 1 terms zeta(t) >= zeta(-2C^2) (n = 1 is an admissible X_data)",
        TERM, {t: (-2 * C ** 2, 2 * C ** 2)}, level, objects={"C": RADII},
        about="f: its outputs on X_data at the end of training (Assumption 2's radius C)")


def infimum_exact() -> sympy.Expr:
    """inf zeta over [-2C^2, 2C^2], exactly: zeta(-2C^2) (zeta increasing)."""
    return sympy.log(1 + sympy.exp(-2 * C ** 2))


def c_min_squared() -> sympy.Expr:
    """The least C^2 with n zeta(-2C^2) <= eps: 1/2 log(1/(e^{eps/n} - 1)) (solve n log(1 + e^{-2C^2}) = eps)."""
    return sympy.log(1 / (sympy.exp(eps / n) - 1)) / 2


# ----------------------------------------------------------------------------- triplet data from labelled lists

ANCHOR = "anchor"
#: the adversary's delta of Assumption 1 (universal in the prefix: any delta > 0 the set satisfies may be picked)
DELTA = 0.05
SPEC = DataSpec(dim=1, labels=(-1, 1), delta=1.0, min_size=1, max_size=8)


def embed(p: Any) -> tuple[Fraction, Fraction]:
    """A real p on the unit circle, exactly: (2p/(p^2+1), (p^2-1)/(p^2+1)) (inverse stereographic projection from the
    pole (0, 1), the anchor's point; injective, and (2p)^2 + (p^2-1)^2 = (p^2+1)^2 makes the norm exactly 1)."""
    if p == ANCHOR:
        return (Fraction(0), Fraction(1))
    q = Fraction(p)
    return (2 * q / (q * q + 1), (q * q - 1) / (q * q + 1))


def triplets_of(data: Sequence[tuple[Any, Any]]) -> list[tuple[Any, Any, Any]]:
    """The triplet data set a labelled list stands for: anchor ``ANCHOR``, every (+1) point a positive, every (-1)
    point a negative, one triplet (anchor, x+, x-) per (positive, negative) pair, in list order (a list with one
    label only has no triplet)."""
    pos = [p for p, y in data if y == 1]
    neg = [p for p, y in data if y == -1]
    return [(ANCHOR, a, b) for a in pos for b in neg]


def _positions(triplets: Sequence[tuple[Any, Any, Any]]) -> list[Any]:
    return [x for tr in triplets for x in tr]


def _separated(points: Sequence[Any], delta: float) -> bool:
    """Every point exactly unit-norm and every two >= delta apart (exact rational arithmetic)."""
    vecs = [embed(p) for p in points]
    if any(v[0] ** 2 + v[1] ** 2 != 1 for v in vecs):
        return False
    d2 = Fraction(delta) ** 2
    return all((vecs[i][0] - vecs[j][0]) ** 2 + (vecs[i][1] - vecs[j][1]) ** 2 >= d2
               for i in range(len(vecs)) for j in range(i + 1, len(vecs)))


def _set_holds(data: Sequence[tuple[Any, Any]]) -> bool:
    trips = triplets_of(data)
    return bool(trips) and _separated(list(dict.fromkeys(_positions(trips))), DELTA)


def _positions_hold(data: Sequence[tuple[Any, Any]]) -> bool:
    pos = _positions(triplets_of(data))
    return bool(pos) and len(set(pos)) == len(pos) and _separated(pos, DELTA)


AT_LEAST_ONE = Hypothesis("n >= 1 triplets (a positive and a negative)", lambda data: bool(triplets_of(data)))
ASSUMPTION1_SET = Hypothesis(
    f"Assumption 1 as printed, read as {assumption1.SET} (delta = {DELTA}, the adversary's pick: 'there exists delta "
    "> 0' -- a witness delta-separated for this delta satisfies it)", _set_holds)
ASSUMPTION1_POSITIONS = Hypothesis(
    f"Assumption 1 read as {assumption1.POSITIONS} (delta = {DELTA})", _positions_hold)


def _key(p: Any) -> tuple[int, Any]:
    return (0, p) if p == ANCHOR else (1, float(p))


def triplet_terms(triplets: Sequence[tuple[Any, Any, Any]]) -> tuple[list[sympy.Expr], dict[sympy.Symbol, tuple]]:
    """The relaxation's terms zeta(t_i) and its box (module docstring): one free real per (anchor, {x+, x-})."""
    free: dict[tuple, sympy.Symbol] = {}
    terms = []
    for a, p, q in triplets:
        if p == q:
            terms.append(sympy.log(2))  # t = z_a^T (z_q - z_q) = 0 for every encoder
            continue
        lo, hi = sorted((p, q), key=_key)
        u = free.setdefault((a, lo, hi), sympy.Symbol(f"u{len(free)}", real=True))
        terms.append(sympy.log(1 + sympy.exp(u if q == hi else -u)))  # t = z_a^T(z_q - z_p) = +-(z_a^T(z_hi - z_lo))
    return terms, {u: (-sympy.oo, sympy.oo) for u in free.values()}


def triplet_infimum(data: Sequence[tuple[Any, Any]]) -> InfimumBound:
    """A certified lower bound on inf L^_un(f) over every encoder f, on the triplet data set of the list."""
    terms, box = triplet_terms(triplets_of(data))
    return sum_infimum(terms, box)


def adversary(hypothesis: Hypothesis, data: str = "X_data") -> DataAdversary:
    """The data adversary over triplet data sets admitted by ``hypothesis`` (and n >= 1)."""
    return DataAdversary(SPEC, (AT_LEAST_ONE, hypothesis), infimum=triplet_infimum, level="eps", data=data)


__all__ = ["ASSUMPTION1_POSITIONS", "ASSUMPTION1_SET", "AT_LEAST_ONE", "C", "DELTA", "RADII", "SPEC", "TERM",
           "adversary", "assumption2_box", "c_min_squared", "embed", "eps", "infimum_exact", "n", "t",
           "triplet_infimum", "triplet_terms", "triplets_of"]
