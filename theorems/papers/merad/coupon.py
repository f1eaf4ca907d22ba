"""Coupon-collector probability p^rho_cc(N) = P(T <= N) (Merad et al. Lemma 2 (8), Section 3.1).

T is the number of i.i.d. draws from a class distribution rho over N_C classes
needed to see every class, so ``p_cc(rho, N) = P(T <= N)`` is the probability
that N draws collect every class.

Methods (every float path sums non-negative terms only):

* :func:`log_p_cc` / :func:`p_cc` -- any rho, by exponential tilting
  (Poissonization).  With independent X_c ~ Poisson(lambda_c),
  lambda_c = rho_c s, and S = sum X_c ~ Poisson(s),
  ``P(T <= N) = P(all X_c >= 1 | S = N)
  = r_N * prod_c (1 - e^{-lambda_c}) / PoissonPMF(N; s)``,
  where ``r_N = P(sum M_c = N)`` for independent zero-truncated Poisson M_c.
  s is chosen so that ``sum_c E[M_c] = N``: then r_N is a central point mass
  (not tiny) and is computed by convolving the M_c pmfs restricted to windows
  whose dropped mass is bounded by Chernoff's Poisson tail bound
  (:class:`PccInfo` reports the bound; it is kept below 1e-20 relative).
  Textbook inclusion-exclusion is *not* used: it has 2^N_C terms for general
  rho and cancels catastrophically.
  Speed (issue 13): the windows of all classes are evaluated at once (one
  vectorized Poisson log-pmf); classes with equal rho are convolved by
  binary powering; the classes whose lambda_c is so large that P(X_c = 0)
  is negligible are merged into ONE Poisson factor (a sum of independent
  Poissons is Poisson; the conditioning on X_c >= 1 they drop changes r_N by
  a one-sided relative amount bounded by sum_c (1 - lambda_c / Lambda)^k, kept
  below 2.5e-21 and added to the dropped bound: see :func:`_merge_count`);
  the rest are convolved pairwise, narrowest first, each product a direct
  sum of products of non-negative numbers.  Zipf rho at (N_C, N) =
  (1000, 1e5): ~240 classes merged, ~760 windows, ~25 ms (was 270 ms).
* :func:`p_cc_uniform_dp` -- uniform rho, Markov chain on the number of
  collected coupons; also returns the upper tail P(T > N) as a sum of the
  missing-state probabilities (accurate where 1 - p would cancel).
* :func:`p_cc_mp` -- mpmath twin: exact integer inclusion-exclusion
  (n! S(N, n) / n^N) for uniform rho, subset inclusion-exclusion with enough
  guard digits for the cancellation otherwise (N_C <= 20).
* :func:`coupon_mean_exact`, :func:`coupon_variance_exact`,
  :func:`coupon_distribution`, :func:`coupon_tail_two_sided`,
  :func:`chebyshev_lhs` -- uniform rho: E[T] = n H_n and
  Var(T) = n^2 H^(2)_n - n H_n < (n pi)^2 / 6.  The paper prints
  Var(T) = (N_C pi)^2 / 6 (Section 3.1); that is only an upper bound, which
  its Chebyshev bound P(|T - n H_n| >= beta n) <= pi^2 / (6 beta^2) uses.
  Speed (issue 13): P(T = t) is one cascade of the n stage filters (one
  scipy.signal.sosfilt call instead of 2n lfilter calls; the same floats),
  P(T > t) one nested cascade, the lower tails exact integer prefix sums (the
  same floats as math.fsum), E[T] and Var(T) by binary splitting (exact,
  cached): the 1000 distributions (12 000 examples) of merad.coupon.chebyshev's exhaustive
  pass take ~20 s instead of ~150-300 s.

Accuracy of the float paths: relative 1e-12 (measured <= 1.1e-15) against the mp
twin; log_p_cc keeps that relative accuracy where p_cc underflows (e.g.
N = N_C, p = N_C! prod rho_c).  rho is divided by its float sum first; the
result is exact for the rounded, normalised rho.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
import numbers
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

import mpmath
import numpy as np

from numerics.errors import AssumptionError
from theorems import equal, holds
from theorems.papers.merad import accuracy

__all__ = [
    "PccInfo",
    "p_cc_info",
    "log_p_cc",
    "p_cc",
    "p_cc_uniform_dp",
    "p_cc_mp",
    "coupon_mean_exact",
    "coupon_variance_exact",
    "coupon_distribution",
    "coupon_tail_two_sided",
    "chebyshev_lhs",
    "chebyshev_lhs_grid",
    "chebyshev_rhs_paper",
    "chebyshev_rhs_true",
]

#: largest N_C for the 2^N_C subset inclusion-exclusion of :func:`p_cc_mp`
MP_SUBSET_MAX_CLASSES = 20
_TINY = float(np.finfo(float).tiny)
_LOG_2PI = math.log(2.0 * math.pi)


# ----------------------------------------------------------------------------
# input validation
# ----------------------------------------------------------------------------
def _check_n_draws(N: Any, name: str = "N") -> int:
    """N must be a positive integer (int or numpy integer, not bool)."""
    if isinstance(N, bool) or not isinstance(N, numbers.Integral):
        raise AssumptionError(
            f"{name} = {N!r}: {name} must be a positive integer "
            "(number of draws, Merad et al. Lemma 2 (8))"
        )
    N = int(N)
    if N < 1:
        raise AssumptionError(
            f"{name} = {N}: {name} must be a positive integer "
            "(number of draws, Merad et al. Lemma 2 (8))"
        )
    return N


def _check_rho_values(vals: Sequence[Any]) -> None:
    """Shared rho checks on exact-comparable scalars (floats, Fractions, mpf)."""
    if len(vals) == 0:
        raise AssumptionError("rho = []: rho must be a non-empty 1-d vector of class probabilities")
    for i, v in enumerate(vals):
        fv = float(v)
        if math.isnan(fv):
            raise AssumptionError(f"rho[{i}] = {v}: rho contains NaN")
        if math.isinf(fv):
            raise AssumptionError(f"rho[{i}] = {v}: rho contains a non-finite (inf) entry")
    for i, v in enumerate(vals):
        if v < 0:
            raise AssumptionError(
                f"rho[{i}] = {v}: rho has a negative entry; the paper requires rho(c) > 0 "
                "for every class (Merad et al. Section 3)"
            )
        if v == 0:
            raise AssumptionError(
                f"rho[{i}] = {v}: rho has a zero entry; the paper requires rho(c) > 0 "
                "for every class (Merad et al. Section 3)"
            )
        if float(v) < _TINY:
            raise AssumptionError(
                f"rho[{i}] = {v}: rho has an entry below the smallest normal float64 "
                f"({_TINY:.3g}); such a mass cannot be represented to full relative precision"
            )


def _check_rho(rho: Any) -> np.ndarray:
    """Validate a float class distribution and return it divided by its sum."""
    arr = np.asarray(rho, dtype=float)
    if arr.ndim != 1 or arr.size == 0:
        raise AssumptionError(
            f"rho has shape {arr.shape}: rho must be a non-empty 1-d vector of class probabilities"
        )
    _check_rho_values(arr.tolist())
    total = math.fsum(arr.tolist())
    if not holds(equal(total, 1.0, what="sum(rho) = 1")):
        raise AssumptionError(
            f"sum(rho) = {total!r}: rho does not sum to 1 (within the checker's tolerance, theorems.holds)"
        )
    return arr / total


# ----------------------------------------------------------------------------
# accurate Poisson log-pmf (Loader's saddle-point form, as in R's dpois)
# ----------------------------------------------------------------------------
def _stirlerr_small_table() -> np.ndarray:
    out = np.full(16, np.nan)
    with mpmath.workdps(40):
        half_log_2pi = mpmath.log(2 * mpmath.pi) / 2
        for n in range(1, 16):
            v = mpmath.loggamma(n + 1) - (n + mpmath.mpf(1) / 2) * mpmath.log(n) + n - half_log_2pi
            out[n] = float(v)
    return out


_STIRLERR_SMALL = _stirlerr_small_table()


def _stirlerr(k: np.ndarray) -> np.ndarray:
    """log(k!) - [(k + 1/2) log k - k + log sqrt(2 pi)] for integers k >= 1."""
    k = np.asarray(k, dtype=np.int64)
    out = np.empty(k.shape, dtype=float)
    small = k <= 15
    any_small = bool(small.any())
    if any_small:
        out[small] = _STIRLERR_SMALL[k[small]]
    big = ~small if any_small else slice(None)
    x = k[big].astype(float)
    r = 1.0 / (x * x)
    s0, s1, s2, s3 = 1.0 / 12, 1.0 / 360, 1.0 / 1260, 1.0 / 1680
    s4, s5, s6 = 1.0 / 1188, 691.0 / 360360, 1.0 / 156
    # Stirling's series sum_j (-1)^j B_{2j+2} / ((2j+1)(2j+2) k^{2j+1}), Horner in 1/k^2
    out[big] = (s0 - r * (s1 - r * (s2 - r * (s3 - r * (s4 - r * (s5 - r * s6)))))) / x
    return out


def _bd0(x: np.ndarray, m: Any) -> np.ndarray:
    """x log(x/m) + m - x without cancellation (Loader 2000); m a scalar or an array like x.

    Near x = m (|x - m| < 0.1 (x + m)) by the series d v + 2 x v^3 sum_i v^{2i} / (2i + 3),
    v = (x - m) / (x + m), d = x - m, with as many terms as the largest |v| needs for 1e-18."""
    x = np.asarray(x, dtype=float)
    m = np.broadcast_to(np.asarray(m, dtype=float), x.shape)
    out = np.empty(x.shape, dtype=float)
    d = x - m
    near = np.abs(d) < 0.1 * (x + m)
    all_near = bool(near.all())
    far = ~near
    if not all_near and np.any(far):
        xf, mf = x[far], m[far]
        out[far] = xf * np.log(xf / mf) + mf - xf
    if all_near or np.any(near):
        sel = slice(None) if all_near else near
        dn, xn = d[sel], x[sel]
        v = dn / (xn + m[sel])
        v2 = v * v
        vmax = float(np.sqrt(v2.max()))
        # the term v^{2i} / (2i + 3) after i = J - 1 is <= 2 |v|^{2J} relative to d v
        n_terms = 1 if vmax == 0.0 else max(1, math.ceil(math.log(5e-19) / (2.0 * math.log(vmax))))
        poly = np.full(v.shape, 1.0 / (2 * n_terms + 1))
        for i in range(n_terms - 2, -1, -1):
            poly *= v2
            poly += 1.0 / (2 * i + 3)
        out[sel] = dn * v + 2.0 * xn * v * v2 * poly
    return out


def _log_dpois(k: np.ndarray, lam: Any) -> np.ndarray:
    """log PoissonPMF(k; lam) for integers k >= 1, relative accuracy ~ machine epsilon.

    ``lam`` is a scalar or an array like ``k`` (one mean per entry)."""
    k = np.asarray(k)
    return -_stirlerr(k) - _bd0(k, lam) - 0.5 * (_LOG_2PI + np.log(k.astype(float)))


# ----------------------------------------------------------------------------
# tilting
# ----------------------------------------------------------------------------
def _ztp_mean(x: np.ndarray) -> np.ndarray:
    """E[M] for M ~ zero-truncated Poisson(x): x / (1 - e^{-x}) (-> 1 as x -> 0)."""
    x = np.asarray(x, dtype=float)
    den = -np.expm1(-x)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(x > 0, x / np.where(den > 0, den, 1.0), 1.0)
    return out


def _ztp_var(x: np.ndarray) -> np.ndarray:
    """Var[M] for M ~ zero-truncated Poisson(x) (used only for the size estimate of r_N)."""
    mu = _ztp_mean(x)
    v = mu * (1.0 + x - mu)
    return np.where(x < 1e-4, x / 2.0, np.maximum(v, 0.0))


def _solve_tilt(rho: np.ndarray, N: int) -> float:
    """s > 0 with sum_c rho_c s / (1 - e^{-rho_c s}) = N (bracket [N - N_C, N])."""
    n = rho.size

    def f(s: float) -> float:
        return math.fsum(_ztp_mean(rho * s).tolist()) - N

    lo, hi = float(max(N - n, 0.5)), float(N)
    flo, fhi = f(lo), f(hi)
    if flo >= 0:
        return lo
    if fhi <= 0:
        return hi
    from scipy import optimize  # imported on use: scipy.optimize costs ~0.4 s to import

    return float(optimize.brentq(f, lo, hi, xtol=1e-12 * hi, rtol=1e-14, maxiter=200))


def _chernoff_log(k: np.ndarray, lam: Any) -> np.ndarray:
    """log of e^{-lam} (e lam / k)^k: bounds P(X >= k) for k >= lam, P(X <= k) for k <= lam."""
    k = np.asarray(k, dtype=float)
    return -lam + k + k * (np.log(lam) - np.log(k))


@dataclass
class _Factor:
    pmf: np.ndarray
    offset: int  # value of pmf[0]


#: np.longdouble carries >= 64 mantissa bits (x86): sums of <= 1e5 float64 terms in it are
#: accurate to ~1e-16 relative.  Elsewhere math.fsum (exactly rounded, slower) is used.
_EXTENDED = np.finfo(np.longdouble).nmant >= 63


def _mass(a: np.ndarray) -> float:
    """sum(a) of a non-negative array, accurate to ~1 ulp (extended precision or fsum)."""
    if _EXTENDED:
        return float(np.sum(a, dtype=np.longdouble))
    return math.fsum(a.tolist())


def _segment_masses(a: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Accurate sums of the consecutive segments a[starts[i]:starts[i+1]] (last one to the end)."""
    if _EXTENDED:
        return np.add.reduceat(a.astype(np.longdouble), starts).astype(float)
    ends = np.append(starts[1:], a.size)
    return np.array([math.fsum(a[s:e].tolist()) for s, e in zip(starts.tolist(), ends.tolist())])


