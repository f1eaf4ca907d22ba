"""Tests of theorems.papers.merad.coupon: p^rho_cc(N) = P(T <= N) (Merad et al. Lemma 2 (8), Section 3.1), and of the
composed families of theorems.papers.merad.coupons (the coupon sweep, tau^+_N over the draws, the k-subsets).

References are computed independently of the code under test: sympy's exact
Stirling numbers, exact Fraction recursions, mpmath inclusion-exclusion, and a
plain (untilted, untruncated) Poissonization with mpmath pmfs.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from sympy.functions.combinatorial.numbers import stirling

from theorems.papers.merad import accuracy
from theorems.papers.merad import coupon as cc

REL = 1e-12


def rel_err(x: float, ref: float) -> float:
    return abs(x - ref) / abs(ref)


def log_err(lp: float, lm: float) -> float:
    """|log p - log p_ref|, i.e. relative error of p, scaled for huge |log p| (ulp of log)."""
    return abs(lp - lm) / max(1.0, abs(lm))


def stirling_p(n: int, N: int) -> Fraction:
    """n! S(N, n) / n^N with sympy's exact Stirling numbers of the 2nd kind."""
    return Fraction(math.factorial(n) * int(stirling(N, n, kind=2)), n**N)


def exact_cdf_fractions(n: int, t_max: int) -> list[Fraction]:
    """P(T <= t), t = 0..t_max, uniform rho: exact Fraction Markov chain on collected coupons."""
    v = [Fraction(0)] * (n + 1)
    v[0] = Fraction(1)
    out = [v[n]]
    for _ in range(t_max):
        w = [v[j] * Fraction(j, n) for j in range(n + 1)]
        for j in range(1, n + 1):
            w[j] += v[j - 1] * Fraction(n - j + 1, n)
        v = w
        out.append(v[n])
    return out


def mp_log_p(rho, N: int) -> float:
    return float(mpmath.log(cc.p_cc_mp(rho, N, dps=40)))


# ----------------------------------------------------------------------------
# p_cc against independent references
# ----------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 10, 12, 20, 30, 50])
def test_uniform_matches_sympy_stirling(n: int) -> None:
    rho = np.full(n, 1.0 / n)
    Ns = {n, n + 1, n + 2, 2 * n, math.ceil(n * math.log(n + 1)), 5 * n, 10 * n + 7}
    for N in sorted(Ns):
        ref = float(stirling_p(n, N))
        assert rel_err(cc.p_cc(rho, N), ref) < REL, (n, N)
        assert rel_err(float(cc.p_cc_mp(rho, N)), ref) < 1e-15, (n, N)


def test_p_cc_mp_uniform_exact_and_grouped_paths_agree() -> None:
    # (1000, 100000) takes the guarded-mpmath path, (40, 300) the exact-integer path;
    # both must equal sympy's Stirling value / a second precision level.
    ref = stirling_p(40, 300)
    got = cc.p_cc_mp(np.full(40, 1 / 40), 300, dps=50)
    a = cc.p_cc_mp(np.full(1000, 1e-3), 5000, dps=30)
    b = cc.p_cc_mp(np.full(1000, 1e-3), 5000, dps=60)
    with mpmath.workdps(80):
        assert abs(got - mpmath.mpf(ref.numerator) / ref.denominator) < mpmath.mpf(10) ** -48
        assert abs(a - b) < mpmath.mpf(10) ** -28 * b


def _random_rhos(rng: np.random.Generator, count: int, n_max: int = 8):
    for i in range(count):
        n = int(rng.integers(2, n_max + 1))
        kind = i % 3
        if kind == 0:
            rho = rng.dirichlet(np.ones(n))
        elif kind == 1:
            rho = 10.0 ** rng.uniform(-12, 0, n)
        else:
            rho = rng.dirichlet(np.full(n, 0.2)) + 1e-9
        yield rho / rho.sum()


def test_nonuniform_matches_mp_inclusion_exclusion() -> None:
    rng = np.random.default_rng(20240601)
    checked = 0
    for rho in _random_rhos(rng, 60):
        n = rho.size
        for N in sorted({n, n + 1, n + 3, 3 * n, int(rng.integers(n, 400)), int(rng.integers(n, 100_000))}):
            lm = mp_log_p(rho, N)
            lp = cc.log_p_cc(rho, N)
            assert log_err(lp, lm) < REL, (rho.tolist(), N, lp, lm)
            if lm > -700:
                assert rel_err(cc.p_cc(rho, N), math.exp(lm)) < REL
            checked += 1
    assert checked > 250


