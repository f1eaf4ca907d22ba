"""The arb layer: the ArbBackend encloses the mpmath values (60 digits) for every operation, its
max/min/logsumexp stay rigorous on overlapping balls, the helpers round outward, and the arb
branch-and-bound certifies true statements and never a false one.
"""

from __future__ import annotations

import inspect
import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from flint import arb

from numerics import arb as A
from numerics import interval as I
from numerics.backend import ArbBackend, Backend, arb_backend

REF_DPS = 60
WIDE = arb_backend(64)     # balls ~1e-19 wide: the 60-digit reference must lie strictly inside
NARROW = arb_backend(220)  # balls ~1e-60 wide: as tight as the reference itself

X = [-3.5, -0.75, 0.0, 1e-9, 0.4, 2.25, 7.0, 19.5, 35.0, 1e4, -1e4, 710.0, -745.0]
POS = [v for v in X if v > 0] + [1e-300, 3e300]
M = np.array([[0.3, -1.2, 4.0], [-7.5, 2.0, 2.0], [1e-3, -2e-3, 12.0], [1e4, 1e4 - 1.0, -1e4]])


def mpf_ball(v: mpmath.mpf) -> arb:
    """An mpmath number as an exact arb (the reference value itself, not rounded)."""
    return A.from_value(v)


def encloses(ball: arb, ref: mpmath.mpf, *, strict: bool) -> bool:
    """ref lies in the ball (strict: exactly; otherwise up to the reference's own 60-digit error)."""
    with A.workprec(400):
        r = mpf_ball(ref)
        if strict:
            return bool(ball.contains(r))
        slack = abs(r) * arb(10) ** (-REF_DPS + 2) + arb(10) ** -300
        return bool(ball.overlaps(arb(r.mid(), slack)))


def check(fn, xs, ref, *, tight: float = 1e-50) -> None:
    """fn(xp, xs) for both precisions against ref(*points) at 60 digits."""
    for xp, strict in ((WIDE, True), (NARROW, False)):
        with xp.precision():
            out = fn(xp, xs)
        flat = list(np.ravel(np.asarray(out, dtype=object)))
        refs = ref()
        assert len(flat) == len(refs)
        for ball, r in zip(flat, refs):
            assert isinstance(ball, arb), type(ball)
            assert encloses(ball, r, strict=strict), (xp, ball, r)
            if xp is NARROW and mpmath.isfinite(r) and r != 0:
                assert float(ball.rad()) <= tight * float(abs(r)), (ball, r)


def mp(fn):
    with mpmath.workdps(REF_DPS):
        return fn()


@pytest.mark.parametrize("name", ["exp", "log", "log1p", "sqrt", "abs", "softplus"])
def test_elementwise_enclose_mpmath(name):
    xs = {"log": POS, "sqrt": POS, "log1p": [v for v in X if v > -1] + [1e-300]}.get(name, X)
    refs = {"exp": mpmath.exp, "log": mpmath.log, "log1p": mpmath.log1p, "sqrt": mpmath.sqrt, "abs": abs,
            "softplus": lambda t: mpmath.log1p(mpmath.exp(t))}
    check(lambda xp, v: getattr(xp, name)(xp.asarray(np.array(v))), xs,
          lambda: mp(lambda: [refs[name](mpmath.mpf(v)) for v in xs]))


@pytest.mark.parametrize("axis", [0, 1])
def test_reductions_enclose_mpmath(axis):
    rows = M if axis == 1 else M.T
    check(lambda xp, v: xp.logsumexp(xp.asarray(v), axis=axis), M,
          lambda: mp(lambda: [mpmath.log(mpmath.fsum(mpmath.exp(mpmath.mpf(t)) for t in row)) for row in rows]))
    check(lambda xp, v: xp.sum(xp.asarray(v), axis=axis), M,
          lambda: mp(lambda: [mpmath.fsum(mpmath.mpf(t) for t in row) for row in rows]))
    check(lambda xp, v: xp.mean(xp.asarray(v), axis=axis), M,
          lambda: mp(lambda: [mpmath.fsum(mpmath.mpf(t) for t in row) / len(row) for row in rows]))
    check(lambda xp, v: xp.max(xp.asarray(v), axis=axis), M, lambda: [mpmath.mpf(max(row)) for row in rows])
    check(lambda xp, v: xp.min(xp.asarray(v), axis=axis), M, lambda: [mpmath.mpf(min(row)) for row in rows])
    check(lambda xp, v: xp.sum(xp.asarray(v)), M, lambda: mp(lambda: [mpmath.fsum(mpmath.mpf(t) for t in M.ravel())]))