def _window_ends(lam: np.ndarray, log_norm: np.ndarray, tau: float) -> tuple[np.ndarray, ...]:
    """Windows [k_lo, k_hi] of X ~ Poisson(lam) conditioned on X >= 1 - or not conditioned, where
    ``log_norm`` is 0 - whose two dropped tails have Chernoff-bounded mass <= tau/2 each.

    Vectorized over ``lam``; integer bisection on each side, since the Chernoff bound
    f(k) = log(e^{-lam} (e lam / k)^k) is decreasing in k > lam and increasing in k < lam.
    Returns k_lo, k_hi and the bounds on the two dropped masses (upper and lower tails).
    """
    log_half = math.log(tau / 2.0)
    target = log_half + log_norm  # f(k) <= target  <=>  bound(tail) / P(X >= 1) <= tau/2
    L = -target  # > 0
    # upper end: smallest integer k > lam with f(k) <= target.  Bernstein's form of the Chernoff
    # bound, P(X >= lam + t) <= exp(-t^2 / (2 (lam + t/3))), makes k = ceil(lam + t_hi) admissible.
    t_hi = L / 3.0 + np.sqrt(L * L / 9.0 + 2.0 * lam * L)
    lo = np.floor(lam)  # inadmissible (k <= lam)
    hi = np.ceil(lam + t_hi) + 1.0
    bad = _chernoff_log(hi, lam) > target  # cannot happen (Bernstein); widen if rounding says so
    while np.any(bad):
        hi = np.where(bad, hi + np.ceil(np.sqrt(lam) + 1.0), hi)
        bad = _chernoff_log(hi, lam) > target
    while np.any(hi - lo > 1):
        mid = np.floor((lo + hi) / 2.0)
        ok = _chernoff_log(mid, lam) <= target
        hi, lo = np.where(ok, mid, hi), np.where(ok, lo, mid)
    k_hi = hi - 1.0
    up_bound = np.exp(_chernoff_log(hi, lam) - log_norm)
    # lower end (lam > 1 only): largest integer k in [1, lam) with f(k) <= target; the window
    # starts at k + 1.  Without one, the window starts at 1 (all of X >= 1 is kept).
    k_lo = np.ones_like(lam)
    low_bound = np.zeros_like(lam)
    cand = (lam > 1.0) & (_chernoff_log(np.ones_like(lam), lam) <= target)
    if np.any(cand):
        lm = lam[cand]
        lo = np.ones_like(lm)  # admissible
        hi = np.ceil(lm)  # inadmissible (k >= lam)
        hi = np.where(hi > lm, hi, hi + 0.0)
        while np.any(hi - lo > 1):
            mid = np.floor((lo + hi) / 2.0)
            ok = _chernoff_log(mid, lm) <= target[cand] if np.ndim(target) else _chernoff_log(mid, lm) <= target
            lo, hi = np.where(ok, mid, lo), np.where(ok, hi, mid)
        k_lo[cand] = lo + 1.0
        ln = log_norm[cand] if np.ndim(log_norm) else log_norm
        low_bound[cand] = np.exp(_chernoff_log(lo, lm) - ln)
    k_hi = np.maximum(k_hi, k_lo)
    return k_lo.astype(np.int64), k_hi.astype(np.int64), up_bound, low_bound