def test_many_classes_two_mass_levels_matches_grouped_mp() -> None:
    # 45 classes, two distinct masses: grouped inclusion-exclusion is exact in mpmath
    for heavy, light, w in [(15, 30, 7.0), (40, 5, 1e-4)]:
        rho = np.array([w] * heavy + [1.0] * light)
        rho /= rho.sum()
        n = rho.size
        for N in [n, n + 1, n + 4, 2 * n, 10 * n, 200 * n]:
            assert log_err(cc.log_p_cc(rho, N), mp_log_p(rho, N)) < REL, (heavy, light, w, N)


def _poisson_reference_log_p(rho: np.ndarray, N: int) -> float:
    """Plain Poissonization (s = N, no truncation): P(S = N, all X_c >= 1) / P(S = N).

    Pmfs from mpmath, convolved in float64 (non-negative terms)."""
    with mpmath.workdps(30):
        lams = [mpmath.mpf(float(r)) * N for r in rho]
        total = mpmath.fsum(lams)
        q = np.zeros(1)
        q[0] = 1.0
        for lam in lams:
            pmf = np.array(
                [0.0]
                + [float(mpmath.exp(k * mpmath.log(lam) - lam - mpmath.loggamma(k + 1))) for k in range(1, N + 1)]
            )
            q = np.convolve(q, pmf)[: N + 1]
        log_den = N * mpmath.log(total) - total - mpmath.loggamma(N + 1)
        return float(mpmath.log(q[N]) - log_den)


def test_nonuniform_40_classes_matches_plain_poissonization() -> None:
    rng = np.random.default_rng(7)
    rho = rng.dirichlet(np.ones(40))
    for N in [60, 150, 400]:
        assert log_err(cc.log_p_cc(rho, N), _poisson_reference_log_p(rho, N)) < REL, N


@pytest.mark.parametrize("n", [1, 2, 5, 17, 64, 200])
def test_uniform_agrees_with_markov_chain_dp(n: int) -> None:
    rho = np.full(n, 1.0 / n)
    for N in sorted({n, n + 1, 2 * n, math.ceil(n * math.log(n + 1)), 4 * n, 12 * n}):
        p_dp, q_dp = cc.p_cc_uniform_dp(n, N)
        assert rel_err(cc.p_cc(rho, N), p_dp) < REL, (n, N)
        assert p_dp + q_dp == pytest.approx(1.0, abs=1e-13)


def test_uniform_dp_upper_tail_is_accurate_where_one_minus_p_cancels() -> None:
    for n, N in [(5, 200), (10, 400), (20, 1000)]:
        exact_q = 1 - stirling_p(n, N)  # ~1e-18 .. 1e-19: 1 - p in float64 would be 0
        _, q = cc.p_cc_uniform_dp(n, N)
        assert 0 < float(exact_q) < 1e-15
        assert rel_err(q, float(exact_q)) < REL, (n, N)


def test_closed_form_at_N_equal_N_C() -> None:
    rng = np.random.default_rng(3)
    for n in [2, 5, 30, 170, 600]:
        rho = rng.dirichlet(np.ones(n))
        with mpmath.workdps(40):
            ref = float(mpmath.loggamma(n + 1) + mpmath.fsum(mpmath.log(mpmath.mpf(float(r))) for r in rho)
                        - n * mpmath.log(mpmath.fsum(mpmath.mpf(float(r)) for r in rho)))
        assert log_err(cc.log_p_cc(rho, n), ref) < 1e-15, n
        assert cc.p_cc_info(rho, n).method == "closed form N=N_C"
        if ref > -700:
            assert rel_err(cc.p_cc(rho, n), math.exp(ref)) < REL


def test_below_N_C_is_zero() -> None:
    rho = np.full(4, 0.25)
    assert cc.p_cc(rho, 3) == 0.0 and cc.log_p_cc(rho, 1) == -math.inf
    assert cc.p_cc_mp(rho, 3) == 0 and cc.p_cc_uniform_dp(4, 3) == (0.0, 1.0)


