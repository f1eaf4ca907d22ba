"""Continuous subjects: exact moments and tails of piecewise-linear maps of densities (numerics.piecewise), their
closed forms near a parameter's limit, arb enclosures of E g(f(X)), and the Density / PiecewiseLinearMap parts."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings

from numerics import piecewise as pw
from numerics.backend import FLOAT, mp_backend, torch_backend
from numerics.errors import AssumptionError
from theorems import quantity
from theorems.subjects import Density, Family, PiecewiseLinearMap, Scalar
from theorems.subjects.compose import Subject
from theorems.subjects.continuous import Knots, as_backend, as_rational

t = sp.Symbol("t", positive=True)
U01 = pw.Uniform(0, 1)
HAT = pw.PiecewiseLinear.bump(F(1, 2), F(1, 4), F(1, 4))  # max(0, 1/4 - |x - 1/2|) on [0, 1]
IDENTITY_02 = pw.PiecewiseLinear([0, 2], [0, 2])


# -- exact values --------------------------------------------------------------------------------------------------
def test_a_hat_on_the_uniform_density() -> None:
    assert HAT.xs == (0, F(1, 4), F(1, 2), F(3, 4), 1) and HAT(F(3, 8)) == F(1, 8) and HAT.lipschitz() == 1
    assert pw.expectation(U01, HAT) == F(1, 16)  # the triangle's area
    assert pw.expectation(U01, HAT, 2) == F(1, 96)  # 2 int_0^{1/4} s^2 ds
    assert pw.variance(U01, HAT) == F(1, 96) - F(1, 256)
    assert pw.prob_above(U01, HAT, F(1, 8)) == F(1, 4)  # |x - 1/2| < 1/8
    assert pw.prob_below(U01, HAT, F(1, 8)) == F(3, 4)
    assert pw.prob_deviation(U01, HAT, F(1, 16), F(1, 16)) == F(1, 4)  # f > 1/8 (f < 0 never)
    assert pw.probability(U01, HAT, lower=F(1, 16), upper=F(3, 16)) == F(5, 8) + F(1, 8)  # |x - 1/2| > 3/16 or < 1/16
    assert all(isinstance(v, sp.Rational) for v in (pw.expectation(U01, HAT), pw.prob_above(U01, HAT, F(1, 8))))


def test_a_flat_piece_at_the_threshold_is_not_above_nor_below_it() -> None:
    f = pw.PiecewiseLinear([0, F(1, 2), 1], [F(1, 2), F(1, 2), 1])
    assert pw.prob_above(U01, f, F(1, 2)) == F(1, 2) and pw.prob_below(U01, f, F(1, 2)) == 0
    assert pw.prob_above(U01, f, F(1, 4)) == 1 and pw.prob_above(U01, f, 1) == 0


def test_a_triangular_density_and_its_normalization() -> None:
    X = pw.PiecewiseLinearDensity([0, 1], [0, 2])  # p(x) = 2x
    f = pw.PiecewiseLinear([0, 1], [0, 1])
    assert (pw.expectation(X, f), pw.expectation(X, f, 2), pw.variance(X, f)) == (F(2, 3), F(1, 2), F(1, 18))
    assert pw.prob_above(X, f, F(1, 2)) == F(3, 4) and pw.prob_below(X, f, F(1, 2)) == F(1, 4)
    assert pw.expectation(pw.PiecewiseLinearDensity([0, 1], [0, 7], normalize=True), f) == F(2, 3)
    with pytest.raises(ValueError, match="integrates to 7/2"):
        pw.PiecewiseLinearDensity([0, 1], [0, 7])
    with pytest.raises(ValueError, match="negative"):
        pw.PiecewiseLinearDensity([0, 1, 2], [1, -1, 1], normalize=True)


def test_mixtures_of_densities_with_different_supports() -> None:
    mix = pw.DensityMixture([(F(1, 2), U01), (F(1, 2), pw.Uniform(F(1, 2), 2))])
    assert mix.mass() == 1 and mix.support == (0, 2)
    assert pw.expectation(mix, IDENTITY_02) == F(7, 8)
    assert pw.expectation(mix, IDENTITY_02, 2) == F(25, 24)  # (1/3 + 7/4) / 2
    assert pw.variance(mix, IDENTITY_02) == F(53, 192)
    assert pw.prob_above(mix, IDENTITY_02, 1) == F(1, 3)
    tri = pw.PiecewiseLinearDensity([0, 1, 2], [0, 1, 0])  # the triangle on [0, 2]
    mix2 = pw.DensityMixture([(F(1, 4), tri), (F(3, 4), U01)])
    assert pw.expectation(mix2, IDENTITY_02) == F(1, 4) * 1 + F(3, 4) * F(1, 2)
    assert pw.prob_above(mix2, IDENTITY_02, F(3, 2)) == F(1, 4) * F(1, 8)
    with pytest.raises(ValueError, match="sum to 1"):
        pw.DensityMixture([(F(1, 2), U01), (F(1, 3), tri)])


def test_floats_enter_at_their_exact_binary_value_and_the_domain_is_checked() -> None:
    f = pw.PiecewiseLinear([0, 0.1], [0, 1])
    assert f.xs[1] == F(0.1) != F(1, 10)
    with pytest.raises(ValueError, match="outside"):
        f(1)
    with pytest.raises(ValueError, match="not inside f's domain"):
        pw.expectation(U01, f)


# -- closed forms near a parameter's limit -------------------------------------------------------------------------
def test_chebyshev_is_sharp_in_order_on_a_shrinking_bump() -> None:
    """X ~ U[0,1], f_t = max(0, t - |x - 1/2|), eps = t/2, t -> 0+: P(|f - E f| > eps) is of the order Var/eps^2,
    not Var/eps."""
    near = (t, 0, "+")
    f = pw.PiecewiseLinear.bump(sp.Rational(1, 2), t, t, near=near)
    E, V = pw.expectation(U01, f), pw.variance(U01, f)
    eps = t / 2
    P = pw.prob_deviation(U01, f, E, eps)
    assert E == t ** 2 and sp.expand(V - (2 * t ** 3 / 3 - t ** 4)) == 0 and sp.expand(P - (t - 2 * t ** 2)) == 0
    assert sp.limit(P / (V / eps), t, 0, "+") == sp.oo
    ratio = sp.limit(P / (V / eps ** 2), t, 0, "+")
    assert ratio.is_finite and ratio == sp.Rational(3, 8)


def test_signs_are_decided_near_the_limit() -> None:
    assert pw.sign(sp.sqrt(t) - t, (t, 0)) == 1 and pw.sign(sp.sqrt(t) - t, (t, sp.oo)) == -1
    assert pw.sign(t - 1, (t, 1, "-")) == -1 and pw.sign((t ** 2 - t) / (t + 1), (t, 0)) == -1
    steep = pw.PiecewiseLinear([0, t, 1], [0, 2 * t, 0], near=(t, 0, "+"))
    assert sp.simplify(steep.lipschitz() - 2) == 0
    assert sp.cancel(pw.prob_above(U01, pw.PiecewiseLinear([0, 1], [0, 1]), 1 / t, near=(t, sp.oo)) - (1 - 1 / t)) == 0
    with pytest.raises(ValueError, match="1 - t"):  # 1 < t near t -> 2
        pw.PiecewiseLinear([0, t, 1], [0, 0, 0], near=(t, 2))
    with pytest.raises(ValueError, match="not > 0"):  # identically 0 where a strict order is needed
        pw.PiecewiseLinear([0, t - t, 1], [0, 0, 0], near=(t, 0))
    with pytest.raises(ValueError, match="near="):
        pw.sign(t)
    with pytest.raises(ValueError, match="different limits"):
        pw.expectation(pw.Uniform(0, 1, near=(t, 0)), pw.PiecewiseLinear([0, 1], [0, t], near=(t, sp.oo)))


# -- certified expectations ----------------------------------------------------------------------------------------
def _hat(x: mpmath.mpf) -> mpmath.mpf:
    return max(mpmath.mpf(0), mpmath.mpf(1) / 4 - abs(x - mpmath.mpf(1) / 2))


def test_a_certified_expectation_contains_the_50_digit_value_and_is_narrow() -> None:
    box = pw.certified_expectation(U01, "exp", HAT)
    with mpmath.workdps(50):
        exact = mpmath.quad(lambda x: mpmath.exp(_hat(x)), [0, 0.25, 0.5, 0.75, 1])
        assert box.lo <= exact <= box.hi
    assert box.certain and box.hi - box.lo < 1e-14
    X = pw.PiecewiseLinearDensity([0, 1], [0, 2])
    f = pw.PiecewiseLinear([0, 1], [1, 3])
    box = pw.certified_expectation(X, "log", f)
    with mpmath.workdps(50):
        exact = mpmath.quad(lambda x: 2 * x * mpmath.log(1 + 2 * x), [0, 1])
        assert box.lo <= exact <= box.hi and box.hi - box.lo < 1e-14
    with pytest.raises(ValueError, match="not finite"):
        pw.certified_expectation(U01, "log", pw.PiecewiseLinear([0, 1], [-1, 1]))


# -- boxes ---------------------------------------------------------------------------------------------------------
def test_affine_maps_of_a_uniform_box() -> None:
    square = pw.UniformBox([(0, 1), (0, 1)])
    assert pw.box_expectation(square, [1, 1], 0) == 1 and pw.box_expectation(square, [1, 1], 0, 2) == F(7, 6)
    assert pw.box_prob_above(square, [1, 1], 0, 1) == F(1, 2)
    assert pw.box_prob_above(square, [1, 1], 0, F(1, 2)) == F(7, 8)
    assert pw.box_prob_above(square, [1, -1], 0, 0) == F(1, 2)
    assert pw.box_prob_above(square, [0, 2], 1, 2) == F(1, 2) and pw.box_prob_above(square, [0, 0], 1, 0) == 1
    cube = pw.UniformBox([(0, 1), (0, 2), (-1, 1)])
    assert pw.box_prob_above(cube, [1, 1, 1], 0, -F(1, 2)) == 1 - F(1, 48) / 4  # the corner simplex
    assert sp.expand(pw.box_prob_above(square, [1, 1], 0, 2 - t, near=(t, 0)) - t ** 2 / 2) == 0


# -- the parts -----------------------------------------------------------------------------------------------------
@quantity(differentiable=False)
def E_f(s, xp):
    """E f(X)."""
    return as_backend(pw.expectation(s.X, s.f), xp)


@quantity(range=(0, None), differentiable=False)
def Var_f(s, xp):
    """Var f(X)."""
    return as_backend(pw.variance(s.X, s.f), xp)


@quantity(range=(0, 1), differentiable=False)
def P_dev(s, xp):
    """P(|f(X) - E f(X)| > eps)."""
    return as_backend(pw.prob_deviation(s.X, s.f, pw.expectation(s.X, s.f), as_rational(s.eps)), xp)


FAMILY = Family("maps of densities", dims={},
                parts={"X": Density(domain=(-1.0, 2.0)), "f": PiecewiseLinearMap(lipschitz=1.5, domain=(-1.0, 2.0)),
                       "eps": Scalar(0.01, 1.0)},
                quantities=(E_f, Var_f, P_dev))
SUBJECT = Subject({}, {"X": Knots((-1.0, 0.5, 2.0), (0.0, 1.0, 0.25)), "f": Knots((-1.0, 0.0, 2.0), (0.0, 1.5, 0.0)),
                       "eps": 0.25})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(FAMILY.strategy())
def test_drawn_subjects_are_valid_round_trip_and_shrink_to_valid_subjects(subject: Subject) -> None:
    FAMILY.validate(subject)
    back = FAMILY.from_json(FAMILY.to_json(subject))
    assert back.values["X"] == subject.values["X"] and back.values["f"] == subject.values["f"]
    for smaller in list(FAMILY.shrink(subject))[:20]:
        FAMILY.validate(smaller)
    slopes = subject.values["f"].slopes()
    assert all(abs(s) <= F(1.5) for s in slopes)  # exactly, not to rounding


def test_shrinking_reaches_the_uniform_density_and_the_zero_map() -> None:
    X, f = FAMILY.parts["X"], FAMILY.parts["f"]
    assert Knots((-1.0, 2.0), (1.0, 1.0)) in list(X.simpler(SUBJECT.values["X"]))
    assert Knots((-1.0, 0.0, 2.0), (0.0, 0.0, 0.0)) in list(f.simpler(SUBJECT.values["f"]))
    assert Knots((-1.0, 2.0), (0.0, 0.0)) in list(f.simpler(Knots((-1.0, 0.0, 2.0), (0.0, 0.0, 0.0))))
    assert "density ~ [(-1, 0)" in FAMILY.describe(SUBJECT)


@pytest.mark.parametrize("values, message", [
    ({"f": Knots((-1.0, 0.0, 2.0), (0.0, 2.0, 0.0))}, "steeper than 1.5"),
    ({"f": Knots((-1.0, 1.0), (0.0, 0.0))}, "span"),
    ({"X": Knots((0.0, 0.0, 1.0), (1.0, 1.0, 1.0))}, "not increasing"),
    ({"X": Knots((0.0, 1.0), (1.0, -1.0))}, ">= 0"),
    ({"X": Knots((0.0, 1.0), (0.0, 0.0))}, "positive integral"),
    ({"X": Knots((-2.0, 1.0), (1.0, 1.0))}, "within"),
])
def test_values_outside_the_parts_are_rejected(values: dict, message: str) -> None:
    with pytest.raises(AssumptionError, match=message):
        FAMILY.validate(Subject({}, {**SUBJECT.values, **values}))


def test_witness_json_is_read_strictly() -> None:
    data = FAMILY.to_json(SUBJECT)
    assert data["values"]["X"] == {"xs": [-1.0, 0.5, 2.0], "ys": [0.0, 1.0, 0.25]}
    for bad, message in [({"xs": [0.0, 1.0]}, "lacks"), ({"xs": [0.0, "1"], "ys": [1.0, 1.0]}, "real number"),
                         ({"xs": [0.0, 1.0], "ys": [1.0]}, "knots"), ({"xs": [0.0] * 9, "ys": [1.0] * 9}, "knots")]:
        with pytest.raises(AssumptionError, match=message):
            FAMILY.from_json({**data, "values": {**data["values"], "X": bad}})


def test_a_family_of_them_computes_the_same_exact_quantities_in_every_backend() -> None:
    symbols = (E_f, Var_f, P_dev)
    X = pw.PiecewiseLinearDensity([-1, F(1, 2), 2], [0, 1, F(1, 4)], normalize=True)
    f = pw.PiecewiseLinear([-1, 0, 2], [0, F(3, 2), 0])
    E = pw.expectation(X, f)
    exact = {E_f: E, Var_f: pw.variance(X, f), P_dev: pw.prob_deviation(X, f, E, F(1, 4))}
    assert 0 < exact[P_dev] < 1 and exact[Var_f] > 0
    floats = FAMILY.quantities(SUBJECT, symbols, FLOAT)
    mp = FAMILY.quantities(SUBJECT, symbols, mp_backend(60))
    torch = FAMILY.quantities(SUBJECT, symbols, torch_backend())
    for s in symbols:
        assert isinstance(floats[s], float) and floats[s] == float(pw.as_fraction(exact[s]))
        assert isinstance(mp[s], mpmath.mpf)
        with mpmath.workdps(60):
            assert abs(mp[s] - mpmath.mpf(exact[s].p) / exact[s].q) <= mpmath.mpf(10) ** -58 * abs(mp[s])
        assert float(torch[s]) == floats[s]
    assert FAMILY.differentiable == {FAMILY.symbol("eps")}


def test_as_rational_reads_backend_scalars_exactly() -> None:
    with mpmath.workdps(60):
        assert as_rational(mpmath.mpf(0.1)) == F(0.1)
    assert as_rational(FLOAT.asarray(0.25)) == F(1, 4) and as_rational(torch_backend().asarray(0.5)) == F(1, 2)
    assert as_rational(3) == 3
