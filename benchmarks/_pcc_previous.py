"""The p_cc implementation before issue 13 (item 4), kept as the benchmark's baseline.

``p_cc_info_previous(rho, N)`` is theorems.papers.merad.coupon.p_cc_info as it was: one zero-truncated Poisson
window per class, each computed on its own (scalar Chernoff scans, a scalar log-pmf), and every
partial convolution trimmed and renormalised with math.fsum. benchmarks/run.py times it next to
the current p_cc_info in the same run (the ratio is the speed-up) and compares the two values.
Not used by the package.
"""

from __future__ import annotations

import heapq
import itertools
import math
from typing import Any

import mpmath
import numpy as np

# the helpers that have not changed since are imported; what changed is kept here as it was
from theorems.papers.merad.accuracy import DROPPED_MASS as DROPPED_REL_TOL
from theorems.papers.merad.coupon import (_LOG_2PI, PccInfo, _check_n_draws, _check_rho,  # noqa: F401
                                          _Factor, _point_of_sum, _solve_tilt, _stirlerr, _ztp_var)


def _bd0(x: np.ndarray, m: float) -> np.ndarray:
    """x log(x/m) + m - x without cancellation (Loader 2000)."""
    x = np.asarray(x, dtype=float)
    out = np.empty(x.shape, dtype=float)
    d = x - m
    near = np.abs(d) < 0.1 * (x + m)
    xf = x[~near]
    out[~near] = xf * np.log(xf / m) + m - xf
    if np.any(near):
        dn = d[near]
        v = dn / (x[near] + m)
        s = dn * v
        ej = 2.0 * x[near] * v
        v2 = v * v
        for j in range(1, 60):
            ej = ej * v2
            term = ej / (2 * j + 1)
            s = s + term
            if np.all(np.abs(term) <= 1e-18 * np.abs(s)):
                break
        out[near] = s
    return out


def _log_dpois(k: np.ndarray, lam: float) -> np.ndarray:
    """log PoissonPMF(k; lam) for integers k >= 1, relative accuracy ~ machine epsilon."""
    k = np.asarray(k)
    return -_stirlerr(k) - _bd0(k, lam) - 0.5 * (_LOG_2PI + np.log(k.astype(float)))


# ----------------------------------------------------------------------------
# tilting
# ----------------------------------------------------------------------------
def _chernoff_log(k: np.ndarray, lam: float) -> np.ndarray:
    """log of e^{-lam} (e lam / k)^k: bounds P(X >= k) for k >= lam, P(X <= k) for k <= lam."""
    k = np.asarray(k, dtype=float)
    return -lam + k + k * (math.log(lam) - np.log(k))


def _ztp_window(lam: float, tau: float) -> tuple[_Factor, float]:
    """Zero-truncated Poisson(lam) pmf on a window with Chernoff-bounded dropped mass <= tau."""
    log_norm = math.log(-math.expm1(-lam))  # log P(X >= 1)
    log_half = math.log(tau / 2.0)
    L = -log_half - log_norm  # > 0
    # upper end: smallest k > lam with bound(P(M >= k)) <= tau/2; Bernstein gives a safe k_max
    t_hi = L / 3.0 + math.sqrt(L * L / 9.0 + 2.0 * lam * L)
    ks = np.arange(math.floor(lam) + 1, math.ceil(lam + t_hi) + 3)
    ub = _chernoff_log(ks, lam) - log_norm
    ok = np.nonzero(ub <= log_half)[0]
    i = int(ok[0]) if ok.size else ks.size - 1
    k_hi = int(ks[i]) - 1
    up_bound = math.exp(float(ub[i]))
    # lower end: largest k < lam with bound(P(M <= k)) <= tau/2; window starts at k + 1
    k_lo, low_bound = 1, 0.0
    if lam > 1.0:
        t_lo = math.sqrt(2.0 * lam * L)
        kl = np.arange(max(1, math.floor(lam - t_lo) - 1), math.ceil(lam))
        kl = kl[kl < lam]
        if kl.size:
            lb = _chernoff_log(kl, lam) - log_norm
            ok = np.nonzero(lb <= log_half)[0]
            if ok.size:
                j = int(ok[-1])
                k_lo, low_bound = int(kl[j]) + 1, math.exp(float(lb[j]))
    k_hi = max(k_hi, k_lo)
    k = np.arange(k_lo, k_hi + 1)
    if lam < 1.0:
        # ztp(1) = lam / (e^lam - 1), ztp(k+1) = ztp(k) lam / (k+1); k_lo == 1 here
        ratios = np.concatenate(([lam / math.expm1(lam)], lam / k[1:].astype(float)))
        pmf = np.cumprod(ratios)
    else:
        pmf = np.exp(_log_dpois(k, lam) - log_norm)
    # The window holds mass 1 - (up + low) = 1 to double precision: dividing by the exact
    # (fsum) mass removes the systematic part of the rounding error, which would otherwise
    # grow N_C-fold in the N_C-fold convolution.  Relative effect <= the dropped bound.
    pmf = pmf / math.fsum(pmf.tolist())
    return _Factor(pmf, k_lo), up_bound + low_bound