def _ztp_windows(lams: np.ndarray, tau: float) -> tuple[list[_Factor], np.ndarray]:
    """Zero-truncated Poisson(lam) pmfs on windows with Chernoff-bounded dropped mass <= tau each.

    Vectorized over the distinct means ``lams``: one evaluation of the Poisson log-pmf for all
    windows at once.  Returns the factors and the dropped-mass bound of each window.
    """
    lams = np.asarray(lams, dtype=float)
    log_norm = np.log(-np.expm1(-lams))  # log P(X >= 1)
    k_lo, k_hi, up, low = _window_ends(lams, log_norm, tau)
    widths = k_hi - k_lo + 1
    factors: list[_Factor | None] = [None] * lams.size
    small = lams < 1.0
    if np.any(small):
        # ztp(1) = lam / (e^lam - 1), ztp(k+1) = ztp(k) lam / (k+1); k_lo == 1 here
        ls, ws = lams[small], widths[small]
        ratios = ls[:, None] / np.arange(1, int(ws.max()) + 1, dtype=float)[None, :]
        ratios[:, 0] = ls / np.expm1(ls)
        pmfs = np.cumprod(ratios, axis=1)
        for i, row, w in zip(np.flatnonzero(small).tolist(), pmfs, ws.tolist()):
            factors[i] = _Factor(row[:w] / _mass(row[:w]), 1)
    big = np.flatnonzero(~small)
    if big.size:
        wb = widths[big]
        starts = np.concatenate(([0], np.cumsum(wb)[:-1]))
        seg = np.repeat(np.arange(big.size), wb)
        k = np.arange(int(wb.sum()), dtype=np.int64) - starts[seg] + k_lo[big][seg]
        pmf = np.exp(_log_dpois(k, lams[big][seg]) - log_norm[big][seg])
        # Each window holds mass 1 - (up + low) = 1 to double precision: dividing by the accurate
        # mass removes the systematic part of the rounding error, which would otherwise grow
        # N_C-fold in the N_C-fold convolution.  Relative effect <= the dropped bound.
        pmf /= _segment_masses(pmf, starts)[seg]
        for j, i in enumerate(big.tolist()):
            factors[i] = _Factor(pmf[starts[j]:starts[j] + wb[j]], int(k_lo[i]))
    return factors, up + low  # type: ignore[return-value]


def _poisson_window(lam: float, tau: float) -> tuple[_Factor, float]:
    """Poisson(lam) pmf (NOT truncated) on a window with Chernoff-bounded dropped mass <= tau."""
    lam_a = np.array([lam])
    k_lo, k_hi, up, low = _window_ends(lam_a, np.zeros(1), tau)
    if int(k_lo[0]) < 2:  # pragma: no cover - merged groups have lam >> L, so k_lo >> 1
        raise RuntimeError(f"p_cc: Poisson window for lam = {lam} reaches 0")
    k = np.arange(int(k_lo[0]), int(k_hi[0]) + 1, dtype=np.int64)
    pmf = np.exp(_log_dpois(k, lam))
    return _Factor(pmf / _mass(pmf), int(k_lo[0])), float(up[0] + low[0])