def test_monotone_in_N() -> None:
    rng = np.random.default_rng(11)
    for rho in [np.full(30, 1 / 30), rng.dirichlet(np.ones(30)), rng.dirichlet(np.full(12, 0.3))]:
        vals = [cc.log_p_cc(rho, N) for N in range(rho.size, 1500, 3)]
        # exact monotonicity; near p = 1 the float log carries ~1e-15 absolute rounding
        assert all(b >= a - 2e-15 for a, b in zip(vals, vals[1:]))
        assert all(b > a for a, b in zip(vals, vals[1:]) if a < -1e-6)
        assert vals[-1] <= 0.0


def test_tiny_masses() -> None:
    for n in [2, 4, 8]:
        rho = np.array([1e-6] + [(1 - 1e-6) / (n - 1)] * (n - 1))
        for N in [n, n + 1, 50, 10_000, 100_000]:
            lp, lm = cc.log_p_cc(rho, N), mp_log_p(rho, N)
            assert log_err(lp, lm) < REL, (n, N)
        # first order: p ~ 1 - (1 - 1e-6)^N for N >> n
        assert cc.p_cc(rho, 100) == pytest.approx(-math.expm1(100 * math.log1p(-1e-6)), rel=1e-3)


def test_underflow_regime_log_is_accurate() -> None:
    # uniform: p = n! S(N, n) / n^N ~ e^-800 underflows; log_p_cc must not
    for n, N in [(800, 800), (800, 801), (800, 805), (1000, 1003)]:
        rho = np.full(n, 1.0 / n)
        lm = mp_log_p(rho, N)
        assert lm < -745
        lp = cc.log_p_cc(rho, N)
        assert math.isfinite(lp) and log_err(lp, lm) < 1e-14
        assert cc.p_cc(rho, N) == 0.0  # underflow is within 1e-300 absolute
    # non-uniform: two masses of 1e-200
    rho = np.array([1e-200, 1e-200, 0.5, 0.5 - 2e-200])
    for N in [4, 5, 40, 1000]:
        lm = mp_log_p(rho, N)
        assert lm < -800
        assert log_err(cc.log_p_cc(rho, N), lm) < 1e-14


def test_largest_case_runs() -> None:
    n, N = 1000, 100_000
    info = cc.p_cc_info(np.full(n, 1.0 / n), N)
    assert 0.0 <= info.p <= 1.0
    # Bonferroni: 1 - p <= n (1 - 1/n)^N = 3.5e-41
    assert -1e-13 < info.log_p <= 0.0
    assert info.dropped_rel <= accuracy.DROPPED_MASS
    zipf = 1.0 / np.arange(1, n + 1)
    zipf /= zipf.sum()
    info = cc.p_cc_info(zipf, N)
    bonf = math.fsum((np.exp(N * np.log1p(-zipf))).tolist())  # 1 - p <= bonf
    assert 0.0 <= info.p <= 1.0 and 1 - bonf <= info.p
    assert info.dropped_rel <= accuracy.DROPPED_MASS
    # and the uniform (1000, 5000) case against the mp twin
    assert log_err(cc.log_p_cc(np.full(n, 1.0 / n), 5000), mp_log_p(np.full(n, 1.0 / n), 5000)) < REL


def test_uniform_n1000_matches_dp_in_bulk_and_tail() -> None:
    n = 1000
    p_dp, q_dp = cc.p_cc_uniform_dp(n, 9000)
    assert rel_err(cc.p_cc(np.full(n, 1.0 / n), 9000), p_dp) < REL
    pmf, sf = cc._uniform_pmf_sf(n, 9000)
    assert rel_err(sf[9000], q_dp) < REL


def test_dropped_mass_is_reported_and_small() -> None:
    rng = np.random.default_rng(5)
    for rho, N in [(np.full(10, 0.1), 100), (rng.dirichlet(np.ones(100)), 2000), (np.full(50, 0.02), 51)]:
        info = cc.p_cc_info(rho, N)
        assert info.method == "tilting"
        assert 0.0 < info.dropped_rel <= accuracy.DROPPED_MASS
        assert info.dropped_bound == pytest.approx(info.dropped_rel * math.exp(info.log_r))


# ----------------------------------------------------------------------------
# uniform rho: exact moments, distribution, tails, Chebyshev
# ----------------------------------------------------------------------------
def harmonic(n: int, order: int = 1) -> Fraction:
    return sum((Fraction(1, k**order) for k in range(1, n + 1)), Fraction(0))