def test_binary_and_special_functions_enclose_mpmath():
    a, b = np.array([0.5, -2.0, 3.0, 0.0]), np.array([1.5, -2.5, 3.0, 1e-9])
    check(lambda xp, _: xp.maximum(xp.asarray(a), xp.asarray(b)), None,
          lambda: [mpmath.mpf(max(u, v)) for u, v in zip(a, b)])
    check(lambda xp, _: xp.minimum(xp.asarray(a), xp.asarray(b)), None,
          lambda: [mpmath.mpf(min(u, v)) for u, v in zip(a, b)])
    check(lambda xp, _: xp.xlogy(xp.asarray([0.0, 2.0, 0.25]), xp.asarray([0.0, 3.0, 1e-5])), None,
          lambda: mp(lambda: [mpmath.mpf(0), 2 * mpmath.log(3), mpmath.mpf(0.25) * mpmath.log(mpmath.mpf(1e-5))]))
    check(lambda xp, _: xp.where(a > 0, xp.asarray(a), xp.asarray(b)), None,
          lambda: [mpmath.mpf(u if u > 0 else v) for u, v in zip(a, b)])
    for n in (0, 1, 2, 3):
        check(lambda xp, _: xp.polygamma(n, xp.asarray([1.0, 1.5, 7.25])), None,
              lambda: mp(lambda: [mpmath.polygamma(n, mpmath.mpf(v)) for v in (1.0, 1.5, 7.25)]))
    for n, m in ((1, 1), (30, 1), (1000, 1), (30, 2), (30, 3), (20, 0.5), (12, 2.5)):
        check(lambda xp, _: xp.harmonic(n, m), None,
              lambda: mp(lambda: [mpmath.fsum(mpmath.mpf(i) ** -mpmath.mpf(m) for i in range(1, n + 1))]))
    for n, k in ((6, 2), (40, 17), (2.5, 1.5), (7.25, 3)):
        check(lambda xp, _: xp.binomial(n, k), None, lambda: mp(lambda: [mpmath.binomial(n, k)]))


def test_indexing_and_constants():
    xp = NARROW
    with xp.precision():
        a = xp.asarray(M)
        assert [float(v) for v in xp.gather(a, [2, 0]).ravel()] == list(M[[2, 0]].ravel())
        assert [float(v) for v in xp.gather(a, [1], axis=1).ravel()] == list(M[:, [1]].ravel())
        assert [float(v) for v in xp.transpose(a).ravel()] == list(M.T.ravel())
        assert [float(v) for v in xp.stack([a[0], a[1]]).ravel()] == list(M[:2].ravel())
        sq = xp.asarray(M[:3])
        assert [float(v) for v in xp.diagonal(sq)] == list(np.diag(M[:3]))
        assert encloses(xp.log(2), mp(lambda: mpmath.log(2)), strict=False)
        assert xp.to_float(xp.sqrt(2)) == math.sqrt(2)
        assert xp.log(0) < 0 and not xp.log(0).is_finite()  # log 0 = -inf, as in the mpmath backend
        lse = xp.logsumexp(np.array([[xp.log(0), xp.asarray(0.0)], [xp.log(0), xp.log(0)]], dtype=object), axis=1)
        assert lse[0] == 0 and lse[1] < 0 and not lse[1].is_finite()


def test_every_backend_method_is_implemented():
    for name, member in inspect.getmembers(Backend, inspect.isfunction):
        if name.startswith("_"):
            continue
        # mean and gather are written once from the primitives; grad and jacobian once, dispatching on the
        # backend's name (numerics.derivative), which refuses arb by name
        assert getattr(ArbBackend, name) is not member or name in ("mean", "gather", "grad", "jacobian"), name
    assert NARROW.name == "arb" and NARROW.prec == 220 and arb_backend(220) == NARROW
    with pytest.raises(NotImplementedError, match="arb backend has no gradient"):
        NARROW.grad(lambda x, xp: xp.sum(x * x), NARROW.asarray(np.array([1.0])))


def test_inputs_convert_exactly():
    xp = NARROW
    with xp.precision():
        a = xp.asarray(np.array([0.1, 1e-300, 2.0 ** 60 + 2.0 ** 8]))
        assert all(v.is_exact() for v in a)
        assert A.exact_fraction(a[0]) == Fraction(0.1) != Fraction(1, 10)
        with mpmath.workdps(60):
            third = mpmath.mpf(1) / 3
        b = xp.asarray(np.array([third], dtype=object))[0]
        sign, man, exp, _ = third._mpf_
        assert b.is_exact() and A.exact_fraction(b) == Fraction(int(man), 2 ** -int(exp))
        assert xp.asarray(Fraction(1, 3)).contains(arb(1) / 3)


# -- rigour on overlapping balls -----------------------------------------------------------------

def _points(ball: arb, k: int = 5) -> list[Fraction]:
    lo, hi = A.lower_fraction(ball), A.upper_fraction(ball)
    return [lo + (hi - lo) * Fraction(i, k - 1) for i in range(k)]