def _trim(f: _Factor, budget: float) -> tuple[_Factor, float]:
    """Drop leading/trailing entries of total mass <= budget (each side budget/2)."""
    a = f.pmf
    if budget <= 0 or a.size <= 1:
        return f, 0.0
    c = a.cumsum()
    i = int(c.searchsorted(budget / 2.0, side="right"))
    cr = a[::-1].cumsum()
    j = int(cr.searchsorted(budget / 2.0, side="right"))
    if i + j >= a.size:
        return f, 0.0
    # the cumulative sums of the dropped (non-negative) entries, each <= budget/2
    dropped = (float(c[i - 1]) if i else 0.0) + (float(cr[j - 1]) if j else 0.0)
    return _Factor(a[i:a.size - j], f.offset + i), dropped


def _conv(a: _Factor, b: _Factor, budget: float) -> tuple[_Factor, float]:
    """Distribution of A + B, trimmed by ``budget`` and renormalised to unit mass.

    A direct convolution: every output is a sum of products of non-negative terms. The leading
    and trailing entries <= t = budget / (2 len) are dropped (at most len of them: dropped mass
    <= budget, counted as (number dropped) t). The rounding of the convolution drifts the total
    mass systematically by ~1e-16 per product (measured: left alone, ~5e-14 in p over the ~1000
    products of N_C = 1000); dividing by the (pairwise) sum of what is kept removes that."""
    c = np.convolve(a.pmf, b.pmf)
    t = budget / (2.0 * c.size)
    keep = np.flatnonzero(c > t)
    if keep.size == 0:  # pragma: no cover - a unit-mass pmf has an entry >= 1 / len > t
        return _Factor(c / c.sum(), a.offset + b.offset), 0.0
    i, e = int(keep[0]), int(keep[-1]) + 1
    kept = c[i:e]
    return _Factor(kept / kept.sum(), a.offset + b.offset + i), (c.size - (e - i)) * t


def _point_of_sum(a: _Factor, b: _Factor, N: int) -> float:
    """P(A + B = N) for independent A, B with the given (windowed) pmfs: one dot product."""
    # need i in [0, la) and N - oa - ob - i in [0, lb)
    t = N - a.offset - b.offset
    i0 = max(0, t - (b.pmf.size - 1))
    i1 = min(a.pmf.size - 1, t)
    if i1 < i0:
        return 0.0
    return float(np.dot(a.pmf[i0:i1 + 1], b.pmf[t - i1:t - i0 + 1][::-1]))


def _merge_count(lams: np.ndarray, counts: np.ndarray, tau: float, eps: float) -> int:
    """How many of the largest distinct means (``lams`` sorted in decreasing order) to merge into
    one Poisson factor: the largest prefix G whose merge bias is <= ``eps`` relative.

    For independent X_c ~ Poisson(lam_c), c in G, S_G = sum X_c ~ Poisson(Lambda_G), and
    P(S_G = k, all X_c >= 1) = P(S_G = k) (1 - e_k) with
    0 <= e_k <= sum_{c in G} P(X_c = 0 | S_G = k) = sum_{c in G} (1 - lam_c / Lambda_G)^k
    (a union bound; given S_G = k the X_c are multinomial).  e_k decreases in k, and the Poisson
    window of S_G starts above Lambda_G - sqrt(2 Lambda_G L) (Chernoff, L = log(2 / tau)), so
    e <= |G| exp(-k_min lam_min / Lambda_G), which is what is tested here (the exact sum at the
    actual window start is what is reported).  Replacing the law of sum_{c in G} M_c by
    Poisson(Lambda_G) -- and dropping prod_{c in G} (1 - e^{-lam_c}) from the tilt factor --
    changes r_N by a relative amount in [-e, 0]: only non-negative mass is neglected.
    """
    if lams.size == 0:
        return 0
    big = np.cumsum(counts * lams)
    size = np.cumsum(counts)
    L = -math.log(tau / 2.0)
    k_min = np.maximum(big - np.sqrt(2.0 * big * L) - 1.0, 0.0)
    log_bias = np.log(size) - k_min * lams / big
    ok = np.flatnonzero(log_bias <= math.log(eps))
    return int(ok[-1]) + 1 if ok.size else 0


def _merge_bias(lams: np.ndarray, counts: np.ndarray, k_lo: int) -> float:
    """sum_{c in G} (1 - lam_c / Lambda_G)^k_lo: the relative bias bound of the Poisson merge."""
    big = math.fsum((counts * lams).tolist())
    with np.errstate(divide="ignore"):  # one class alone: (1 - 1)^k = 0
        terms = counts * np.exp(k_lo * np.log1p(-np.minimum(lams / big, 1.0)))
    return float(np.sum(terms)) * (1.0 + 1e-12)


def _log_tilt_factor(lams: np.ndarray, counts: np.ndarray, lam_all: np.ndarray, N: int) -> float:
    """log[prod_c (1 - e^{-lambda_c})^counts_c / PoissonPMF(N; Lambda)], Lambda = sum_c lambda_c exactly.

    For N near N_C both parts are ~N log N and cancel to O(|log p|), which would cost ~1e-12
    absolute in float64, so they are combined in mpmath at 40 digits. The terms with
    lambda_c < 5 (|log(1 - e^-lambda)| up to ~40 each) are summed in extended precision
    (np.longdouble, 64-bit mantissa: ~1e-19 relative per term, ~1e-15 absolute for 1e4 terms;
    in mpmath where the platform has no extended type); those with lambda_c >= 5 are below
    7e-3 each and exact to ~1e-18 in float64. Lambda enters as the exactly rounded float sum
    plus its rounded residual (a double-double), so its error is ~1e-32.
    """
    big_lam = lams >= 5.0
    t_float = math.fsum((counts[big_lam] * np.log1p(-np.exp(-lams[big_lam]))).tolist())
    small = ~big_lam & (counts > 0)
    values = lam_all.tolist()
    hi = math.fsum(values)
    lo = math.fsum(values + [-hi])
    with mpmath.workdps(40):
        big = mpmath.mpf(hi) + mpmath.mpf(lo)
        if _EXTENDED:
            ls = lams[small].astype(np.longdouble)
            tot = np.sum(counts[small].astype(np.longdouble) * np.log(-np.expm1(-ls)))
            t_hi = float(tot)
            t = mpmath.mpf(t_hi) + mpmath.mpf(float(tot - np.longdouble(t_hi)))
        else:  # pragma: no cover - platforms whose long double is a double
            t = mpmath.fsum(int(c) * mpmath.log(-mpmath.expm1(-mpmath.mpf(lam)))
                            for lam, c in zip(lams[small].tolist(), counts[small].tolist()))
        t -= N * mpmath.log(big) - big - mpmath.loggamma(N + 1)
        return float(t + t_float)


