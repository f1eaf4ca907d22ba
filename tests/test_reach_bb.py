"""numerics.reach_bb: certified bounds on an infimum over an extended-real box (mpmath.iv branch and bound)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from numerics.certificate import Certificate
from numerics.interval import UnsupportedExpression as BallUnsupported
from numerics.reach_bb import Infimum, UnsupportedExpression, certified_infimum, enclosure, parametric_infimum

w, x, y, z = sp.symbols("w x y z", real=True)
OO = sp.oo
LOGISTIC = sp.log(1 + sp.exp(-w))
BOTH_LABELS = (sp.log(1 + sp.exp(-z)) + sp.log(1 + sp.exp(z))) / 2
TIGHT = Fraction(1, 10 ** 6)
ROUNDING = Fraction(1, 10 ** 60)  # far above the 136-bit rounding, far below any tolerance tested


def exact(value) -> Fraction:
    """The exact value of an mpmath number (not re-rounded to mpmath's 53-bit default)."""
    man, exp = value.man_exp
    return Fraction(int(man)) * Fraction(2) ** int(exp)


def reference(expr: sp.Expr) -> Fraction:
    """sympy's 80-digit value of a constant, as a Fraction (within ~1e-78 of it: far below ROUNDING)."""
    r = sp.Rational(sp.N(expr, 80))
    return Fraction(int(r.p), int(r.q))


def low(r: Infimum) -> Fraction:
    assert r.lower_fraction is not None, f"no finite lower bound: {r}"
    return r.lower_fraction


# ----------------------------------------------------------------------------- one logit, |w| <= B

@pytest.mark.parametrize("b", [1, 3, 10])
def test_bounded_logistic_infimum_is_log_1_plus_exp_minus_B(b: int) -> None:
    truth = reference(sp.log(1 + sp.exp(-sp.Integer(b))))
    r = certified_infimum(LOGISTIC, {w: (-b, b)})
    assert truth - TIGHT <= low(r) <= truth + ROUNDING
    assert r.upper_fraction >= truth - ROUNDING and r.complete and r.stopped == "gap closed"
    assert Fraction(r.point["w"]) == b  # the minimiser is the upper end (monotone decreasing)
    cert = r.certificate()
    assert isinstance(cert, Certificate) and cert.ok and cert.complete and cert.details["leaves"] == r.boxes
    assert f"w in [{-b}, {b}]" in cert.domain and cert.statement.startswith(f"{LOGISTIC} >= ")
    # the refutation of Q <= eps for eps half the infimum
    eps = sp.log(1 + sp.exp(-sp.Integer(b))) / 2
    r = certified_infimum(LOGISTIC, {w: (-b, b)}, target=eps)
    assert r.complete and r.stopped.startswith("target reached (lower > target)")
    assert r.unreachable(eps) and low(r) > reference(eps)
    assert not r.unreachable(2 * eps) and r.reachable(2 * eps + sp.Rational(1, 10 ** 9))
    assert r.certificate().details["target_reached"] is True


def test_unbounded_logistic_has_infimum_zero_not_a_positive_bound() -> None:
    r = certified_infimum(LOGISTIC, {w: (-OO, OO)})
    assert r.lower <= 0  # never a positive lower bound: the infimum is 0 (not attained)
    assert r.upper < mpmath.mpf("1e-3") and r.reachable(Fraction(1, 1000))
    assert not r.unreachable(0) and r.certificate().domain == "w in (-oo, oo)"
    # with a positive target, the answer is "reachable" -- found from above, never a refutation
    r = certified_infimum(LOGISTIC, {w: ("-oo", "oo")}, target=Fraction(1, 10 ** 6))
    assert r.stopped.startswith("target reached from above") and not r.unreachable(Fraction(1, 10 ** 6))


def test_interval_arithmetic_on_half_infinite_intervals() -> None:
    a, b = enclosure(sp.exp(-x), {x: (10, OO)})
    assert a == 0 and exact(b) >= reference(sp.exp(-10)) and b < mpmath.mpf("4.54e-5")
    a, b = enclosure(sp.log(1 + sp.exp(x)), {x: (10, OO)})
    assert mpmath.isinf(b) and reference(sp.Integer(10)) < exact(a) <= reference(sp.log(1 + sp.exp(10)))
    # 0 * oo: x * exp(-x) on [0, oo) has infimum 0 at x = 0, on [-1, oo) it is -1/e at x = -1
    r = certified_infimum(x * sp.exp(-x), {x: (0, OO)})
    assert low(r) <= 0 <= r.upper_fraction
    r = certified_infimum(x * sp.exp(-x), {x: (-1, OO)})
    truth = reference(-sp.exp(1))
    assert truth - TIGHT <= low(r) <= truth and r.complete


# ----------------------------------------------------------------------------- the point listed with both labels

def test_both_labels_on_one_point_costs_log_2_on_the_whole_line() -> None:
    log2 = reference(sp.log(2))
    r = certified_infimum(BOTH_LABELS, {z: (-OO, OO)})
    assert log2 - TIGHT <= low(r) <= log2 and r.complete
    assert r.unreachable(sp.log(2) - sp.Rational(1, 10 ** 5)) and not r.unreachable(sp.log(2))
    assert abs(Fraction(r.point["z"])) < Fraction(1, 10)


def test_separable_sum_bounds_each_group_alone() -> None:
    zs = sp.symbols("z0:3", real=True)
    q = sum(BOTH_LABELS.subs(z, v) for v in zs)
    r = certified_infimum(q, {v: (-OO, OO) for v in zs})
    three = 3 * reference(sp.log(2))
    assert three - 3 * TIGHT <= low(r) <= three <= r.upper_fraction
    assert len(r.parts) == 3 and "separable sum of 3 groups" in r.method and r.boxes < 300
    assert set(r.point) == {"z0", "z1", "z2"} and r.certificate().ok
    assert len(r.certificate().details["parts"]) == 3
    # the mean (a positive constant times the sum) is bounded the same way
    m = certified_infimum(q / 3, {v: (-OO, OO) for v in zs}, target=sp.log(2) - sp.Rational(1, 10 ** 5))
    assert len(m.parts) == 3 and m.unreachable(sp.log(2) - sp.Rational(1, 10 ** 5)) and m.complete


# ----------------------------------------------------------------------------- several variables

def test_two_dimensional_non_separable_minimum_zero() -> None:
    q = (x - y) ** 2 + (x * y - 1) ** 2  # minimum 0 at (1, 1) and (-1, -1)
    r = certified_infimum(q, {x: (-3, 3), y: (-3, 3)})
    assert r.lower <= 0 <= r.upper < mpmath.mpf("1e-6") and r.complete
    at = {x: sp.Rational(r.point["x"]), y: sp.Rational(r.point["y"])}
    assert q.subs(at) <= r.upper_fraction and len(r.parts) == 0


@settings(max_examples=60, deadline=None, derandomize=True)
@given(a=st.integers(-40, 40), c=st.integers(-200, 200), b=st.integers(-100, 100),
       lo=st.integers(-100, 100), width=st.integers(0, 100), tail=st.sampled_from(["none", "lo", "hi"]))
def test_quadratic_lower_bound_is_never_false(a: int, c: int, b: int, lo: int, width: int, tail: str) -> None:
    A, C, Bc = Fraction(a, 4), Fraction(c, 16), Fraction(b, 8)
    L, H = Fraction(lo, 8), Fraction(lo + width, 8)
    q = sp.Rational(a, 4) * (x - sp.Rational(c, 16)) ** 2 + sp.Rational(b, 8)
    f = lambda t: A * (t - C) ** 2 + Bc  # noqa: E731
    if tail != "none" and A > 0:  # a convex quadratic on a half-infinite side
        box = {x: (L, OO)} if tail == "hi" else {x: (-OO, H)}
        side = (L, None) if tail == "hi" else (None, H)
    else:
        box, side = {x: (L, H)}, (L, H)
    cands = [f(e) for e in side if e is not None]
    if A > 0 and (side[0] is None or side[0] <= C) and (side[1] is None or C <= side[1]):
        cands.append(Bc)
    truth = min(cands)
    r = certified_infimum(q, box)
    assert low(r) <= truth <= r.upper_fraction
    assert truth - low(r) < Fraction(1, 1000) and r.complete


# ----------------------------------------------------------------------------- refusals and undefined leaves

def test_unsupported_node_is_refused_by_name() -> None:
    with pytest.raises(UnsupportedExpression, match="sin"):
        certified_infimum(sp.sin(x) + x ** 2, {x: (0, 1)})
    with pytest.raises(BallUnsupported, match="floor"):  # one exception class for both evaluators
        certified_infimum(sp.floor(x), {x: (0, 1)})
    with pytest.raises(ValueError, match="no range for"):
        certified_infimum(x + y, {x: (0, 1)})
    with pytest.raises(ValueError, match="empty box side"):
        certified_infimum(x, {x: (2, 1)})


def test_log_of_a_non_positive_leaf_never_gives_a_positive_bound() -> None:
    r = certified_infimum(sp.log(x) + 10, {x: (-2, -1)})  # defined nowhere
    assert mpmath.isinf(r.lower) and r.lower < 0 and "defined nowhere" in r.stopped
    assert r.undefined_leaves >= 1 and "log of an interval reaching <= 0" in r.undefined_reason
    assert not r.certificate().ok and not r.unreachable(-10 ** 9)
    r = certified_infimum(sp.log(1 + x) + 5, {x: (-3, 1)}, max_boxes=200)  # defined on (-1, 1] only
    assert mpmath.isinf(r.lower) and r.lower < 0 and r.undefined_leaves >= 1
    assert r.certificate().details["undefined_leaves"] == r.undefined_leaves
    r = certified_infimum(sp.sqrt(x) + 1, {x: (-1, 1)}, max_boxes=200)
    assert r.lower < 0 and "power 1/2" in r.undefined_reason
    # log of an interval reaching 0 (x^2 on a leaf around 0): Q -> -oo there, so no finite bound, let alone 100
    r = certified_infimum(sp.log(x ** 2) + 100, {x: (-1, 1)}, max_boxes=100)
    assert mpmath.isinf(r.lower) and r.lower < 0 and "budget" in r.stopped and r.undefined_leaves >= 1
    assert not r.complete and not r.unreachable(0)
    r = certified_infimum(x ** 2 + 1 / x, {x: (-1, 1)}, max_boxes=100)  # 1/x: unbounded below near 0-
    assert mpmath.isinf(r.lower) and r.lower < 0


# ----------------------------------------------------------------------------- parameters and determinism

def test_parametric_table_over_a_weight_bound() -> None:
    B = sp.Symbol("B", positive=True)
    rows = parametric_infimum(LOGISTIC, lambda v: {w: (-v["B"], v["B"])}, [B], [Fraction(1, 2), 1, 2, 4])
    assert [v["B"] for v, _ in rows] == [Fraction(1, 2), 1, 2, 4]
    for v, r in rows:
        truth = reference(sp.log(1 + sp.exp(-sp.Rational(v["B"]))))
        assert truth - TIGHT <= low(r) <= truth
    lowers = [low(r) for _, r in rows]
    assert lowers == sorted(lowers, reverse=True)
    # a parameter inside the expression too: inf over w in [-B, B] of (w - B/2)^2 + B is B
    rows = parametric_infimum((w - B / 2) ** 2 + B, lambda v: {"w": (-v["B"], v["B"])}, ["B"], [(1,), (3,)],
                              target=lambda v: v["B"] - Fraction(1, 100))
    assert all(r.unreachable(v["B"] - Fraction(1, 100)) and low(r) <= v["B"] for v, r in rows)


def test_deterministic() -> None:
    q = (x - y) ** 2 + (x * y - 1) ** 2 + sp.log(1 + sp.exp(-x - y))
    first = certified_infimum(q, {x: (-3, 3), y: (-OO, 4)}, max_boxes=300)
    again = certified_infimum(q, {x: (-3, 3), y: (-OO, 4)}, max_boxes=300)
    assert (first.lower, first.upper, first.point, first.boxes, first.stopped) == \
        (again.lower, again.upper, again.point, again.boxes, again.stopped)