def test_max_min_of_overlapping_balls_enclose_every_choice():
    xp = arb_backend(80)
    with xp.precision():
        balls = np.array([arb(1, 0.5), arb("1.2", "0.1"), arb(-3, 4)], dtype=object)
        hi, lo = xp.max(balls), xp.min(balls)
        pair = xp.maximum(balls[0], balls[1])
    for combo in itertools.product(*[_points(b) for b in balls]):
        assert hi.contains(A.from_fraction(max(combo))) and lo.contains(A.from_fraction(min(combo)))
    for u, v in itertools.product(_points(balls[0]), _points(balls[1])):
        assert pair.contains(A.from_fraction(max(u, v)))


def test_logsumexp_of_balls_encloses_every_point():
    xp = arb_backend(80)
    with xp.precision():
        row = np.array([[arb(2, "0.25"), arb("2.1", "0.3"), arb(-40, 1)]], dtype=object)
        out = xp.logsumexp(row, axis=1)[0]
    with mpmath.workdps(40):
        for combo in itertools.product(*[_points(b, 3) for b in row[0]]):
            ref = mpmath.log(mpmath.fsum(mpmath.exp(mpmath.mpf(q.numerator) / q.denominator) for q in combo))
            assert encloses(out, ref, strict=True)


def test_abs_and_even_power_of_a_ball_around_zero_stay_nonnegative():
    with A.workprec(80):
        z = arb(0, 1)
        assert A.abs_ball(z) >= 0 and A.abs_ball(z).contains(1)
        assert A.even_power(z, 2) >= 0 and A.even_power(z, 2).contains(1)
        assert (z * z).lower() < 0  # what plain ball arithmetic would give


def test_outward_rounding_helpers():
    with A.workprec(200):
        third = arb(1) / 3
    lo, hi = A.lower_float(third), A.upper_float(third)
    assert lo < hi and Fraction(lo) <= Fraction(1, 3) <= Fraction(hi)
    assert A.lower_fraction(third) <= Fraction(1, 3) <= A.upper_fraction(third)
    assert A.radius_float(third) >= float(third.rad())
    tiny = A.from_fraction(Fraction(1, 10 ** 400))
    assert A.lower_float(tiny) == 0.0 and A.upper_float(tiny) > 0  # below the float range: rounded outward
    assert A.excludes_zero(tiny) and not A.excludes_zero(arb(0, 1))
    rec = A.ball_json(third)
    assert rec["lower"] <= 1 / 3 <= rec["upper"] and rec["rad"] > 0
    box = A.box_ball(Fraction(0), Fraction(1, 3))
    assert box.lower() == 0 and box.contains(A.from_fraction(Fraction(1, 3))) and box.sqrt().is_finite()


# -- the arb branch-and-bound ---------------------------------------------------------------------

t, x, y = sp.symbols("t x y", real=True)


def test_interval_module_no_longer_uses_mpmath_iv():
    src = inspect.getsource(I)
    assert "MPIntervalContext" not in src and "ctx_iv" not in src
    assert I.LIBRARY.startswith("python-flint")


def test_arb_prover_certifies_log1p_le_t_and_refuses_t_over_2():
    good = I.prove_nonnegative(t - sp.log(1 + t), {t: ("0", "1")}, "log(1+t) <= t")
    assert good.ok and good.method.startswith("interval branch-and-bound (python-flint")
    assert all(isinstance(b["lower"], float) and b["lower"] >= 0 for b in good.details["boxes"])
    g = t / 2 - sp.log(1 + t)
    bad = I.prove_nonnegative(g, {t: ("0", "1")}, "log(1+t) <= t/2")
    assert not bad.ok and "counterexample" in bad.details
    ce = bad.details["counterexample"]
    point = Fraction(ce["point"]["t"])
    with mpmath.workdps(50):
        assert g.subs(t, sp.Rational(point.numerator, point.denominator)).evalf(50) < 0
    assert ce["g"] < 0 and ce["g_ball"]["upper"] < 0  # the whole ball of g there is negative


def test_arb_prover_refuses_lse_with_half_log_n():
    # LSE(x) <= max(x) + log(n)/2 on [-5, 5]^n, reduced to u_j = max(x) - x_j in [0, 10]:
    # log(n)/2 - log(1 + sum_j e^-u_j) >= 0, false near u = 0
    for n in (2, 3):
        u = sp.symbols(f"u1:{n}", real=True)
        g = sp.log(n) / 2 - sp.log(1 + sum(sp.exp(-uj) for uj in u))
        cert = I.prove_nonnegative(g, {uj: ("0", "10") for uj in u}, "LSE(x) <= max(x) + log(n)/2")
        assert not cert.ok and ("counterexample" in cert.details or "failed_box" in cert.details)


def test_arb_prover_raises_precision_where_rounding_limits_it():
    # log(1 + 2 e^-100) ~ 7e-44 > 0 is below what 128-bit balls resolve next to 1
    u1, u2 = sp.symbols("u1 u2", real=True)
    cert = I.prove_nonnegative(sp.log(1 + sp.exp(-u1) + sp.exp(-u2)), {u1: (0, 100), u2: (0, 100)}, "lse >= max")
    assert cert.ok and max(cert.details["precisions_used"]) > 128