@dataclass(frozen=True)
class PccInfo:
    """Result and diagnostics of :func:`p_cc_info` (Merad et al. Lemma 2 (8))."""

    log_p: float  #: log P(T <= N)
    method: str  #: "N<N_C", "single class", "closed form N=N_C" or "tilting"
    s: float = math.nan  #: tilt = total Poisson mean sum_c lambda_c
    log_r: float = math.nan  #: log of the computed (windowed) r_N = P(sum M_c = N)
    #: Chernoff + trimming + Poisson-merge bound on |r_N(true) - r_N(computed)| (two-sided: the
    #: truncated pmfs are renormalised to unit mass, which can only raise r_N by a factor 1/(1 - D))
    dropped_bound: float = 0.0
    dropped_rel: float = 0.0  #: dropped_bound / r_N(computed), kept <= accuracy.DROPPED_MASS
    n_groups: int = 0  #: distinct rho values (equal classes are convolved by powering)
    max_width: int = 0  #: largest pmf array convolved
    #: classes whose zero-truncated factors were merged into one Poisson factor (lambda_c large)
    n_merged: int = 0
    merge_bias: float = 0.0  #: relative bound of the (one-sided) bias of that merge

    @property
    def p(self) -> float:
        return math.exp(self.log_p)


def p_cc_info(rho: Any, N: int) -> PccInfo:
    """P(T <= N) for any rho with diagnostics (Merad et al. Lemma 2 (8), Section 3.1).

    See the module docstring for the tilting identity.  The dropped-mass bound
    (Chernoff tails of every window, the exact mass trimmed from partial convolutions and
    the bias bound of the Poisson merge) is reported and kept below ``accuracy.DROPPED_MASS``
    relative to r_N.

    Where the time goes (N_C = 1000, N = 1e5, Zipf rho): one window per class, evaluated
    all at once (one vectorized Poisson log-pmf over ~1e5 points); the classes whose mean
    lambda_c is so large that P(X_c = 0) is negligible (~55 and above here) merged into
    ONE Poisson factor (see :func:`_merge_count`); the rest convolved pairwise, smallest
    first, each convolution a direct (non-negative) sum.
    """
    N = _check_n_draws(N)
    rho_n = _check_rho(rho)
    n = rho_n.size
    if N < n:
        return PccInfo(-math.inf, "N<N_C")
    if n == 1:
        return PccInfo(0.0, "single class")
    if N == n:  # p = N_C! prod rho_c, summed in mpmath (log N_C! and sum log rho_c cancel)
        with mpmath.workdps(40):
            raw = [mpmath.mpf(x) for x in np.asarray(rho, dtype=float).tolist()]
            log_p = float(
                mpmath.loggamma(n + 1)
                + mpmath.fsum(mpmath.log(x) for x in raw)
                - n * mpmath.log(mpmath.fsum(raw))
            )
        return PccInfo(min(log_p, 0.0), "closed form N=N_C")

    s = _solve_tilt(rho_n, N)
    lam_all = rho_n * s
    big_lambda = math.fsum(lam_all.tolist())
    lams, counts = np.unique(lam_all, return_counts=True)
    lams, counts = lams[::-1].copy(), counts[::-1].copy()  # decreasing: the mergeable ones first
    var_total = math.fsum((counts * _ztp_var(lams)).tolist())
    r_guess = 0.1 / math.sqrt(2.0 * math.pi * (var_total + 1.0))

    for _attempt in range(6):
        # budget: windows tau_total / 2, trimming tau_total / 4, Poisson merge DROPPED_MASS / 4
        tau_total = accuracy.DROPPED_MASS * r_guess
        n_merge = _merge_count(lams, counts, tau_total / 4.0, accuracy.DROPPED_MASS / 4.0)
        rest_l, rest_c = lams[n_merge:], counts[n_merge:]
        n_windows = int(rest_c.sum()) + (1 if n_merge else 0)
        tau_class = tau_total / (2.0 * n_windows)
        n_ops = sum(2 * int(c).bit_length() for c in rest_c.tolist()) + 2
        tau_trim = tau_total / (4.0 * n_ops)
        dropped = 0.0
        bias = 0.0
        max_width = 0
        heap: list[tuple[int, int, _Factor]] = []
        uid = itertools.count()
        if n_merge:
            lam_g = math.fsum((lams[:n_merge] * counts[:n_merge]).tolist())
            pois, bound = _poisson_window(lam_g, tau_class)
            dropped += bound
            bias = _merge_bias(lams[:n_merge], counts[:n_merge], pois.offset)
            heapq.heappush(heap, (pois.pmf.size, next(uid), pois))
        if rest_l.size:
            windows, bounds = _ztp_windows(rest_l, tau_class)
            dropped += math.fsum((rest_c * bounds).tolist())
        else:
            windows = []
        for base, c in zip(windows, rest_c.tolist()):
            c = int(c)
            while True:  # binary powering: push base^(2^b) for every set bit b of c
                if c & 1:
                    heapq.heappush(heap, (base.pmf.size, next(uid), base))
                c >>= 1
                if not c:
                    break
                max_width = max(max_width, base.pmf.size)
                base, d = _conv(base, base, tau_trim)
                dropped += d
        while len(heap) > 2:
            _, _, a = heapq.heappop(heap)
            _, _, b = heapq.heappop(heap)
            max_width = max(max_width, a.pmf.size, b.pmf.size)
            prod, d = _conv(a, b, tau_trim)
            dropped += d
            heapq.heappush(heap, (prod.pmf.size, next(uid), prod))
        if len(heap) == 2:
            a, b = heap[0][2], heap[1][2]
            max_width = max(max_width, a.pmf.size, b.pmf.size)
            r = _point_of_sum(a, b, N)
        else:
            a = heap[0][2]
            max_width = max(max_width, a.pmf.size)
            idx = N - a.offset
            r = float(a.pmf[idx]) if 0 <= idx < a.pmf.size else 0.0
        dropped += bias * r
        if r > 0 and dropped <= accuracy.DROPPED_MASS * r:
            break
        r_guess = (r if r > 0 else r_guess) * 1e-3
    else:  # pragma: no cover - would mean N is far from the centre of the tilted sum
        raise RuntimeError(f"p_cc: could not bound the dropped mass (r_N = {r}, dropped <= {dropped})")

    # r is P(S_G + sum_{c not in G} M_c = N) with S_G ~ Poisson(Lambda_G): the factors
    # (1 - e^{-lambda_c}) of the merged classes are not divided out (see _merge_count)
    kept = counts.copy()
    kept[:n_merge] = 0
    log_p = math.log(r) + _log_tilt_factor(lams, kept, lam_all, N)
    log_p = min(log_p, 0.0)
    merged_log = math.fsum((counts[:n_merge] * np.log1p(-np.exp(-lams[:n_merge]))).tolist())
    return PccInfo(
        log_p,
        "tilting",
        s=big_lambda,
        log_r=math.log(r) - merged_log,
        dropped_bound=dropped,
        dropped_rel=dropped / r,
        n_groups=int(lams.size),
        max_width=max_width,
        n_merged=int(counts[:n_merge].sum()),
        merge_bias=bias,
    )