@pytest.mark.parametrize("n", [1, 2, 3, 10, 57])
def test_mean_and_variance_closed_forms(n: int) -> None:
    assert cc.coupon_mean_exact(n) == n * harmonic(n)
    var = cc.coupon_variance_exact(n)
    assert var == n * n * harmonic(n, 2) - n * harmonic(n)
    # the paper prints Var(T) = (N_C pi)^2 / 6; that is only a strict upper bound
    assert float(var) < (n * math.pi) ** 2 / 6
    assert float(var) != pytest.approx((n * math.pi) ** 2 / 6, rel=1e-3)


@pytest.mark.parametrize("n", [1, 2, 5, 12, 30])
def test_moments_from_distribution(n: int) -> None:
    t_max = math.ceil(n * (float(harmonic(n)) + 45))  # P(T > t_max) <= n e^{-t_max/n} < 1e-19
    pmf = cc.coupon_distribution(n, t_max)
    assert np.all(pmf >= 0)
    t = np.arange(t_max + 1, dtype=float)
    mean = math.fsum((t * pmf).tolist())
    second = math.fsum((t * t * pmf).tolist())
    m = float(cc.coupon_mean_exact(n))
    assert mean == pytest.approx(m, rel=1e-10)
    assert second - mean**2 == pytest.approx(float(cc.coupon_variance_exact(n)), rel=1e-10, abs=1e-10)


def test_distribution_matches_exact_fractions() -> None:
    for n in [1, 3, 8]:
        t_max = 12 * n
        cdf = exact_cdf_fractions(n, t_max)
        pmf = cc.coupon_distribution(n, t_max)
        for t in range(t_max + 1):
            ref = cdf[t] - (cdf[t - 1] if t else 0)
            if ref == 0:
                assert pmf[t] == 0.0
            else:
                assert rel_err(pmf[t], float(ref)) < REL, (n, t)


def test_two_sided_tail_matches_exact_fractions() -> None:
    n = 9
    cdf = exact_cdf_fractions(n, 400)
    for a, b in [(-3, 1), (8, 9), (9, 60), (20, 27), (15, 400), (0, 399)]:
        ref = (cdf[a] if a >= 0 else 0) + (1 - cdf[b - 1] if b >= 1 else 1)
        assert rel_err(cc.coupon_tail_two_sided(n, a, b), float(ref)) < REL, (a, b)


def _stage_by_stage(n: int, t_max: int) -> tuple[np.ndarray, np.ndarray]:
    """The distribution of T as it was computed before issue 13: one lfilter per stage."""
    from scipy import signal

    pmf = np.zeros(t_max + 1)
    pmf[0] = 1.0
    sf = np.zeros(t_max + 1)
    for i in range(1, n + 1):
        p, q = (n - i + 1) / n, (i - 1) / n
        sf = sf + signal.lfilter([1.0], [1.0, -q], pmf)
        pmf = signal.lfilter([0.0, p], [1.0, -q], pmf)
    return pmf, sf