def _trim(f: _Factor, budget: float) -> tuple[_Factor, float]:
    """Drop leading/trailing entries of total mass <= budget (each side budget/2)."""
    a = f.pmf
    if budget <= 0 or a.size <= 1:
        return f, 0.0
    c = np.cumsum(a)
    i = int(np.searchsorted(c, budget / 2.0, side="right"))
    cr = np.cumsum(a[::-1])
    j = int(np.searchsorted(cr, budget / 2.0, side="right"))
    if i + j >= a.size:
        return f, 0.0
    dropped = math.fsum(a[:i].tolist()) + math.fsum(a[a.size - j:].tolist())
    return _Factor(a[i:a.size - j], f.offset + i), dropped


def _conv(a: _Factor, b: _Factor, budget: float) -> tuple[_Factor, float]:
    """Distribution of A + B, trimmed by ``budget`` and renormalised to unit mass."""
    f, dropped = _trim(_Factor(np.convolve(a.pmf, b.pmf), a.offset + b.offset), budget)
    return _Factor(f.pmf / math.fsum(f.pmf.tolist()), f.offset), dropped


def _log_tilt_factor(lams: np.ndarray, counts: np.ndarray, lam_all: np.ndarray, N: int) -> float:
    """log[prod_c (1 - e^{-lambda_c}) / PoissonPMF(N; Lambda)], Lambda = sum_c lambda_c exactly.

    Evaluated in mpmath: for N near N_C both parts are ~N log N and cancel to
    O(|log p|), which would cost ~1e-12 absolute in float64.
    """
    big_lam = lams >= 5.0  # there |log(1 - e^-lam)| < 7e-3: float64 is exact to ~1e-18
    t_float = math.fsum((counts[big_lam] * np.log1p(-np.exp(-lams[big_lam]))).tolist())
    with mpmath.workdps(40):
        big = mpmath.fsum(mpmath.mpf(x) for x in lam_all.tolist())
        t = mpmath.fsum(
            int(c) * mpmath.log(-mpmath.expm1(-mpmath.mpf(lam)))
            for lam, c in zip(lams[~big_lam].tolist(), counts[~big_lam].tolist())
        )
        t -= N * mpmath.log(big) - big - mpmath.loggamma(N + 1)
        return float(t + t_float)


def p_cc_info_previous(rho: Any, N: int) -> PccInfo:
    """P(T <= N) for any rho with diagnostics (Merad et al. Lemma 2 (8), Section 3.1).

    See the module docstring for the tilting identity.  The dropped-mass bound
    (Chernoff tails of every window plus the exact mass trimmed from partial
    convolutions) is reported and kept below ``DROPPED_REL_TOL`` relative to r_N.
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
    var_total = math.fsum((counts * _ztp_var(lams)).tolist())
    r_guess = 0.1 / math.sqrt(2.0 * math.pi * (var_total + 1.0))

    n_ops = sum(2 * int(c).bit_length() for c in counts) + 1
    for _attempt in range(6):
        tau_total = DROPPED_REL_TOL * r_guess
        tau_class = tau_total / (2.0 * n)
        tau_trim = tau_total / (2.0 * n_ops)
        dropped = 0.0
        max_width = 0
        heap: list[tuple[int, int, _Factor]] = []
        uid = itertools.count()
        for lam, c in zip(lams.tolist(), counts.tolist()):
            base, bound = _ztp_window(lam, tau_class)
            dropped += c * bound
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
            idx = N - a.offset
            r = float(a.pmf[idx]) if 0 <= idx < a.pmf.size else 0.0
        if r > 0 and dropped <= DROPPED_REL_TOL * r:
            break
        r_guess = (r if r > 0 else r_guess) * 1e-3
    else:  # pragma: no cover - would mean N is far from the centre of the tilted sum
        raise RuntimeError(f"p_cc: could not bound the dropped mass (r_N = {r}, dropped <= {dropped})")

    log_p = math.log(r) + _log_tilt_factor(lams, counts, lam_all, N)
    log_p = min(log_p, 0.0)
    return PccInfo(
        log_p,
        "tilting",
        s=big_lambda,
        log_r=math.log(r),
        dropped_bound=dropped,
        dropped_rel=dropped / r,
        n_groups=int(lams.size),
        max_width=max_width,
    )