def log_p_cc(rho: Any, N: int) -> float:
    """log P(T <= N), accurate also where P underflows (Merad et al. Lemma 2 (8))."""
    return p_cc_info(rho, N).log_p


def p_cc(rho: Any, N: int) -> float:
    """p^rho_cc(N) = P(T <= N): N i.i.d. draws from rho hit every class (Merad et al. Lemma 2 (8))."""
    return math.exp(log_p_cc(rho, N))


# ----------------------------------------------------------------------------
# uniform rho: Markov chain / stage decomposition
# ----------------------------------------------------------------------------
def _check_n_classes(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or int(n) < 1:
        raise AssumptionError(f"n = {n!r}: the number of classes N_C must be a positive integer")
    return int(n)


def p_cc_uniform_dp(n: int, N: int) -> tuple[float, float]:
    """(P(T <= N), P(T > N)) for uniform rho over n classes (Merad et al. Section 3.1).

    Markov chain on the number j of collected coupons (j -> j stays with
    probability j/n, moves to j+1 with (n-j)/n); only non-negative terms.
    P(T > N) is the fsum of the probabilities of the states j < n, so it is
    accurate where 1 - P(T <= N) cancels.  Cost O(n N); values below ~1e-300
    are accurate in absolute terms only (float64 underflow).
    """
    n = _check_n_classes(n)
    N = _check_n_draws(N)
    if N < n:
        return 0.0, 1.0
    j = np.arange(n + 1, dtype=float)
    stay = j / n
    move = (n - j[:-1]) / n
    v = np.zeros(n + 1)
    v[0] = 1.0
    for t in range(N):
        top = min(t + 1, n)  # states > t+1 are unreachable
        new = v[: top + 1] * stay[: top + 1]
        new[1:] += v[:top] * move[:top]
        v[: top + 1] = new
    return float(v[n]), math.fsum(v[:n].tolist())


def _stage_sections(n: int) -> np.ndarray:
    """The n first-order sections of T = G_1 + ... + G_n as scipy ``sos`` rows: stage i adds
    G_i ~ Geometric(p_i), p_i = (n - i + 1)/n, q_i = 1 - p_i = (i - 1)/n, i.e. the filter
    B[t] = q_i B[t-1] + p_i A[t-1] (numerator [0, p_i], denominator [1, -q_i])."""
    i = np.arange(1, n + 1, dtype=float)
    sos = np.zeros((n, 6))
    sos[:, 1] = (n - i + 1) / n
    sos[:, 3] = 1.0
    sos[:, 4] = -((i - 1) / n)
    return sos


def _uniform_pmf(n: int, t_max: int) -> np.ndarray:
    """P(T = t), t = 0..t_max, for uniform rho: the n stages as ONE cascade of first-order
    filters applied to the unit impulse (scipy.signal.sosfilt, one C loop).

    Each stage computes B[t] = fl(fl(p_i A[t-1]) + fl(q_i B[t-1])) -- the same operations, in
    the same order, as one ``lfilter([0, p_i], [1, -q_i], A)`` per stage (the empty second-order
    coefficients add exact zeros), so the result is bit-for-bit the stage-by-stage one, at
    1/10 to 1/30 of the cost. Every operation is on non-negative numbers. A value is a prefix:
    the entries t <= t_max do not depend on t_max."""
    x = np.zeros(t_max + 1)
    x[0] = 1.0
    from scipy import signal  # imported on use: scipy.signal costs ~1 s to import

    return signal.sosfilt(_stage_sections(n), x)


def _uniform_sf(n: int, t_max: int) -> np.ndarray:
    """P(T > t), t = 0..t_max, for uniform rho: non-negative terms only, one cascade.

    With R_i = 1 / (1 - q_i z^-1) (the filter C[t] = q_i C[t-1] + A[t]) and the stage filters
    G_i = p_i z^-1 R_i, adding G_i to A gives P(A + G_i > t) = P(A > t) + (R_i A)[t], so

        P(T > .) = sum_i R_i G_{i-1} ... G_1 delta = R_1 (delta + p_1 z^-1 R_2 (delta + ... R_n delta)),

    evaluated from the inside (stage n) out as one cascade whose section i is G_i with its state
    started at 1 (which adds R_i delta: the injected impulse). Each output is a sum of products
    of the non-negative p_i, q_i; its relative rounding error is at most about 2 (t + n) u
    (u = 2^-53; ~4e-12 at n = 1000, t = 17 500), the same order as summing the stages'
    R_i A one by one (measured: both within 3e-14 of the exact values at n = 60, 200)."""
    sos = _stage_sections(n)[::-1].copy()
    zi = np.zeros((n, 2))
    zi[:, 0] = 1.0
    from scipy import signal  # heavy: scipy.signal (~1 s), as above

    sf, _ = signal.sosfilt(sos, np.zeros(t_max + 1), zi=zi)
    return sf


def _uniform_pmf_sf(n: int, t_max: int) -> tuple[np.ndarray, np.ndarray]:
    """P(T = t) and P(T > t), t = 0..t_max, for uniform rho (non-negative recursions).

    T = G_1 + ... + G_n with G_i ~ Geometric((n - i + 1)/n) on {1, 2, ...}; see
    :func:`_uniform_pmf` and :func:`_uniform_sf`.
    """
    return _uniform_pmf(n, t_max), _uniform_sf(n, t_max)


_FSUM_SHIFT = 1127  # a finite float64 x >= 0 is m 2^(s - 1127) with integers 0 <= m < 2^53, s >= 0


def _fsum_prefixes(a: np.ndarray, ends: Sequence[int]) -> list[float]:
    """``[math.fsum(a[:e]) for e in ends]`` for a finite non-negative array: each the correctly
    rounded value of the exact sum, computed once for all prefixes in exact integer arithmetic.

    Every x = a[t] is m 2^(s - 1127) exactly (np.frexp); m is split into 27 + 26 bit halves whose
    sums per exponent s are exact in float64 (np.bincount, < 2^53 for < 2^26 terms); the exact
    total is then a Python integer over 2^1127, and int / int is correctly rounded in Python.
    math.fsum is correctly rounded too, so the results are the same floats, without fsum's cost
    on terms spread over hundreds of binades (~1 us per term there)."""
    out: dict[int, float] = {}
    total = 0
    done = 0
    for e in sorted(set(int(e) for e in ends)):
        e = max(0, min(e, a.size))
        if e > done:
            seg = a[done:e]
            mant, ex = np.frexp(seg)
            m = np.ldexp(mant, 53).astype(np.int64)
            s = (ex.astype(np.int64) + (_FSUM_SHIFT - 53)) * (m > 0)
            if s.size and int(s.min()) < 0:  # pragma: no cover - only for negative or non-finite input
                raise ValueError("_fsum_prefixes needs finite non-negative terms")
            hi = np.bincount(s, weights=(m >> 26).astype(float))
            lo = np.bincount(s, weights=(m & ((1 << 26) - 1)).astype(float))
            for k in np.flatnonzero(hi).tolist():
                total += int(hi[k]) << (k + 26)
            for k in np.flatnonzero(lo).tolist():
                total += int(lo[k]) << k
            done = e
        out[e] = total / (1 << _FSUM_SHIFT)
    return [out[max(0, min(int(e), a.size))] for e in ends]


_U = 2.0**-53  # unit roundoff of float64


def _upper_tail_series(n: int, t: int) -> float | None:
    """P(T > t) for uniform rho by inclusion-exclusion over the coupons missed in t draws,

        P(T > t) = sum_{j=1}^{n-1} (-1)^(j+1) C(n, j) (1 - j/n)^t,

    where it is well conditioned, else None (the caller then runs the cascade of
    :func:`_uniform_sf`). With x = n (1 - 1/n)^t <= 1/2 every term is at most x^j / j!
    (C(n, j) <= n^j / j! and 1 - j/n <= (1 - 1/n)^j), so P >= x - x^2/2 and the sum of the
    terms' magnitudes is at most 1.3 x: the alternating sum loses less than one bit. By the
    Bonferroni inequalities the partial sums bracket P alternately, so stopping at term J costs at
    most term J + 1. Each term C(n, j) e^y, y = t log1p(-j/n), is within (4|y| + 8) u of its value
    (y carries the roundings of j/n, log1p and the product, e^y and C(n, j) e^y two more each);
    the bound on the whole error (terms and truncation, the sum itself correctly rounded by
    math.fsum) is computed here and must be below accuracy.SERIES_ERROR * P, else None. The Chebyshev
    bound's upper threshold t + 1 = ceil(n H_n + beta n) gives x <= e^(1/n - gamma - beta)
    (H_n >= ln n + gamma), below 1/2 for beta >= 1/4 once n >= 8: about 15 terms instead of the
    cascade's n (t + 1) steps."""
    if n < 2 or t < 1 or n * math.exp(t * math.log1p(-1.0 / n)) > 0.5:
        return None
    terms: list[float] = []
    err = 0.0
    for j in range(1, n):
        y = t * math.log1p(-j / n)
        term = math.comb(n, j) * math.exp(y)
        if terms and term < accuracy.SERIES_TERM_CUTOFF * abs(terms[0]):
            err += term  # Bonferroni: the truncation error is at most the first term left out
            break
        terms.append(term if j % 2 else -term)
        err += term * (4 * abs(y) + 8) * _U
    p = math.fsum(terms)
    return p if p > 0 and err <= accuracy.SERIES_ERROR * p else None


def _two_sided_tails(n: int, thresholds: Sequence[tuple[int, int]]) -> list[float]:
    """P(T <= a) + P(T >= b) for each (a, b), both tails summed directly, the distribution of T
    computed once: P(T <= a) as the correctly rounded sum of P(T = t), t <= a (0 when a < n,
    where every term is 0), P(T >= b) = P(T > b - 1) (1 when b < 1) by the inclusion-exclusion
    series where it is well conditioned (:func:`_upper_tail_series`), else from one cascade."""
    a_need = [a for a, _ in thresholds if a >= n]
    lower: dict[int, float] = {}
    if a_need:
        pmf = _uniform_pmf(n, max(a_need))
        lower = dict(zip(a_need, _fsum_prefixes(pmf, [a + 1 for a in a_need])))
    upper = {b - 1: _upper_tail_series(n, b - 1) for _, b in thresholds if b >= 1}
    rest = [t for t, v in upper.items() if v is None]
    if rest:
        sf = _uniform_sf(n, max(rest))
        upper.update({t: float(sf[t]) for t in rest})
    return [(lower.get(a, 0.0) if a >= 0 else 0.0) + (upper[b - 1] if b >= 1 else 1.0)
            for a, b in thresholds]


def coupon_distribution(n: int, t_max: int) -> np.ndarray:
    """P(T = t) for t = 0..t_max, uniform rho over n classes (Merad et al. Section 3.1)."""
    n = _check_n_classes(n)
    if isinstance(t_max, bool) or not isinstance(t_max, numbers.Integral) or t_max < 0:
        raise AssumptionError(f"t_max = {t_max!r}: t_max must be a non-negative integer")
    return _uniform_pmf(n, int(t_max))


def _split_sum(lo: int, hi: int, power: int) -> tuple[int, int]:
    """sum_{k=lo}^{hi-1} 1/k^power as an (unreduced) integer fraction (p, q), by binary splitting."""
    if hi - lo == 1:
        return 1, lo**power
    mid = (lo + hi) // 2
    p1, q1 = _split_sum(lo, mid, power)
    p2, q2 = _split_sum(mid, hi, power)
    return p1 * q2 + p2 * q1, q1 * q2


@functools.lru_cache(maxsize=4096)
def _harmonic_exact(n: int, power: int) -> Fraction:
    """H^(power)_n = sum_{k=1}^n 1/k^power, exact (binary splitting: one gcd at the end)."""
    return Fraction(*_split_sum(1, n + 1, power))


def coupon_mean_exact(n: int) -> Fraction:
    """E[T] = sum_i n / (n - i + 1) (= n H_n, Merad et al. Section 3.1), exact."""
    n = _check_n_classes(n)
    return n * _harmonic_exact(n, 1)


def coupon_variance_exact(n: int) -> Fraction:
    """Var(T) = sum_i (1 - p_i)/p_i^2, p_i = (n - i + 1)/n, exact.

    With k = n - i + 1 each term is n (n - k) / k^2, so Var(T) = n^2 H^(2)_n - n H_n, strictly
    below the (N_C pi)^2/6 printed as the variance in Merad et al. Section 3.1 (which is only an
    upper bound).
    """
    n = _check_n_classes(n)
    return n * n * _harmonic_exact(n, 2) - n * _harmonic_exact(n, 1)


def coupon_tail_two_sided(n: int, a: int, b: int) -> float:
    """P(T <= a) + P(T >= b) for uniform rho, a < b integers, both tails summed directly."""
    n = _check_n_classes(n)
    for name, v in (("a", a), ("b", b)):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral):
            raise AssumptionError(f"{name} = {v!r}: tail thresholds must be integers")
    a, b = int(a), int(b)
    if a >= b:
        raise AssumptionError(f"a = {a}, b = {b}: the two tails overlap, need a < b")
    return _two_sided_tails(n, [(a, b)])[0]