@pytest.mark.parametrize("n", [1, 2, 3, 17, 64, 301])
def test_cascade_is_the_stage_by_stage_recursion(n: int) -> None:
    t_max = int(n * (float(harmonic(n)) + 6)) + 5
    pmf_ref, sf_ref = _stage_by_stage(n, t_max)
    pmf, sf = cc._uniform_pmf_sf(n, t_max)
    assert np.array_equal(pmf, pmf_ref)  # the same operations in the same order: the same floats
    assert np.all(sf >= 0) and np.all(np.diff(sf) <= 0)
    # P(T > t): the nested (Horner) form rounds differently; both are within 2 (t + n) u of the truth
    assert np.all(np.abs(sf - sf_ref) <= 1e-13 * sf_ref)
    # prefixes: a shorter run gives the same leading values
    assert np.array_equal(cc._uniform_pmf(n, t_max // 2), pmf[: t_max // 2 + 1])
    assert np.array_equal(cc._uniform_sf(n, t_max // 2), sf[: t_max // 2 + 1])


def _exact_upper_tail(n: int, t: int) -> Fraction:
    """P(T > t) for uniform rho, exactly: inclusion-exclusion in integers."""
    return Fraction(sum((-1) ** (j + 1) * math.comb(n, j) * (n - j) ** t for j in range(1, n)), n**t)


@pytest.mark.parametrize("n, t", [(2, 3), (9, 59), (40, 571), (150, 988), (150, 2338), (400, 6000)])
def test_upper_tail_series_matches_exact_integers(n: int, t: int) -> None:
    ref = float(_exact_upper_tail(n, t))
    got = cc._upper_tail_series(n, t)
    assert got is not None and rel_err(got, ref) < 1e-14, (got, ref)
    assert rel_err(got, float(cc._uniform_sf(n, t)[t])) < 1e-12  # the cascade: within 2 (t + n) u


def test_upper_tail_series_declines_where_it_would_cancel() -> None:
    """Below about n ln n draws (x = n (1 - 1/n)^t > 1/2) the alternating sum cancels: the cascade
    is used, and the two-sided tail is still exact there."""
    assert cc._upper_tail_series(9, 8) is None and cc._upper_tail_series(1000, 5000) is None
    assert cc._upper_tail_series(1, 5) is None and cc._upper_tail_series(5, 0) is None
    n, t = 1000, 5000
    assert cc.coupon_tail_two_sided(n, n - 1, t + 1) == float(cc._uniform_sf(n, t)[t])


def test_fsum_prefixes_are_math_fsum() -> None:
    rng = np.random.default_rng(13)
    x = np.abs(rng.standard_normal(3000)) * 10.0 ** rng.integers(-330, 300, 3000)
    x[::7] = 0.0
    x[5], x[6], x[11] = 5e-324, 2.2250738585072014e-308, 1.7976931348623157e300
    ends = [0, 1, 6, 7, 100, 2999, 3000, 1500, 1500, 5000]
    assert cc._fsum_prefixes(x, ends) == [math.fsum(x[:e].tolist()) for e in ends]
    pmf = cc.coupon_distribution(200, 2000)
    ends = list(range(0, 2002, 37))
    assert cc._fsum_prefixes(pmf, ends) == [math.fsum(pmf[:e].tolist()) for e in ends]


def test_grid_agrees_with_the_stage_by_stage_tails() -> None:
    betas = (0.25, 0.5, 1.0, 2.0, 6.0, 10.0)
    for n in (1, 2, 7, 40, 150):
        thr = [cc._cheb_thresholds(n, b) for b in betas]
        pmf, sf = _stage_by_stage(n, max(max(a, b - 1, 0) for a, b in thr))
        ref = [(math.fsum(pmf[: a + 1].tolist()) if a >= 0 else 0.0) + (sf[b - 1] if b >= 1 else 1.0)
               for a, b in thr]
        got = cc.chebyshev_lhs_grid(n, betas)
        assert np.all(np.abs(got - ref) <= 1e-13 * np.asarray(ref)), n


def _brute_chebyshev(n: int, beta: Fraction, cdf: list[Fraction]) -> Fraction:
    """P(|T - n H_n| >= beta n) by testing every t with exact Fractions (tail from cdf)."""
    m = n * harmonic(n)
    t_max = len(cdf) - 1
    total = Fraction(0)
    for t in range(t_max + 1):
        pt = cdf[t] - (cdf[t - 1] if t else 0)
        if abs(t - m) >= beta * n:
            total += pt
    assert t_max >= m + beta * n  # every t beyond t_max is in the upper event
    return total + (1 - cdf[t_max])


def test_chebyshev_lhs_thresholds_exact() -> None:
    n = 7
    cdf = exact_cdf_fractions(n, 200)
    m = n * harmonic(n)  # 363/20 = 18.15
    betas = [Fraction(1, 10), Fraction(1, 3), 0.5, 1.0, 2.0, 3.0]
    # betas that land exactly on integers m +- beta n (the >= must include them)
    betas += [(m - k) / n for k in (10, 14, 17, 18)] + [(k - m) / n for k in (19, 25, 30)]
    for beta in betas:
        ref = _brute_chebyshev(n, Fraction(beta), cdf)
        got = cc.chebyshev_lhs(n, beta)
        assert got == pytest.approx(float(ref), rel=REL, abs=1e-300), beta
    grid = cc.chebyshev_lhs_grid(n, betas)
    assert np.allclose(grid, [cc.chebyshev_lhs(n, b) for b in betas], rtol=1e-14, atol=0)


def test_chebyshev_bounds_hold() -> None:
    betas = [0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0]
    for n in [1, 2, 5, 20, 100, 300]:
        lhs = cc.chebyshev_lhs_grid(n, betas)
        for beta, v in zip(betas, lhs):
            assert 0.0 <= v <= cc.chebyshev_rhs_true(n, beta) * (1 + 1e-12)
            assert cc.chebyshev_rhs_true(n, beta) < cc.chebyshev_rhs_paper(beta)


def test_chebyshev_lhs_large_n_consistent_with_dp() -> None:
    n, beta = 400, 1.5
    m = cc.coupon_mean_exact(n)
    a, b = math.floor(m - Fraction(beta) * n), math.ceil(m + Fraction(beta) * n)
    p_low, _ = cc.p_cc_uniform_dp(n, a)
    _, q_up = cc.p_cc_uniform_dp(n, b - 1)
    assert rel_err(cc.chebyshev_lhs(n, beta), p_low + q_up) < REL


# ----------------------------------------------------------------------------
# bad input
# ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "rho, N, match",
    [
        ([0.5, -0.1, 0.6], 5, "negative"),
        ([0.5, 0.0, 0.5], 5, "zero entry"),
        ([0.5, float("nan"), 0.5], 5, "NaN"),
        ([0.5, float("inf")], 5, "inf"),
        ([0.5, 0.4], 5, "does not sum to 1"),
        ([0.5, 0.5 + 1e-8], 5, "does not sum to 1"),  # beyond the engine's tolerance (1e-12 + 1e-9 |1|)
        ([], 5, "non-empty"),
        ([[0.5, 0.5]], 5, "1-d"),
        ([0.5, 0.5], 0, "positive integer"),
        ([0.5, 0.5], -3, "positive integer"),
        ([0.5, 0.5], 2.5, "positive integer"),
        ([0.5, 0.5], 4.0, "positive integer"),
        ([0.5, 0.5], True, "positive integer"),
        ([5e-324, 1.0], 5, "smallest normal"),
    ],
)
def test_bad_input_float(rho, N, match) -> None:
    with pytest.raises(ValueError, match=match):
        cc.p_cc(rho, N)
    with pytest.raises(ValueError, match=match):
        cc.log_p_cc(rho, N)


@pytest.mark.parametrize(
    "rho, N, match",
    [
        ([Fraction(1, 2), Fraction(-1, 10), Fraction(3, 5)], 5, "negative"),
        ([Fraction(1, 2), 0, Fraction(1, 2)], 5, "zero entry"),
        ([mpmath.mpf("0.5"), mpmath.nan], 5, "NaN"),
        ([Fraction(1, 2), Fraction(1, 3)], 5, "does not sum to 1"),
        ([Fraction(1, 2), Fraction(1, 2)], 0, "positive integer"),
    ],
)
def test_bad_input_mp(rho, N, match) -> None:
    with pytest.raises(ValueError, match=match):
        cc.p_cc_mp(rho, N)


def test_mp_accepts_fractions_mpf_floats_alike() -> None:
    fr = [Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)]
    vals = [
        cc.p_cc_mp(fr, 9),
        cc.p_cc_mp([mpmath.mpf(1) / 2, mpmath.mpf(1) / 3, mpmath.mpf(1) / 6], 9),
        cc.p_cc_mp([0.5, 1 / 3, 1 / 6], 9),
    ]
    # exact: P(T <= 9) = sum over U of (-1)^(3-|U|) rho(U)^9 with Fractions
    exact = Fraction(1) - (Fraction(1, 2) ** 9 + Fraction(2, 3) ** 9 + Fraction(5, 6) ** 9) + (
        Fraction(1, 2) ** 9 + Fraction(1, 3) ** 9 + Fraction(1, 6) ** 9
    )
    for v in vals:
        assert abs(v - mpmath.mpf(exact.numerator) / exact.denominator) < 1e-15


def test_uniform_helpers_reject_bad_n() -> None:
    for bad in (0, -1, 2.0, True):
        with pytest.raises(ValueError, match="positive integer"):
            cc.p_cc_uniform_dp(bad, 5)
    with pytest.raises(ValueError, match="beta > 0"):
        cc.chebyshev_lhs(5, 0.0)
    with pytest.raises(ValueError, match="overlap"):
        cc.coupon_tail_two_sided(5, 10, 10)


# ----------------------------------------------------------------------------
# Zipf rho (rho_c ~ 1/c): every class distinct, the case the Poisson merge and the
# vectorized windows were made for
# ----------------------------------------------------------------------------
def zipf(n: int) -> np.ndarray:
    z = 1.0 / np.arange(1, n + 1)
    return z / z.sum()


@pytest.mark.parametrize("n", [2, 3, 5, 8, 12])
def test_zipf_matches_mp_inclusion_exclusion(n: int) -> None:
    """1e-12 relative against the mpmath twin, from N = N_C (p = N_C! prod rho) through N close to
    N_C (where an alternating sum would cancel) to N = 1e5 (p within 1e-12 of 1)."""
    rho = zipf(n)
    for N in sorted({n, n + 1, n + 2, n + 5, 2 * n, 5 * n, 10 * n, 100 * n, 1000, 10_000, 100_000}):
        lm = mp_log_p(rho, N)
        lp = cc.log_p_cc(rho, N)
        assert abs(math.expm1(lp - lm)) < REL, (n, N, lp, lm)
        assert log_err(lp, lm) < REL


def test_stepped_zipf_with_many_classes_matches_grouped_mp() -> None:
    """Three mass levels 1, 1/4, 1/16 (x 8, 20, 40 classes): grouped inclusion-exclusion is exact in
    mpmath, and as N grows the heavy classes, then all, are merged into one Poisson factor."""
    rho = np.array([1.0] * 8 + [0.25] * 20 + [1 / 16] * 40)
    rho /= rho.sum()
    n = rho.size
    merged = set()
    for N in [n, n + 1, n + 3, 2 * n, 10 * n, 40 * n, 100 * n, 1000 * n]:
        info = cc.p_cc_info(rho, N)
        lm = mp_log_p(rho, N)
        assert abs(math.expm1(info.log_p - lm)) < REL, (N, info.log_p, lm)
        assert info.dropped_rel <= accuracy.DROPPED_MASS
        merged.add(info.n_merged)
    assert 0 in merged and n in merged and merged - {0, n}  # none, all, and some merged


def test_zipf_60_classes_matches_plain_poissonization() -> None:
    rho = zipf(60)
    for N in [61, 90, 250]:
        assert log_err(cc.log_p_cc(rho, N), _poisson_reference_log_p(rho, N)) < REL, N


@pytest.mark.parametrize("N", [1000, 1001, 1010, 1500, 5000, 20_000, 100_000, 1_000_000])
def test_zipf_1000_poisson_merge_changes_nothing(N: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """N_C = 1000: the same value with the large-lambda classes merged into one Poisson factor and
    with every class convolved on its own (the merge's bias is bounded by 1e-21 relative)."""
    rho = zipf(1000)
    info = cc.p_cc_info(rho, N)
    monkeypatch.setattr(cc, "_merge_count", lambda *args: 0)
    plain = cc.p_cc_info(rho, N)
    assert plain.n_merged == 0
    assert abs(info.log_p - plain.log_p) <= 1e-14 * max(1.0, abs(plain.log_p)), (info, plain)
    assert info.merge_bias <= accuracy.DROPPED_MASS / 4 and info.dropped_rel <= accuracy.DROPPED_MASS
    if N >= 20_000:
        assert info.n_merged > 0


def test_zipf_1000_100000_bonferroni_and_diagnostics() -> None:
    rho = zipf(1000)
    info = cc.p_cc_info(rho, 100_000)
    q = math.fsum(np.exp(100_000 * np.log1p(-rho)).tolist())  # 1 - p <= q (union bound)
    assert 1 - q <= info.p <= 1.0
    assert info.method == "tilting" and 200 < info.n_merged < 1000
    assert 0.0 < info.dropped_rel <= accuracy.DROPPED_MASS


def test_vectorized_windows_bound_the_dropped_mass() -> None:
    """Each window's reported bound is >= the exact dropped (zero-truncated Poisson) mass, <= tau,
    and the pmf on the window matches mpmath (renormalised) to ~1e-15."""
    lams = np.array([1e-9, 0.3, 0.999, 1.0, 1.7, 13.4, 54.9, 400.0, 13359.6])
    tau = 1e-25
    factors, bounds = cc._ztp_windows(lams, tau)
    with mpmath.workdps(40):
        for lam, f, bound in zip(lams.tolist(), factors, bounds.tolist()):
            lo, hi = f.offset, f.offset + f.pmf.size - 1
            lam_m = mpmath.mpf(lam)
            norm = -mpmath.expm1(-lam_m)
            kept = mpmath.fsum(mpmath.exp(k * mpmath.log(lam_m) - lam_m - mpmath.loggamma(k + 1))
                               for k in range(lo, hi + 1)) / norm
            assert 1 - kept <= bound * (1 + 1e-9) + mpmath.mpf(10) ** -35, lam
            assert bound <= tau
            for k in {lo, (lo + hi) // 2, hi}:
                ref = mpmath.exp(k * mpmath.log(lam_m) - lam_m - mpmath.loggamma(k + 1)) / norm / kept
                assert abs(f.pmf[k - lo] / ref - 1) < 1e-13, (lam, k)


# ----------------------------------------------------------------------------
# the composed subject families of theorems.papers.merad.coupons
# ----------------------------------------------------------------------------
def test_the_coupon_sweep_lists_every_N_C_and_is_thinner_at_the_quick_profile() -> None:
    from theorems.papers.merad import coupons as cp

    family = cp.coupon_collector(beta_grid=cp.BETA_GRID)
    full, quick = list(family.exhaustive(quick=False)), list(family.exhaustive(quick=True))
    assert [(s.N_C, s.beta) for s in full] == [(n, b) for n in range(1, 1001) for b in cp.BETA_GRID]
    assert sorted({s.N_C for s in quick}) == [*range(1, 41), *range(100, 1001, 100)]
    for subject in quick[::37]:
        family.validate(subject)
    plain = list(cp.coupon_collector().exhaustive(quick=False))  # without a grid: N_C alone, no beta
    assert [s.values for s in plain] == [{"N_C": n} for n in range(1, 1001)]


@pytest.mark.parametrize("rho, N", [([1.0], 3), ([0.5, 0.5], 1), ([0.2, 0.3, 0.5], 2), ([0.1, 0.2, 0.3, 0.4], 3),
                                    ([1e-6, 0.5, 0.5 - 1e-6], 4)])
def test_P_all_same_over_the_draws_is_the_enumeration_of_class_tuples(rho: list[float], N: int) -> None:
    """P(c_i = c for all i) through numerics.draws.over_draws (multisets of the N + 1 draws) against the
    definition enumerated over all N_C^(N+1) tuples (c, c_1..c_N), exactly in Fractions."""
    import itertools

    from numerics.backend import FLOAT, mp_backend
    from theorems.papers.merad import coupons as cp
    from theorems.subjects.compose import Subject

    exact_rho = [Fraction(r).limit_denominator(10 ** 12) for r in rho]
    total = sum(exact_rho)
    exact_rho = [r / total for r in exact_rho]
    ref = Fraction(0)
    for tup in itertools.product(range(len(rho)), repeat=N + 1):
        if len(set(tup)) == 1:
            term = Fraction(1)
            for c in tup:
                term *= exact_rho[c]
            ref += term
    family = cp.class_draws()
    subject = Subject({"N_C": len(rho)}, {"rho": np.asarray([float(r) for r in exact_rho]), "N": N})
    family.validate(subject)
    got = family.quantities(subject, [cp.P_all_same], FLOAT)[cp.P_all_same]
    assert float(got) == pytest.approx(float(ref), rel=1e-14)
    with mpmath.workdps(40):
        got_mp = family.quantities(subject, [cp.P_all_same], mp_backend(40))[cp.P_all_same]
        assert abs(got_mp - mpmath.mpf(ref.numerator) / ref.denominator) < mpmath.mpf(10) ** -15 * float(ref)


def test_k_subsets_read_the_values_on_C_minus_c_only() -> None:
    from numerics.backend import FLOAT
    from theorems.papers.merad import coupons as cp
    from theorems.subjects.compose import Subject

    family = cp.k_subsets()
    symbols = [cp.count_min, cp.count_max, cp.subset_average, cp.sum_values]
    v = np.array([1.0, -2.0, 4.0, 8.0, 16.0])
    for c, kk in [(0, 1), (2, 2), (4, 3)]:
        subject = Subject({"N_C": 5}, {"c": c, "k": kk, "v": v})
        family.validate(subject)
        out = family.quantities(subject, symbols, FLOAT)
        changed = family.quantities(Subject({"N_C": 5}, {"c": c, "k": kk, "v": np.where(np.arange(5) == c, 1e6, v)}),
                                    symbols, FLOAT)
        rest = float(v.sum() - v[c])
        assert float(out[cp.sum_values]) == rest
        assert float(out[cp.count_min]) == float(out[cp.count_max]) == math.comb(3, kk - 1)
        assert float(out[cp.subset_average]) == pytest.approx(kk / 4 * rest, rel=1e-15)
        assert all(float(out[s]) == float(changed[s]) for s in symbols)  # v_c is never read
