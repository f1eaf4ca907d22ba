"""Interval branch-and-bound certificates (arb balls): true statements certify, false ones never do."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from numerics import interval as I
from numerics.certificate import Certificate
from theorems.papers.merad import provers as merad

x, y, t = sp.symbols("x y t", real=True)


def _dumps(cert: Certificate) -> str:
    return json.dumps(cert.to_json(), allow_nan=False)


def _volume(box) -> Fraction:
    out = Fraction(1)
    for lo, hi in box:
        out *= Fraction(hi) - Fraction(lo)
    return out


def _check_proof(details: dict) -> None:
    """Certified boxes have lower bounds >= 0 and tile the whole domain."""
    boxes = details["boxes"]
    assert boxes and details["boxes_certified"] == len(boxes)
    for b in boxes:
        assert isinstance(b["lower"], float) and b["lower"] >= 0
        assert b["test"] in {"natural", "taylor-centre", "taylor-vertex"}
    root = details["box"]
    if _volume(root) > 0:
        assert sum(_volume(b["box"]) for b in boxes) == _volume(root)


def _parts(cert: Certificate) -> list[dict]:
    return [p["details"] for p in cert.details["parts"]] if "parts" in cert.details else [cert.details]


# ----------------------------------------------------------------------------- ready-made

def _lse_upper(n: int, width, factor=1):
    """LSE(x) <= max(x) + factor log n on a box of the given width: on {x_k = max} put u_j = x_k - x_j in
    [0, width], then factor log n - log(1 + sum_j e^-u_j) >= 0 (a multivariate box proof)."""
    u = sp.symbols(f"u1:{n}", real=True)
    g = sp.Rational(str(Fraction(factor))) * sp.log(n) - sp.log(1 + sum(sp.exp(-uj) for uj in u))
    return I.prove_nonnegative(g, {uj: (0, Fraction(width)) for uj in u}, f"LSE <= max + {factor} log {n}")


@pytest.mark.parametrize("factory", [
    merad.neg_log1m_le_ratio,
    merad.ratio_le_twice,
    merad.softmax2_curvature_le_half,
    lambda: _lse_upper(2, 10),
    lambda: _lse_upper(3, 7),
], ids=["neg_log1m_le_ratio", "ratio_le_twice", "softmax2_curvature", "lse2", "lse3"])
def test_ready_made_certifies(factory):
    cert = factory()
    assert isinstance(cert, Certificate)
    assert cert.ok, cert.details
    assert cert.method.startswith("interval branch-and-bound (python-flint")
    assert cert.statement and cert.domain and cert.seconds >= 0
    for d in _parts(cert):
        _check_proof(d)
    json.loads(_dumps(cert))


def test_softmax2_statement_and_closed_form():
    cert = merad.softmax2_curvature_le_half()
    assert "closed form" in cert.statement and "2x2" in cert.statement
    assert cert.details["closed_form_check"]["matrix_identity"]
    assert cert.details["closed_form_check"]["eigenvalues_are_0_and_2t(1-t)"]


def test_tangent_corner_uses_vertex_test():
    # g(0) = 0 with g'(0) = 0: only the vertex expansion can certify the box touching 0
    cert = merad.neg_log1m_le_ratio()
    assert cert.ok
    first = [b for b in cert.details["boxes"] if b["box"][0][0] == "0"]
    assert first and first[0]["test"] == "taylor-vertex"


# ----------------------------------------------------------------------------- refusals

def _g_at(expr, point: dict[str, str]) -> mpmath.mpf:
    with mpmath.workdps(50):
        subs = {sp.Symbol(k, real=True): sp.Rational(v) for k, v in point.items()}
        return mpmath.mpf(sp.N(expr.subs(subs), 50))


def _assert_refused(cert: Certificate, expr=None) -> None:
    assert not cert.ok
    d = cert.details
    assert "counterexample" in d or "failed_box" in d
    if "counterexample" in d and expr is not None:
        assert _g_at(expr, d["counterexample"]["point"]) < 0
        assert d["counterexample"]["g"] < 0
    _dumps(cert)


def test_refuses_neg_log1m_le_x():
    g = x + sp.log(1 - x)  # -log(1-x) <= x is false on (0, 1/2]
    _assert_refused(I.prove_nonnegative(g, {x: ("0", "1/2")}, "-log(1-x) <= x"), g)
    cert = I.prove_nonnegative(g, {x: ("0", "1/2")}, "-log(1-x) <= x", refute_hint=False, max_boxes=500)
    _assert_refused(cert)
    assert "failed_box" in cert.details and cert.details["failed_box"]["g_interval"][1] >= 0


def test_refuses_softmax2_minus_epsilon():
    g = sp.Rational(1, 2) - 2 * t * (1 - t) - sp.Float(1e-9)
    _assert_refused(I.prove_nonnegative(g, {t: (0, 1)}, "1/2 - 2t(1-t) - 1e-9 >= 0"), g)
    g2 = sp.Rational(1, 2) - 2 * t * (1 - t) - sp.Rational(1, 10 ** 9)
    cert = I.prove_nonnegative(g2, {t: ("0", "1")}, "exact epsilon", refute_hint=False, max_boxes=300)
    _assert_refused(cert)


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("factor", ["99/100", 0.99])
def test_refuses_lse_with_smaller_log_n(n, factor):
    cert = _lse_upper(n, 10, factor)
    assert not cert.ok
    assert "counterexample" in cert.details or "failed_box" in cert.details
    _dumps(cert)


def test_refuses_softplus_with_smaller_constant():
    g = sp.Rational(9, 10) * sp.exp(-x) - (sp.log(1 + sp.exp(x)) - x)  # false for large x
    _assert_refused(I.prove_nonnegative(g, {x: (0, 10)}, "zeta(x) - x <= 0.9 exp(-x)"), g)


def test_max_boxes_reports_smallest_failed_box():
    g = sp.Max(x, y) - (x + y) / 2  # zero on the whole diagonal: a box method cannot finish
    cert = I.prove_nonnegative(g, {x: (-1, 1), y: (-1, 1)}, "max >= mean", max_boxes=40)
    assert not cert.ok
    fb = cert.details["failed_box"]
    assert fb["box"] and fb["g_interval"][0] <= 0 <= fb["g_interval"][1]
    _dumps(cert)


@pytest.mark.parametrize("seed, trials, grid_steps, max_boxes", [(7, 12, 12, 2000), (11, 10, 8, 1500)])
def test_random_false_statements_never_certify(seed: int, trials: int, grid_steps: int, max_boxes: int) -> None:
    rng = random.Random(seed)
    atoms = [x, y, sp.exp(x), sp.exp(-y), sp.log(1 + x ** 2), sp.sqrt(1 + y ** 2), x * y, x ** 3]
    for _ in range(trials):
        g = sum(sp.Rational(rng.randint(-4, 4), rng.randint(1, 3)) * rng.choice(atoms) for _ in range(3))
        if not g.free_symbols:
            continue
        variables = sorted(g.free_symbols, key=str)
        box = {v: (Fraction(rng.randint(-4, 0), 2), Fraction(rng.randint(1, 4), 2)) for v in variables}
        f = sp.lambdify(variables, g, "mpmath")
        grid = [[lo + (hi - lo) * Fraction(i, grid_steps) for i in range(grid_steps + 1)] for lo, hi in box.values()]
        m = min(f(*[mpmath.mpf(q.numerator) / q.denominator for q in p]) for p in itertools.product(*grid))
        # the sampled minimum is >= the true minimum: g - m - 1e-3 is negative somewhere
        shifted = g - sp.Rational(mpmath.nstr(m, 40)) - sp.Rational(1, 1000)
        assert not I.prove_nonnegative(shifted, box, "false", max_boxes=max_boxes).ok


# ----------------------------------------------------------------------------- the evaluator

EXPRS = [
    sp.exp(x) * sp.log(1 + y ** 2),
    sp.sqrt(x ** 2 + y ** 2 + 1) - sp.exp(-x * y),
    (x + 3) ** sp.Rational(1, 3) + y ** 5 - x ** -2,
    sp.log(1 + sp.exp(x)) - x / (2 - y),
    (y ** 2 + 1) ** sp.Rational(-3, 2) + sp.pi * sp.E ** x,
    sp.Abs(x - y) + sp.Max(x, y ** 2) - sp.Min(x, sp.exp(y)),
    sp.exp(sp.sqrt(x + 4)) * (x + 4) ** y,
]


def _mp_value(expr, px: Fraction, py: Fraction) -> mpmath.mpf:
    f = sp.lambdify((x, y), expr, "mpmath")
    return f(mpmath.mpf(px.numerator) / px.denominator, mpmath.mpf(py.numerator) / py.denominator)


@pytest.mark.parametrize("k", range(len(EXPRS)))
def test_evaluator_encloses_true_values(k):
    expr = EXPRS[k]
    rng = random.Random(k)
    with mpmath.workdps(50):
        for _ in range(25):
            px = Fraction(rng.randint(-300, 300), rng.randint(100, 997))
            py = Fraction(rng.randint(-300, 300), rng.randint(100, 997))
            if px == 0:
                continue
            iv = I.interval_eval(expr, {x: px, y: py})
            v = _mp_value(expr, px, py)
            slack = mpmath.mpf(10) ** -45 * (1 + abs(v))
            assert iv.a - slack <= v <= iv.b + slack, (expr, px, py, iv, v)
            assert iv.b - iv.a <= mpmath.mpf(10) ** -30 * (1 + abs(v))  # tight at a point
            # a box around the point encloses the values at points inside it
            h = Fraction(1, rng.randint(20, 200))
            lo_x, hi_x = (px, px + h) if px > 0 else (px - h, px)
            box_iv = I.interval_eval(expr, {x: (lo_x, hi_x), y: (py - h, py + h)})
            for _ in range(3):
                qx = lo_x + (hi_x - lo_x) * Fraction(rng.randint(0, 64), 64)
                qy = py - h + 2 * h * Fraction(rng.randint(0, 64), 64)
                w = _mp_value(expr, qx, qy)
                assert box_iv.a - slack <= w <= box_iv.b + slack


def test_evaluator_keeps_exact_zero_and_rejects_undefined():
    iv = I.interval_eval(x, {x: ("0", "1/2")})
    assert iv.a == 0 and iv.b >= 0.5  # a box on one side of 0 is cut at 0 exactly
    assert I.interval_eval(x ** 2, {x: (-1, 1)}).a == 0  # even powers stay >= 0 around 0
    assert I.interval_eval(sp.sqrt(x), {x: ("0", "1/4")}).b >= 0.5  # defined on [0, b]
    assert I.interval_eval(sp.log(1 - x), {x: 0}).a == 0  # exact at an exact point: log(1) = 0
    prod = I.interval_eval(x * (1 - x), {x: ("0", "1/2")})
    assert prod.a <= 0 and prod.b >= sp.Rational(1, 4)  # ball arithmetic encloses [0, 1/4], more loosely
    with pytest.raises(ValueError):
        I.interval_eval(sp.log(x), {x: (-1, 1)})
    with pytest.raises(ValueError):
        I.interval_eval(sp.sqrt(x), {x: (-1, 1)})
    with pytest.raises(I.UnsupportedExpression):
        I.interval_eval(sp.gamma(x), {x: (1, 2)})


def test_enclosure_ends_are_exact_and_rounded_outward():
    iv = I.interval_eval(sp.exp(x), {x: sp.Rational(1, 3)}, prec=200)
    with mpmath.workdps(80):
        v = mpmath.exp(mpmath.mpf(1) / 3)
        assert iv.a < v < iv.b and iv.b - iv.a < mpmath.mpf(10) ** -55
    assert iv.lo is not None and iv.lo <= iv.hi
    assert isinstance(iv.lower_float(), float) and iv.lower_float() <= float(v) <= iv.upper_float()