def _cheb_thresholds(n: int, beta: Any) -> tuple[int, int]:
    """Integers a, b with |T - n H_n| >= beta n  <=>  T <= a or T >= b (exact Fractions)."""
    if isinstance(beta, float) and not math.isfinite(beta):
        raise AssumptionError(f"beta = {beta!r}: beta must be a finite number > 0")
    beta_f = Fraction(beta)
    if beta_f <= 0:
        raise AssumptionError(f"beta = {beta!r}: the Chebyshev bound needs beta > 0")
    m = coupon_mean_exact(n)
    return math.floor(m - beta_f * n), math.ceil(m + beta_f * n)


def chebyshev_lhs(n: int, beta: float | Fraction) -> float:
    """P(|T - n H_n| >= beta n) for uniform rho, exactly thresholded (Merad et al. Section 3.1)."""
    n = _check_n_classes(n)
    a, b = _cheb_thresholds(n, beta)
    return coupon_tail_two_sided(n, a, b)


def chebyshev_lhs_grid(n: int, betas: Sequence[float | Fraction]) -> np.ndarray:
    """:func:`chebyshev_lhs` for several beta, computing the distribution of T once."""
    n = _check_n_classes(n)
    thr = [_cheb_thresholds(n, beta) for beta in betas]
    if not thr:
        return np.zeros(0)
    return np.array(_two_sided_tails(n, thr))


def chebyshev_rhs_paper(beta: float) -> float:
    """pi^2 / (6 beta^2): the bound printed in Merad et al. Section 3.1."""
    return math.pi**2 / (6.0 * beta * beta)


def chebyshev_rhs_true(n: int, beta: float) -> float:
    """Var(T) / (beta n)^2: Chebyshev with the true variance (<= chebyshev_rhs_paper)."""
    return float(coupon_variance_exact(n) / (Fraction(beta) * n) ** 2)


# ----------------------------------------------------------------------------
# high-precision twin
# ----------------------------------------------------------------------------
def _exact_rational(v: Any) -> Fraction:
    """A Fraction equal to v (int, Fraction, float, numpy float or mpf: all exact)."""
    if isinstance(v, Fraction):
        return v
    if isinstance(v, numbers.Integral):
        return Fraction(int(v))
    if isinstance(v, mpmath.mpf):
        man, exp = v.man_exp
        return Fraction(int(man)) * (Fraction(2) ** int(exp))
    if isinstance(v, (float, np.floating)):
        return Fraction(float(v))
    if isinstance(v, str):
        return Fraction(v)
    raise AssumptionError(f"rho entry {v!r} of type {type(v).__name__}: expected a real number")


def _uniform_exact(n: int, N: int) -> Fraction:
    """n! S(N, n) / n^N = sum_j (-1)^j C(n, j) (1 - j/n)^N, in exact integers."""
    num = sum((-1) ** j * math.comb(n, j) * (n - j) ** N for j in range(n + 1))
    return Fraction(num, n**N)


def p_cc_mp(rho: Any, N: int, dps: int = 60) -> mpmath.mpf:
    """mpmath twin of :func:`p_cc` to ``dps`` digits (Merad et al. Lemma 2 (8)).

    rho may hold floats, Fractions, ints or mpf; it is normalised exactly.
    Uniform rho: exact integer inclusion-exclusion n! S(N, n) / n^N (when the
    integers stay below ~2e7 bits).  Otherwise inclusion-exclusion grouped by
    equal rho values (prod (count + 1) <= 2^20 terms, so any rho with N_C <= 20)
    with guard digits log10(2^N_C / (N_C! prod rho)), which exceed the digits lost
    to cancellation since p >= N_C! prod rho.
    """
    N = _check_n_draws(N)
    if isinstance(rho, np.ndarray):
        if rho.ndim != 1:
            raise AssumptionError(
                f"rho has shape {rho.shape}: rho must be a non-empty 1-d vector of class probabilities"
            )
        vals = rho.tolist()
    else:
        vals = list(rho)
    _check_rho_values(vals)
    fr = [_exact_rational(v) for v in vals]
    total = sum(fr, Fraction(0))
    if not holds(equal(float(total), 1.0, what="sum(rho) = 1")):
        raise AssumptionError(
            f"sum(rho) = {float(total)!r}: rho does not sum to 1 (within the checker's tolerance, theorems.holds)"
        )
    n = len(fr)
    if N < n:
        return mpmath.mpf(0)
    fr = [x / total for x in fr]
    groups: dict[Fraction, int] = {}
    for x in fr:
        groups[x] = groups.get(x, 0) + 1
    if len(groups) == 1 and n * N * math.log2(n + 1) <= 2e7:
        exact = _uniform_exact(n, N)
        with mpmath.workdps(dps):
            return mpmath.mpf(exact.numerator) / exact.denominator
    n_terms = math.prod(c + 1 for c in groups.values())
    if n_terms > 2**MP_SUBSET_MAX_CLASSES:
        raise AssumptionError(
            f"N_C = {n} with {len(groups)} distinct rho values: p_cc_mp's inclusion-exclusion "
            f"would need {n_terms} > 2^{MP_SUBSET_MAX_CLASSES} terms"
        )
    # guard digits: |terms| sum to <= 2^n while p >= n! prod rho_c
    with mpmath.workdps(30):
        log10_lb = mpmath.log10(mpmath.factorial(n)) + mpmath.fsum(
            c * mpmath.log10(mpmath.mpf(x.numerator) / x.denominator) for x, c in groups.items()
        )
    guard = max(0, math.ceil(n * math.log10(2.0) - float(log10_lb))) + 15
    with mpmath.workdps(dps + guard):
        vals_g = [mpmath.mpf(x.numerator) / x.denominator for x in groups]
        counts_g = list(groups.values())
        # P(T <= N) = sum over kept counts j_g (0..c_g) of
        #   (-1)^(n - sum j) prod C(c_g, j_g) (sum_g j_g rho_g)^N   (inclusion-exclusion on
        # the missed classes; the kept mass is summed directly, never formed as 1 - missed)
        terms = []
        for js in itertools.product(*(range(c + 1) for c in counts_g)):
            kept = mpmath.fsum(j * v for j, v in zip(js, vals_g))
            coef = math.prod(math.comb(c, j) for c, j in zip(counts_g, js))
            sign = -1 if (n - sum(js)) % 2 else 1
            terms.append(sign * coef * kept**N)
        out = mpmath.fsum(terms)
    with mpmath.workdps(dps):
        return +out
